package session

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tick-kernel/tick/display"
)

// recorder is a Sink that records everything, for tests.
type recorder struct {
	mu      sync.Mutex
	streams []struct{ name, text string }
	times   []time.Time
	publish []display.Data
	updates []display.Data
	clears  []bool
}

func (r *recorder) Stream(name, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.streams = append(r.streams, struct{ name, text string }{name, text})
	r.times = append(r.times, time.Now())
}
func (r *recorder) Publish(d display.Data) {
	r.mu.Lock()
	r.publish = append(r.publish, d)
	r.mu.Unlock()
}
func (r *recorder) Update(d display.Data) {
	r.mu.Lock()
	r.updates = append(r.updates, d)
	r.mu.Unlock()
}
func (r *recorder) Clear(wait bool) { r.mu.Lock(); r.clears = append(r.clears, wait); r.mu.Unlock() }

// text returns all text written to the named stream.
func (r *recorder) text(name string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	for _, s := range r.streams {
		if s.name == name {
			b.WriteString(s.text)
		}
	}
	return b.String()
}

func newSession(t testing.TB) *Session {
	t.Helper()
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// exec runs code as the next cell of s.
func exec(t testing.TB, s *Session, count int, code string) (Result, *recorder) {
	t.Helper()
	r := &recorder{}
	res := s.Execute(context.Background(), Cell{Code: code, Count: count}, r)
	return res, r
}
