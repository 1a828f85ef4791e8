#!/usr/bin/python3
"""The numpy side of bench/mlp.sh: one training step of an MLP 784-256-10
(ReLU, softmax cross-entropy, Adam), batch 128, float32, with the backward
pass written by hand, timed as bench/mlpbench times tick's. numpy's matrix
products run in OpenBLAS (on every core).

  bench/mlp_numpy.py --init DIR     write the shared initial weights and
                                    batches (seeded) to DIR as raw float32/int32
  bench/mlp_numpy.py DIR [--quick]  time the step on them; prints lines
                                    "mlp<TAB>numpy<TAB>metric<TAB>value"
"""
import os
import sys
import time

import numpy as np

B, IN, HID, OUT, NBATCH = 128, 784, 256, 10, 4
LR, B1, B2, EPS = 1e-3, 0.9, 0.999, 1e-8


def write_init(d):
    rng = np.random.RandomState(30)
    os.makedirs(d, exist_ok=True)
    arrays = {
        "w1": rng.uniform(-1, 1, (HID, IN)) / np.sqrt(IN), "b1": rng.uniform(-1, 1, HID) / np.sqrt(IN),
        "w2": rng.uniform(-1, 1, (OUT, HID)) / np.sqrt(HID), "b2": rng.uniform(-1, 1, OUT) / np.sqrt(HID),
        "x": rng.randn(NBATCH, B, IN),
    }
    for k, v in arrays.items():
        v.astype(np.float32).tofile(os.path.join(d, k + ".f32"))
    rng.randint(0, OUT, (NBATCH, B)).astype(np.int32).tofile(os.path.join(d, "y.i32"))


def load(d):
    f = lambda n, shape: np.fromfile(os.path.join(d, n + ".f32"), dtype=np.float32).reshape(shape)
    params = [f("w1", (HID, IN)), f("b1", (HID,)), f("w2", (OUT, HID)), f("b2", (OUT,))]
    xs = f("x", (NBATCH, B, IN))
    ys = np.fromfile(os.path.join(d, "y.i32"), dtype=np.int32).reshape(NBATCH, B)
    return params, xs, ys


class Step:
    """forward, hand-written backward and Adam, in place, as tick's step."""

    def __init__(self, params):
        self.p = params
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.b1t, self.b2t = np.float32(1), np.float32(1)
        self.rows = np.arange(B)

    def __call__(self, x, y):
        w1, b1, w2, b2 = self.p
        z1 = x @ w1.T + b1
        h = np.maximum(z1, 0)
        logits = h @ w2.T + b2
        mx = logits.max(axis=1, keepdims=True)
        e = np.exp(logits - mx)
        s = e.sum(axis=1, keepdims=True)
        loss = -(logits[self.rows, y] - mx[:, 0] - np.log(s[:, 0])).mean()
        d = e / s
        d[self.rows, y] -= 1
        d /= B
        dw2, db2 = d.T @ h, d.sum(axis=0)
        dz1 = (d @ w2) * (z1 > 0)
        dw1, db1 = dz1.T @ x, dz1.sum(axis=0)
        self.b1t *= np.float32(B1)
        self.b2t *= np.float32(B2)
        c1, c2 = np.float32(1) - self.b1t, np.float32(1) - self.b2t
        for p, g, m, v in zip(self.p, (dw1, db1, dw2, db2), self.m, self.v):
            m *= np.float32(B1)
            m += np.float32(1 - B1) * g
            v *= np.float32(B2)
            v += np.float32(1 - B2) * g * g
            p -= np.float32(LR) * (m / c1) / (np.sqrt(v / c2) + np.float32(EPS))
        return loss


def main():
    if sys.argv[1] == "--init":
        write_init(sys.argv[2])
        return
    quick = "--quick" in sys.argv
    params, xs, ys = load(sys.argv[1])
    step = Step(params)
    emit = lambda k, v: print("mlp\tnumpy\t%s\t%.6g" % (k, v), flush=True)
    # The first losses, for the check that both sides compute one step.
    for i in range(10):
        loss = step(xs[i % NBATCH], ys[i % NBATCH])
        if i in (0, 9):
            emit("loss%d" % (i + 1), loss)
    # Steps per sample so a sample lasts at least 50 ms.
    n = 1
    while True:
        t0 = time.perf_counter()
        for i in range(n):
            step(xs[i % NBATCH], ys[i % NBATCH])
        if time.perf_counter() - t0 >= 0.05 or n >= 1 << 16:
            break
        n *= 2
    samples = 5 if quick else 15
    c0 = time.process_time()
    w0 = time.perf_counter()
    for _ in range(samples):
        t0 = time.perf_counter()
        for i in range(n):
            step(xs[i % NBATCH], ys[i % NBATCH])
        emit("sample_s_per_step", (time.perf_counter() - t0) / n)
    emit("cpu_s_per_step", (time.process_time() - c0) / (samples * n))
    emit("wall_s_per_step", (time.perf_counter() - w0) / (samples * n))
    emit("threads", int(os.environ.get("OPENBLAS_NUM_THREADS", os.cpu_count())))


main()
