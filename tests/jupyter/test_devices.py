"""Device time through a real Jupyter client (jupyter_client), on tick's
OpenCL device (CL: pocl in CI, scripts/install-deps.sh installs it): what a
person reads of a device with its own memory, queue and clock.

- %time: the "Device time" line (kernels and copies by CL's clock beside the
  wall time) and the "Transfer" line (bytes, host and device rates), and a
  phase table whose disjoint phases add up to the wall time (a JIT replay's
  captured copy is the transfer phase's, not also the launch's);
- %timeit: the device row (host per loop beside CL's clock), the transfers
  row, and --clock=device (the headline says whose clock; the clock row says
  what it excludes and that a warmed replay is not a kernel benchmark);
- %prof: the clock row, the device lane drawn by CL's own clock (its label,
  as text in the SVG timeline) and the copies' lane, the Chrome trace's
  device thread.

Each is checked in text/plain (jupyter console), in text/html (what Notebook
6, JupyterLab and nbconvert show first) and, for one of each, in the page
nbconvert's HTML exporter makes. Without OpenCL (TICK_SKIP_CL=1, as for
scripts/test-notebooks.sh) the class is skipped; otherwise a missing device
fails the SETUP cell, saying what to install."""
import html
import os
import re
import unittest

import nbformat
from nbconvert import HTMLExporter

from tickenv import KernelTestCase, displays, run

SETUP = """import (
	"tick/runtime/tensor"
)
if _, err := tensor.LookupDevice("CL"); err != nil {
	panic(err) // names what to install
}
tensor.SetDefaultDevice("GO") // the host's side of the copies, whatever $DEVICE says
x := tensor.Arange(256).To("CL").Realize()
step := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor { return a[0].Mul(2).Add(1).Realize() })
hx := tensor.Arange(1 << 20).Realize()
withCopy := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor { return a[0].To("CL").Mul(2).Add(1).Realize() })
for i := 0; i < 3; i++ {
	step.Call(x)
	withCopy.Call(hx)
}
tensor.SynchronizeAll()
var y *tensor.Tensor"""

RESULT_MIME = "application/vnd.tick.timing.v1+json"


def flat(s):
    """Text as a reader sees it: wrapped lines joined, runs of spaces one."""
    return " ".join(s.split())


def visible(page):
    """The text a browser shows of an HTML fragment or page (tags, styles and
    scripts dropped, entities decoded)."""
    page = re.sub(r"(?is)<(script|style|head)\b.*?</\1>", " ", page)
    return flat(html.unescape(re.sub(r"(?s)<[^>]+>", " ", page)))


def nbconvert_page(outputs):
    """The page nbconvert's HTML exporter makes of a cell with these displays."""
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("%magic")
    cell.outputs = [nbformat.v4.new_output("display_data", data=d["data"], metadata=d["metadata"]) for d in outputs]
    nb.cells.append(cell)
    body, _ = HTMLExporter().from_notebook_node(nb)
    return body


