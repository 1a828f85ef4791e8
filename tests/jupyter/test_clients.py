"""jupyter_client scripts for what the conformance suite does not cover:
interrupt (message and SIGINT) with state kept, stdin, a badly signed
message, restart, two clients on iopub, stop_on_error, comms, nbconvert,
jupyter console and `jupyter kernelspec list`."""
import json
import os
import queue
import signal
import subprocess
import tempfile
import time
import unittest

from jupyter_client.manager import start_new_kernel
from jupyter_client.session import Session

from tickenv import KERNEL, TIMEOUT, KernelTestCase, collect, run, shell_reply, stdout_of, wait_until


def tmpdir():
    return tempfile.mkdtemp(dir=os.environ.get("TICK_TMP"))


class SharedKernel(KernelTestCase):
    """Tests that share one kernel (state carries across them on purpose)."""

    SHUTDOWN_NOW = False

    def start_and_interrupt(self, code, interrupt):
        """Run code that never ends by itself; interrupt it once it runs.
        The code prints "spinning" just before its loop."""
        msg_id = self.kc.execute(code)
        def spinning():
            try:
                m = self.kc.get_iopub_msg(timeout=0.1)
            except queue.Empty:
                return False
            return (m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "stream"
                    and "spinning" in m["content"]["text"])
        wait_until(spinning, what="the cell to start its loop")
        interrupt()
        # The loop never ends by itself: a reply at all is the interrupt's doing.
        reply = shell_reply(self.kc, msg_id, timeout=TIMEOUT)
        collect(self.kc, msg_id)
        self.assertEqual(reply["content"]["status"], "error")
        self.assertEqual(reply["content"]["ename"], "Interrupted", reply["content"])
        self.assertTrue(self.km.is_alive(), "the kernel died on interrupt")

    def test_interrupt_keeps_state(self):
        self.ok('counter := 10\nbump := func() int { counter++; return counter }\n'
                'func spin(n int) int {\n\ts := 0\n\tfor i := 0; i < n; i++ {\n\t\ts += i % 7\n\t}\n\treturn s\n}')
        self.start_and_interrupt('println("spinning")\nfor {\n}', self.km.interrupt_kernel)
        self.assertEqual(self.value("bump()"), "11")
        self.start_and_interrupt('println("spinning")\nspin(1 << 62)', self.km.interrupt_kernel)
        self.assertEqual(self.value("bump()"), "12")
        # SIGINT (what a terminal's Ctrl-C or interrupt_mode "signal" sends)
        # interrupts the cell; it never kills the kernel.
        pid = self.km.provisioner.process.pid
        self.start_and_interrupt('println("spinning")\nfor {\n}', lambda: os.kill(pid, signal.SIGINT))
        self.assertEqual(self.value("bump() + spin(10)"), str(13 + sum(i % 7 for i in range(10))))

    def test_stdin(self):
        msg_id = self.kc.execute('import "fmt"\nvar name string\nfmt.Print("name? ")\nfmt.Scanln(&name)\nfmt.Println("hi", name)',
                                 allow_stdin=True)
        req = self.kc.get_stdin_msg(timeout=TIMEOUT)
        self.assertEqual(req["msg_type"], "input_request")
        self.assertEqual(req["parent_header"]["msg_id"], msg_id)
        self.kc.input("gopher")
        reply = shell_reply(self.kc, msg_id)
        outs = collect(self.kc, msg_id)
        self.assertEqual(reply["content"]["status"], "ok", reply["content"])
        self.assertIn("hi gopher", stdout_of(outs))

        # Without allow_stdin, reading fails with an error that says why.
        reply, outs = run(self.kc, 'var s string\n_, err := fmt.Scanln(&s)\nfmt.Println("err:", err)',
                          allow_stdin=False)
        text = stdout_of(outs) + json.dumps(reply["content"])
        self.assertIn("allow_stdin", text, "reading stdin without allow_stdin must say why it failed")

    def test_os_stdout_is_a_file(self):
        """os.Stdout is an *os.File, as in Go; what a cell writes to it
        arrives in order with fmt's prints, as one stream."""
        outs = self.ok('import "os"\nos.Stdout.WriteString("one\\n")\nfmt.Println("two")\n'
                       'var f *os.File = os.Stdout\nf.WriteString("three\\n")\nfmt.Fprintln(os.Stderr, "err")')
        self.assertEqual(stdout_of(outs), "one\ntwo\nthree\n")
        self.assertIn("err\n", stdout_of(outs, "stderr"))

    def test_bad_signature_ignored(self):
        bad = Session(key=b"not-the-kernel-key", username="intruder")
        bad.send(self.kc.shell_channel.socket, "execute_request",
                 {"code": "intruder := 1", "silent": False, "store_history": True,
                  "user_expressions": {}, "allow_stdin": False, "stop_on_error": True})
        # The kernel keeps answering; the forged cell never ran.
        self.assertEqual(self.value("6 * 7"), "42")
        reply, _ = run(self.kc, "intruder")
        self.assertEqual(reply["content"]["status"], "error", "a badly signed execute_request ran")

    def test_two_clients_on_iopub(self):
        other = self.km.client()
        other.start_channels()
        try:
            other.wait_for_ready(timeout=TIMEOUT)
            msg_id = self.kc.execute('println("seen by both")')
            shell_reply(self.kc, msg_id)
            for kc in (self.kc, other):
                outs = collect(kc, msg_id)
                self.assertIn("seen by both", stdout_of(outs, "stdout") + stdout_of(outs, "stderr"))
        finally:
            other.stop_channels()

    def test_stop_on_error_aborts_queued(self):
        # The failing cell works a while first, so the second request is
        # queued behind it (as in "Run All").
        first = self.kc.execute('import "time"\ntime.Sleep(300 * time.Millisecond)\npanic("stop here")')
        queued = self.kc.execute("6 * 7")
        self.assertEqual(shell_reply(self.kc, first)["content"]["status"], "error")
        self.assertEqual(shell_reply(self.kc, queued)["content"]["status"], "aborted")
        for m in (first, queued):
            collect(self.kc, m)
        self.assertEqual(self.value("6 * 7"), "42")

    def test_comm_open_unknown_target_is_closed(self):
        comm_id = "c0ffee"
        msg = self.kc.session.msg("comm_open", {"comm_id": comm_id, "target_name": "nobody", "data": {}})
        self.kc.shell_channel.send(msg)
        msgs = collect(self.kc, msg["header"]["msg_id"])
        closes = [m for m in msgs if m["msg_type"] == "comm_close"]
        self.assertEqual(len(closes), 1)
        self.assertEqual(closes[0]["content"]["comm_id"], comm_id)
        msg_id = self.kc.comm_info()
        self.assertEqual(shell_reply(self.kc, msg_id)["content"]["comms"], {})


