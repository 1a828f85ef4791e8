"""The shell and session magics through jupyter_client: !cmd (output
streamed as it comes, exit status shown, interrupted by the kernel's
interrupt), %pwd and %cd, %who and %whos; a stdin prompt shown once; a
quiet start (nothing on stderr without --verbose)."""
import os
import queue
import shutil
import subprocess
import tempfile
import time
import unittest

from jupyter_client.manager import KernelManager

from tickenv import KERNEL, TIMEOUT, collect, run, shell_reply, stdout_of, wait_until


class ShellMagics(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.stderr = tempfile.TemporaryFile()
        cls.km = KernelManager(kernel_name=KERNEL)
        cls.km.start_kernel(stderr=cls.stderr)
        cls.kc = cls.km.client()
        cls.kc.start_channels()
        cls.kc.wait_for_ready(timeout=TIMEOUT)
        cls.dir = os.path.realpath(tempfile.mkdtemp(dir=os.environ.get("TICK_TMP")))

    @classmethod
    def tearDownClass(cls):
        cls.kc.stop_channels()
        cls.km.shutdown_kernel(now=False)
        cls.stderr.close()

    def ok(self, code, **kw):
        reply, outs = run(self.kc, code, **kw)
        self.assertEqual(reply["content"]["status"], "ok", f"{code!r}: {reply['content']} {outs}")
        return outs

    def test_quiet_start(self):
        self.ok("x := 1")
        self.stderr.seek(0)
        self.assertEqual(self.stderr.read(), b"", "the kernel wrote to stderr at start-up without --verbose")

    def test_shell_streams_and_status(self):
        outs = self.ok('!echo out; echo err >&2\n!exit 4\nafter := "Go after the shell lines"\nafter')
        self.assertIn("out\n", stdout_of(outs))
        err = stdout_of(outs, "stderr")
        self.assertIn("err\n", err)
        self.assertIn("!exit 4: exit status 4", err)
        self.assertEqual([m["content"]["data"]["text/plain"] for m in outs if m["msg_type"] == "execute_result"],
                         ['"Go after the shell lines"'])
        # Streamed as it comes: the command prints its first line, then waits
        # for a file this test creates only once it has seen that line; were
        # the output held back to the end, the command would never end.
        go_on = os.path.join(tempfile.mkdtemp(), "go-on")
        self.addCleanup(shutil.rmtree, os.path.dirname(go_on))
        msg_id = self.kc.execute(f"!echo first; until [ -e {go_on} ]; do sleep 0.05; done; echo second")
        def first():
            try:
                m = self.kc.get_iopub_msg(timeout=0.1)
            except queue.Empty:
                return False
            return m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "stream" and "first" in m["content"]["text"]
        try:
            wait_until(first, what="the first line of the command, before it ends")
        finally:
            open(go_on, "w").close()
        shell_reply(self.kc, msg_id)
        self.assertIn("second", stdout_of(collect(self.kc, msg_id)))

    def test_shell_interrupt(self):
        self.ok("kept := 9")
        msg_id = self.kc.execute("!echo sleeping; sleep 60; echo never")
        def started():
            try:
                m = self.kc.get_iopub_msg(timeout=0.1)
            except queue.Empty:
                return False
            return m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "stream" and "sleeping" in m["content"]["text"]
        wait_until(started, what="the command to start")
        self.km.interrupt_kernel()
        reply = shell_reply(self.kc, msg_id)
        outs = collect(self.kc, msg_id)
        self.assertEqual(reply["content"]["status"], "error")
        self.assertIn("was killed", reply["content"]["evalue"])
        self.assertNotIn("never", stdout_of(outs))
        outs = self.ok("kept")
        self.assertEqual(outs[-1]["content"]["data"]["text/plain"], "9")

    def test_cd_pwd(self):
        outs = self.ok("%pwd")
        start = outs[-1]["content"]["data"]["text/plain"]
        outs = self.ok(f"%cd {self.dir}")
        self.assertEqual(stdout_of(outs), self.dir + "\n")
        outs = self.ok('!pwd\nimport "os"\nwd, _ := os.Getwd()\nwd')
        self.assertEqual(stdout_of(outs), self.dir + "\n", "!cmd runs in the kernel's directory")
        self.assertEqual(outs[-1]["content"]["data"]["text/plain"], repr(self.dir).replace("'", '"'))
        reply, outs = run(self.kc, "%cd /no/such/dir")
        self.assertEqual(reply["content"]["status"], "error")
        self.assertIn(f"the kernel is still in {self.dir}", reply["content"]["evalue"])
        self.ok("%cd -")
        outs = self.ok("%pwd")
        self.assertEqual(outs[-1]["content"]["data"]["text/plain"], start)

    def test_who(self):
        self.ok('whoCount := 3\nwhoName := "gopher"\nwhoXs := []float64{1.5}')
        names = stdout_of(self.ok("%who")).split()
        for n in ("whoCount", "whoName", "whoXs"):
            self.assertIn(n, names)
        self.assertEqual(names, sorted(names))
        self.assertEqual(stdout_of(self.ok("%who float64")).split(), ["whoXs"])
        rows = {l.split()[0]: l.split()[1:] for l in stdout_of(self.ok("%whos")).splitlines()[2:]}
        self.assertEqual(rows["whoCount"], ["int", "3"])
        self.assertEqual(rows["whoName"], ["string", "gopher"])
        self.assertEqual(rows["whoXs"], ["[]float64", "[1.5]"])

    def test_stdin_prompt_once(self):
        msg_id = self.kc.execute('import "fmt"\nvar name string\nfmt.Print("name? ")\nfmt.Scanln(&name)\nfmt.Println("hi", name)',
                                 allow_stdin=True)
        req = self.kc.get_stdin_msg(timeout=TIMEOUT)
        self.assertEqual(req["content"]["prompt"], "name? ")
        self.kc.input("gopher")
        shell_reply(self.kc, msg_id)
        out = stdout_of(collect(self.kc, msg_id))
        self.assertEqual(out, "hi gopher\n", "the prompt must be shown once: as the input request's prompt, not also in the stream")

    def test_language_info(self):
        msg_id = self.kc.kernel_info()
        info = shell_reply(self.kc, msg_id)["content"]
        self.assertEqual(info["language_info"]["version"], "1.22")
        self.assertEqual(info["language_info"]["file_extension"], ".go")


if __name__ == "__main__":
    unittest.main()
