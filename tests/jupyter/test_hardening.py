"""Issue 17: a kernel nothing can kill or wedge.

Each test reproduces one failure measured on the old kernel, with raw TCP
peers (malformed ZMTP), libzmq peers (pyzmq from Debian) and cells sent
through jupyter_client; after each, the kernel must answer kernel_info and
execute 1+1 within normal latency, with the session's variables intact.
"""
import os
import socket
import struct
import time
import unittest

import zmq
from jupyter_client import BlockingKernelClient
from jupyter_client.manager import KernelManager

from tickenv import KERNEL, TIMEOUT, run, shell_reply, stdout_of

PORTS = ("shell_port", "control_port", "stdin_port", "iopub_port", "hb_port")


def greeting():
    g = bytearray(64)
    g[0], g[9], g[10] = 0xFF, 0x7F, 3
    g[12:16] = b"NULL"
    return bytes(g)


def ready(sock_type, identity=b""):
    body = b"\x05READY"
    for k, v in ((b"Socket-Type", sock_type), (b"Identity", identity)):
        if v or k == b"Socket-Type":
            body += bytes([len(k)]) + k + struct.pack(">I", len(v)) + v
    return b"\x04" + bytes([len(body)]) + body


def sock_type(port):
    return {"iopub_port": b"SUB", "hb_port": b"REQ"}.get(port, b"DEALER")


def closed_by_kernel(s, timeout=TIMEOUT):
    """Read until the kernel closes the connection; False on timeout."""
    s.settimeout(timeout)
    try:
        while s.recv(65536):
            pass
        return True
    except socket.timeout:
        return False
    except ConnectionResetError:
        return True


def still_open(s):
    """Whether the kernel has not closed s: read what it sent (its ZMTP
    greeting) without waiting; an end of stream means closed."""
    s.setblocking(False)
    try:
        while True:
            if not s.recv(65536):
                return False
    except BlockingIOError:
        return True
    except ConnectionResetError:
        return False
    finally:
        s.setblocking(True)


