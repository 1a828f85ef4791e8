"""tick behind the classic Jupyter Notebook server, the path browsers use:
the server starts on a free port with a token, a tick kernel is created
through the REST API, and cells run over the server's websocket bridge
(/api/kernels/<id>/channels) in its JSON message format: stream output, an
execute_result, %timeit's PNG plot, an error, interrupt and restart through
REST, and a notebook saved through the contents API, run cell by cell in a
session and saved again with its outputs.

Needs Debian's jupyter-notebook package (scripts/install-deps.sh installs
it); the tests skip, saying so, when it is missing."""
import asyncio
import base64
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import unittest
import urllib.error
import urllib.request
import uuid

from tornado.httpclient import HTTPRequest
from tornado.websocket import websocket_connect

from tickenv import KERNEL, TIMEOUT, wait_until

NOTEBOOK = shutil.which("jupyter-notebook")
CHROMIUM = shutil.which("chromium")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

JIT_SETUP = """import "tick/runtime/tensor"
x := tensor.Arange(256).Realize()
step := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor {
	return a[0].Mul(2).Add(1).Realize()
})
var y *tensor.Tensor"""


def free_port():
    """A TCP port on 127.0.0.1 that was free a moment ago (the notebook
    server does not accept port 0, so the caller may still collide)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tick_processes(marker):
    """Pids of live processes whose command line contains marker."""
    pids = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/cmdline", "rb") as f:
                cmd = f.read()
            with open(f"/proc/{d}/stat") as f:
                zombie = f.read().rsplit(")", 1)[1].split()[0] == "Z"
        except OSError:
            continue
        if marker.encode() in cmd and not zombie:
            pids.append(int(d))
    return pids


class NotebookServer:
    """One `jupyter notebook` process with its own notebook, runtime and
    config directories under root, and a random token."""

    def __init__(self, root):
        self.root = root
        self.token = uuid.uuid4().hex
        self.notebook_dir = os.path.join(root, "notebooks")
        self.runtime_dir = os.path.join(root, "runtime")
        os.makedirs(self.notebook_dir)
        self.proc = None
        self.log = None
        self.leaked = []  # kernel pids found alive after stop()

    def start(self):
        """Start the server; retry once on a new port if the first one was
        taken between free_port() and the server's bind."""
        for attempt in range(2):
            self.port = free_port()
            self.url = f"http://127.0.0.1:{self.port}"
            self.log_path = os.path.join(self.root, f"server-{attempt}.log")
            self.log = open(self.log_path, "wb")
            env = dict(os.environ, JUPYTER_RUNTIME_DIR=self.runtime_dir)
            self.proc = subprocess.Popen(
                [NOTEBOOK, "--no-browser", "--allow-root", "--ip=127.0.0.1",
                 f"--port={self.port}", "--NotebookApp.port_retries=0",
                 f"--NotebookApp.token={self.token}",
                 f"--NotebookApp.notebook_dir={self.notebook_dir}"],
                stdout=self.log, stderr=subprocess.STDOUT, env=env,
                start_new_session=True)
            try:
                wait_until(self.ready, what=f"the notebook server on port {self.port} ({self.log_path})")
                return
            except ServerExited:
                self.log.close()
                if attempt == 1 or "already in use" not in self.log_text():
                    raise AssertionError(f"the notebook server exited at start:\n{self.log_text()}")

    def ready(self):
        if self.proc.poll() is not None:
            raise ServerExited()
        try:
            return self.request("GET", "/api/status", timeout=1) is not None
        except (urllib.error.URLError, ConnectionError, OSError):
            return False

    def log_text(self):
        with open(self.log_path, "rb") as f:
            return f.read().decode(errors="replace")

    def request(self, method, path, body=None, timeout=TIMEOUT):
        """A REST call with the token; returns the decoded JSON (or None)."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method,
                                     headers={"Authorization": f"token {self.token}",
                                              "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=timeout) as r:
            raw = r.read()
        return json.loads(raw) if raw else None

    def stop(self):
        """Stop the server (it shuts its kernels down on SIGTERM), kill it
        after 10 s, and kill any kernel it left behind."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()
        # Kernels started by this server name a connection file in its own
        # runtime directory: any still alive were leaked.
        self.leaked = tick_processes(self.runtime_dir)
        for pid in self.leaked:
            os.kill(pid, signal.SIGKILL)


