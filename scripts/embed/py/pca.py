"""fit.mjs's pca() in numpy: top-d eigenvectors of the covariance of the rows of Y about `mean`.

    python pca.py DIR    (DIR holds meta.json {n, D, d}, y.f32 (n x D), mean.f64 (D); writes q.f64 (D x d, row-major))
Eigenvectors come from numpy.linalg.eigh (deterministic), largest eigenvalue first, each with its
sign fixed so that its largest-magnitude component is positive.
"""
import json
import sys

import numpy as np


def main():
    d = sys.argv[1]
    meta = json.load(open(f"{d}/meta.json"))
    n, D, k = meta["n"], meta["D"], meta["d"]
    Y = np.fromfile(f"{d}/y.f32", "<f4").astype(np.float64).reshape(n, D)
    mean = np.fromfile(f"{d}/mean.f64", "<f8")
    Z = Y - mean
    C = Z.T @ Z
    vals, vecs = np.linalg.eigh(C)
    Q = vecs[:, ::-1][:, :k].copy()
    for j in range(k):
        if Q[np.argmax(np.abs(Q[:, j])), j] < 0:
            Q[:, j] *= -1
    Q.astype("<f8").tofile(f"{d}/q.f64")


if __name__ == "__main__":
    main()
