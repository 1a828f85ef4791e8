package tensor

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tick-kernel/tick/runtime/native"
)

// TestFactsOfAnEagerStatement: the reads are the statement's inputs (not
// what it computed itself), on the device they live on, with their shapes.
func TestFactsOfAnEagerStatement(t *testing.T) {
	for _, dev := range append(testDevices(t), "NULL") {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			x := RandSeed(1, 4, 8).Realize()
			w := Ones(8).Realize()
			_ = SynchronizeAll()
			stop := RecordFacts()
			y := x.Mul(w).Add(1).Realize().Sum(1).Realize()
			_ = y.Float32s() // copying out its own result is not an input
			f := stop()
			want := []string{fmt.Sprintf("[4 8] float32 on %s", dev), fmt.Sprintf("[8] float32 on %s", dev)}
			var got []string
			for _, r := range f.Reads {
				got = append(got, r.String())
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("reads %q, want %q", got, want)
			}
			if !reflect.DeepEqual(f.Devices, []string{dev}) {
				t.Errorf("devices %q, want [%s]", f.Devices, dev)
			}
			if len(f.Kernels) != 2 {
				t.Fatalf("kernel lookups %+v, want 2", f.Kernels)
			}
			// The same statement again: both kernels come from memory.
			stop = RecordFacts()
			x.Mul(w).Add(1).Realize().Sum(1).Realize()
			f = stop()
			for _, k := range f.Kernels {
				if k.Cache != CacheMemory || k.Device != dev {
					t.Errorf("second run: %+v, want a memory hit on %s", k, dev)
				}
			}
		})
	}
}

// TestFactsOfJITCalls: each call's number, phase and signature; a replay
// reads the JIT's inputs and its outputs are not counted as reads.
func TestFactsOfJITCalls(t *testing.T) {
	onDevice(t, "GO")
	x := Arange(16).Realize()
	j := JIT(func(a ...*Tensor) *Tensor { return a[0].Mul(2).Realize() })
	var phases []string
	for i := 1; i <= 4; i++ {
		stop := RecordFacts()
		y := j.Call(x)
		_ = y.Float32s()
		f := stop()
		if len(f.JITCalls) != 1 || f.JITCalls[0].Call != i {
			t.Fatalf("call %d: JIT calls %+v", i, f.JITCalls)
		}
		c := f.JITCalls[0]
		phases = append(phases, c.Phase)
		if !reflect.DeepEqual(c.Inputs, []string{"[16] float32 on GO"}) {
			t.Errorf("call %d: inputs %q", i, c.Inputs)
		}
		if len(f.Reads) != 1 || f.Reads[0].String() != "[16] float32 on GO" {
			t.Errorf("call %d (%s): reads %v, want only the input", i, c.Phase, f.Reads)
		}
		if !reflect.DeepEqual(f.Devices, []string{"GO"}) {
			t.Errorf("call %d: devices %q", i, f.Devices)
		}
	}
	if want := []string{"cold", "capture", "replay", "replay"}; !reflect.DeepEqual(phases, want) {
		t.Errorf("phases %q, want %q", phases, want)
	}
}

func TestFactsOneRecordingAtATime(t *testing.T) {
	onDevice(t, "GO")
	stop := RecordFacts()
	inner := RecordFacts()
	Ones(4).Add(1).Realize()
	if f := inner(); len(f.Devices) != 0 {
		t.Errorf("a nested recording saw %+v, want nothing", f)
	}
	if f := stop(); len(f.Devices) != 1 {
		t.Errorf("the outer recording saw %+v", f)
	}
	if facts.on.Load() {
		t.Error("recording still on after stop")
	}
}

func TestDeviceInfo(t *testing.T) {
	null, err := DescribeDevice("null")
	if err != nil {
		t.Fatal(err)
	}
	if null.Name != "NULL" || null.Computes || !strings.Contains(null.String(), "runs nothing") {
		t.Errorf("NULL: %+v %q", null, null)
	}
	g, _ := DescribeDevice("GO")
	if !g.Computes || !strings.HasPrefix(g.Backend, "Go closures (matmul: ") || g.Compiler != "" {
		t.Errorf("GO: %+v", g)
	}
	if _, err := DescribeDevice("nope"); err == nil {
		t.Error("an unknown device was described")
	}
	c, err := DescribeDevice("CPU")
	if err != nil {
		t.Skipf("no CPU device here: %v", err)
	}
	if !strings.HasPrefix(c.Backend, "C (") || c.Compiler == "" || c.CompilerVersion == "" || len(c.Flags) < 3 {
		t.Errorf("CPU: %+v", c)
	}
	comp, _ := native.Default()
	if isa := comp.VectorISA(); isa.Bytes == 0 || c.Vector != isa.String() || !strings.Contains(c.Backend, isa.String()) || !strings.Contains(c.String(), "-byte vectors") {
		t.Errorf("CPU: the vector ISA %v is not in the description %+v", isa, c)
	}
}

// TestSpinIsDeviceWork: the device is busy for the time asked, and
// Synchronize waits for it.
func TestSpinIsDeviceWork(t *testing.T) {
	d := Device("GO")
	_ = d.Synchronize()
	before := Counters()
	t0 := time.Now()
	for range 5 {
		d.Spin(2 * time.Millisecond)
	}
	// Whether Spin returned before its work ended is an order a loaded
	// machine can reverse (a descheduled host finds the spins done): it is
	// not asserted here. TestProfileDoesNotSynchronize shows that
	// enqueueing does not wait for the device, by a gate.
	if err := d.Synchronize(); err != nil {
		t.Fatal(err)
	}
	all := time.Since(t0)
	if d.Pending() != 0 {
		t.Errorf("%d items pending after Synchronize", d.Pending())
	}
	if all < 10*time.Millisecond {
		t.Errorf("5 spins of 2 ms finished after %v", all)
	}
	after := Counters()
	if n := after.KernelsLaunched - before.KernelsLaunched; n != 5 {
		t.Errorf("%d launches counted, want 5", n)
	}
	if dev := after.DeviceExec - before.DeviceExec; dev < 10*time.Millisecond {
		t.Errorf("device time %v, want ≥ 10 ms", dev)
	}
}

// TestSummarizeDebug: inside a summary, per-launch lines are counted and
// written once per kernel at the end.
func TestSummarizeDebug(t *testing.T) {
	onDevice(t, "GO")
	var buf bytes.Buffer
	SetDebugWriter(&buf)
	SetDebug(2)
	t.Cleanup(func() { SetDebug(0); SetDebugWriter(nil) })
	x := Ones(64).Realize()
	x.Add(1).Realize() // compile outside the summary
	_ = SynchronizeAll()
	buf.Reset()
	end := SummarizeDebug("%timeit")
	for range 50 {
		x.Add(1).Realize()
	}
	if strings.Count(buf.String(), "E_64") != 0 {
		t.Errorf("per-launch lines were written during the summary:\n%s", buf.String())
	}
	end()
	out := buf.String()
	if !strings.Contains(out, "DEBUG=2 during %timeit") || !strings.Contains(out, "50 launches") || strings.Count(out, "E_64") != 2 {
		t.Errorf("summary:\n%s", out)
	}
	if !strings.Contains(out, "× 50: schedule: 1 kernel(s) on GO: E_64") {
		t.Errorf("schedule lines not counted:\n%s", out)
	}
	buf.Reset()
	x.Add(1).Realize()
	if !strings.Contains(buf.String(), "E_64") {
		t.Errorf("after the summary, lines are written again: %q", buf.String())
	}
}