class ServerExited(Exception):
    pass


class Channels:
    """A websocket to /api/kernels/<id>/channels, spoken the way the
    notebook's JavaScript speaks it: JSON messages with header,
    parent_header, metadata, content and channel. Calls block; each runs
    the event loop until its answer arrives or TIMEOUT passes."""

    def __init__(self, loop, server, kernel_id):
        self.loop = loop
        self.session = uuid.uuid4().hex
        url = (f"ws://127.0.0.1:{server.port}/api/kernels/{kernel_id}/channels"
               f"?session_id={self.session}")
        req = HTTPRequest(url, headers={"Authorization": f"token {server.token}"})
        self.conn = self.sync(lambda: websocket_connect(req))
        self.closed = False
        self.seen = []  # every message received, in order (for failure messages)

    def sync(self, start, timeout=TIMEOUT):
        """Run the loop until the awaitable start() returns is done. start
        is called inside the running loop: tornado ties its futures to it."""
        async def run():
            return await asyncio.wait_for(start(), timeout)
        return self.loop.run_until_complete(run())

    def close(self):
        """Close the websocket and wait for the server's close frame, so no
        reader task is left pending when the loop closes. Closing twice
        is a no-op."""
        if self.closed:
            return
        self.closed = True
        async def close():
            self.conn.close()
            while await self.conn.read_message() is not None:
                pass
        # tornado aborts the connection itself 5 s after close() without
        # an answer, which ends the read loop below.
        self.sync(close, timeout=10)

    def send(self, msg_type, content, channel="shell"):
        """Send a request; return its msg_id."""
        msg_id = uuid.uuid4().hex
        self.sync(lambda: self.conn.write_message(json.dumps({
            "header": {"msg_id": msg_id, "msg_type": msg_type, "username": "test",
                       "session": self.session, "date": "", "version": "5.3"},
            "parent_header": {}, "metadata": {}, "content": content,
            "channel": channel, "buffers": []})))
        return msg_id

    async def _next(self):
        raw = await self.conn.read_message()
        if raw is None:
            raise AssertionError(f"the server closed the websocket; last messages: {self.seen[-5:]}")
        m = json.loads(raw)
        self.seen.append(m)
        return m

    def until(self, pred, got=None, timeout=TIMEOUT):
        """Read messages into got (a list) until pred(got) is true; return got."""
        got = [] if got is None else got
        async def read():
            while not pred(got):
                got.append(await self._next())
            return got
        try:
            return self.sync(read, timeout)
        except asyncio.TimeoutError:
            raise AssertionError(f"timed out after {timeout}s; last messages: "
                                 f"{[(m['channel'], m['msg_type']) for m in self.seen[-8:]]}") from None

    def finish(self, msg_id, got=None, timeout=TIMEOUT):
        """Read up to both the shell reply and the iopub idle of msg_id;
        return (reply, iopub outputs without status/execute_input)."""
        mine = lambda m: m["parent_header"].get("msg_id") == msg_id
        def done(got):
            return (any(mine(m) and m["channel"] == "shell" for m in got) and
                    any(mine(m) and m["msg_type"] == "status" and
                        m["content"]["execution_state"] == "idle" for m in got))
        got = [m for m in self.until(done, got, timeout) if mine(m)]
        reply = next(m for m in got if m["channel"] == "shell")
        outputs = [m for m in got if m["channel"] == "iopub" and
                   m["msg_type"] not in ("status", "execute_input")]
        return reply, outputs

    def execute(self, code, timeout=TIMEOUT):
        msg_id = self.send("execute_request", {
            "code": code, "silent": False, "store_history": True,
            "user_expressions": {}, "allow_stdin": False, "stop_on_error": True})
        return self.finish(msg_id, timeout=timeout)

    def wait_ready(self, timeout=TIMEOUT):
        """Send kernel_info until iopub answers too, and return the reply.
        When a websocket opens, notebook 6.4's server "nudges" the kernel
        (kernel_info on private channels until iopub speaks) and, until
        then, consumes every iopub message itself: a request sent at once
        gets its shell reply but its status and output can vanish (seen in
        about 1 connection in 15 here). Retrying until our own iopub
        status arrives is what jupyter_client's wait_for_ready does too."""
        deadline = time.monotonic() + timeout
        while True:
            msg_id = self.send("kernel_info_request", {})
            mine = lambda m: m["parent_header"].get("msg_id") == msg_id
            got = []
            try:
                self.until(lambda got: any(mine(m) and m["channel"] == "iopub" for m in got) and
                           any(mine(m) and m["channel"] == "shell" for m in got), got, timeout=0.5)
                return next(m for m in got if mine(m) and m["channel"] == "shell")
            except AssertionError:
                if time.monotonic() > deadline:
                    raise AssertionError(f"the kernel did not answer kernel_info on shell and iopub within {timeout}s; "
                                         f"last messages: {[(m['channel'], m['msg_type']) for m in self.seen[-8:]]}") from None


