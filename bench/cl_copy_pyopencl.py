"""pyopencl's buffer copy (clEnqueueCopyBuffer) of 64 MiB on OpenCL device
0 ($CL_DEVICE_INDEX picks another): the driver's own device-to-device copy
bandwidth, counted as bench/cpubench counts a copy (bytes read + bytes
written), beside tick's elementwise chain at 16M (`clbench -suite`, which
reads and writes 64 MiB per call). bench/cl_suite.sh runs it.

Usage: /usr/bin/python3 bench/cl_copy_pyopencl.py [SAMPLES [CALLS]]   (defaults 7, 5)
"""
import os
import sys
import time

import numpy as np
import pyopencl as cl

samples = int(sys.argv[1]) if len(sys.argv) > 1 else 7
calls = int(sys.argv[2]) if len(sys.argv) > 2 else 5
devs = [d for p in cl.get_platforms() for d in p.get_devices()]
ctx = cl.Context(devices=[devs[int(os.environ.get("CL_DEVICE_INDEX", "0"))]])
q = cl.CommandQueue(ctx)
n = 1 << 24
a = np.random.rand(n).astype(np.float32)
mf = cl.mem_flags
src = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=a)
dst = cl.Buffer(ctx, mf.READ_WRITE, a.nbytes)
cl.enqueue_copy(q, dst, src)
q.finish()
per = []
for _ in range(samples):
    t0 = time.perf_counter()
    for _ in range(calls):
        cl.enqueue_copy(q, dst, src)
        q.finish()
    per.append((time.perf_counter() - t0) / calls)
per.sort()
gbs = lambda s: 2 * a.nbytes / s / 1e9
med = per[len(per) // 2]
print(f"pyopencl copy buffer 64 MiB\t{med * 1e3:.2f} ms ({per[0] * 1e3:.2f}–{per[-1] * 1e3:.2f}) per call, "
      f"{gbs(med):.2f} GB/s ({gbs(per[-1]):.2f}–{gbs(per[0]):.2f}), read+write, median of {samples} samples of {calls}")
