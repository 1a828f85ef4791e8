"""pyopencl running a plain N×N float32 matmul kernel (one output per work
item, k in order, no local memory) on OpenCL device 0, with 16×16 work
groups and with the driver's choice: what the driver itself makes of a
matmul, beside tick's (`clbench -suite -device CL -matmul N`).

Usage: /usr/bin/python3 bench/cl_matmul_pyopencl.py [N [CALLS]]   (defaults 512, 3)
"""
import sys
import time

import numpy as np
import pyopencl as cl

n = int(sys.argv[1]) if len(sys.argv) > 1 else 512
calls = int(sys.argv[2]) if len(sys.argv) > 2 else 3
ctx = cl.Context(devices=[cl.get_platforms()[0].get_devices()[0]])
q = cl.CommandQueue(ctx)
src = f"""__kernel void mm(__global float *c, __global const float *a, __global const float *b) {{
    const int j = get_global_id(0), i = get_global_id(1);
    float acc = 0.0f;
    for (int k = 0; k < {n}; k++) acc = acc + a[i * {n} + k] * b[k * {n} + j];
    c[i * {n} + j] = acc;
}}"""
prog = cl.Program(ctx, src).build(options=["-cl-std=CL1.2"])
a = np.random.rand(n, n).astype(np.float32)
b = np.random.rand(n, n).astype(np.float32)
mf = cl.mem_flags
A = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
B = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=b)
C = cl.Buffer(ctx, mf.WRITE_ONLY, a.nbytes)
for local in ((16, 16), None):
    prog.mm(q, (n, n), local, C, A, B)
    q.finish()
    t0 = time.perf_counter()
    for _ in range(calls):
        prog.mm(q, (n, n), local, C, A, B)
        q.finish()
    el = (time.perf_counter() - t0) / calls
    print(f"pyopencl matmul {n} local {local or 'driver'}\t{el * 1e3:.1f} ms\t{2 * n ** 3 / el / 1e9:.2f} GFLOP/s")