def stream_text(outputs, name="stdout"):
    return "".join(m["content"]["text"] for m in outputs
                   if m["msg_type"] == "stream" and m["content"]["name"] == name)


class ServerTestCase(unittest.TestCase):
    """Starts a notebook server for the class; always stops it."""

    @classmethod
    def setUpClass(cls):
        if NOTEBOOK is None:
            raise unittest.SkipTest("jupyter-notebook is not installed "
                                    "(scripts/install-deps.sh installs Debian's jupyter-notebook)")
        cls.root = tempfile.mkdtemp(dir=os.environ.get("TICK_TMP"))
        cls.server = NotebookServer(cls.root)
        cls.addClassCleanup(cls.stop_server)
        cls.server.start()
        cls.loop = asyncio.new_event_loop()
        cls.addClassCleanup(cls.loop.close)

    @classmethod
    def stop_server(cls):
        cls.server.stop()
        shutil.rmtree(cls.root, ignore_errors=True)
        if cls.server.leaked:
            raise AssertionError(f"kernel processes outlived the notebook server: {cls.server.leaked}")

    def new_kernel(self):
        """POST /api/kernels for a tick kernel and open its channels; both
        are closed/deleted when the test ends."""
        k = self.server.request("POST", "/api/kernels", {"name": KERNEL})
        self.assertEqual(k["name"], KERNEL, k)
        self.addCleanup(self.delete_kernel, k["id"])
        ch = self.channels(k["id"])
        info = ch.wait_ready()
        self.assertEqual(info["content"]["language_info"]["name"], "go", info["content"])
        return k["id"], ch

    def channels(self, kernel_id):
        ch = Channels(self.loop, self.server, kernel_id)
        self.addCleanup(ch.close)
        return ch

    def delete_kernel(self, kernel_id):
        try:
            self.server.request("DELETE", f"/api/kernels/{kernel_id}")
        except urllib.error.HTTPError as e:
            if e.code != 404:
                raise

    def ok(self, ch, code, **kw):
        reply, outputs = ch.execute(code, **kw)
        self.assertEqual(reply["content"]["status"], "ok", f"{code!r}: {reply['content']} {outputs}")
        return outputs

    def value(self, ch, code):
        outs = self.ok(ch, code)
        results = [m["content"] for m in outs if m["msg_type"] == "execute_result"]
        self.assertEqual(len(results), 1, f"{code!r} gave {outs}")
        return results[0]["data"]["text/plain"]


