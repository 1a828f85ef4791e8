"""Every magic's output fits the page, as a person sees it in a real browser
(headless Chromium at 1280×900): the classic Notebook 6 page running the
cells through a tick kernel, and the page `tick run --html` writes.

For each output area: no text line is cut (a <pre> scrolled sideways, or
past the area's right edge) or wrapped (more rendered lines than text
lines: the line was wider than the page), and no chart or graph reaches
past the area. The magics: %timeit (one line and a multi-line %%timeit),
%compare of three results, %time, %prof and %viz. Screenshots of each
output go to out/screenshots (TICK_SCREENSHOTS): notebook6-magics-NAME.png
and tickrun-magics-NAME.png, for a person to look at."""
import json
import os
import subprocess
import tempfile
import unittest

from test_notebook_server import CHROMIUM, SHOTS, DevTools, ServerTestCase, notebook
from tickenv import KERNEL, TIMEOUT, wait_until

SETUP = """import "tick/runtime/tensor"
x := tensor.Rand(256, 256).Realize()
w := tensor.Rand(256, 256).Realize()
fused := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor { return a[0].Mul(2).Add(1).Relu().Realize() })
unfused := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor { return a[0].Mul(2).Realize().Add(1).Realize().Relu().Realize() })
mm := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor { return a[0].Matmul(a[1]).Relu().Realize() })
var y *tensor.Tensor"""

# (screenshot name, cell); None for the set-up cell.
CELLS = [
    (None, SETUP),
    ("timeit", "%timeit -T 500ms -v fused y = fused.Call(x)"),
    (None, "%timeit -q -T 300ms -v unfused y = unfused.Call(x)"),
    (None, "%timeit -q -T 300ms -v matmul_relu_with_a_long_name y = mm.Call(x, w)"),
    ("compare3", "%compare fused unfused matmul_relu_with_a_long_name"),
    ("time", "%time y = mm.Call(x, w)"),
    ("prof", "%prof -n 6 y = mm.Call(x, w)"),
    ("viz", "%viz x.Matmul(w).Relu().Mul(0.5)"),
    ("timeit-cell", "%%timeit -T 300ms\ns := 0\nfor _, v := range []int{1, 2, 3} {\n\ts += v\n}"),
]

# What does not fit in an output area (the element, a JavaScript
# expression): text lines cut or wrapped, images and SVGs past its edge.
MISFITS_JS = """(area => {
  const bad = [];
  const edge = area.getBoundingClientRect().right + 1;
  for (const pre of area.querySelectorAll('pre')) {
    const r = pre.getBoundingClientRect();
    if (!r.width || (pre.checkVisibility && !pre.checkVisibility())) continue;  // hidden (in a closed <details>)
    const text = pre.innerText.replace(/\\n+$/, '');
    const lines = text.split('\\n');
    const widest = lines.reduce((a, b) => b.length > a.length ? b : a, '');
    const cs = getComputedStyle(pre);
    const lh = parseFloat(cs.lineHeight) || 1.2 * parseFloat(cs.fontSize);
    const pad = parseFloat(cs.paddingTop) + parseFloat(cs.paddingBottom) + parseFloat(cs.borderTopWidth) + parseFloat(cs.borderBottomWidth);
    const rendered = Math.round((r.height - pad) / lh);
    if (pre.scrollWidth > pre.clientWidth + 1 || r.right > edge)
      bad.push(`cut: a ${widest.length}-character line does not fit (${pre.scrollWidth}px in ${pre.clientWidth}px): ${widest}`);
    else if (rendered > lines.length)
      bad.push(`wrapped: ${lines.length} lines took ${rendered} on the page; the widest (${widest.length} characters): ${widest}`);
  }
  for (const el of area.querySelectorAll('img, svg')) {
    const r = el.getBoundingClientRect();
    if (r.width && r.right > edge) bad.push(`${el.tagName} reaches ${Math.round(r.right - edge)}px past the output`);
  }
  return bad;
})"""


def check_fits(test, browser, areas_js, where):
    """Assert that no output area of the page has a misfit; return their count."""
    n = browser.eval(f"{areas_js}.length")
    for i, (name, _) in enumerate(CELLS):
        if name is None:
            continue
        with test.subTest(page=where, magic=name):
            bad = browser.eval(f"{MISFITS_JS}({areas_js}[{i}])")
            test.assertEqual(bad, [], f"{where}: the {name} output does not fit the page")
    return n


