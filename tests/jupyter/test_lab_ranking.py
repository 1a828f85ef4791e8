"""What JupyterLab shows of tick's outputs, checked with JupyterLab's own
renderer packages from npm (@jupyterlab/rendermime and
@jupyterlab/json-extension, installed by scripts/install-deps.sh into
tests/lab): the timing magics run in a real kernel, and for every output
they produce, the MIME type Lab's registry picks (ranked as Lab registers
its renderers, the JSON tree first) must be one that shows text or a chart,
never a JSON tree. The registry runs in headless Chromium, bundled with
esbuild."""
import asyncio
import json
import os
import shutil
import subprocess
import tempfile
import unittest

from jupyter_client.manager import start_new_kernel

from tickenv import KERNEL, TIMEOUT, run, wait_until
from test_notebook_server import CHROMIUM, DevTools, JIT_SETUP

LAB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lab")
RESULT_MIME = "application/vnd.tick.timing.v1+json"
TEXT = {"text/html", "text/plain", "text/markdown"}
CHART = {"image/png", "image/svg+xml"}

CELLS = [
    JIT_SETUP + "\nx2 := tensor.Arange(1024).Realize()\nstep2 := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor {\n"
    "\treturn a[0].Mul(2).Add(1).Realize()\n})",
    "%timeit -T 300ms -v a y = step.Call(x)",
    "%timeit -T 300ms --svg --plot=hist,trace,ecdf -v b y = step2.Call(x2)",
    "%timeit -o -n 10 -r 7 y = step.Call(x)",
    "%timeit -q -o -n 10 -r 7 y = step.Call(x)",
    "%timeit --json -n 10 -r 7 y = step.Call(x)",
    "%timeit -T 300ms --vs 'y = step2.Call(x2)' y = step.Call(x)",
    "%%timeit -n 10 -r 7\ny = step.Call(x)",
    "%time y = step.Call(x)",
    "%time --plot=none y = step.Call(x)",
    "%compare a b",
    "%compare -o --plot=none a b",
    "%compare -q -o a b",
]


@unittest.skipIf(CHROMIUM is None, "chromium is not installed (apt-get install --no-install-recommends chromium)")
class LabRankingTests(unittest.TestCase):
    def test_every_timing_output_shows_text_or_a_chart(self):
        if not os.path.isdir(os.path.join(LAB, "node_modules", "@jupyterlab", "rendermime")):
            self.fail("JupyterLab's renderer packages are missing: run scripts/install-deps.sh (npm ci in tests/lab)")
        work = tempfile.mkdtemp(dir=os.environ.get("TICK_TMP"))
        self.addCleanup(shutil.rmtree, work, ignore_errors=True)
        bundle = os.path.join(work, "rank.js")
        subprocess.run([os.path.join(LAB, "node_modules", ".bin", "esbuild"), "rank.mjs", "--bundle", "--platform=browser",
                        "--format=iife", "--global-name=tickLab", "--loader:.css=empty", "--loader:.svg=text",
                        "--log-level=error", f"--outfile={bundle}"], cwd=LAB, check=True, timeout=120)
        page = os.path.join(work, "lab.html")
        with open(page, "w") as f:
            f.write('<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><script src="rank.js" charset="utf-8"></script></body></html>')

        outputs, where = [], []
        km, kc = start_new_kernel(kernel_name=KERNEL, startup_timeout=TIMEOUT)
        try:
            for code in CELLS:
                reply, msgs = run(kc, code, timeout=120)
                self.assertEqual(reply["content"]["status"], "ok", f"{code!r}: {reply['content']}")
                for m in msgs:
                    if m["msg_type"] in ("display_data", "execute_result", "update_display_data"):
                        outputs.append({"data": m["content"]["data"], "type": m["msg_type"]})
                        where.append(code)
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=True)
        self.assertGreater(len(outputs), 20)

        loop = asyncio.new_event_loop()
        self.addCleanup(loop.close)
        browser = DevTools(loop, work, "file://" + page)
        self.addCleanup(browser.close)
        wait_until(lambda: browser.eval("typeof tickLab !== 'undefined'"), what="the Lab bundle to load")
        json_types = browser.eval("tickLab.jsonTypes")
        self.assertIn("application/json", json_types)
        ranked = browser.eval(f"tickLab.rank({json.dumps(outputs)})")

        for o, r, code in zip(outputs, ranked, where):
            data = o["data"]
            what = f"{code!r}: {o['type']} with {sorted(data)} shows {r}"
            for mode in ("trusted", "untrusted"):
                self.assertNotIn(r[mode], json_types, f"a JSON tree: {what}")
                self.assertIn(r[mode], TEXT | CHART, what)
            if RESULT_MIME in data and "text/html" in data:
                # Lab sanitizes HTML it does not trust, so both show the <pre>.
                self.assertEqual((r["trusted"], r["untrusted"]), ("text/html", "text/html"), what)
            if CHART & set(data):
                self.assertIn(r["trusted"], CHART, what)


if __name__ == "__main__":
    unittest.main()
