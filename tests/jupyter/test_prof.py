"""%prof and %viz through a real Jupyter client (jupyter_client): what a
person sees. Every output must show its text and its image in Notebook 6,
nbconvert's HTML and JupyterLab (all three render text/html first when
there is no application/json: the text is in a <pre> above the image), and
carry its machine-readable data under a vendor MIME type or in metadata,
never as application/json (JupyterLab would show a JSON tree instead).
The Chrome trace file is written and valid; --pprof shows flame graphs."""
import json
import os
import tempfile
import unittest

import nbformat
from nbconvert import HTMLExporter

from tickenv import KernelTestCase, displays, run

SETUP = """import "tick/runtime/tensor"
x := tensor.Rand(1<<16).Realize()
// newMany is a fresh JIT of a step of ten kernels (each test gets its own,
// so its first call is a cold call).
newMany := func() *tensor.JITFunc {
	return tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor {
		y := a[0]
		for i := 0; i < 8; i++ {
			y = y.Mul(0.999).Add(0.001).Realize()
		}
		return y.Exp().Sum().Realize()
	})
}
var y *tensor.Tensor"""

# JupyterLab's renderers, best first (its JSON renderer ranks 0, ahead of
# everything); unknown vendor types are skipped.
JUPYTERLAB_ORDER = ["application/json", "application/javascript", "text/html", "text/markdown",
                    "text/latex", "image/svg+xml", "image/png", "image/jpeg", "text/plain"]
# Notebook 6 and nbconvert's HTML.
NOTEBOOK6_ORDER = ["application/javascript", "text/html", "text/markdown", "text/latex",
                   "image/svg+xml", "image/png", "image/jpeg", "application/pdf", "text/plain"]


def first(order, data):
    return next((m for m in order if m in data), None)


