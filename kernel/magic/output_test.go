package magic

import (
	"strings"
	"testing"
	"time"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/timing"
)

// The progress line appears only after progressAfter, updates at most
// every progressEvery under one display ID, and the result replaces it.
func TestProgressThrottle(t *testing.T) {
	k := &sink{}
	p := newProgress(k, "timeit")
	now := p.start
	p.now = func() time.Time { return now }
	steps := []struct {
		at        time.Duration
		pubs, ups int
	}{
		{100 * time.Millisecond, 0, 0}, // too early: nothing
		{600 * time.Millisecond, 1, 0}, // first line published
		{700 * time.Millisecond, 1, 0}, // throttled
		{900 * time.Millisecond, 1, 1}, // updated in place
	}
	for _, s := range steps {
		now = p.start.Add(s.at)
		p.update(timing.Progress{Phase: timing.PhaseMeasured, Done: 3, Median: 1500})
		if len(k.pub) != s.pubs || len(k.upd) != s.ups {
			t.Fatalf("at %v: %d publishes, %d updates; want %d, %d", s.at, len(k.pub), len(k.upd), s.pubs, s.ups)
		}
	}
	if text := k.pub[0].Bundle["text/plain"].(string); !strings.Contains(text, "measured 3") || !strings.Contains(text, "1.50 µs") {
		t.Errorf("progress line %q", text)
	}
	p.show(&display.Data{Bundle: display.Bundle{"text/plain": "result"}})
	last := k.upd[len(k.upd)-1]
	if len(k.pub) != 1 || last.ID != k.pub[0].ID || last.Bundle["text/plain"] != "result" {
		t.Errorf("the result did not replace the progress line: %+v", last)
	}
}

// Without a progress line, the result is published with a fresh ID.
func TestShowWithoutProgress(t *testing.T) {
	k := &sink{}
	newProgress(k, "time").show(&display.Data{Bundle: display.Bundle{"text/plain": "r"}})
	if len(k.pub) != 1 || len(k.upd) != 0 || k.pub[0].ID == "" {
		t.Errorf("publishes %+v updates %+v", k.pub, k.upd)
	}
}