class NotebookServerKernelTests(ServerTestCase):
    def test_kernelspec_listed(self):
        specs = self.server.request("GET", "/api/kernelspecs")
        self.assertIn(KERNEL, specs["kernelspecs"], "the server does not offer tick")
        self.assertEqual(specs["kernelspecs"][KERNEL]["spec"]["language"], "go")

    def test_stream_result_and_error(self):
        _, ch = self.new_kernel()
        outs = self.ok(ch, 'import "fmt"\nfmt.Println("hello through the notebook server")')
        self.assertEqual(stream_text(outs), "hello through the notebook server\n")

        self.assertEqual(self.value(ch, "n := 6\nn * 7"), "42")

        reply, outs = ch.execute("n + undefinedName")
        self.assertEqual(reply["content"]["status"], "error", reply["content"])
        errors = [m["content"] for m in outs if m["msg_type"] == "error"]
        self.assertEqual(len(errors), 1, outs)
        self.assertIn("undefinedName", " ".join(errors[0]["traceback"]) + errors[0]["evalue"])
        self.assertTrue(all(isinstance(t, str) for t in errors[0]["traceback"]))
        # the failed cell changed nothing
        self.assertEqual(self.value(ch, "n"), "6")

    def test_timeit_plot(self):
        _, ch = self.new_kernel()
        self.ok(ch, JIT_SETUP)
        outs = self.ok(ch, "%timeit -n 20 -r 7 --check 'y.Float32s()[5] == 11' y = step.Call(x)")
        shown = [m["content"]["data"] for m in outs if m["msg_type"] == "display_data"]
        self.assertTrue(shown, f"%timeit displayed nothing: {outs}")
        texts = [d for d in shown if "text/html" in d]
        charts = [d for d in shown if "image/png" in d]
        self.assertEqual((len(texts), len(charts)), (1, 1), f"want one text and one chart output: {shown}")
        self.assertIn("per loop", texts[0]["text/plain"])
        png = base64.b64decode(charts[0]["image/png"])
        self.assertTrue(png.startswith(PNG_MAGIC), png[:16])
        self.assertGreater(len(png), 1000)

    def test_interrupt_then_state_kept(self):
        kid, ch = self.new_kernel()
        self.ok(ch, "kept := 41")
        msg_id = ch.send("execute_request", {
            "code": 'println("spinning")\nfor {\n}', "silent": False, "store_history": True,
            "user_expressions": {}, "allow_stdin": False, "stop_on_error": True})
        got = ch.until(lambda got: any(
            m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "stream" and
            "spinning" in m["content"]["text"] for m in got))
        self.server.request("POST", f"/api/kernels/{kid}/interrupt")
        reply, _ = ch.finish(msg_id, got)  # the loop never ends by itself
        self.assertEqual(reply["content"]["status"], "error", reply["content"])
        self.assertEqual(reply["content"]["ename"], "Interrupted", reply["content"])
        self.assertEqual(self.value(ch, "kept + 1"), "42")
        k = self.server.request("GET", f"/api/kernels/{kid}")
        self.assertEqual(k["execution_state"], "idle", k)

    def test_restart(self):
        kid, ch = self.new_kernel()
        self.ok(ch, "before := 1")
        before = tick_processes(self.server.runtime_dir)
        self.assertEqual(len(before), 1, "expected to find the one kernel process of this server")
        # The page closes its channels, restarts through REST, reconnects.
        ch.close()
        self.server.request("POST", f"/api/kernels/{kid}/restart")
        ch = self.channels(kid)
        ch.wait_ready()
        after = tick_processes(self.server.runtime_dir)
        self.assertEqual(len(after), 1, f"kernel processes after restart: {after}")
        self.assertNotEqual(before, after, "restart kept the old process")
        reply, outs = ch.execute("before")
        self.assertEqual(reply["content"]["status"], "error", "state survived a restart")
        self.assertEqual(reply["content"]["execution_count"], 1, "a restarted kernel counts from 1")
        self.assertEqual(self.value(ch, "after := 2\nafter * 21"), "42")
        ch.close()
        self.server.request("DELETE", f"/api/kernels/{kid}")
        wait_until(lambda: not tick_processes(self.server.runtime_dir), timeout=10,
                   what="the kernel process to exit after DELETE /api/kernels/<id>")


