"""%prof and %viz in Notebook 6's page in headless Chromium: the page runs
the cells through a tick kernel and renders the outputs; the visible text
(innerText) of each output area shows the profile's numbers and kernel
table, the timeline decodes as an image, the %viz graph is an SVG with its
kernel clusters, and the kernel sections are collapsible. A screenshot of
the page is saved (TICK_SCREENSHOT=path) for a person to look at."""
import base64
import os
import unittest

from test_notebook_server import CHROMIUM, DevTools, ServerTestCase, notebook
from tickenv import KERNEL, wait_until

CELLS = [
    """import "tick/runtime/tensor"
x := tensor.Rand(128, 128).Realize()
w := tensor.Rand(128, 128).Realize()
step := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor {
	return a[0].Sub(a[0].MeanKeepDim(1)).Realize().Matmul(a[1]).Realize().Relu().Realize()
})
var y *tensor.Tensor""",
    "%prof -n 6 y = step.Call(x, w)",
    "%viz x.Matmul(w).Relu().Mul(0.5)",
]


@unittest.skipIf(CHROMIUM is None, "chromium is not installed (apt-get install --no-install-recommends chromium)")
class ProfBrowserTests(ServerTestCase):
    def test_prof_and_viz_in_the_page(self):
        path = "prof.ipynb"
        self.server.request("PUT", f"/api/contents/{path}", {"type": "notebook", "content": notebook(CELLS)})
        browser = DevTools(self.loop, self.root, f"{self.server.url}/notebooks/{path}?token={self.server.token}")
        self.addCleanup(browser.close)
        connected = "window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel && Jupyter.notebook.kernel.is_connected()"
        wait_until(lambda: browser.eval(connected), interval=0.1, what="the page's kernel to connect")
        self.assertEqual(browser.eval("Jupyter.notebook.kernel.name"), KERNEL)
        browser.eval("Jupyter.notebook.execute_all_cells(), true")
        done = ("Jupyter.notebook.get_cells().every(c => c.input_prompt_number > 0)"
                " && Jupyter.notebook.kernel_busy === false")
        texts_js = "Jupyter.notebook.get_cells().map(c => c.output_area.element[0].innerText)"
        try:
            wait_until(lambda: browser.eval(done), timeout=120, interval=0.2, what="the page to run every cell")
        except AssertionError as e:
            raise AssertionError(f"{e}; the page shows: {browser.eval(texts_js)}") from None
        texts = browser.eval(texts_js)
        self.assertEqual(browser.eval("document.querySelectorAll('.output_area .output_error').length"), 0, texts)

        # %prof: the text a person reads, and the timeline as a decoded image.
        prof = texts[1]
        for want in ("of host work ran while a device was busy", "1 cold · 1 capture · 4 replay calls",
                     "kernels  device time per kernel", "GFLOP/s", "R_128_128_r128"):
            self.assertIn(want, prof)
        width = browser.eval("Jupyter.notebook.get_cells()[1].output_area.element[0].querySelector('img').naturalWidth")
        self.assertGreater(width, 500, "the %prof timeline did not decode as an image in the page")

        # %viz: the summary, the SVG graph with kernel clusters, collapsed sections.
        vz = texts[2]
        for want in ("2 kernels", "why a kernel: a reduce", "kernel 1: R_128_128_r128 on"):
            self.assertIn(want, vz)
        area = "Jupyter.notebook.get_cells()[2].output_area.element[0]"
        self.assertGreaterEqual(browser.eval(f"{area}.querySelectorAll('svg g.cluster').length"), 2)
        self.assertEqual(browser.eval(f"{area}.querySelectorAll('details').length"), 2)
        self.assertNotIn("#include", vz, "kernel sources must be collapsed until opened")

        shot = os.environ.get("TICK_SCREENSHOT")
        if shot:
            browser.call("Emulation.setDeviceMetricsOverride", width=1200, height=2400, deviceScaleFactor=1, mobile=False)
            png = browser.call("Page.captureScreenshot", format="png", captureBeyondViewport=True)["data"]
            with open(shot, "wb") as f:
                f.write(base64.b64decode(png))


if __name__ == "__main__":
    unittest.main()
