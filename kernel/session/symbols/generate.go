package symbols

// The symbol tables of tick's packages that cells may import. To export
// another package, add its import path to the list below and run
// `go generate ./kernel/session/symbols`.
//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract github.com/tick-kernel/tick/display github.com/tick-kernel/tick/profile github.com/tick-kernel/tick/runtime/data github.com/tick-kernel/tick/runtime/nn github.com/tick-kernel/tick/runtime/optim github.com/tick-kernel/tick/runtime/tensor github.com/tick-kernel/tick/timing