class NotebookSessionTests(ServerTestCase):
    """What the notebook page does: save a notebook through the contents
    API, open a session for it with a tick kernel, run its cells, and save
    their outputs back."""

    CELLS = [
        'import "fmt"\nfmt.Println("cell one")',
        "answer := 6 * 7\nanswer",
        JIT_SETUP,
        "%timeit -n 10 -r 5 y = step.Call(x)",
    ]

    def test_save_run_save(self):
        nb = notebook(self.CELLS)
        path = "run-me.ipynb"
        saved = self.server.request("PUT", f"/api/contents/{path}", {"type": "notebook", "content": nb})
        self.assertEqual(saved["path"], path)

        s = self.server.request("POST", "/api/sessions", {
            "path": path, "type": "notebook", "name": "", "kernel": {"name": KERNEL}})
        self.addCleanup(self.server.request, "DELETE", f"/api/sessions/{s['id']}")
        self.assertEqual(s["kernel"]["name"], KERNEL, s)
        ch = self.channels(s["kernel"]["id"])
        ch.wait_ready()

        model = self.server.request("GET", f"/api/contents/{path}")["content"]
        for cell in model["cells"]:
            reply, outs = ch.execute(cell["source"])
            self.assertEqual(reply["content"]["status"], "ok", f"{cell['source']!r}: {reply['content']}")
            cell["execution_count"] = reply["content"]["execution_count"]
            cell["outputs"] = [as_output(m) for m in outs]
        self.server.request("PUT", f"/api/contents/{path}", {"type": "notebook", "content": model})

        back = self.server.request("GET", f"/api/contents/{path}")["content"]["cells"]
        self.assertEqual([c["execution_count"] for c in back], [1, 2, 3, 4])
        self.assertEqual(back[0]["outputs"][0]["text"], "cell one\n")
        self.assertEqual(back[1]["outputs"][0]["data"]["text/plain"], "42")
        png = [o["data"]["image/png"] for o in back[3]["outputs"] if "image/png" in o.get("data", {})]
        self.assertTrue(png, back[3]["outputs"])
        self.assertTrue(base64.b64decode(png[-1]).startswith(PNG_MAGIC))


class DevTools:
    """A headless Chromium driven over the DevTools protocol: started with
    --remote-debugging-port=0 (it writes the port it chose to
    DevToolsActivePort in its profile), one page, Runtime.evaluate."""

    def __init__(self, loop, root, url):
        self.loop = loop
        self.profile = tempfile.mkdtemp(prefix="chromium-profile-", dir=root)  # one per browser
        self.log = open(os.path.join(self.profile + ".log"), "wb")
        self.proc = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
             f"--user-data-dir={self.profile}", "--remote-debugging-port=0", url],
            stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        def port():
            if self.proc.poll() is not None:
                raise AssertionError(f"chromium exited with {self.proc.returncode}; see {self.log.name}")
            try:
                with open(port_file) as f:
                    return f.read().split()[0]
            except (OSError, IndexError):
                return None
        self.port = wait_until(port, what="chromium's DevTools port")
        def page():
            try:  # the port file can appear before the endpoint listens
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/json/list", timeout=5) as r:
                    pages = [t for t in json.load(r) if t["type"] == "page"]
            except (urllib.error.URLError, ConnectionError):
                return None
            return pages[0]["webSocketDebuggerUrl"] if pages else None
        ws_url = wait_until(page, what="chromium's page target")
        self.conn = self.sync(lambda: websocket_connect(ws_url, max_message_size=64 << 20))
        self.next_id = 0

    def sync(self, start, timeout=TIMEOUT):
        async def run():
            return await asyncio.wait_for(start(), timeout)
        return self.loop.run_until_complete(run())

    def call(self, method, **params):
        """Send one command; return its result (events are skipped)."""
        self.next_id += 1
        want = self.next_id
        async def run():
            await self.conn.write_message(json.dumps({"id": want, "method": method, "params": params}))
            while True:
                raw = await self.conn.read_message()
                if raw is None:
                    raise AssertionError("chromium closed the DevTools connection")
                m = json.loads(raw)
                if m.get("id") == want:
                    if "error" in m:
                        raise AssertionError(f"{method}: {m['error']}")
                    return m["result"]
        return self.sync(run)

    def eval(self, js):
        """The value of a JavaScript expression in the page."""
        r = self.call("Runtime.evaluate", expression=js, returnByValue=True)
        if "exceptionDetails" in r:
            raise AssertionError(f"{js!r} threw: {r['exceptionDetails']}")
        return r["result"].get("value")

    def screenshot(self, js_element, path):
        """Save a PNG of the element js_element evaluates to (the whole
        element, scrolled into view if need be)."""
        # The classic page scrolls inside #site, not the window: make the
        # viewport tall enough for the element, scroll it to the top, clip.
        height = self.eval(f"({js_element}).getBoundingClientRect().height")
        self.call("Emulation.setDeviceMetricsOverride", width=1280, height=max(900, int(height) + 160),
                  deviceScaleFactor=1, mobile=False)
        rect = self.eval(f"(() => {{ const e = {js_element}; e.scrollIntoView(); const r = e.getBoundingClientRect(); "
                         "return {x: r.left, y: r.top, width: r.width, height: r.height}; })()")
        shot = self.call("Page.captureScreenshot", format="png", clip=dict(rect, scale=1))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(base64.b64decode(shot["data"]))
        return path

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:
            pass  # it may already be gone; the kill below makes sure
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        async def drain():  # the browser is gone: its socket ends the reader
            while await self.conn.read_message() is not None:
                pass
        self.sync(drain, timeout=10)
        self.log.close()


