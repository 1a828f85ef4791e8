#!/usr/bin/python3
"""tick's guarded sockets against libzmq's behaviour (ipykernel is a libzmq
kernel), side by side in one run with Debian's /usr/bin/python3:

  idle     a new client's kernel_info round trip while an idle TCP
           connection (no ZMTP greeting) is open on every port (median of
           --runs, each with fresh idle connections)
  huge     a frame header announcing 1 TiB on the shell port: does the
           kernel survive, and how long until it closes the connection
  dup      a second DEALER with the client's identity: replies it receives

Usage: bench/hardening_vs_libzmq.py [--runs 20] [--kernels tick,python3]
Prints a Markdown table (paste it into docs/benchmarks.md).
"""
import argparse
import os
import queue
import socket
import statistics
import struct
import time

import zmq
from jupyter_client import BlockingKernelClient
from jupyter_client.manager import KernelManager

PORTS = ("shell_port", "control_port", "stdin_port", "iopub_port", "hb_port")


def greeting_ready():
    g = bytearray(64)
    g[0], g[9], g[10] = 0xFF, 0x7F, 3
    g[12:16] = b"NULL"
    body = b"\x05READY" + bytes([11]) + b"Socket-Type" + struct.pack(">I", 6) + b"DEALER"
    return bytes(g) + b"\x04" + bytes([len(body)]) + body


def kernel_info_rtt(info):
    kc = BlockingKernelClient()
    kc.load_connection_info(info)
    kc.start_channels()
    try:
        t0 = time.perf_counter()
        msg_id = kc.kernel_info()
        while True:
            m = kc.get_shell_msg(timeout=60)
            if m["parent_header"].get("msg_id") == msg_id:
                return time.perf_counter() - t0
    finally:
        kc.stop_channels()


def measure(name, runs):
    km = KernelManager(kernel_name=name)
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=60)
    info = km.get_connection_info()
    row = {}
    try:
        rtts = []
        for _ in range(runs):
            idle = [socket.create_connection((info["ip"], info[p])) for p in PORTS]
            rtts.append(kernel_info_rtt(info))
            for s in idle:
                s.close()
        row["idle"] = f"{statistics.median(rtts) * 1e3:.1f} ms (max {max(rtts) * 1e3:.1f} ms)"

        s = socket.create_connection((info["ip"], info["shell_port"]))
        s.sendall(greeting_ready() + b"\x02" + struct.pack(">Q", 1 << 40))
        t0 = time.perf_counter()
        s.settimeout(10)
        closed = "kept open 10 s"
        try:
            while s.recv(65536):
                pass
            closed = f"closed after {(time.perf_counter() - t0) * 1e3:.1f} ms"
        except (socket.timeout, ConnectionResetError):
            pass
        s.close()
        time.sleep(0.5)
        row["huge"] = f"{'survives' if km.is_alive() else 'KILLED'}, {closed}"

        ident = kc.shell_channel.socket.getsockopt(zmq.IDENTITY)
        dup = zmq.Context.instance().socket(zmq.DEALER)
        dup.setsockopt(zmq.IDENTITY, ident)
        dup.setsockopt(zmq.LINGER, 0)
        dup.connect(f"tcp://{info['ip']}:{info['shell_port']}")
        time.sleep(0.5)
        ids = {kc.kernel_info() for _ in range(5)}
        mine = 0
        deadline = time.monotonic() + 5
        while mine < 5 and time.monotonic() < deadline:
            try:
                if kc.get_shell_msg(timeout=0.5)["parent_header"].get("msg_id") in ids:
                    mine += 1
            except queue.Empty:
                pass
        got = 0
        while dup.poll(300):
            dup.recv_multipart()
            got += 1
        dup.close()
        row["dup"] = f"duplicate {got}, client {mine} of 5 replies"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--kernels", default="tick,python3")
    a = ap.parse_args()
    print(f"load {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print()
    print("| kernel | kernel_info with idle connections on every port | 1 TiB frame header on shell | a second peer with the client's identity: replies received |")
    print("|---|---|---|---|")
    for name in a.kernels.split(","):
        r = measure(name, a.runs)
        print(f"| {name} | {r['idle']} | {r['huge']} | {r['dup']} |")


if __name__ == "__main__":
    main()
