"""Shared helpers for tick's Jupyter client tests: the kernel name, polling
helpers with timeouts, and collecting a request's iopub output."""
import os
import queue
import time

KERNEL = os.environ.get("TICK_KERNEL", "tick")
TIMEOUT = 30


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