class Hardening(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.km = KernelManager(kernel_name=KERNEL)
        # A handshake deadline of an hour: an idle peer is never dropped
        # while a test runs, so a client that is served beside one was not
        # waiting for it to go (test_idle_connection_does_not_block_new_clients).
        env = dict(os.environ, TICK_WRITE_TIMEOUT="2s", TICK_HANDSHAKE_TIMEOUT="1h")
        cls.km.start_kernel(env=env)
        cls.kc = cls.km.client()
        cls.kc.start_channels()
        cls.kc.wait_for_ready(timeout=TIMEOUT)
        reply, _ = run(cls.kc, "x := 42")
        assert reply["content"]["status"] == "ok", reply
        cls.info = cls.km.get_connection_info()

    @classmethod
    def tearDownClass(cls):
        cls.kc.stop_channels()
        cls.km.shutdown_kernel(now=True)

    def assertHealthy(self):
        """kernel_info and 1+1 answer, and x is still 42."""
        self.assertTrue(self.km.is_alive(), "the kernel process died")
        msg_id = self.kc.kernel_info()
        self.assertEqual(shell_reply(self.kc, msg_id)["content"]["status"], "ok")
        reply, outs = run(self.kc, "1+1")
        self.assertEqual(reply["content"]["status"], "ok")
        _, outs = run(self.kc, "x + 1")
        results = [m["content"]["data"]["text/plain"] for m in outs if m["msg_type"] == "execute_result"]
        self.assertEqual(results, ["43"], "the session lost its variables")

    def raw(self, port):
        s = socket.create_connection((self.info["ip"], self.info[port]), timeout=5)
        self.addCleanup(s.close)
        return s

    # Sockets, before any authentication.

    def test_terabyte_frame_header_on_every_port(self):
        for port in PORTS:
            with self.subTest(port=port):
                s = self.raw(port)
                s.sendall(greeting() + ready(sock_type(port)))
                s.sendall(b"\x02" + struct.pack(">Q", 1 << 40) + b"xxxx")
                self.assertTrue(closed_by_kernel(s), "the kernel kept a peer announcing a 1 TiB frame")
        self.assertHealthy()

    def test_idle_connection_does_not_block_new_clients(self):
        idle = [self.raw(port) for port in PORTS]  # never send a byte
        kc = BlockingKernelClient()  # its own session, so its own identity
        kc.load_connection_info(self.info)
        kc.start_channels()
        self.addCleanup(kc.stop_channels)
        # The idle peers are kept for an hour (TICK_HANDSHAKE_TIMEOUT): a
        # client that had to wait for them to go would never be ready.
        kc.wait_for_ready(timeout=TIMEOUT)
        self.assertEqual(len(idle), 5)
        for s in idle:  # still connected: the client was served beside them
            self.assertTrue(still_open(s), "an idle peer was dropped")
        self.assertHealthy()

    def test_duplicate_identity_gets_no_replies(self):
        ctx = zmq.Context.instance()
        ident = self.kc.shell_channel.socket.getsockopt(zmq.IDENTITY)
        self.assertTrue(ident, "jupyter_client gives its shell socket an identity")
        dup = ctx.socket(zmq.DEALER)
        dup.setsockopt(zmq.IDENTITY, ident)
        dup.setsockopt(zmq.LINGER, 0)
        dup.connect(f"tcp://{self.info['ip']}:{self.info['shell_port']}")
        self.addCleanup(dup.close)
        time.sleep(0.5)
        reply, _ = run(self.kc, "x * 2")
        self.assertEqual(reply["content"]["status"], "ok")
        self.assertEqual(dup.poll(500), 0, "a second peer with the client's identity received its replies")
        self.assertHealthy()

    def test_peer_that_stops_reading_does_not_wedge_shell(self):
        ctx = zmq.Context.instance()
        greedy = ctx.socket(zmq.DEALER)
        greedy.setsockopt(zmq.RCVHWM, 1)
        greedy.setsockopt(zmq.RCVBUF, 4096)
        greedy.setsockopt(zmq.LINGER, 0)
        greedy.connect(f"tcp://{self.info['ip']}:{self.info['shell_port']}")
        self.addCleanup(greedy.close)
        sess = self.kc.session
        for _ in range(3000):  # ~3 MB of replies it never reads
            sess.send(greedy, "kernel_info_request", {})
        # The kernel serves requests in order: it answers the greedy peer's
        # queued requests (its writes fail fast once TICK_WRITE_TIMEOUT=2s
        # has disconnected it), then ours. Before, shell stayed wedged.
        msg_id = self.kc.kernel_info()
        shell_reply(self.kc, msg_id, timeout=60)
        self.assertHealthy()

    # Cells that killed or wedged the kernel.

    def test_goexit_in_a_cell(self):
        reply, outs = run(self.kc, 'import "runtime"\nruntime.Goexit()')
        self.assertEqual(reply["content"]["status"], "error")
        self.assertIn("runtime.Goexit", reply["content"]["evalue"])
        self.assertHealthy()

    def test_six_thousand_goroutines(self):
        code = """import "sync"
var wg sync.WaitGroup
release := make(chan struct{})
for i := 0; i < 6000; i++ {
	wg.Add(1)
	go func() { defer wg.Done(); <-release }()
}
close(release)
wg.Wait()
"done\""""
        reply, outs = run(self.kc, code, timeout=60)
        self.assertEqual(reply["content"]["status"], "ok", reply["content"])
        self.assertHealthy()

    def test_allocation_past_the_memory_limit(self):
        reply, _ = run(self.kc, "b := make([]byte, 64<<30)\nlen(b)")
        self.assertEqual(reply["content"]["status"], "error")
        self.assertIn("memory limit", reply["content"]["evalue"])
        self.assertIn("TICK_MEMORY_LIMIT", reply["content"]["evalue"])
        self.assertHealthy()

    # Output that was lost.

    def test_33_megabyte_print_arrives_whole(self):
        code = 'import "strings"\nimport "fmt"\nfmt.Print(strings.Repeat("y", 33<<20))'
        reply, outs = run(self.kc, code, timeout=120)
        self.assertEqual(reply["content"]["status"], "ok")
        text = stdout_of(outs, "stdout") + stdout_of(outs, "stderr")
        self.assertEqual(text.count("y"), 33 << 20, "part of the print was lost")
        self.assertTrue(all(len(m["content"]["text"]) <= 1 << 20 for m in outs if m["msg_type"] == "stream"))
        self.assertHealthy()

    def test_oversized_display_becomes_an_error(self):
        code = 'import ("strings"; "tick/display")\ndisplay.HTML(strings.Repeat("z", 40<<20))\n"after"'
        reply, outs = run(self.kc, code, timeout=120)
        errors = [m for m in outs if m["msg_type"] == "error"]
        self.assertEqual(len(errors), 1, [m["msg_type"] for m in outs])
        self.assertIn("OutputTooLarge", errors[0]["content"]["ename"])
        results = [m["content"]["data"]["text/plain"] for m in outs if m["msg_type"] == "execute_result"]
        self.assertEqual(results, ['"after"'], "the output after the big display was lost")
        self.assertHealthy()


if __name__ == "__main__":
    unittest.main()