@unittest.skipIf(CHROMIUM is None, "chromium is not installed (apt-get install --no-install-recommends chromium)")
class BrowserTests(ServerTestCase):
    """The notebook page itself in headless Chromium: its JavaScript
    connects to a tick kernel, runs every cell, and renders the outputs."""

    CELLS = [
        'import "fmt"\nfmt.Println("printed in " + "the browser")',
        "6 * 7",
        JIT_SETUP,
        "%timeit -n 10 -r 5 y = step.Call(x)",
    ]

    def test_page_runs_cells(self):
        path = "browser.ipynb"
        self.server.request("PUT", f"/api/contents/{path}", {"type": "notebook", "content": notebook(self.CELLS)})
        browser = DevTools(self.loop, self.root, f"{self.server.url}/notebooks/{path}?token={self.server.token}")
        self.addCleanup(browser.close)

        connected = "window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel && Jupyter.notebook.kernel.is_connected()"
        wait_until(lambda: browser.eval(connected), interval=0.1, what="the page's kernel to connect")
        self.assertEqual(browser.eval("Jupyter.notebook.kernel.name"), KERNEL)
        browser.eval("Jupyter.notebook.execute_all_cells(), true")

        # Done when every cell has an execution count and the kernel is idle.
        done = ("Jupyter.notebook.get_cells().every(c => c.input_prompt_number > 0)"
                " && Jupyter.notebook.kernel_busy === false"
                " && document.querySelectorAll('.output_area img[src^=\"data:image/png\"]').length > 0")
        texts_js = "Jupyter.notebook.get_cells().map(c => c.output_area.element[0].innerText)"
        try:
            wait_until(lambda: browser.eval(done), interval=0.1, what="the page to run every cell and show the plot")
        except AssertionError as e:
            raise AssertionError(f"{e}; the page shows: {browser.eval(texts_js)}") from None
        texts = browser.eval(texts_js)
        self.assertIn("printed in the browser", texts[0])
        self.assertIn("42", texts[1])
        self.assertEqual(browser.eval("document.querySelectorAll('.output_area .output_error').length"), 0, texts)
        # The page shows %timeit's text (its innerText, not the model) and its chart.
        self.assertIn("per loop", texts[3])
        width = browser.eval("Jupyter.notebook.get_cells()[3].output_area.element[0].querySelector('img').naturalWidth")
        self.assertGreater(width, 100, "the %timeit plot did not decode as an image in the page")


