package tensor

import (
	"errors"
	"io"
	"math"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// needCL skips when no OpenCL device is available, saying why (what to
// install).
func needCL(t *testing.T) *Dev {
	t.Helper()
	d, err := LookupDevice("CL")
	if err != nil {
		t.Skipf("no OpenCL device: %v", err)
	}
	return d
}

// Transfers are real operations: To("CL") and back, counted with their
// bytes, timed on the host and by the device's clock (at Synchronize),
// recorded in the facts with both, and the values survive the round trip.
func TestCLTransfersAreCountedAndTimed(t *testing.T) {
	d := needCL(t)
	onDevice(t, "GO")
	x := Arange(256).Realize()
	_ = SynchronizeAll()
	ResetCounters()
	stop := RecordFacts()
	y := x.To("CL")
	if y.Device() != "CL" {
		t.Fatalf("To(CL) is on %s", y.Device())
	}
	z := y.Mul(2).To("CPU")
	got := z.Float32s()
	if err := d.Synchronize(); err != nil {
		t.Fatal(err)
	}
	f := stop()
	for i, v := range got {
		if v != float32(2*i) {
			t.Fatalf("round trip [%d] = %v, want %d", i, v, 2*i)
		}
	}
	c := Counters()
	if c.Transfers != 2 || c.TransferBytes != 2*256*4 {
		t.Errorf("counters: %d transfers, %d bytes; want 2 of 1024 bytes (GO→CL, CL→CPU)", c.Transfers, c.TransferBytes)
	}
	if c.Transfer <= 0 || c.TransferDevice <= 0 || c.DeviceExec <= 0 {
		t.Errorf("counters: transfer host %v, device %v, kernels by the device clock %v: want all > 0", c.Transfer, c.TransferDevice, c.DeviceExec)
	}
	// The device-clock counters say what the clock timed: the one kernel
	// (all of DeviceExec: no host device ran one) and both copies, each
	// made on CL's queue; the host's share of the copies is theirs alone.
	if c.KernelsClocked != 1 || c.DeviceClock != c.DeviceExec || c.TransfersClocked != 2 || c.TransferHost <= 0 || c.TransferHost > c.Transfer {
		t.Errorf("counters: %d kernels in %v by the device clock (device exec %v), %d copies clocked, transfers' host time %v of the phase's %v",
			c.KernelsClocked, c.DeviceClock, c.DeviceExec, c.TransfersClocked, c.TransferHost, c.Transfer)
	}
	dirs := map[string]TransferFact{}
	for _, tf := range f.Transfers {
		dirs[tf.From+"→"+tf.To] = tf
	}
	for _, dir := range []string{"GO→CL", "CL→CPU"} {
		if tf := dirs[dir]; tf.Count != 1 || tf.Bytes != 1024 || tf.Host <= 0 || tf.Device <= 0 {
			t.Errorf("fact for %s: %+v (all facts %+v)", dir, tf, f.Transfers)
		}
	}
	if len(f.DeviceTimes) != 1 || f.DeviceTimes[0].Device != "CL" || f.DeviceTimes[0].Launches != 1 || f.DeviceTimes[0].Time <= 0 {
		t.Errorf("device times: %+v, want the one CL kernel with its time", f.DeviceTimes)
	}
}

// A JIT captures the transfers inside its function like kernels and
// replays them: the replay copies the new input in, computes on CL and
// copies the result out, and counts two transfers per call.
func TestCLJITCapturesTransfers(t *testing.T) {
	needCL(t)
	onDevice(t, "CPU")
	step := JIT(func(in ...*Tensor) *Tensor {
		return in[0].To("CL").Mul(2).Add(1).To("CPU").Realize()
	})
	for call := range 5 {
		x := FromFloat32s([]float32{float32(call), 1, 2, 3}, 4)
		ResetCounters()
		y := step.Call(x)
		got := y.Float32s()
		for i, v := range []float32{float32(call), 1, 2, 3} {
			if got[i] != 2*v+1 {
				t.Fatalf("call %d: [%d] = %v, want %v (state %s)", call+1, i, got[i], 2*v+1, step)
			}
		}
		if c := Counters(); c.Transfers != 2 {
			t.Errorf("call %d (%s) made %d transfers, want 2", call+1, step.State().Phase, c.Transfers)
		}
		if call >= 2 && Counters().JITReplays != 1 {
			t.Errorf("call %d was not a replay: %s", call+1, step)
		}
	}
	ks := strings.Join(step.State().Kernels, " ")
	if !strings.Contains(ks, "copy CPU→CL") || !strings.Contains(ks, "copy CL→CPU") {
		t.Errorf("captured %q, want both copies among the kernels", ks)
	}
	if p := step.Plan(); !strings.Contains(planKinds(p), "copy") {
		t.Errorf("the JIT's plan has no copy node: %s", planKinds(p))
	}
}

// A replayed JIT's captured copy is the transfer phase's time, not also
// the launch phase's: the phases the call's goroutine ran are disjoint,
// so their sum stays within the call's wall time (%time's table adds them
// up; a copy counted twice read "launch 96%, transfer 78%").
func TestCLJITReplayCopyIsNotLaunchTime(t *testing.T) {
	needCL(t)
	onDevice(t, "GO")
	x := Arange(1 << 21).Realize()
	step := JIT(func(in ...*Tensor) *Tensor { return in[0].To("CL").Mul(2).Add(1).Realize() })
	for range 3 {
		step.Call(x)
	}
	if err := SynchronizeAll(); err != nil {
		t.Fatal(err)
	}
	for try := range 3 {
		ResetCounters()
		t0 := time.Now()
		step.Call(x)
		wall := time.Since(t0)
		c := Counters()
		if c.JITReplays != 1 || c.Transfers != 1 {
			t.Fatalf("want one replay with one copy, got %d replays, %d copies", c.JITReplays, c.Transfers)
		}
		if c.Launch+c.Transfer <= wall {
			return
		}
		if try == 2 {
			t.Errorf("a replay with a captured copy: launch %v + transfer %v > the call's wall time %v: the copy is counted in both",
				c.Launch, c.Transfer, wall)
		}
	}
}

func planKinds(p *Plan) string {
	var ks []string
	for _, n := range p.Nodes {
		ks = append(ks, n.Kind)
	}
	return strings.Join(ks, " ")
}

// JIT capture and replay of kernels on CL: replays equal the eager results
// and allocate nothing (TestJITReplayAllocs covers CL too), and a replay's
// kernels are timed by the device's clock.
func TestCLJITReplayIsTimedByTheDeviceClock(t *testing.T) {
	d := needCL(t)
	onDevice(t, "CL")
	x := Arange(1000).Realize()
	step := JIT(tenKernelStepT)
	want := tenKernelStepT(x).Float32s()
	for range 3 {
		step.Call(x)
	}
	_ = d.Synchronize()
	ResetCounters()
	got := step.Call(x).Float32s()
	if err := d.Synchronize(); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("replay [%d] = %v, eager %v", i, got[i], want[i])
		}
	}
	if c := Counters(); c.KernelsLaunched != 10 || c.DeviceExec <= 0 {
		t.Errorf("a replay launched %d kernels with %v of device time; want 10 and > 0", c.KernelsLaunched, c.DeviceExec)
	}
}

