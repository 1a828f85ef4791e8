"""Compiled Go through a real Jupyter client (docs/compiled-go.md): imports of
modules from the proxy (gonum's mat, uuid), timed with %timeit and %bench; a
local module edited between two imports; a %%go cell with range over a
function iterator and generic inference that the interpreter refuses, called
from a later interpreted cell; a compiled benchmark against the interpreted
one with %compare, and %timeit saying when interpreted code dominates; and each error a user can meet, with its message.

The plugin builds share the go build cache of the suite (test.sh pins
GOCACHE), so only the first plugin build of a CI run compiles Go's runtime in
plugin mode; the plugin cache itself (TICK_CACHE_DIR) is fresh per run, so the
first import of each module here is a real build and the second kernel's is a
disk-cache hit."""
import os
import re
import shutil
import tempfile
import unittest

from jupyter_client.manager import start_new_kernel

from tickenv import KERNEL, TIMEOUT, run, stdout_of

BUILD = 600  # a first plugin build on a loaded 2-core machine takes minutes


def text_of(outputs):
    """Everything a console shows: streams, the last text of every display
    (updates replace by display id), results and errors."""
    parts, ids = [], {}
    for m in outputs:
        c, t = m["content"], m["msg_type"]
        if t == "stream":
            parts.append(c["text"])
        elif t in ("display_data", "update_display_data", "execute_result"):
            txt = c["data"].get("text/plain", "")
            did = c.get("transient", {}).get("display_id")
            if did and did in ids:
                parts[ids[did]] = txt + "\n"
            else:
                if did:
                    ids[did] = len(parts)
                parts.append(txt + "\n")
        elif t == "error":
            parts.append(c["ename"] + ": " + c["evalue"] + "\n")
    return "".join(parts)


def ok(tc, kc, code, timeout=BUILD):
    reply, outputs = run(kc, code, timeout=timeout)
    tc.assertEqual(reply["content"]["status"], "ok", (code, reply["content"], text_of(outputs)))
    return text_of(outputs)


def fails(tc, kc, code, timeout=BUILD):
    reply, outputs = run(kc, code, timeout=timeout)
    tc.assertEqual(reply["content"]["status"], "error", (code, text_of(outputs)))
    return reply["content"]["evalue"]


class CompiledGoTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cache = tempfile.mkdtemp(prefix="tick-plugins-")
        os.environ["TICK_CACHE_DIR"] = cls.cache
        cls.km, cls.kc = start_new_kernel(kernel_name=KERNEL, startup_timeout=TIMEOUT)

    @classmethod
    def tearDownClass(cls):
        cls.kc.stop_channels()
        cls.km.shutdown_kernel(now=True)
        shutil.rmtree(cls.cache, ignore_errors=True)  # the run's plugins (tens of MB each)

    def test_1_modules_from_the_proxy(self):
        out = ok(self, self.kc, 'import "github.com/google/uuid"\nuuid.MustParse("f47ac10b-58cc-4372-8567-0e02b2c3d479").Version()')
        self.assertIn("imported github.com/google/uuid v1.6.0: compiled as a plugin", out)
        self.assertIn("VERSION_4", out)
        out = ok(self, self.kc, """import "gonum.org/v1/gonum/mat"
a := mat.NewDense(64, 64, nil)
for i := 0; i < 64; i++ { a.Set(i, i, 2) }
var c mat.Dense
c.Mul(a, a)
c.At(3, 3)""")
        self.assertIn("imported gonum.org/v1/gonum/mat v0.17.0", out)
        self.assertTrue(out.rstrip().endswith("4"), out)
        out = ok(self, self.kc, "%timeit -T 300ms --plot=none c.Mul(a, a)")
        self.assertRegex(out, r"c\.Mul\(a, a\)\n[\d.]+ [nµm]?s .* per loop \(median")
        # mat.Dense.Mul as a Go benchmark, compiled, through %bench.
        ok(self, self.kc, """%%go
import (
	"testing"

	"gonum.org/v1/gonum/mat"
)

func BenchmarkMul(b *testing.B) {
	a := mat.NewDense(64, 64, nil)
	for i := 0; i < 64; i++ {
		a.Set(i, i, 2)
	}
	var c mat.Dense
	for b.Loop() {
		c.Mul(a, a)
	}
}""")
        out = ok(self, self.kc, "%bench --count 6 -T 500ms --plot=none BenchmarkMul")
        self.assertRegex(out, r"BenchmarkMul-\d+\s+\d+\s+[\d.]+ ns/op\s+\d+ B/op\s+\d+ allocs/op")
        self.assertIn("backend compiled Go", out)

    def test_2_second_kernel_hits_the_disk_cache(self):
        km, kc = start_new_kernel(kernel_name=KERNEL, startup_timeout=TIMEOUT)
        try:
            out = ok(self, kc, 'import "github.com/google/uuid"\nuuid.Nil.String()')
            self.assertIn("compiled plugin from the cache", out)
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=True)

    def test_3_local_module_edited_between_imports(self):
        d = tempfile.mkdtemp(prefix="greet-")
        with open(os.path.join(d, "go.mod"), "w") as f:
            f.write("module example.com/greet\n\ngo 1.22\n")

        def write(msg):
            with open(os.path.join(d, "greet.go"), "w") as f:
                f.write('package greet\n\nfunc Hello() string { return "%s" }\n' % msg)

        write("hello, v1")
        out = ok(self, self.kc, "%go use " + d)
        self.assertIn("using example.com/greet from", out)
        self.assertIn('"hello, v1"', ok(self, self.kc, 'import "example.com/greet"\ngreet.Hello()'))
        write("hello, v2")
        out = ok(self, self.kc, 'import "example.com/greet"\ngreet.Hello()')
        self.assertIn('"hello, v2"', out)
        self.assertIn("version 2 of this session", out)

    def test_4_compiled_cell_with_iterators_and_inference(self):
        iterator = """import "iter"
func Evens(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < n; i += 2 {
			if !yield(i) {
				return
			}
		}
	}
}
func Map[T, U any](xs []T, f func(T) U) []U {
	var out []U
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}
"""
        use = """func Halves() []float64 {
	var xs []int
	for v := range Evens(10) {
		xs = append(xs, v)
	}
	return Map(xs, func(x int) float64 { return float64(x) / 2 })
}"""
        # The interpreter refuses this code...
        fails(self, self.kc, iterator + use)
        # ...compiled, it works, and a later interpreted cell calls it.
        out = ok(self, self.kc, "%%go\n" + iterator + use)
        self.assertIn("Evens, Halves usable in the cells that follow", out)
        self.assertIn("Map is generic", out)
        out = ok(self, self.kc, 'import "fmt"\nfmt.Println(Halves())')
        self.assertIn("[0 1 2 3 4]", out)

    def test_5_compare_compiled_and_interpreted_benchmarks(self):
        body = """(b *testing.B) {
	xs := make([]int, 1000)
	for i := range xs {
		xs[i] = i
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := 0
		for _, x := range xs {
			s += x
		}
		_ = s
	}
}"""
        ok(self, self.kc, '%%go\nimport "testing"\nfunc BenchmarkSum' + body)
        ok(self, self.kc, 'import "testing"\nfunc BenchmarkSumInterpreted' + body)
        ok(self, self.kc, "%bench --count 7 -T 500ms --plot=none -q -v compiled BenchmarkSum")
        ok(self, self.kc, "%bench --count 7 -T 500ms --plot=none -q -v interpreted BenchmarkSumInterpreted")
        out = ok(self, self.kc, "%compare --plot=none compiled interpreted")
        row = [l for l in out.splitlines() if l.startswith("interpreted")][0]
        # Compiled is faster, by the comparison's own verdict (the ratio's
        # interval lies above 1, the change is shown with its sign): no fixed
        # factor, which load moves; the verdict it does not.
        m = re.search(r"\]\s+(\S+)\s+[0-9.]+×\s+\[([0-9.]+),", row)
        self.assertIsNotNone(m, out)
        self.assertTrue(m.group(1).startswith("+"), out)
        self.assertGreater(float(m.group(2)), 1, out)
        self.assertIn('backend "compiled Go', out)
        self.assertIn('"interpreted Go (yaegi)"', out)
        self.assertIn("warning:", out)
        # %timeit of interpreted code says that the interpreter's time dominates.
        ok(self, self.kc, "func sumInterp(xs []int) int {\n\ts := 0\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s\n}\nnums := make([]int, 1000)\nvar total int")
        out = ok(self, self.kc, "%timeit -T 300ms --plot=none total = sumInterp(nums)")
        self.assertIn("of the statement's CPU time is the interpreter running Go code", out)
        self.assertIn("define it in a %%go cell", out)

    def test_6_errors(self):
        ok(self, self.kc, "kept := 42")
        msg = fails(self, self.kc, "%%go\nfunc Bad() int {\n\treturn nope\n}")
        self.assertRegex(msg, r"cell\[\d+\]:3:9: undefined: nope")
        msg = fails(self, self.kc, "%go get gonum.org/v1/gonum@v0.16.0")
        self.assertIn("this tick was built with gonum.org/v1/gonum v0.17.0", msg)
        msg = fails(self, self.kc, 'import "github.com/tick-kernel/no-such-module-here"')
        self.assertIn("cannot fetch github.com/tick-kernel/no-such-module-here", msg)
        # The kernel keeps its state after every error.
        self.assertTrue(ok(self, self.kc, "kept").rstrip().endswith("42"))

    def test_7_toolchain_errors(self):
        fake = tempfile.mkdtemp(prefix="fakego-")
        with open(os.path.join(fake, "go"), "w") as f:
            f.write("#!/bin/sh\necho go1.19.1\n")
        os.chmod(os.path.join(fake, "go"), 0o755)
        for go, want in (("/nonexistent/go", "no go command (/nonexistent/go"),
                         (os.path.join(fake, "go"), "is go1.19.1, but this tick was built with go1.")):
            os.environ["TICK_GO"] = go
            try:
                km, kc = start_new_kernel(kernel_name=KERNEL, startup_timeout=TIMEOUT)
            finally:
                del os.environ["TICK_GO"]
            try:
                self.assertIn(want, fails(self, kc, "%%go\nfunc F() {}"))
            finally:
                kc.stop_channels()
                km.shutdown_kernel(now=True)


if __name__ == "__main__":
    unittest.main()
