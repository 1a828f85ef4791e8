package compat

import (
	"context"
	"go/parser"
	"go/token"
	"slices"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/tick-kernel/tick/kernel/gocompile"
	"github.com/tick-kernel/tick/kernel/session/symbols/std"
)

// warmCompiled builds, before any program runs, the standard packages the
// programs import that are not in tick's interpreter tables (std.Compiled:
// net/http, crypto/ecdsa, ...). A cell's first import of one compiles it as
// a plugin, which on a cold cache and a loaded machine takes longer than a
// program may run (programTimeout); built here, the workers take them from
// the plugin cache, and the cost is logged once, apart from the programs'.
func warmCompiled(t *testing.T, progs []program) {
	need := map[string]bool{}
	for _, p := range progs {
		f, err := parser.ParseFile(token.NewFileSet(), p.path, p.src, parser.ImportsOnly)
		if err != nil {
			continue // go run built it; the programs' own run will say
		}
		for _, spec := range f.Imports {
			if path, err := strconv.Unquote(spec.Path.Value); err == nil && slices.Contains(std.Compiled, path) {
				need[path] = true
			}
		}
	}
	paths := make([]string, 0, len(need))
	for p := range need {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	b := gocompile.New(gocompile.Config{})
	start := time.Now()
	built := 0
	for _, path := range paths {
		pkg, _, err := b.Import(context.Background(), path, nil)
		if err != nil {
			t.Logf("compiling %s before the programs: %v (the programs importing it will show the error)", path, err)
			continue
		}
		how := "built"
		if pkg.Cached {
			how = "from the plugin cache"
		} else {
			built++
		}
		t.Logf("first import of %s (not in tick's interpreter tables): %s in %.1f s", path, how, pkg.Took.Seconds())
	}
	if len(paths) > 0 {
		t.Logf("the %d standard packages the programs import from outside the interpreter's tables: %d compiled as plugins, the rest cached, in %.0f s", len(paths), built, time.Since(start).Seconds())
	}
}