// DEBUG=2 on CL prints each kernel's time by the device's clock and each
// copy's bytes, host and device times.
func TestCLDebugPrintsDeviceTimes(t *testing.T) {
	needCL(t)
	onDevice(t, "CL")
	var out strings.Builder
	SetDebugWriter(&out)
	SetDebug(2)
	t.Cleanup(func() { SetDebug(0); SetDebugWriter(nil) })
	x := FromFloat32s([]float32{1, 2, 3}, 3)
	_ = x.Add(41).Float32s()
	text := out.String()
	if !strings.Contains(text, "CL   E_3 ") || !strings.Contains(text, "µs") {
		t.Errorf("no CL kernel line with a time:\n%s", text)
	}
	if !strings.Contains(text, "copy host→CL") || !strings.Contains(text, "copy CL→host") || !strings.Contains(text, "device ") {
		t.Errorf("no copy lines with device times:\n%s", text)
	}
}

// DEBUG=2 waits for the kernels it times. On CL that wait is the host's
// synchronize after the launches (waiting, which %prof's overlap counts as
// such), not time inside the launch, where the host would seem to work
// while the device ran: the launch phase stays far below the kernels'
// device time.
func TestCLDebugWaitIsNotLaunchWork(t *testing.T) {
	needCL(t)
	onDevice(t, "CL")
	x := Arange(1 << 22).Realize()
	step := JIT(tenKernelStepT)
	for range 3 {
		step.Call(x)
	}
	if err := SynchronizeAll(); err != nil {
		t.Fatal(err)
	}
	SetDebugWriter(io.Discard)
	SetDebug(2)
	t.Cleanup(func() { SetDebug(0); SetDebugWriter(nil) })
	ResetCounters()
	for range 3 {
		step.Call(x)
	}
	c := Counters()
	if c.KernelsClocked != 30 || c.Launch >= c.DeviceClock || c.SyncWait <= 0 {
		t.Errorf("DEBUG=2 on CL: %d kernels in %v by the device clock, launch %v, sync wait %v: want the 30 kernels' wait in "+
			"sync wait, the launch phase below their device time", c.KernelsClocked, c.DeviceClock, c.Launch, c.SyncWait)
	}
}

