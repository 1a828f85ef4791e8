package timing

import "fmt"

// Errors of this package say "timing: " once, however many layers add
// context: each layer wraps with wrapf, which renders the error below it
// without its own prefix when that error also comes from this package.
// So a failed sync in the third sample reads
// "timing: sample 3: sync: <the target's error>".

// detailer is an error of this package that can give its message without
// the "timing: " prefix.
type detailer interface{ detail() string }

// detail is err's message without this package's prefix.
func detail(err error) string {
	if d, ok := err.(detailer); ok {
		return d.detail()
	}
	return err.Error()
}

// contextError is an error with the phase or statement it happened in.
type contextError struct {
	context string
	err     error
}

// wrapf wraps err with context formatted from format and args.
func wrapf(err error, format string, args ...any) error {
	return &contextError{context: fmt.Sprintf(format, args...), err: err}
}

func (e *contextError) Error() string  { return "timing: " + e.detail() }
func (e *contextError) detail() string { return e.context + ": " + detail(e.err) }
func (e *contextError) Unwrap() error  { return e.err }

// sentinel is a comparable error value of this package (see ErrNoCall).
type sentinel string

func (s sentinel) Error() string  { return "timing: " + string(s) }
func (s sentinel) detail() string { return string(s) }
