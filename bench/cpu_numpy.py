#!/usr/bin/python3
"""The numpy (OpenBLAS) and numexpr side of bench/cpu.sh: the cases of
bench/cpubench (same names, sizes and work), printed as the same
tab-separated lines (case, size, implementation, value, unit, work) and
timed the same way (bench/cpubench/timing.go): batches of calls lasting at
least 0.5 ms, the median over samples of the time per call.

numpy does the same work as tick: every output is preallocated and written
with out= (tick's JIT replay reuses its buffers), so no call allocates or
page-faults. Threads: numpy's reductions and elementwise ops use one thread;
OpenBLAS (matmul) and numexpr use OPENBLAS_NUM_THREADS / the --threads
count, which the label carries ("OpenBLAS 2T"). bench/cpu.sh runs this once
per thread count tick is run with.

--matmul-only runs only what uses the threads: OpenBLAS and numexpr.

Usage: bench/cpu_numpy.py [--quick] [--threads N] [--matmul-only] [-cases a,b]
"""
import ctypes
import os
import sys
import time

import numpy as np

try:
    import numexpr as ne
except ImportError:  # bench/cpu.sh installs it; the table then says "-"
    ne = None

QUICK = "--quick" in sys.argv
MATMUL_ONLY = "--matmul-only" in sys.argv
THREADS = int(sys.argv[sys.argv.index("--threads") + 1]) if "--threads" in sys.argv else int(os.environ.get("OPENBLAS_NUM_THREADS", "1"))
MIN_SAMPLE, MIN_SAMPLES, MAX_SAMPLES = 0.0005, 5, 25


def _cases():
    """The -cases list cpubench was given (-cases X or -cases=X), or None."""
    for i, a in enumerate(sys.argv):
        if a in ("-cases", "--cases") and i + 1 < len(sys.argv):
            return {c.strip() for c in sys.argv[i + 1].split(",")}
        if a.startswith(("-cases=", "--cases=")):
            return {c.strip() for c in a.split("=", 1)[1].split(",")}
    return None


CASES = _cases()


def want(case):
    return CASES is None or case in CASES


def budget(heavy=False):
    return 0.04 if QUICK else (0.2 if heavy else 0.3)


def measure(f, heavy=False):
    """The median time per call of f (seconds), as cpubench's measure."""
    f()
    f()
    n = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            f()
        d = time.perf_counter() - t0
        if d >= MIN_SAMPLE or n >= 1 << 20:
            break
        n = max(n * 2, int(n * 2 * MIN_SAMPLE / max(d, 1e-9)))
    s, t0 = [], time.perf_counter()
    while len(s) < MIN_SAMPLES or (len(s) < MAX_SAMPLES and time.perf_counter() - t0 < budget(heavy)):
        b = time.perf_counter()
        for _ in range(n):
            f()
        s.append((time.perf_counter() - b) / n)
    s.sort()
    m = len(s) // 2
    return s[m] if len(s) % 2 else (s[m - 1] + s[m]) / 2


def emit(case, size, impl, f, work, heavy=False):
    if not want(case):
        return
    d = measure(f, heavy)
    print(f"{case}\t{size}\t{impl}\t{d * 1e6:.4g}\tus\t{work}", flush=True)


def openblas_core():
    """The OpenBLAS kernel set numpy runs (openblas_get_corename)."""
    with open("/proc/self/maps") as f:
        libs = {l.split()[-1] for l in f if "blas" in l.lower() and ".so" in l}
    for path in sorted(libs):
        try:
            lib = ctypes.CDLL(path)
            lib.openblas_get_corename.restype = ctypes.c_char_p
            lib.openblas_get_config.restype = ctypes.c_char_p
            return path, lib.openblas_get_corename().decode(), lib.openblas_get_config().decode()
        except (OSError, AttributeError):
            continue
    return "?", "not OpenBLAS (reference BLAS?)", "?"


def size_name(n):
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return f"{n >> 20}M"
    if n >= 1 << 10 and n % (1 << 10) == 0:
        return f"{n >> 10}K"
    return str(n)


def sizes():
    return [4 << 10, 256 << 10, 1 << 20] if QUICK else [4 << 10, 256 << 10, 16 << 20]


def numexpr_relu(a, o):
    """The relu chain through numexpr (one pass, THREADS threads)."""
    if ne and want("relu(a*2+1)"):
        ne.set_num_threads(THREADS)
        emit("relu(a*2+1)", size_name(a.size), f"numexpr {THREADS}T",
             lambda: ne.evaluate("where(a*2+1 > 0, a*2+1, 0)", local_dict={"a": a}, out=o), f"B:{8 * a.size}")