// Device stamps are put on the host's clock with a stated error: the
// offset is measured, its bound is small, and a profile's CL kernels lie
// within the profile and after their enqueue.
func TestCLClockOffset(t *testing.T) {
	needCL(t)
	off, bound, ok := ClockOffset("CL")
	if !ok {
		t.Fatal("no clock offset for CL")
	}
	if bound <= 0 || bound > 10*time.Millisecond {
		t.Errorf("offset %v ± %v: the bound should be a positive bracket, far below 10 ms", off, bound)
	}
	t.Logf("CL clock: device + %v = host phase clock, ± %v", off, bound)
}

// Results on CL match the GO device through the public API for reduces,
// matmul and random tensors (created on the host, copied in): bit for bit,
// except sums and softmax, whose long folds the GO device accumulates in
// another order (both are within rounding of the exact sum; CL's folds are
// the reference interpreter's, TestEveryOpMatchesReference in
// runtime/backend/cl), and matmul when one device fuses multiply-adds and
// the other does not (the GO device does by default where the machine has
// FMA, as the CPU device does).
func TestCLMatchesGO(t *testing.T) {
	needCL(t)
	cases := map[string]func(x, y *Tensor) *Tensor{
		"sum":     func(x, _ *Tensor) *Tensor { return x.Sum() },
		"max 0":   func(x, _ *Tensor) *Tensor { return x.Reshape(64, 1024).Max(0) },
		"softmax": func(x, _ *Tensor) *Tensor { return x.Reshape(256, 256).Softmax(1) },
		"matmul":  func(x, y *Tensor) *Tensor { return x.Reshape(256, 256).Matmul(y.Reshape(256, 256)) },
		"where":   func(x, y *Tensor) *Tensor { return x.Gt(y).Where(x, y.Neg()) },
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) {
			run := func(dev string) []float32 {
				return f(RandnSeed(3, 1<<16).To(dev), RandSeed(4, 1<<16).To(dev)).Float32s()
			}
			cl, gov := run("CL"), run("GO")
			ci, _ := DescribeDevice("CL")
			gi, _ := DescribeDevice("GO")
			exact := name != "sum" && name != "softmax" && (name != "matmul" || ci.MatmulFMA == gi.MatmulFMA)
			for i := range cl {
				d := math.Abs(float64(cl[i] - gov[i]))
				if exact && math.Float32bits(cl[i]) != math.Float32bits(gov[i]) || !exact && d > 1e-5*math.Max(1, math.Abs(float64(gov[i]))) {
					t.Fatalf("[%d] CL %v, GO %v", i, cl[i], gov[i])
				}
			}
		})
	}
}

