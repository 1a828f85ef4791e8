"""Issue 25: a kernel that outlives anything a cell does.

Each class reproduces one failure of the issue through a real Jupyter
client and checks what the user sees: the cell's error output, the next
cell's answer on the same connection, the processes left behind.
"""
import os
import re
import time
import unittest

from jupyter_client.manager import KernelManager

from tickenv import KERNEL, TIMEOUT, run

RACE = """import "sync"
m := map[int]int{}
var wg sync.WaitGroup
for i := 0; i < 4; i++ {
\twg.Add(1)
\tgo func() {
\t\tdefer wg.Done()
\t\tfor j := 0; j < 10000000; j++ {
\t\t\tm[j%100]++
\t\t}
\t}()
}
wg.Wait()"""


def errors_of(outputs):
    return [m["content"] for m in outputs if m["msg_type"] == "error"]


def result_of(outputs):
    return [m["content"]["data"]["text/plain"] for m in outputs if m["msg_type"] == "execute_result"]


class Started(unittest.TestCase):
    """One kernel per test, started through KernelManager (so its process
    can be watched)."""

    ENV = {}

    def setUp(self):
        self.km = KernelManager(kernel_name=KERNEL)
        self.km.start_kernel(env=dict(os.environ, **self.ENV))
        self.kc = self.km.client()
        self.kc.start_channels()
        self.kc.wait_for_ready(timeout=TIMEOUT)
        self.addCleanup(self.km.shutdown_kernel, now=True)
        self.addCleanup(self.kc.stop_channels)

    def pid(self):
        return self.km.provisioner.process.pid

    def value(self, code, timeout=TIMEOUT):
        reply, outs = run(self.kc, code, timeout=timeout)
        self.assertEqual(reply["content"]["status"], "ok", f"{code!r}: {reply['content']} {outs}")
        return result_of(outs)


class FatalErrorsEndTheCell(Started):
    """Problem 1: four goroutines writing one map killed the kernel with
    "fatal error: concurrent map writes"; the user saw "kernel died"."""

    def test_concurrent_map_writes_end_the_cell_and_the_next_cell_runs(self):
        pid = self.pid()
        self.assertEqual(self.value("x := 41\nx + 1"), ["42"])
        reply, outs = run(self.kc, RACE, timeout=60)
        self.assertEqual(reply["content"]["status"], "error", reply["content"])
        errs = errors_of(outs)
        self.assertEqual(len(errs), 1, outs)
        err = errs[0]
        tb = "\n".join(err["traceback"])
        self.assertEqual(err["ename"], "FatalError")
        self.assertRegex(err["evalue"], r"concurrent map (writes|read and map write)")
        self.assertIn("fatal error: concurrent map", tb, "the fatal message is not quoted")
        self.assertRegex(tb, r"goroutine \d+ \[running\]", "the goroutine that raised it is not shown")
        self.assertIn("variables", tb)
        self.assertIn("lost", tb)
        # The same connection, the same kernel process, the next count.
        self.assertTrue(self.km.is_alive())
        self.assertEqual(self.pid(), pid, "the kernel process was replaced: the front end would see a restart")
        self.assertTrue(self.kc.is_alive(), "no heartbeat")
        reply, outs = run(self.kc, "1+1")
        self.assertEqual(reply["content"]["status"], "ok")
        self.assertEqual(result_of(outs), ["2"])
        self.assertEqual(reply["content"]["execution_count"], 3)
        reply, outs = run(self.kc, "x")
        self.assertEqual(reply["content"]["status"], "error")
        self.assertIn("undefined: x", errors_of(outs)[0]["evalue"])
        self.assertEqual(self.value("y := 5\ny * 2"), ["10"])


if __name__ == "__main__":
    unittest.main()
