"""Shared helpers for tick's Jupyter client tests: the kernel name, polling
helpers with timeouts, collecting a request's iopub output, and
KernelTestCase, a test class that shares one kernel."""
import os
import queue
import time
import unittest

KERNEL = os.environ.get("TICK_KERNEL", "tick")
# A bound on waits for what must happen eventually (a reply, an output): it
# guards against a hang, it is not a speed claim, so it is generous — a busy
# machine (load 4 on 2 cores) must not trip it. TICK_TEST_TIMEOUT changes it.
TIMEOUT = float(os.environ.get("TICK_TEST_TIMEOUT", "60"))


def wait_until(pred, timeout=TIMEOUT, interval=0.02, what="condition"):
    """Poll pred() until it returns a truthy value; fail after timeout."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = pred()
        if v:
            return v
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


def collect(kc, msg_id, timeout=TIMEOUT):
    """Return the iopub messages of msg_id up to and including status idle."""
    out = []
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no idle for {msg_id} within {timeout}s; got {[m['msg_type'] for m in out]}")
        try:
            m = kc.get_iopub_msg(timeout=left)
        except queue.Empty:
            continue
        if m["parent_header"].get("msg_id") != msg_id:
            continue
        out.append(m)
        if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
            return out


def shell_reply(kc, msg_id, timeout=TIMEOUT):
    """Return the shell reply to msg_id, skipping other replies."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no shell reply to {msg_id} within {timeout}s")
        m = kc.get_shell_msg(timeout=left)
        if m["parent_header"].get("msg_id") == msg_id:
            return m


def run(kc, code, timeout=TIMEOUT, **kw):
    """Execute code; return (reply, iopub outputs without status/execute_input)."""
    msg_id = kc.execute(code, **kw)
    reply = shell_reply(kc, msg_id, timeout)
    msgs = collect(kc, msg_id, timeout)
    return reply, [m for m in msgs if m["msg_type"] not in ("status", "execute_input")]


def stdout_of(outputs, name="stdout"):
    return "".join(m["content"]["text"] for m in outputs if m["msg_type"] == "stream" and m["content"]["name"] == name)


def displays(outputs):
    """The content of each display_data message in outputs."""
    return [m["content"] for m in outputs if m["msg_type"] == "display_data"]


class KernelTestCase(unittest.TestCase):
    """Tests that share one kernel, started once for the class (state carries
    across the tests on purpose). SETUP, when set, runs first and must
    succeed; SHUTDOWN_NOW says whether the kernel is killed or asked to shut
    down at the end."""

    SETUP = None
    SHUTDOWN_NOW = True
    OK_TIMEOUT = TIMEOUT

    @classmethod
    def setUpClass(cls):
        from jupyter_client.manager import start_new_kernel
        cls.km, cls.kc = start_new_kernel(kernel_name=KERNEL, startup_timeout=TIMEOUT)
        if cls.SETUP is None:
            return
        try:
            reply, outputs = run(cls.kc, cls.SETUP, timeout=max(cls.OK_TIMEOUT, TIMEOUT))
            if reply["content"]["status"] != "ok":
                raise AssertionError(f"the SETUP cell of {cls.__name__} failed: {reply['content']} {outputs}")
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.kc.stop_channels()
        cls.km.shutdown_kernel(now=cls.SHUTDOWN_NOW)

    def ok(self, code, timeout=None, **kw):
        """Run code; assert it succeeded; return its outputs."""
        reply, outputs = run(self.kc, code, timeout=timeout or self.OK_TIMEOUT, **kw)
        self.assertEqual(reply["content"]["status"], "ok", f"{code!r}: {reply['content']}")
        return outputs

    def value(self, code):
        """The text/plain of the one execute_result of code."""
        outs = self.ok(code)
        results = [m for m in outs if m["msg_type"] == "execute_result"]
        self.assertEqual(len(results), 1, f"{code!r} gave {outs}")
        return results[0]["content"]["data"]["text/plain"]
