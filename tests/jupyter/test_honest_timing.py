"""Timing that cannot mislead, through a real Jupyter client (issue 10): one
test per way a measurement used to teach something false — a check that
verified the wrong call, per-sample costs that inflated small -n, a queue
left full by --sync=none, holes in the provenance, back-to-back comparisons
without a word about drift, mislabelled JIT phases, and a DEBUG=2 flood."""
import json
import os
import unittest

from tickenv import KernelTestCase, run, stdout_of

SETUP = """import (
	"fmt"
	"time"
	"tick/runtime/tensor"
	"tick/timing"
)
x := tensor.Ones(256).Realize()
step := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor { return a[0].Mul(2).Add(1).Realize() })
var y, z *tensor.Tensor
var _ = fmt.Sprint
var _ = time.Second
var _ = timing.Spin"""

# Agreement of -n 1, -n 10 and calibrated n is asserted only on a quiet
# machine: under load every wall-clock time is mostly waiting for a CPU.
QUIET_LOAD = float(os.environ.get("TICK_QUIET_LOAD", "1.0"))


def shown_text(outputs):
    """The text block of a timing result (the output carrying the result
    document), its lines joined: the layout wraps lines between words."""
    datas = [m["content"]["data"] for m in outputs if m["msg_type"] in ("display_data", "update_display_data")]
    texts = [d.get("text/plain", "") for d in datas if "application/vnd.tick.timing.v1+json" in d] or \
        [d.get("text/plain", "") for d in datas]
    return " ".join(texts[-1].split()) if texts else ""


def load1():
    try:
        with open("/proc/loadavg") as f:
            return float(f.read().split()[0])
    except OSError:
        return 0.0