def memory_bound(rng):
    impl = "numpy 1T"
    for n in sizes():
        a = rng.standard_normal(n, dtype=np.float32)
        o, o0, s = np.empty_like(a), np.empty((), np.float32), size_name(n)

        def relu():
            np.multiply(a, 2, out=o)
            np.add(o, 1, out=o)
            np.maximum(o, 0, out=o)
        emit("relu(a*2+1)", s, impl, relu, f"B:{8 * n}")
        numexpr_relu(a, o)
        emit("sum", s, impl, lambda: np.sum(a, out=o0), f"B:{4 * n}")
        emit("max", s, impl, lambda: np.max(a, out=o0), f"B:{4 * n}")
        emit("min", s, impl, lambda: np.min(a, out=o0), f"B:{4 * n}")
        emit("mean", s, impl, lambda: np.mean(a, out=o0), f"B:{4 * n}")


def axes(rng):
    impl = "numpy 1T"
    for side in [64, 512, 1024] if QUICK else [64, 512, 4096]:
        m = rng.standard_normal((side, side), dtype=np.float32)
        r, e, size, w = np.empty(side, np.float32), np.empty_like(m), f"{side}x{side}", f"B:{4 * side * side}"
        for name, f in [("sum", np.sum), ("max", np.max), ("min", np.min), ("mean", np.mean)]:
            for ax in (1, 0):
                emit(f"{name} axis {ax}", size, impl, lambda f=f, ax=ax: f(m, axis=ax, out=r), w)
        mx = np.empty((side, 1), np.float32)
        sm = np.empty((side, 1), np.float32)

        def softmax():
            np.max(m, axis=1, keepdims=True, out=mx)
            np.subtract(m, mx, out=e)
            np.exp(e, out=e)
            np.sum(e, axis=1, keepdims=True, out=sm)
            np.divide(e, sm, out=e)
        emit("softmax axis 1", size, impl, softmax, f"B:{8 * side * side}")


def matmuls(rng):
    impl = f"OpenBLAS {THREADS}T"
    r = lambda *s: rng.random(s, dtype=np.float32)
    for n in [64, 256, 512] if QUICK else [64, 128, 256, 512, 1024, 2048]:
        a, b, c = r(n, n), r(n, n), np.empty((n, n), np.float32)
        emit("matmul", str(n), impl, lambda: np.matmul(a, b, out=c), f"F:{2 * n ** 3}", heavy=n >= 1024)
    f = 2 * 128 * 784 * 256
    x, w, dy = r(128, 784), r(784, 256), r(128, 256)
    o1, o2 = np.empty((128, 256), np.float32), np.empty((784, 256), np.float32)
    emit("matmul x.w", "128x784.784x256", impl, lambda: np.matmul(x, w, out=o1), f"F:{f}")
    emit("matmul xT.dy", "784x128.128x256", impl, lambda: np.matmul(x.T, dy, out=o2), f"F:{f}")
    o3 = np.empty((128, 784), np.float32)
    emit("matmul dy.wT", "128x256.256x784", impl, lambda: np.matmul(dy, w.T, out=o3), f"F:{f}")
    a3, b3, c3 = r(32, 64, 64), r(32, 64, 64), np.empty((32, 64, 64), np.float32)
    emit("matmul batched", "32x64x64.64x64", impl, lambda: np.matmul(a3, b3, out=c3), f"F:{2 * 32 * 64 ** 3}")
    t, s, ct = r(16384, 64), r(64, 64), np.empty((16384, 64), np.float32)
    emit("matmul tall", "16384x64.64x64", impl, lambda: np.matmul(t, s, out=ct), f"F:{2 * 16384 * 64 * 64}")


def main():
    path, core, config = openblas_core()
    print(f"#numpy\tnumpy {np.__version__}; {config}; core {core} ({path}); numexpr {ne.__version__ if ne else 'missing'};"
          f" {THREADS} BLAS threads", flush=True)
    rng = np.random.default_rng(1)
    matmuls(rng)
    if MATMUL_ONLY:  # and numexpr, the other side that uses THREADS
        for n in sizes():
            a = rng.standard_normal(n, dtype=np.float32)
            numexpr_relu(a, np.empty_like(a))
        return
    memory_bound(rng)
    axes(rng)
    x = rng.random(256, dtype=np.float32)
    ops = 100

    def eager():
        for _ in range(ops):
            x + 1
    if want("eager op"):
        print(f"eager op\t256\tnumpy 1T\t{measure(eager) / ops * 1e6:.4g}\tus\t-", flush=True)


if __name__ == "__main__":
    main()
