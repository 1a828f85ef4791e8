"""The timing magics through a real Jupyter client: %timeit on the tutorial's
JIT'd step shows the text block (text/plain and text/html), a chart (a 2x PNG
with its layout size and a text/plain description) and the result document
under its vendor MIME type, raw samples included, never application/json; a
bad option gives a clean error reply and changes nothing."""
import base64
import json
import unittest

from tickenv import KernelTestCase, displays, run

SETUP = """import "tick/runtime/tensor"
x := tensor.Ones(256).Realize()
step := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor { return a[0].Mul(2).Add(1).Realize() })
var y *tensor.Tensor
calls := 0"""

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
RESULT_MIME = "application/vnd.tick.timing.v1+json"


def shown(outputs):
    """The outputs that carry rich data, in order (display and updates)."""
    return [m["content"] for m in outputs if m["msg_type"] in ("display_data", "update_display_data")]


def text_output(outputs):
    """The display_data carrying the result document (the text block)."""
    found = [d for d in displays(outputs) if RESULT_MIME in d["data"]]
    assert len(found) == 1, f"want one text output with the result document, got {[list(d['data']) for d in displays(outputs)]}"
    return found[0]


class TimingMagicTests(KernelTestCase):
    SETUP = SETUP

    def test_timeit_jit_step(self):
        reply, outputs = run(self.kc, "%timeit -n 20 -r 7 --check 'y.Float32s()[0] == 3' y = step.Call(x)")
        self.assertEqual(reply["content"]["status"], "ok", reply["content"])
        for d in shown(outputs):
            self.assertNotIn("application/json", d["data"], "JupyterLab would show a JSON tree")
        data = text_output(outputs)["data"]

        text = data["text/plain"]
        self.assertRegex(text, r"per loop \(median (± |\[)95% confidence interval\]?, 7 samples × 20 loops\)")
        self.assertIn("capture", text)
        self.assertIn("<pre", data["text/html"])
        for line in text.splitlines():
            self.assertLessEqual(len(line), 100, f"a line wider than 100 characters: {line!r}")

        charts = [d for d in displays(outputs) if "image/png" in d["data"]]
        self.assertEqual(len(charts), 1, outputs)
        png = base64.b64decode(charts[0]["data"]["image/png"])
        self.assertTrue(png.startswith(PNG_MAGIC), png[:16])
        self.assertGreater(len(png), 1000)
        self.assertIn("[chart", charts[0]["data"]["text/plain"])
        size = charts[0]["metadata"]["image/png"]
        self.assertEqual((size["width"], size["height"]), (960, 336), "two charts side by side at 480×336 CSS px each")

        doc = data[RESULT_MIME]
        self.assertEqual((doc["version"], doc["kind"]), (1, "timeit"))
        result = doc["result"]
        measured = [s for s in result["samples"] if s["phase"] == "measured"]
        self.assertEqual(len(measured), 7)
        self.assertTrue(all(s["n"] == 20 and s["elapsed_ns"] > 0 for s in measured))
        self.assertTrue(result["replaying"], "the JIT should replay before measurement")
        self.assertGreater(result["counters"]["kernels_per_loop"], 0)
        json.dumps(result)  # plain JSON all the way down

    def test_bad_option_is_a_clean_error(self):
        reply, outputs = run(self.kc, "%timeit --bogus=1 calls++")
        content = reply["content"]
        self.assertEqual(content["status"], "error")
        self.assertEqual(content["ename"], "MagicError")
        self.assertIn("--bogus", content["evalue"])
        self.assertIn("usage: %timeit", content["evalue"])
        errors = [m for m in outputs if m["msg_type"] == "error"]
        self.assertEqual(len(errors), 1)
        self.assertEqual(shown(outputs), [])
        reply, outputs = run(self.kc, "calls")
        results = [m["content"] for m in outputs if m["msg_type"] == "execute_result"]
        self.assertEqual(results[0]["data"]["text/plain"], "0", "the statement must not run after a usage error")

    def test_false_check_stops(self):
        reply, _ = run(self.kc, "%timeit -n 5 -r 7 --check 'y.Float32s()[0] == 4' y = step.Call(x)")
        content = reply["content"]
        self.assertEqual(content["status"], "error")
        self.assertIn("--check is false after the cold call", content["evalue"])
        self.assertIn("y.Float32s()[0] is 3 (want y.Float32s()[0] == 4)", content["evalue"])

    def test_help_page(self):
        reply, _ = run(self.kc, "%timeit?")
        pages = reply["content"].get("payload", [])
        self.assertEqual(len(pages), 1)
        self.assertIn("--check EXPR", pages[0]["data"]["text/plain"])

    def test_compare_keeps_its_result(self):
        for name, n in (("small", 10), ("large", 1000)):
            reply, outputs = run(self.kc, f"%timeit -q -v {name} -n 50 -r 7 for i := 0; i < {n}; i++ {{ calls += 0 }}")
            self.assertEqual(reply["content"]["status"], "ok", reply["content"])
            self.assertEqual(shown(outputs), [], "-q shows nothing")
        reply, outputs = run(self.kc, "%compare -q -o -v cmp small large")
        self.assertEqual(reply["content"]["status"], "ok", reply["content"])
        results = [m["content"] for m in outputs if m["msg_type"] == "execute_result"]
        self.assertEqual(len(results), 1, "-o makes the comparison the cell's value")
        self.assertIn("large", results[0]["data"]["text/plain"])
        self.assertNotIn("application/json", results[0]["data"])
        rows = results[0]["data"][RESULT_MIME]["comparison"]["rows"]
        self.assertEqual([r["label"] for r in rows], ["small", "large"])
        # The notebook can assert on the saved *timing.Comparison.
        reply, outputs = run(self.kc, "cmp.Rows[1].P < 0.05 && cmp.Rows[1].Ratio > 1")
        results = [m["content"] for m in outputs if m["msg_type"] == "execute_result"]
        self.assertEqual(results[0]["data"]["text/plain"], "true")

    def test_time_table_is_honest(self):
        reply, outputs = run(self.kc, "%time --plot=none y = step.Call(x)")
        self.assertEqual(reply["content"]["status"], "ok", reply["content"])
        text = text_output(outputs)["data"]["text/plain"]
        self.assertIn("Wall time", text)
        for line in text.splitlines():
            for word in line.split():
                if word.endswith("%") and word[:-1].replace(".", "", 1).isdigit():
                    self.assertLessEqual(float(word[:-1]), 100.0, f"a share over 100% without a footnote: {line!r}")
        if "device execution" in text:
            self.assertIn("not part of the sum", " ".join(text.split()))  # lines wrap between words


if __name__ == "__main__":
    unittest.main()