class HonestTimingTests(KernelTestCase):
    SETUP = SETUP
    OK_TIMEOUT = 120

    def error(self, code):
        reply, outputs = run(self.kc, code, timeout=120)
        self.assertEqual(reply["content"]["status"], "error", f"{code!r} succeeded: {shown_text(outputs)}")
        return reply["content"]["evalue"]

    def printed(self, code):
        return stdout_of(self.ok(code)).strip()

    # 1. --check verifies the timed call.
    def test_check_refuses_a_wrong_replay(self):
        self.ok("s := 0\nfrozen := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor { return a[0].Add(float32(s)).Realize() })")
        msg = self.error("%timeit -n 10 -r 7 --check 'y.Float32s()[0] == float32(s+1)' s++; y = frozen.Call(x)")
        self.assertIn("after the first replay, before sampling (a replay of the JIT)", msg)
        self.assertIn("y.Float32s()[0] is 3, float32(s+1) is 4", msg)

    def test_wrong_vs_statement_is_refused(self):
        self.ok("wrong := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor { return a[0].Mul(3).Add(1).Realize() })")
        msg = self.error("%timeit -n 10 -r 7 --check 'y.Float32s()[0] == 3' --vs 'y = wrong.Call(x)' y = step.Call(x)")
        self.assertIn("statement y = wrong.Call(x): --check is false", msg)
        msg = self.error("%timeit --check 'y.Float32s()[0] == 3' --vs 'z = wrong.Call(x)' y = step.Call(x)")
        self.assertIn("--vs-check", msg)

    # 2. No hidden per-sample cost: -n 1, -n 10 and calibrated n agree with a
    # hand-timed synchronized loop on a ~1 µs workload (on a quiet machine).
    def test_small_n_agrees_with_a_hand_timed_loop(self):
        best = None
        for attempt in range(3):
            figures = self.agreement()
            worst = max(abs(v / figures["hand"] - 1) for k, v in figures.items() if k != "hand")
            if best is None or worst < best[0]:
                best = (worst, figures, load1())
            if worst <= 0.10:
                break
        worst, figures, load = best
        print(f"\n-n agreement on timing.Spin(1µs), ns per call: {figures}, worst {100*worst:.1f}%, load {load}")
        if load > QUIET_LOAD:
            self.skipTest(f"load {load} > {QUIET_LOAD}: agreement not asserted (worst {100*worst:.1f}%)")
        self.assertLessEqual(worst, 0.10, f"-n 1, -n 10 and calibrated disagree with the hand-timed loop: {figures}")

    def agreement(self):
        for name, n in (("n1", "-n 1"), ("n10", "-n 10"), ("ncal", "")):
            self.ok(f"%timeit -q -T 1s {n} -v {name} timing.Spin(time.Microsecond)")
        # The hand-timed loop: sync, clock, N calls, sync, clock; minus the
        # same loop empty (the loop's own cost, which %timeit's floor removes).
        code = """hand := func(spin bool) float64 {
	const N = 200000
	tensor.SynchronizeAll()
	t0 := time.Now()
	for i := 0; i < N; i++ {
		if spin {
			timing.Spin(time.Microsecond)
		}
	}
	tensor.SynchronizeAll()
	return float64(time.Since(t0)) / N
}
hand(true)
fmt.Printf(`{"n1": %.1f, "n10": %.1f, "ncal": %.1f, "hand": %.1f}`, n1.Stats.Median, n10.Stats.Median, ncal.Stats.Median, hand(true)-hand(false))"""
        return json.loads(self.printed(code))

    # 3. --sync=none leaves nothing queued behind the next cell.
    def test_sync_none_drains(self):
        outputs = self.ok("%timeit -T 500ms --sync=none --plot=none tensor.Device(\"GO\").Spin(50*time.Microsecond)")
        text = shown_text(outputs)
        self.assertIn("drained outside the timed intervals", text)
        self.assertIn("no FLOP/s or B/s", text)
        self.assertEqual(self.printed('fmt.Print(tensor.Device("GO").Pending())'), "0")

    # 4. Provenance: NULL is NULL, DEBUG however set, and %compare names it;
    # 5. a back-to-back comparison says so.
    def test_provenance_and_compare(self):
        self.ok('tensor.SetDefaultDevice("NULL")\nxn := tensor.Ones(64).Realize()\ntensor.SetDefaultDevice("CPU")\n'
                'stepN := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor { return a[0].Mul(2).Realize() })\nvar yn *tensor.Tensor')
        text = shown_text(self.ok("%timeit -n 100 -r 7 --plot=none yn = stepN.Call(xn)"))
        self.assertIn("provenance device NULL", text)
        self.assertIn("no FLOP/s or B/s: the device runs no kernels", text)
        self.ok("tensor.SetDebug(2)")
        outputs = self.ok("%timeit -q -n 200 -r 7 -v traced y = step.Call(x)")
        debug_lines = stdout_of(outputs).splitlines()
        self.ok("tensor.SetDebug(0)")
        self.assertLess(len(debug_lines), 12, "DEBUG=2 inside %timeit should give a per-kernel summary, not a line per launch")
        self.assertTrue(any("DEBUG=2 during %timeit" in l for l in debug_lines), debug_lines)
        self.ok("%timeit -q -n 200 -r 7 -v quiet y = step.Call(x)")
        self.assertEqual(self.printed("fmt.Print(traced.Provenance.Debug, quiet.Provenance.Debug)"), "2 0")
        text = shown_text(self.ok("%compare --plot=none quiet traced"))
        self.assertIn('DEBUG (effective) "0" vs "2"', text)
        self.assertIn("not interleaved", text)

    # 6. JIT phase labels for a JIT called 0, 1, 2 and 5 times before.
    def test_jit_phase_labels(self):
        for before, phrase in ((0, "(JIT call 1, ordinary"), (1, "(JIT call 2, capture"), (2, "(JIT call 3, replay)"), (5, "(JIT call 6, replay)")):
            self.ok(f"j{before} := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor {{ return a[0].Add({before + 11}).Realize() }})\n"
                    f"for i := 0; i < {before}; i++ {{ j{before}.Call(x) }}")
            text = shown_text(self.ok(f"%timeit -n 10 -r 7 --plot=none y = j{before}.Call(x)"))
            self.assertIn(phrase, text)
            if before == 0:
                self.assertIn("capture 1 call ", text)
            self.assertEqual("JIT had been called" in text, before > 0, text)
        self.ok("fresh := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor { return a[0].Add(99).Realize() })")
        for want in ("JIT call 1, its first call", "JIT call 2, the capture", "JIT call 3, a replay"):
            self.assertIn(want, shown_text(self.ok("%time --plot=none y = fresh.Call(x)")))


if __name__ == "__main__":
    unittest.main()
