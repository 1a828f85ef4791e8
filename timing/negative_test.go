package timing

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"
)

// negativeTime matches a negative duration as text prints it ("-8.44 µs",
// "−537 ns").
var negativeTime = regexp.MustCompile(`[-−]\s?[0-9][0-9.,]*\s?(ns|µs|ms|s)\b`)

// negativeJSON lists the JSON fields under key paths ending in "_ns" (or
// holding per-loop statistics) whose value is below 0.
func negativeJSON(path string, v any, out *[]string) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			negativeJSON(path+"."+k, x, out)
		}
	case []any:
		for _, x := range v {
			negativeJSON(path+"[]", x, out)
		}
	case float64:
		if v < 0 && (strings.HasSuffix(path, "_ns") || strings.Contains(path, ".stats.")) {
			*out = append(*out, path)
		}
	}
}

// TestNoNegativeTimes: a statement that costs the same as the harness's
// floor (the empty statement), with noise, has samples below the floor.
// They count as 0: no statistic, no text and no JSON field is a negative
// time, and the text says how many samples were clamped.
func TestNoNegativeTimes(t *testing.T) {
	c := &fakeClock{res: 1, read: 20}
	rng := rand.New(rand.NewPCG(3, 4))
	stmt, floor := newWorkload(time.Microsecond), newWorkload(time.Microsecond)
	stmt.c, stmt.noise, stmt.rng = c, 0.6, rng
	floor.c, floor.noise, floor.rng = c, 0.6, rng
	ft := floor.target()
	r, err := Measure(context.Background(), stmt.target(), Options{Clock: c, Budget: 200 * time.Millisecond, Floor: &ft, Loops: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.FloorClamped == 0 {
		t.Fatalf("no sample fell below the floor (floor %v, min %v): the test needs some", r.Floor, r.Stats.Min)
	}
	st := r.Stats
	for name, v := range map[string]float64{"min": st.Min, "p5": st.P5, "median": st.Median, "ci low": st.CILo, "mean": st.Mean} {
		if v < 0 {
			t.Errorf("%s %v is negative", name, v)
		}
	}
	text := r.Text(3)
	if m := negativeTime.FindString(text); m != "" {
		t.Errorf("text shows a negative time %q:\n%s", m, text)
	}
	if !strings.Contains(flat(text), "below the floor count as 0") {
		t.Errorf("text does not say samples were clamped:\n%s", text)
	}
	b, _ := json.Marshal(r)
	var v any
	_ = json.Unmarshal(b, &v)
	var neg []string
	negativeJSON("", v, &neg)
	if len(neg) > 0 {
		t.Errorf("negative times in JSON fields %v", neg)
	}
}
