"""pyopencl on the same OpenCL kernel bench/clbench times through tick's CL
device: ten launches of the 256-element kernel per call, per kernel, both
with the queue finished after each call ("launch+finish") and enqueued
only (finished after the timed calls). The kernel's source, name and work
sizes come from clbench's -kernel file; built with the same options.

Usage: [CL_DEVICE_INDEX=N] /usr/bin/python3 bench/cl_pyopencl.py KERNEL_FILE [CALLS [SAMPLES]]
"""
import os
import sys
import time

import numpy as np
import pyopencl as cl


def main():
    path = sys.argv[1]
    calls = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    samples = int(sys.argv[3]) if len(sys.argv) > 3 else 15
    with open(path) as f:
        name = f.readline().strip()
        glob, local = (int(v) for v in f.readline().split())
        src = f.read()
    # CL_DEVICE_INDEX is tick's N of CL:N: devices numbered across platforms
    # in the order the loader lists them (bench/gpu.sh sets it).
    devices = [d for p in cl.get_platforms() for d in p.get_devices()]
    ctx = cl.Context(devices=[devices[int(os.environ.get("CL_DEVICE_INDEX", "0"))]])
    q = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
    prog = cl.Program(ctx, src).build(options=["-cl-std=CL1.2", "-cl-fp32-correctly-rounded-divide-sqrt"])
    knl = getattr(prog, name)
    mf = cl.mem_flags
    x = np.random.rand(256).astype(np.float32)
    bufs = [cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=x) for _ in range(11)]

    def call():
        for k in range(10):
            knl(q, (glob,), (local,), bufs[k + 1], bufs[k])

    def finished():
        for _ in range(calls):
            call()
            q.finish()

    def enqueued():
        for _ in range(calls):
            call()

    for f, what in ((finished, "launch+finish"), (enqueued, "enqueue only")):
        f()
        q.finish()
        ts = []
        for _ in range(samples):
            t0 = time.perf_counter()
            f()
            ts.append(time.perf_counter() - t0)
            q.finish()
        ts.sort()
        per = lambda t: t * 1e6 / (calls * 10)
        print(f"pyopencl {what}\t{per(ts[len(ts) // 2]):.2f}\t{per(ts[0]):.2f}\t{per(ts[-1]):.2f}\t"
              f"µs per kernel (median, min, max of {samples} samples)")


main()
