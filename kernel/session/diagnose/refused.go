package diagnose

import (
	"fmt"
	"go/build"
	"strings"
)

// refusedStd says why a cell cannot import a package of Go's standard
// library that tick's interpreter does not provide, and what to write
// instead; "" when p is not one (a module, a misspelling).
func refusedStd(at, p string) string {
	lead := fmt.Sprintf("%s: cannot import %q: ", at, p)
	switch p {
	case "unsafe":
		return lead + "tick's interpreter does not provide package unsafe (neither does `yaegi run` without -unsafe): " +
			"its pointer conversions read and write the kernel process's memory unchecked, and a wrong one crashes the " +
			"kernel with every variable in it. For the bits of a number use math.Float64bits / math.Float32frombits or " +
			"encoding/binary; for sizes, reflect.TypeOf(x).Size(). Code that needs unsafe can go in a %%go cell (compiled by " +
			"the Go toolchain, docs/compiled-go.md)"
	case "os/exec", "syscall":
		return lead + "it is in Go's standard library, but tick's interpreter does not provide it (as yaegi's restricted " +
			"standard library does not): cells do not start processes or make system calls themselves. Run a command " +
			"with a ! line (!ls -l, its output in the cell, an interrupt stops it), or put the code in a %%go cell " +
			"(compiled by the Go toolchain, docs/compiled-go.md)"
	case "plugin", "runtime/cgo", "embed":
		return lead + "it is in Go's standard library, but it works only in a program the Go toolchain builds, not in " +
			"interpreted cells; put the code in a %%go cell (compiled, docs/compiled-go.md)"
	}
	if strings.Contains(strings.SplitN(p, "/", 2)[0], ".") || strings.HasPrefix(p, "tick/") {
		return ""
	}
	if pkg, err := build.Default.Import(p, "", build.FindOnly); err != nil || !pkg.Goroot {
		return ""
	}
	return lead + "it is in Go's standard library, but not in tick's interpreter, whose tables hold the packages of " +
		"Go 1.22 and the ones tick builds in (newer packages such as iter, unique, weak, crypto/sha3 are not). " +
		"Use it in a %%go cell (compiled by the Go toolchain tick was built with, docs/compiled-go.md) and call " +
		"the functions it exports from later cells"
}
