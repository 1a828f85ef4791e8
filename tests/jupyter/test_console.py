"""jupyter console as a person uses it: in a terminal (tmux), typing at its
prompt_toolkit prompt. A default-length %timeit (2 s, long enough for the
progress line) must end with its headline on the screen, since console
ignores update_display_data; a %%timeit cell must be typeable across lines
(is_complete keeps it open until a blank line) and run."""
import os
import re
import shutil
import subprocess
import time
import unittest
import uuid

from jupyter_client import BlockingKernelClient

from tickenv import KERNEL, TIMEOUT, run, shell_reply, wait_until

TMUX = shutil.which("tmux")


def result_of(outputs):
    return [m["content"]["data"]["text/plain"] for m in outputs if m["msg_type"] == "execute_result"]
CONSOLE = shutil.which("jupyter-console") or shutil.which("jupyter")


@unittest.skipIf(TMUX is None, "tmux is not installed (scripts/install-deps.sh installs it)")
class ConsoleInTmuxTests(unittest.TestCase):
    def setUp(self):
        # A tmux server of the test's own (-L): a shared one would give the
        # console the server's environment, not this test's Jupyter paths.
        self.name = "tick-console-" + uuid.uuid4().hex[:8]
        self.started = time.time()
        argv = [CONSOLE] if CONSOLE.endswith("jupyter-console") else [CONSOLE, "console"]
        cmd = " ".join(argv + [f"--kernel={KERNEL}", "--ZMQTerminalInteractiveShell.confirm_exit=False"])
        subprocess.run([TMUX, "-L", self.name, "new-session", "-d", "-s", self.name, "-x", "150", "-y", "50", cmd],
                       check=True, env=dict(os.environ, TERM="xterm-256color"))
        self.addCleanup(subprocess.run, [TMUX, "-L", self.name, "kill-server"], capture_output=True)
        self.wait_prompt(1)

    def screen(self):
        """The pane's text with 1000 lines of scrollback, wrapped lines joined."""
        return subprocess.run([TMUX, "-L", self.name, "capture-pane", "-p", "-J", "-S", "-1000", "-t", self.name],
                              capture_output=True, text=True, check=True).stdout

    def wait_for(self, text, timeout=60):
        try:
            return wait_until(lambda: text in self.screen(), timeout=timeout, interval=0.2, what=repr(text))
        except AssertionError as e:
            raise AssertionError(f"{e}; the screen shows:\n{self.screen()}") from None

    def wait_prompt(self, n, timeout=60):
        """Wait until the screen ends with the prompt In [n]:. jupyter console
        6.4.4 on Python 3.11 sometimes stops on a prompt_toolkit error of its
        own ("Exception cannot enter context ... Press ENTER to continue"):
        that is answered, it is not tick's output."""
        def ready():
            lines = [l for l in self.screen().splitlines() if l.strip()]
            if lines and lines[-1].startswith("Press ENTER to continue"):
                subprocess.run([TMUX, "-L", self.name, "send-keys", "-t", self.name, "Enter"], check=True)
                return False
            return bool(lines) and lines[-1].startswith(f"In [{n}]:")
        try:
            wait_until(ready, timeout=timeout, interval=0.2, what=f"the prompt In [{n}]:")
        except AssertionError as e:
            raise AssertionError(f"{e}; the screen shows:\n{self.screen()}") from None

    def type(self, line, enter=True):
        subprocess.run([TMUX, "-L", self.name, "send-keys", "-t", self.name, "-l", line], check=True)
        if enter:
            time.sleep(0.1)  # let prompt_toolkit take the text before Enter
            subprocess.run([TMUX, "-L", self.name, "send-keys", "-t", self.name, "Enter"], check=True)

    def run_line(self, line, n):
        self.type(line)
        self.wait_prompt(n)

    def test_timeit_headline_and_cell_magic(self):
        self.run_line('import "tick/runtime/tensor"', 2)
        self.run_line("x := tensor.Arange(256).Realize()", 3)
        self.run_line("step := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor { return a[0].Mul(2).Add(1).Realize() })", 4)
        self.run_line("var y *tensor.Tensor", 5)

        self.type("%timeit y = step.Call(x)")  # default budget: 2 s, so the progress line shows first
        self.wait_prompt(6, timeout=90)
        screen = self.screen()
        tail = screen[screen.index("%timeit y = step.Call(x)"):]
        self.assertRegex(tail, r"per loop \((median (± |\[)95% confidence interval\]?|median of)",
                         f"the final headline is not on the screen:\n{tail}")
        self.assertIn("provenance", tail)
        # The progress line (HTML only: console prints text/plain and ignores
        # the updates that replace it) is not left on the screen.
        self.assertNotIn("elapsed", tail, f"the progress line stayed on the screen:\n{tail}")

        self.type("%%timeit -n 10 -r 7")
        self.wait_for("...:", timeout=20)  # is_complete: incomplete, a continuation prompt
        self.assertNotIn("In [7]:", self.screen(), "the lone %%timeit line ran")
        self.type("y = step.Call(x)")
        self.type("")  # the blank line ends the cell
        self.wait_prompt(7, timeout=60)
        tail = self.screen()
        tail = tail[tail.index("%%timeit -n 10 -r 7"):]
        self.assertIn("7 samples × 10 loops", tail, f"the %%timeit cell did not run:\n{tail}")
        self.assertNotIn("Error", tail)

    def test_ctrl_c_stops_a_running_cell(self):
        """Issue 25, problem 7: Ctrl-C during `for {}` printed "KeyboardInterrupt
        escaped interact()" and the next cell got no answer: console 6.4.4
        never sends the interrupt (its SIGINT handler is gone after the first
        prompt). The kernel sees the console back at its prompt and
        interrupts the cell (cmd/tick/console.go)."""
        self.run_line("x := 7", 2)
        self.type("for {")
        self.wait_for("...:", timeout=20)
        self.type("}")
        self.type("")
        time.sleep(2)  # the loop runs
        subprocess.run([TMUX, "-L", self.name, "send-keys", "-t", self.name, "C-c"], check=True)
        self.wait_for("KeyboardInterrupt", timeout=20)
        time.sleep(1)
        self.type("x + 1")
        try:
            wait_until(lambda: re.search(r"Out\[\d+\]: 8", self.screen()), timeout=60, interval=0.2, what="x + 1 answered")
        except AssertionError as e:
            raise AssertionError(f"{e}; the screen shows:\n{self.screen()}") from None

    def attach(self):
        """A second client on the console's kernel, as `jupyter console
        --existing` or a notebook attached to it would be."""
        runtime = os.environ["JUPYTER_RUNTIME_DIR"]
        files = [os.path.join(runtime, f) for f in os.listdir(runtime) if f.startswith("kernel-") and f.endswith(".json")]
        files = [f for f in files if os.path.getmtime(f) >= self.started - 1]
        self.assertTrue(files, f"no connection file of the console's kernel in {runtime}")
        kc = BlockingKernelClient(connection_file=max(files, key=os.path.getmtime))
        kc.load_connection_file()
        kc.start_channels()
        self.addCleanup(kc.stop_channels)
        kc.wait_for_ready(timeout=TIMEOUT)
        return kc

    def test_other_clients_cells_are_not_interrupted(self):
        """What Ctrl-C's stand-in must never do: interrupt a cell nobody
        stopped. Another client's cell runs to its end while the console
        sits at its prompt, and while the console goes back to its prompt
        after its own cell (the other cell was queued behind it)."""
        self.run_line("x := 7", 2)
        kc = self.attach()
        reply, outs = run(kc, 'import "time"\ntime.Sleep(1500 * time.Millisecond)\nx * 2')
        self.assertEqual(reply["content"]["status"], "ok", reply["content"])
        self.assertEqual(result_of(outs), ["14"])

        self.type("time.Sleep(time.Second)")
        time.sleep(0.3)  # the console's cell runs; the next one waits behind it
        msg_id = kc.execute("time.Sleep(2 * time.Second)\nx * 3")
        self.wait_prompt(4)
        reply = shell_reply(kc, msg_id)
        self.assertEqual(reply["content"]["status"], "ok",
                         f"the other client's cell was stopped when the console went back to its prompt: {reply['content']}")


if __name__ == "__main__":
    unittest.main()