class ProfTests(KernelTestCase):
    SETUP = SETUP

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.tmp = tempfile.mkdtemp()

    def assertVisible(self, data, texts, image, opens="<pre"):
        """Each front end's choice shows the texts and an image; the HTML
        opens with `opens` (%prof's text, %viz's graph: the part a scrolled
        Notebook 6 output shows without scrolling)."""
        self.assertNotIn("application/json", data)
        for order in (JUPYTERLAB_ORDER, NOTEBOOK6_ORDER):
            self.assertEqual(first(order, data), "text/html", sorted(data))
        html = data["text/html"]
        self.assertIn(opens, html[:200])
        self.assertIn("<pre", html)
        for t in texts:
            self.assertTrue(t in html, f"text/html lacks {t!r}; it starts {html[:600]!r}")
            self.assertTrue(t in data["text/plain"], f"text/plain (what jupyter console shows) lacks {t!r}: {data['text/plain'][:600]!r}")
        self.assertTrue(image in html, f"text/html has no {image!r}")

    def nbconvert_html(self, outputs):
        """The page nbconvert's HTML exporter makes of a cell with these outputs."""
        nb = nbformat.v4.new_notebook()
        cell = nbformat.v4.new_code_cell("%prof")
        cell.outputs = [nbformat.v4.new_output("display_data", data=d["data"], metadata=d["metadata"]) for d in outputs]
        nb.cells.append(cell)
        body, _ = HTMLExporter().from_notebook_node(nb)
        return body

    def test_prof_timeline_table_trace(self):
        trace = os.path.join(self.tmp, "many.json")
        reply, _ = run(self.kc, "m1 := newMany()")
        self.assertEqual(reply["content"]["status"], "ok", reply["content"])
        reply, outputs = run(self.kc, f"%prof -n 6 --trace {trace} y = m1.Call(x)", timeout=120)
        self.assertEqual(reply["content"]["status"], "ok", reply["content"])
        shown = displays(outputs)
        self.assertEqual(len(shown), 1)
        data, meta = shown[0]["data"], shown[0]["metadata"]
        self.assertVisible(data, ["of host work ran while a device was busy", "1 cold · 1 capture · 4 replay calls",
                                  "E_65536", "written to " + trace], '<img src="data:image/png;base64,')
        summary = data["application/vnd.tick.profile.v1+json"]
        reply, outputs = run(self.kc, "len(m1.State().Kernels)")
        per_call = int([m["content"] for m in outputs if m["msg_type"] == "execute_result"][0]["data"]["text/plain"])
        self.assertGreaterEqual(per_call, 9)
        self.assertEqual(summary["kernels"], 6 * per_call)
        self.assertEqual(summary["jit_calls"]["replay"], 4)
        self.assertGreater(summary["device_busy_ns"], 0)
        # The raw events are in the metadata, as a Chrome trace.
        events = meta["tick/profile"]["traceEvents"]
        kernels = [e for e in events if e.get("cat") == "kernel"]
        self.assertEqual(len(kernels), 6 * per_call)
        # The file: valid trace-event JSON with the required fields.
        with open(trace) as f:
            written = json.load(f)
        for e in written["traceEvents"]:
            for field in ("name", "ph", "pid", "tid"):
                self.assertIn(field, e)
            if e["ph"] == "X":
                self.assertIsInstance(e["ts"], (int, float))
                self.assertGreaterEqual(e["dur"], 0)
        # nbconvert's page shows the text and the chart.
        page = self.nbconvert_html(shown)
        self.assertIn("of host work ran while a device was busy", page)
        self.assertIn('<img src="data:image/png;base64,', page)

    def test_prof_debug_and_pprof(self):
        reply, _ = run(self.kc, "m2 := newMany()")
        self.assertEqual(reply["content"]["status"], "ok", reply["content"])
        reply, outputs = run(self.kc, "%prof --debug -n 4 --pprof --pprof-time 500ms y = m2.Call(x)", timeout=120)
        self.assertEqual(reply["content"]["status"], "ok", reply["content"])
        shown = displays(outputs)
        self.assertEqual(len(shown), 2, [sorted(d["data"]) for d in shown])
        self.assertVisible(shown[0]["data"], ["DEBUG=2 waits for every kernel"], "<img")
        self.assertVisible(shown[1]["data"], ["%prof --pprof: Go profiles", "flat%", "[interpreted Go"], "<svg")
        self.assertIn("device workers (kernels)", shown[1]["data"]["image/svg+xml"])
        page = self.nbconvert_html(shown)
        self.assertIn("device workers (kernels)", page)
        # The DEBUG level is restored.
        reply, outputs = run(self.kc, "tensor.DebugLevel()")
        results = [m["content"] for m in outputs if m["msg_type"] == "execute_result"]
        self.assertEqual(results[0]["data"]["text/plain"], "0")

    def test_viz_unrealized_and_jit(self):
        reply, outputs = run(self.kc, "before := tensor.Counters().KernelsLaunched\nz := x.Sub(x.Sum().Div(65536)).Exp()")
        self.assertEqual(reply["content"]["status"], "ok", reply["content"])
        reply, outputs = run(self.kc, "%viz z")
        self.assertEqual(reply["content"]["status"], "ok", reply["content"])
        shown = displays(outputs)
        self.assertEqual(len(shown), 1)
        data = shown[0]["data"]
        self.assertVisible(data, [" kernels\n  kernel 1 ", "why a kernel: a reduce", "why a kernel: the realize target"], "<svg", opens="<svg")
        self.assertIn("<details><summary>kernel 1", data["text/html"])
        self.assertIn(": E_65536 on", data["image/svg+xml"])
        reply, outputs = run(self.kc, "tensor.Counters().KernelsLaunched == before")
        results = [m["content"] for m in outputs if m["msg_type"] == "execute_result"]
        self.assertEqual(results[0]["data"]["text/plain"], "true", "%viz must not compute the tensor")
        reply, outputs = run(self.kc, "m3 := newMany()\nm3.Call(x)\nm3.Call(x)\nn3 := len(m3.State().Kernels)")
        self.assertEqual(reply["content"]["status"], "ok", reply["content"])
        reply, outputs = run(self.kc, "%viz m3")
        self.assertEqual(reply["content"]["status"], "ok", reply["content"])
        self.assertVisible(displays(outputs)[0]["data"], ["captured kernels", "captured launch 1"], "<svg", opens="<svg")

    def test_bad_input_keeps_state(self):
        reply, _ = run(self.kc, "m4 := newMany()\ny = m4.Call(x)")
        self.assertEqual(reply["content"]["status"], "ok", reply["content"])
        for cell in ("%prof --bogus y = m4.Call(x)", "%viz 42", "%prof -n 0 y = m4.Call(x)"):
            reply, outputs = run(self.kc, cell)
            self.assertEqual(reply["content"]["status"], "error", cell)
            self.assertEqual(displays(outputs), [], cell)
        reply, outputs = run(self.kc, "y != nil")
        self.assertEqual(reply["content"]["status"], "ok", reply["content"])


if __name__ == "__main__":
    unittest.main()
