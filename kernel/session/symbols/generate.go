package symbols

// The symbol tables of tick's packages that cells may import. To export
// another package, add its import path to the list below and run
// `go generate ./kernel/session/symbols`.
//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract tick/display tick/runtime/tensor tick/timing
