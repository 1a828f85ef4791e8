#!/usr/bin/python3
"""Reference gradients of a small MLP, computed independently of tick with
numpy (Debian's python3-numpy) and a hand-written backward pass, in
float64. Writes mlp_reference.json, which runtime/nn's TestMLPMatchesNumpy
reads. Regenerate from the repository root with

    /usr/bin/python3 runtime/nn/testdata/mlp_reference.py

The network: Linear(5, 8) -> ReLU -> Linear(8, 6) -> Tanh -> Linear(6, 4),
cross-entropy against integer labels, mean over a batch of 7; weights are
[out, in] as in torch (y = x @ W.T + b).
"""
import json
import os

import numpy as np

rng = np.random.RandomState(28)
N, sizes = 7, [5, 8, 6, 4]
x = rng.uniform(-1, 1, (N, sizes[0]))
labels = rng.randint(0, sizes[-1], N)
Ws = [rng.uniform(-0.8, 0.8, (o, i)) for i, o in zip(sizes[:-1], sizes[1:])]
bs = [rng.uniform(-0.3, 0.3, o) for o in sizes[1:]]

# Forward.
z1 = x @ Ws[0].T + bs[0]
h1 = np.maximum(z1, 0)
z2 = h1 @ Ws[1].T + bs[1]
h2 = np.tanh(z2)
logits = h2 @ Ws[2].T + bs[2]
m = logits.max(axis=1, keepdims=True)
logp = logits - m - np.log(np.exp(logits - m).sum(axis=1, keepdims=True))
loss = -logp[np.arange(N), labels].mean()

# Backward, by hand.
onehot = np.zeros_like(logits)
onehot[np.arange(N), labels] = 1
dlogits = (np.exp(logp) - onehot) / N
dW3, db3 = dlogits.T @ h2, dlogits.sum(axis=0)
dh2 = dlogits @ Ws[2]
dz2 = dh2 * (1 - h2 ** 2)
dW2, db2 = dz2.T @ h1, dz2.sum(axis=0)
dh1 = dz2 @ Ws[1]
dz1 = dh1 * (z1 > 0)
dW1, db1 = dz1.T @ x, dz1.sum(axis=0)
dx = dz1 @ Ws[0]

out = {
    "x": x.tolist(), "labels": labels.tolist(),
    "weights": [w.tolist() for w in Ws], "biases": [b.tolist() for b in bs],
    "loss": float(loss),
    "grad_weights": [g.tolist() for g in (dW1, dW2, dW3)],
    "grad_biases": [g.tolist() for g in (db1, db2, db3)],
    "grad_x": dx.tolist(),
    "numpy": np.__version__,
}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mlp_reference.json")
with open(path, "w") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
print("wrote", path)