@unittest.skipIf(os.environ.get("TICK_SKIP_CL") == "1", "TICK_SKIP_CL=1: no OpenCL device here")
class DeviceTimeTests(KernelTestCase):
    SETUP = SETUP
    OK_TIMEOUT = 300  # pocl builds kernels slowly when its cache is cold

    def timing_text(self, code):
        """Run a timing magic; return its text output's data (one display
        carries the result document)."""
        outputs = self.ok(code)
        found = [d for d in displays(outputs) if RESULT_MIME in d["data"]]
        self.assertEqual(len(found), 1, [list(d["data"]) for d in displays(outputs)])
        return found[0]

    def assertShows(self, data, texts):
        """text/plain (jupyter console) and text/html (Notebook 6, JupyterLab,
        nbconvert) both show each text to a reader."""
        plain, page = flat(data["text/plain"]), visible(data["text/html"])
        for t in texts:
            self.assertIn(t, plain, f"jupyter console does not show {t!r}: {data['text/plain'][:1500]}")
            self.assertIn(t, page, f"the HTML does not show {t!r}")

    def test_time_device_and_transfer_lines(self):
        shown = self.timing_text("%time --plot=none y = withCopy.Call(hx)")
        data = shown["data"]
        self.assertShows(data, ["Device time:", "in 1 kernel and", "in 1 copy by CL's clock",
                                "Transfer: GO→CL 1 copy of 4.19 MB: host", "prov: device CL+GO"])
        text = data["text/plain"]
        # The phases the call's goroutine ran are disjoint: the captured copy
        # is transfer time, not launch time too, so they add up to the wall
        # time (with "other") and no note says they exceed it.
        self.assertNotIn("more than the wall time", flat(text))
        shares = {m.group(1): float(m.group(2)) for m in re.finditer(r"^(transfer|launch)\s+\S+ \S+\s+([\d.]+)%", text, re.M)}
        self.assertIn("transfer", shares, text)
        self.assertLessEqual(sum(shares.values()), 100.5, text)
        self.assertEqual(data[RESULT_MIME]["kind"], "time")
        page = visible(nbconvert_page([shown]))
        self.assertIn("in 1 copy by CL's clock", page)
        self.assertIn("Transfer: GO→CL 1 copy of 4.19 MB", page)

    def test_timeit_device_and_transfers_rows(self):
        data = self.timing_text("%timeit -n 20 -r 5 --plot=none y = withCopy.Call(hx)")["data"]
        self.assertShows(data, ["per loop, device", "in 1 kernel and 1 copy by CL's clock",
                                "the other", "is the host's: the interpreter, launching, synchronizing",
                                "1 copy per loop (GO→CL) · 4.19 MB per loop", "CL's clock"])
        self.assertRegex(flat(data["text/plain"]), r"transfers 1 copy per loop \(GO→CL\) · 4\.19 MB per loop · host \S+ \S+ \(\S+ \S+/s\)")

    def test_timeit_by_the_device_clock(self):
        shown = self.timing_text("%timeit -n 50 -r 5 --plot=none --clock=device y = step.Call(x)")
        data = shown["data"]
        self.assertShows(data, ["per loop (by CL's clock: median", "CL's clock", "per loop in 1 kernel",
                                "not in it: the interpreter, launching, queueing, synchronizing",
                                "this is its kernels' time in this program, not a kernel benchmark"])
        result = data[RESULT_MIME]["result"]
        self.assertEqual(result["time_by"], "device", sorted(result))
        self.assertIsNotNone(result["device"].get("host_stats"), result["device"])
        page = visible(nbconvert_page([shown]))
        self.assertIn("by CL's clock: median", page)
        self.assertIn("not a kernel benchmark", page)

    def test_prof_device_lanes(self):
        outputs = self.ok("%prof --svg -n 5 y = withCopy.Call(hx)")
        shown = displays(outputs)
        self.assertEqual(len(shown), 1, [list(d["data"]) for d in shown])
        data, meta = shown[0]["data"], shown[0]["metadata"]
        self.assertShows(data, ["5 kernels on CL", "the lanes of CL are its own clock's",
                                "put on the host's timeline by an offset measured within",
                                "copies 5 on the devices' queues"])
        # The timeline names the lanes in its own text: the SVG is in the
        # HTML as an image a reader sees; its labels are text in the SVG.
        svg = data.get("image/svg+xml", "")
        self.assertIn("device CL (own clock)", svg)
        self.assertIn("CL transfers", svg)
        threads = [e["args"]["name"] for e in meta["tick/profile"]["traceEvents"] if e.get("name") == "thread_name"]
        self.assertIn("device CL", threads)
        page = visible(nbconvert_page(shown))
        self.assertIn("the lanes of CL are its own clock's", page)


if __name__ == "__main__":
    unittest.main()
