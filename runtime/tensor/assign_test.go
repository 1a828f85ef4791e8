package tensor

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestAssignWritesInPlace(t *testing.T) {
	for _, dev := range testDevices(t) {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			p := FromFloat32s([]float32{1, 2, 3, 4}, 2, 2)
			buf := p.l.buf
			p.Assign(p.Mul(2).Add(1)).Realize()
			if p.l.kind != kBuffer || p.l.buf != buf {
				t.Fatal("Assign did not write into the tensor's own buffer")
			}
			if got := p.Float32s(); !slices.Equal(got, []float32{3, 5, 7, 9}) {
				t.Fatalf("after Assign: %v", got)
			}
			p.Assign(0.5).Realize() // a Go number, broadcast
			if got := p.Float32s(); !slices.Equal(got, []float32{0.5, 0.5, 0.5, 0.5}) {
				t.Fatalf("after Assign(0.5): %v", got)
			}
			row := FromFloat64s([]float64{1, 2})
			p.Assign(row) // broadcast and cast; chained before realizing
			p.Assign(p.Add(p))
			if got := p.Float32s(); !slices.Equal(got, []float32{2, 4, 2, 4}) || p.l.buf != buf {
				t.Fatalf("chained Assign: %v", got)
			}
		})
	}
}

func TestAssignReadingItselfThroughAView(t *testing.T) {
	// p.Assign(p.T()) must not read elements it has already written.
	for _, dev := range testDevices(t) {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			v := make([]float32, 64*64)
			for i := range v {
				v[i] = float32(i)
			}
			p := FromFloat32s(v, 64, 64)
			p.Assign(p.T().Add(p.Flip(1))).Realize()
			got := p.Float32s()
			for i := 0; i < 64; i++ {
				for j := 0; j < 64; j++ {
					if want := v[j*64+i] + v[i*64+63-j]; got[i*64+j] != want {
						t.Fatalf("[%d %d] = %v, want %v", i, j, got[i*64+j], want)
					}
				}
			}
		})
	}
}

func TestAssignErrors(t *testing.T) {
	cases := []struct {
		name string
		f    func()
		want string
	}{
		{"unrealized", func() { Ones(2).Add(1).Assign(3) }, "not a realized buffer"},
		{"view", func() { FromFloat32s([]float32{1, 2}).Reshape(2, 1).Assign(3) }, "not a realized buffer"},
		{"shape", func() { FromFloat32s([]float32{1, 2}).Assign(FromFloat32s([]float32{1, 2, 3})) }, "broadcast"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				r := recover()
				var oe *OpError
				if err, _ := r.(error); !errors.As(err, &oe) || !strings.Contains(oe.Error(), c.want) {
					t.Fatalf("panic %v, want an *OpError saying %q", r, c.want)
				}
			}()
			c.f()
		})
	}
}

func TestAssignIsNotTakenByTheEagerCache(t *testing.T) {
	// The schedule cache (eager.go) allocates a new output: an assignment,
	// however often its graph is seen, must still write the target.
	a := FromFloat32s([]float32{1, 2, 3})
	p := FromFloat32s([]float32{0, 0, 0})
	buf := p.l.buf
	for i := range 4 {
		p.Assign(a.Add(p)).Realize()
		want := []float32{float32(i + 1), float32(2 * (i + 1)), float32(3 * (i + 1))}
		if p.l.buf != buf || !slices.Equal(p.Float32s(), want) {
			t.Fatalf("call %d: got %v, want %v (same buffer: %v)", i, p.Float32s(), want, p.l.buf == buf)
		}
	}
}