# Where the browser test keeps its screenshots (CI artifacts).
SHOTS = os.environ.get("TICK_SCREENSHOTS") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "out", "screenshots")

HEADLINE = r"per loop \((median (± |\[)95% confidence interval\]?|median of)"


@unittest.skipIf(CHROMIUM is None, "chromium is not installed (apt-get install --no-install-recommends chromium)")
class TimingPageTests(ServerTestCase):
    """What a person sees of %timeit, %time and %compare in the classic
    Notebook page: the visible text of each output area (innerText, what
    the DOM renders, not the model) holds the headline with its interval,
    a warning and the provenance, and the chart is displayed as an image
    at its layout size. Screenshots go to out/screenshots."""

    CELLS = [
        JIT_SETUP + "\nx2 := tensor.Arange(1024).Realize()\nstep2 := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor {\n"
        "\treturn a[0].Mul(2).Add(1).Realize()\n})",
        # default length (2 s): the progress line shows, then the result replaces it
        "%timeit --sync=none -v a --check 'y.Float32s()[5] == 11' y = step.Call(x)",
        "%timeit -q -T 500ms -v b y = step2.Call(x2)",
        "%compare a b",
        "%time y = step.Call(x)",
    ]

    def open_page(self, path, cells):
        self.server.request("PUT", f"/api/contents/{path}", {"type": "notebook", "content": notebook(cells)})
        browser = DevTools(self.loop, self.root, f"{self.server.url}/notebooks/{path}?token={self.server.token}")
        self.addCleanup(browser.close)
        browser.call("Emulation.setDeviceMetricsOverride", width=1280, height=900, deviceScaleFactor=1, mobile=False)
        connected = "window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel && Jupyter.notebook.kernel.is_connected()"
        wait_until(lambda: browser.eval(connected), interval=0.1, what="the page's kernel to connect")
        return browser

    def test_timing_outputs_visible(self):
        browser = self.open_page("timing.ipynb", self.CELLS)
        browser.eval("Jupyter.notebook.execute_all_cells(), true")
        done = ("Jupyter.notebook.get_cells().every(c => c.input_prompt_number > 0) && Jupyter.notebook.kernel_busy === false")
        texts_js = "Jupyter.notebook.get_cells().map(c => c.output_area.element[0].innerText)"
        # The progress line of the 2 s %timeit is on the page while it runs.
        progress = wait_until(lambda: "elapsed" in browser.eval(texts_js)[1] and browser.eval(texts_js)[1],
                              interval=0.05, timeout=60, what="the %timeit progress line")
        self.assertIn("%timeit:", progress)
        try:
            wait_until(lambda: browser.eval(done), interval=0.1, timeout=90, what="the page to run every cell")
        except AssertionError as e:
            raise AssertionError(f"{e}; the page shows: {browser.eval(texts_js)}") from None
        texts = browser.eval(texts_js)
        self.assertEqual(browser.eval("document.querySelectorAll('.output_area .output_error').length"), 0, texts)
        cells = "Jupyter.notebook.get_cells()"
        for i, name in ((1, "timeit"), (3, "compare"), (4, "time")):
            browser.screenshot(f"{cells}[{i}].element[0]", os.path.join(SHOTS, f"notebook6-{name}.png"))

        timeit = texts[1]
        self.assertRegex(timeit, HEADLINE, "the %timeit headline (median and interval) is not visible")
        self.assertIn("warning: --sync=none on an asynchronous device", " ".join(timeit.split()))
        self.assertRegex(timeit, r"provenance +device CPU|provenance +device GO", "the provenance line is not visible")
        self.assertNotIn("elapsed", timeit, "the progress line was left behind")
        self.assertEqual(browser.eval(f"{cells}[1].output_area.outputs.length"), 2, "want the text and the chart, nothing else")
        for line in timeit.splitlines():
            self.assertLessEqual(len(line), 100, f"line too wide for the page: {line!r}")
        # Each line of the block is one rendered line: nothing wraps in Notebook 6 at its default width.
        pre = f"{cells}[1].output_area.element[0].querySelector('pre.tick-timing')"
        lines = browser.eval(f"({pre}).innerText.split('\\n').length")
        height = browser.eval(f"({pre}).getBoundingClientRect().height")
        line_height = browser.eval(f"parseFloat(getComputedStyle({pre}).lineHeight)")
        self.assertLess(height, (lines + 1) * line_height, f"the block's {lines} lines took {height}px: some wrapped")

        self.assertIn("statement", texts[3])
        self.assertIn("warning: a and b were measured under different conditions", " ".join(texts[3].split()))
        self.assertIn("Wall time:", texts[4])
        self.assertIn("CPU times:", texts[4])

        for i in (1, 3, 4):
            img = f"{cells}[{i}].output_area.element[0].querySelector('img')"
            self.assertTrue(browser.eval(f"!!{img} && {img}.complete && {img}.naturalWidth > 0"), f"cell {i}: no chart displayed")
            natural, shown = browser.eval(f"[{img}.naturalWidth, {img}.getBoundingClientRect().width]")
            self.assertAlmostEqual(shown * 2, natural, delta=4, msg=f"cell {i}: the 2x PNG is not shown at its layout size")

    def test_interrupt_leaves_no_empty_output(self):
        browser = self.open_page("interrupt.ipynb", [JIT_SETUP, "%timeit -T 30s y = step.Call(x)"])
        browser.eval("Jupyter.notebook.execute_all_cells(), true")
        area = "Jupyter.notebook.get_cells()[1].output_area"
        wait_until(lambda: "elapsed" in browser.eval(f"{area}.element[0].innerText"), interval=0.05, timeout=60,
                   what="the progress line")
        browser.eval("Jupyter.notebook.kernel.interrupt(), true")
        wait_until(lambda: browser.eval(f"{area}.element[0].querySelectorAll('.output_error').length > 0 && "
                                        "Jupyter.notebook.kernel_busy === false"),
                   interval=0.1, timeout=30, what="the interrupt's error")
        browser.screenshot(f"{area}.element[0]", os.path.join(SHOTS, "notebook6-interrupted.png"))
        types = browser.eval(f"{area}.outputs.map(o => o.output_type)")
        self.assertEqual(types, ["error"], f"outputs after the interrupt: {types}")
        self.assertIn("Interrupted", browser.eval(f"{area}.element[0].innerText"))
        empty = browser.eval(f"Array.from({area}.element[0].querySelectorAll('.output_subarea')).filter(e => !e.innerText.trim() && !e.querySelector('img')).length")
        self.assertEqual(empty, 0, "an empty output is left on the page")


def notebook(cells):
    """An nbformat 4 notebook of code cells for the tick kernel."""
    return {"nbformat": 4, "nbformat_minor": 5, "metadata": {
        "kernelspec": {"name": KERNEL, "display_name": "Go (tick)", "language": "go"}},
        "cells": [{"cell_type": "code", "id": f"c{i}", "source": src, "metadata": {},
                   "outputs": [], "execution_count": None} for i, src in enumerate(cells)]}


def as_output(m):
    """An iopub message as an nbformat output (what the page stores)."""
    c, t = m["content"], m["msg_type"]
    if t == "stream":
        return {"output_type": "stream", "name": c["name"], "text": c["text"]}
    if t == "execute_result":
        return {"output_type": t, "data": c["data"], "metadata": c["metadata"],
                "execution_count": c["execution_count"]}
    if t in ("display_data", "update_display_data"):
        return {"output_type": "display_data", "data": c["data"], "metadata": c["metadata"]}
    if t == "error":
        return {"output_type": t, "ename": c["ename"], "evalue": c["evalue"], "traceback": c["traceback"]}
    raise AssertionError(f"unexpected output message {t}: {c}")


if __name__ == "__main__":
    unittest.main()