class Lifecycle(unittest.TestCase):
    def test_sigterm_exits_cleanly(self):
        km, kc = start_new_kernel(kernel_name=KERNEL, startup_timeout=TIMEOUT)
        try:
            proc = km.provisioner.process
            proc.send_signal(signal.SIGTERM)
            self.assertEqual(proc.wait(timeout=TIMEOUT), 0, "SIGTERM must exit with status 0")
        finally:
            kc.stop_channels()
            km.cleanup_resources()

    def test_restart(self):
        km, kc = start_new_kernel(kernel_name=KERNEL, startup_timeout=TIMEOUT)
        try:
            reply, _ = run(kc, "before := 1\nbefore")
            self.assertEqual(reply["content"]["status"], "ok")
            pid = km.provisioner.process.pid
            km.restart_kernel(now=False)
            kc.wait_for_ready(timeout=TIMEOUT)
            self.assertNotEqual(km.provisioner.process.pid, pid)
            reply, outs = run(kc, "6 * 7")
            self.assertEqual(reply["content"]["status"], "ok")
            self.assertEqual(reply["content"]["execution_count"], 1, "a restarted kernel counts from 1")
            reply, _ = run(kc, "before")
            self.assertEqual(reply["content"]["status"], "error", "state survived a restart")
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=False)
        self.assertFalse(km.is_alive())


NOTEBOOK = {
    "nbformat": 4, "nbformat_minor": 5,
    "metadata": {"kernelspec": {"name": KERNEL, "display_name": "Go (tick)", "language": "go"}},
    "cells": [
        {"cell_type": "code", "id": "a", "metadata": {}, "execution_count": None, "outputs": [],
         "source": 'import "fmt"\nfunc square(x int) int { return x * x }'},
        {"cell_type": "code", "id": "b", "metadata": {}, "execution_count": None, "outputs": [],
         "source": 'fmt.Println("squares:", square(3), square(4))'},
        {"cell_type": "code", "id": "c", "metadata": {}, "execution_count": None, "outputs": [],
         "source": "square(12)"},
    ],
}


class Tools(unittest.TestCase):
    def test_kernelspec_list(self):
        out = subprocess.run(["jupyter", "kernelspec", "list", "--json"], capture_output=True, text=True,
                             timeout=TIMEOUT, check=True).stdout
        spec = json.loads(out)["kernelspecs"][KERNEL]["spec"]
        self.assertEqual(spec["display_name"], "Go (tick)")
        self.assertEqual(spec["interrupt_mode"], "message")
        self.assertTrue(os.path.isabs(spec["argv"][0]))

    def test_nbconvert_execute(self):
        d = tmpdir()
        src = os.path.join(d, "squares.ipynb")
        with open(src, "w") as f:
            json.dump(NOTEBOOK, f)
        subprocess.run(["jupyter", "nbconvert", "--to", "notebook", "--execute", src, "--output", "out.ipynb"],
                       capture_output=True, text=True, timeout=120, check=True)
        with open(os.path.join(d, "out.ipynb")) as f:
            nb = json.load(f)
        cells = nb["cells"]
        self.assertEqual([c["execution_count"] for c in cells], [1, 2, 3])
        self.assertIn("squares: 9 16", "".join(cells[1]["outputs"][0]["text"]))
        self.assertEqual("".join(cells[2]["outputs"][0]["data"]["text/plain"]), "144")

    def test_console_from_pipe(self):
        code = 'import "fmt"\nfmt.Println("console says", 6*7)\n'
        p = subprocess.run(["jupyter", "console", "--simple-prompt", f"--kernel={KERNEL}"],
                           input=code, capture_output=True, text=True, timeout=120)
        self.assertIn("console says 42", p.stdout, p.stdout + p.stderr)


if __name__ == "__main__":
    unittest.main()