// Without an OpenCL driver (the ICD loader pointed at an empty vendors
// directory), DEVICE=CL fails with an error naming what to install, and
// the other devices still work.
func TestCLUnavailableSaysWhatToInstall(t *testing.T) {
	if os.Getenv("TICK_TEST_NO_ICD") == "1" {
		_, err := LookupDevice("CL")
		var de *DeviceError
		if !errors.As(err, &de) {
			t.Fatalf("LookupDevice(CL) = %v, want a *DeviceError", err)
		}
		for _, want := range []string{"pocl-opencl-icd", "ocl-icd-libopencl1", "GPU vendor"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("the error does not name %s:\n%v", want, err)
			}
		}
		if got := FromFloat32s([]float32{1, 2}, 2).To("GO").Add(1).Float32s(); got[1] != 3 {
			t.Errorf("GO computed %v", got)
		}
		t.Log(err)
		return
	}
	if _, err := exec.LookPath("true"); err != nil {
		t.Skip(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestCLUnavailableSaysWhatToInstall$", "-test.v")
	cmd.Env = append(os.Environ(), "TICK_TEST_NO_ICD=1", "OCL_ICD_VENDORS="+t.TempDir(), "DEVICE=")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS") {
		t.Fatalf("child (%v):\n%s", err, out)
	}
	t.Logf("%s", out)
}

// Spin on CL keeps the host free and Synchronize waits for it, as on a
// device with a worker.
func TestCLSpinIsWaitedFor(t *testing.T) {
	d := needCL(t)
	t0 := time.Now()
	d.Spin(30 * time.Millisecond)
	if el := time.Since(t0); el > 20*time.Millisecond {
		t.Logf("Spin took %v to return (a loaded machine?)", el)
	}
	if d.Pending() == 0 {
		t.Error("a spin in progress is not pending")
	}
	if err := d.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if el := time.Since(t0); el < 30*time.Millisecond {
		t.Errorf("Synchronize returned after %v, before the 30 ms spin ended", el)
	}
}

// Spins on CL run one after another, as a device runs its work: three
// 20 ms spins keep Synchronize waiting at least 60 ms (they ran side by
// side on the host's cores, and notebook 07's "synchronized time covers
// the device work" read 37 µs per 50 µs spin). A lower bound: load can
// only lengthen it.
func TestCLSpinsRunInOrder(t *testing.T) {
	d := needCL(t)
	t0 := time.Now()
	for range 3 {
		d.Spin(20 * time.Millisecond)
	}
	if err := d.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if el := time.Since(t0); el < 60*time.Millisecond {
		t.Errorf("three 20 ms spins were done after %v: they overlapped", el)
	}
}

// The work-group size chosen for a CL kernel is recorded in its plan.
func TestCLPlanRecordsWorkGroups(t *testing.T) {
	needCL(t)
	onDevice(t, "CL")
	x := Arange(1000).Realize()
	y := x.Mul(3).Realize()
	_ = y.Float32s()
	p := x.Mul(3).Plan()
	if len(p.Kernels) != 1 {
		t.Fatalf("%d kernels", len(p.Kernels))
	}
	k := p.Kernels[0]
	if k.Local[0] <= 0 || k.Global[0] < 1000 || k.Global[0]%k.Local[0] != 0 {
		t.Errorf("grid global %v local %v: want whole work groups covering 1000 items", k.Global, k.Local)
	}
}
