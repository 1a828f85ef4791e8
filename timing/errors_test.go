package timing

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// Each layer adds its context once: the package prefix appears at the
// start only, and the target's own error stays reachable.
func TestErrorPrefixOnce(t *testing.T) {
	boom := errors.New("device lost")
	call := func(int) error { return nil }
	o := Options{Clock: &fakeClock{res: 1, read: 20}, Loops: 1, Warmup: 1, Repeats: 5}
	// Fail the first sync after three measured samples: it belongs to the
	// fourth.
	failing := false
	failLate := func() error {
		if failing {
			return boom
		}
		return nil
	}
	o.Progress = func(p Progress) { failing = failing || p.Phase == PhaseMeasured && p.Done == 3 }
	tests := []struct {
		name string
		run  func() error
		want string
	}{
		{"sync in a sample", func() error {
			_, err := Measure(context.Background(), Target{Call: call, Sync: failLate}, o)
			return err
		}, "timing: sample 4: sync: device lost"},
		{"check in the first statement", func() error {
			_, _, err := Interleave(context.Background(), Target{Call: call, Check: func() (bool, string, error) { return false, "x is 2", nil }}, Target{Call: call}, o)
			return err
		}, "timing: first statement: --check is false after the cold call: x is 2"},
		{"no call in the floor", func() error {
			_, err := Measure(context.Background(), Target{Call: call}, Options{Clock: o.Clock, Floor: &Target{}})
			return err
		}, "timing: floor: target has no Call function"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run()
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, tc.want) || strings.Count(msg, "timing:") != 1 {
				t.Errorf("error %q: want it to start %q and say timing: once", msg, tc.want)
			}
		})
	}
	failing = false
	_, err := Measure(context.Background(), Target{Call: call, Sync: failLate}, o)
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), ": sync: device lost") {
		t.Errorf("sync error %v: want the target's error wrapped after sync:", err)
	}
}

// A re-capture during sampling means the statement builds a new JIT or new
// kernels on every call (a JIT input that changes shape fails at the call,
// before sampling): the message says what was seen and what to do.
func TestRecaptureErrorMessage(t *testing.T) {
	tests := []struct {
		err  *RecaptureError
		want []string
	}{
		{&RecaptureError{Sample: 3, Captures: 2, Compiles: 5}, []string{
			"timing: JIT captures and kernel compiles increased during measured sample 3 (+2 captures, +5 compiles)",
			"builds a new JIT or new kernels on every call", "tensor.JIT(...) inside the timed statement",
			"create the JIT once outside the timed statement", "keep input shapes fixed", "%time"}},
		{&RecaptureError{Sample: 1, Compiles: 1}, []string{"during measured sample 1 (+0 captures, +1 compiles)", "%time"}},
	}
	for _, tc := range tests {
		msg := tc.err.Error()
		for _, w := range tc.want {
			if !strings.Contains(msg, w) {
				t.Errorf("message %q: want it to contain %q", msg, w)
			}
		}
		if strings.Contains(msg, "dtype or device") {
			t.Errorf("message %q blames changed inputs, which fail at the call before sampling", msg)
		}
	}
}
