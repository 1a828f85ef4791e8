package session

import (
	"context"
	"testing"

	"github.com/tick-kernel/tick/kernel/kerneltest/sinktest"
)

func newSession(t testing.TB) *Session {
	t.Helper()
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// exec runs code as the next cell of s, recording what it shows.
func exec(t testing.TB, s *Session, count int, code string) (Result, *sinktest.Recorder) {
	t.Helper()
	r := &sinktest.Recorder{}
	res := s.Execute(context.Background(), Cell{Code: code, Count: count}, r)
	return res, r
}