@unittest.skipIf(CHROMIUM is None, "chromium is not installed (apt-get install --no-install-recommends chromium)")
class NotebookPageWidthTests(ServerTestCase):
    """The classic Notebook 6 page, 1280×900: every magic's output fits."""

    def test_outputs_fit_notebook6(self):
        path = "widths.ipynb"
        self.server.request("PUT", f"/api/contents/{path}", {"type": "notebook", "content": notebook([c for _, c in CELLS])})
        browser = DevTools(self.loop, self.root, f"{self.server.url}/notebooks/{path}?token={self.server.token}")
        self.addCleanup(browser.close)
        browser.call("Emulation.setDeviceMetricsOverride", width=1280, height=900, deviceScaleFactor=1, mobile=False)
        connected = "window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel && Jupyter.notebook.kernel.is_connected()"
        wait_until(lambda: browser.eval(connected), interval=0.1, what="the page's kernel to connect")
        self.assertEqual(browser.eval("Jupyter.notebook.kernel.name"), KERNEL)
        browser.eval("Jupyter.notebook.execute_all_cells(), true")
        done = "Jupyter.notebook.get_cells().every(c => c.input_prompt_number > 0) && Jupyter.notebook.kernel_busy === false"
        texts_js = "Jupyter.notebook.get_cells().map(c => c.output_area.element[0].innerText)"
        try:
            wait_until(lambda: browser.eval(done), timeout=6 * TIMEOUT, interval=0.2, what="the page to run every cell")
        except AssertionError as e:
            raise AssertionError(f"{e}; the page shows: {browser.eval(texts_js)}") from None
        self.assertEqual(browser.eval("document.querySelectorAll('.output_area .output_error').length"), 0,
                         browser.eval(texts_js))
        cells = "Jupyter.notebook.get_cells()"
        for i, (name, _) in enumerate(CELLS):
            if name:
                browser.screenshot(f"{cells}[{i}].element[0]", os.path.join(SHOTS, f"notebook6-magics-{name}.png"))
        # Go's tabs: blank in code cells, not Notebook 6's arrows (kernel.js).
        tab = "document.querySelector('.CodeMirror span.cm-tab')"
        self.assertTrue(browser.eval(f"!!{tab}"), "no tab in the code cells to look at")
        self.assertEqual(browser.eval(f"getComputedStyle({tab}).backgroundImage"), "none",
                         "tabs in Go cells are drawn as arrows")
        self.assertTrue(browser.eval(f"{cells}[0].code_mirror.getOption('indentWithTabs')"), "Tab does not indent with a tab")
        n = check_fits(self, browser, f"{cells}.map(c => c.output_area.element[0])", "Notebook 6")
        self.assertEqual(n, len(CELLS))


@unittest.skipIf(CHROMIUM is None, "chromium is not installed (apt-get install --no-install-recommends chromium)")
class TickRunPageWidthTests(ServerTestCase):
    """The page of `tick run --html`, 1280×900: every magic's output fits.
    (A ServerTestCase only for its event loop and scratch directory.)"""

    def test_outputs_fit_tick_run_page(self):
        d = tempfile.mkdtemp(dir=self.root)
        nb, page = os.path.join(d, "widths.ipynb"), os.path.join(d, "widths.html")
        with open(nb, "w") as f:
            json.dump(notebook([c for _, c in CELLS]), f)
        tick = os.environ.get("TICK_BIN") or "tick"
        run = subprocess.run([tick, "run", nb, "-o", os.path.join(d, "out.ipynb"), "--html", page],
                             capture_output=True, text=True, timeout=6 * TIMEOUT)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        browser = DevTools(self.loop, self.root, "file://" + page)
        self.addCleanup(browser.close)
        browser.call("Emulation.setDeviceMetricsOverride", width=1280, height=900, deviceScaleFactor=1, mobile=False)
        sections = "document.querySelectorAll('section.cell.code')"
        wait_until(lambda: browser.eval(f"document.readyState == 'complete' && {sections}.length") == len(CELLS),
                   what="the page to load")
        areas = "Array.from(document.querySelectorAll('section.cell.code')).map(s => s.querySelector('.outputs') || s)"
        for i, (name, _) in enumerate(CELLS):
            if name:
                browser.screenshot(f"{sections}[{i}]", os.path.join(SHOTS, f"tickrun-magics-{name}.png"))
        n = check_fits(self, browser, areas, "tick run --html")
        self.assertEqual(n, len(CELLS))


if __name__ == "__main__":
    unittest.main()
