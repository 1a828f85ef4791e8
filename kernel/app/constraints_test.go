package app_test

import (
	"strings"
	"testing"

	"github.com/tick-kernel/tick/kernel/app"
	"github.com/tick-kernel/tick/kernel/session"
)

// TestExpConstraintsImport: golang.org/x/exp/constraints is importable in
// a kernel whose module importer is live, without fetching the module
// (its newest version needs a newer golang.org/x/sync than tick's, and a
// compiled package could not carry its constraints anyway), and a union
// of its constraints compiles and runs as Go runs it (3.5 6, c).
func TestExpConstraintsImport(t *testing.T) {
	t.Setenv("TICK_CACHE_DIR", t.TempDir())
	rn, err := app.New(session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := &run{t: t, r: rn}
	out := r.ok("import (\"fmt\"; \"golang.org/x/exp/constraints\")\ntype Number interface{ constraints.Float | constraints.Integer }\n" +
		"func Sum[T Number](xs []T) T {\n\tvar s T\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s\n}\nfmt.Println(Sum([]float64{1.5, 2}), Sum([]int{1, 2, 3}))")
	if out != "3.5 6\n" || strings.Contains(out, "imported") {
		t.Errorf("union of x/exp/constraints: %q, want %q (nothing fetched or compiled)", out, "3.5 6\n")
	}
	if out := r.ok("func Biggest[T constraints.Ordered](a, b T) T {\n\tif a > b {\n\t\treturn a\n\t}\n\treturn b\n}\nfmt.Println(Biggest(\"c\", \"b\"))"); out != "c\n" {
		t.Errorf("constraints.Ordered: %q", out)
	}
}
