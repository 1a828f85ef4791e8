#!/usr/bin/python3
"""The numpy (OpenBLAS) and numexpr side of bench/cpu.sh: the same cases as
bench/cpubench, printed as the same tab-separated lines (case, size,
implementation, value, unit). Times are the fastest single call among
those that fit in 5 × 50 ms, as in cpubench.

Usage: bench/cpu_numpy.py [--quick]
"""
import ctypes
import sys
import time

import numpy as np

try:
    import numexpr as ne
except ImportError:  # bench/cpu.sh installs it; the table then says "-"
    ne = None

QUICK = "--quick" in sys.argv
# --matmul-only IMPL: only the matmul rows, labelled IMPL (bench/cpu.sh runs
# this with OPENBLAS_CORETYPE set, to show OpenBLAS's kernels for this CPU
# class when its automatic detection falls back to an older one).
MATMUL_ONLY = sys.argv[sys.argv.index("--matmul-only") + 1] if "--matmul-only" in sys.argv else None
TRIALS = 2 if QUICK else 5


def _cases():
    """The -cases list cpubench was given (-cases X or -cases=X), or None."""
    for i, a in enumerate(sys.argv):
        if a in ("-cases", "--cases") and i + 1 < len(sys.argv):
            return set(sys.argv[i + 1].split(","))
        if a.startswith(("-cases=", "--cases=")):
            return set(a.split("=", 1)[1].split(","))
    return None


CASES = _cases()


def want(case):
    return CASES is None or case in CASES


def best(f, trials=TRIALS):
    """The fastest single call of f among those that fit in trials × 50 ms
    (at least three), as cpubench times tick."""
    f()
    b, n, t0 = float("inf"), 0, time.perf_counter()
    while n < 3 or time.perf_counter() - t0 < 0.05 * trials:
        s = time.perf_counter()
        f()
        b = min(b, time.perf_counter() - s)
        n += 1
    return b


def emit(case, size, impl, v, unit):
    if not want(case):
        return
    print(f"{case}\t{size}\t{impl}\t{v:.4g}\t{unit}", flush=True)


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


def main():
    path, core, config = openblas_core()
    print(f"#{MATMUL_ONLY or 'numpy'}\tnumpy {np.__version__}; {config}; core {core} ({path}); numexpr {ne.__version__ if ne else 'missing'}"
          f" {ne.detect_number_of_threads() if ne else ''} threads", flush=True)
    rng = np.random.default_rng(1)
    for n in ([256, 512] if QUICK else [256, 512, 1024, 2048]) if want("matmul f32") else []:
        a = rng.random((n, n), dtype=np.float32)
        b = rng.random((n, n), dtype=np.float32)
        d = best(lambda: a @ b)
        emit("matmul f32", n, MATMUL_ONLY or "numpy", 2 * n ** 3 / d / 1e9, "GFLOP/s")
    if MATMUL_ONLY:
        return
    big = 1 << 20 if QUICK else 16 << 20
    for n in [256 << 10, big]:
        a = rng.standard_normal(n, dtype=np.float32)
        s = size_name(n)
        d = best(lambda: np.maximum(a * 2 + 1, 0))
        emit("relu(a*2+1)", s, "numpy", 8 * n / d / 1e9, "GB/s")
        if ne:
            d = best(lambda: ne.evaluate("where(a*2+1 > 0, a*2+1, 0)", local_dict={"a": a}))
            emit("relu(a*2+1)", s, "numexpr", 8 * n / d / 1e9, "GB/s")
        d = best(lambda: a.sum())
        emit("sum", s, "numpy", 4 * n / d / 1e9, "GB/s")
        d = best(lambda: a.max())
        emit("max", s, "numpy", 4 * n / d / 1e9, "GB/s")
        d = best(lambda: a.min())
        emit("min", s, "numpy", 4 * n / d / 1e9, "GB/s")
    side = 1024 if QUICK else 4096
    m = rng.standard_normal((side, side), dtype=np.float32)
    d = best(lambda: m.sum(axis=1))
    emit("sum axis 1", f"{side}x{side}", "numpy", 4 * side * side / d / 1e9, "GB/s")
    d = best(lambda: m.sum(axis=0))
    emit("sum axis 0", f"{side}x{side}", "numpy", 4 * side * side / d / 1e9, "GB/s")
    d = best(lambda: m.max(axis=1))
    emit("max axis 1", f"{side}x{side}", "numpy", 4 * side * side / d / 1e9, "GB/s")
    sm = rng.standard_normal((side, 1024), dtype=np.float32)

    def softmax():
        e = np.exp(sm - sm.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)
    d = best(softmax)
    emit("softmax axis 1", f"{side}x1024", "numpy", 8 * side * 1024 / d / 1e9, "GB/s")
    x = rng.random(256, dtype=np.float32)
    ops = 200

    def eager():
        for _ in range(ops):
            x + 1
    d = best(eager)
    emit("eager op", 256, "numpy", d / ops * 1e6, "us/op")


if __name__ == "__main__":
    main()
