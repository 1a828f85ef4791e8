package kernel

import "context"

// A cell's context says which client asked for it, so a runner can tell
// the front end that started the kernel from one that attached later
// (cmd/tick interrupts a jupyter console's own cell when the console has
// gone back to its prompt, never another client's).

type originKey struct{}

// origin is what the context of a running cell carries.
type origin struct {
	session string // the request's header.session
	first   bool   // the session is the first one that spoke on shell
}

// withOrigin returns ctx carrying the cell's requester.
func withOrigin(ctx context.Context, session, first string) context.Context {
	return context.WithValue(ctx, originKey{}, origin{session: session, first: session != "" && session == first})
}

// FromFirstClient reports whether the cell running under ctx was requested
// by the client session that sent the kernel its first shell request: for a
// kernel a front end started (jupyter console sends kernel_info as soon as
// the kernel is up), that front end. False for cells of clients that
// attached later, for user expressions, and outside a cell.
func FromFirstClient(ctx context.Context) bool {
	o, ok := ctx.Value(originKey{}).(origin)
	return ok && o.first
}
