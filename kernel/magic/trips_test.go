package magic

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/timing"
)

// tripCounter is an engine that counts what the %timeit walk asks of it
// beside compiling: reading variables (Values) and evaluating (Eval).
type tripCounter struct {
	Evaluator // nil: any other call fails the test with a panic
	vars      map[string]any
	values    int
	evals     int
}

func (c *tripCounter) Values(names []string) []reflect.Value {
	c.values++
	out := make([]reflect.Value, len(names))
	for i, n := range names {
		if v, ok := c.vars[n]; ok {
			out[i] = reflect.ValueOf(v)
		}
	}
	return out
}

func (c *tripCounter) Eval(string) (reflect.Value, error) {
	c.evals++
	return reflect.Value{}, nil
}

// TestInputSnapshotTrips: the inputs of a statement are read in one trip
// to the engine before the measurement and one after, whatever the number
// of identifiers the statement names (it was one Eval per identifier, each
// way); a changed input is still found.
func TestInputSnapshotTrips(t *testing.T) {
	for _, stmt := range []string{
		"sort.Ints(a)",
		"f(a, b, c, d, e, g, h, k, m)",
		"x := a[0] + b[1] + c[2]; y = d[3] * e[4]",
	} {
		a := []int{3, 1, 2}
		c := &tripCounter{vars: map[string]any{"a": a, "b": []float64{1}, "c": []int8{1}, "d": []int{4, 5, 6, 7}, "e": [5]int{}}}
		snap := snapshotInputs(c, stmt)
		a[0] = 0 // what sort.Ints(a) would do to a
		w := snap.warning(&timing.Result{Loops: 10}, false)
		if c.values != 2 || c.evals != 0 {
			t.Errorf("%s: %d Values and %d Eval trips, want 2 and 0", stmt, c.values, c.evals)
		}
		if w == nil || !strings.Contains(w.Message, "a differed") {
			t.Errorf("%s: warning %v, want one that a changed", stmt, w)
		}
	}
}
