package kernel

import (
	"reflect"
	"testing"
)

func TestHistoryQuery(t *testing.T) {
	var h History
	for i, in := range []string{"x := 1", "6 * 7", "a/b", "6 * 7", "fmt.Println(x)\nx"} {
		h.Add(i+1, in, "")
	}
	lines := func(es []HistoryEntry) []int {
		var out []int
		for _, e := range es {
			out = append(out, e.Line)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		q    HistoryQuery
		want []int
	}{
		{"tail 2", HistoryQuery{HistAccessType: "tail", N: 2}, []int{4, 5}},
		{"tail all", HistoryQuery{HistAccessType: "tail", N: 100}, []int{1, 2, 3, 4, 5}},
		{"range current", HistoryQuery{HistAccessType: "range", Session: 0, Start: 2, Stop: 4}, []int{2, 3}},
		{"range by number", HistoryQuery{HistAccessType: "range", Session: currentSession, Start: 4}, []int{4, 5}},
		{"range other session", HistoryQuery{HistAccessType: "range", Session: 7, Start: 1, Stop: 3}, nil},
		{"search", HistoryQuery{HistAccessType: "search", Pattern: "6 * ?"}, []int{2, 4}},
		{"search unique keeps latest", HistoryQuery{HistAccessType: "search", Pattern: "6*", Unique: true}, []int{4}},
		{"search n", HistoryQuery{HistAccessType: "search", Pattern: "*", N: 2}, []int{4, 5}},
		{"star crosses slash and newline", HistoryQuery{HistAccessType: "search", Pattern: "*x"}, []int{5}},
		{"slash literal", HistoryQuery{HistAccessType: "search", Pattern: "a/?"}, []int{3}},
		{"unknown type", HistoryQuery{HistAccessType: "nope"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := lines(h.Query(tc.q)); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("lines = %v, want %v", got, tc.want)
			}
		})
	}
}
