"""The least-squares solve of fit.mjs on scipy.sparse: conjugate gradient on the normal equations
(A^T W A + mu I) X = A^T W Y, one independent system per output column, all columns together,
the same iteration as fit.mjs's JavaScript cg() (fixed iteration count; float32 matrices and
vectors, float64 dot products).

    python cg.py DIR     (DIR holds meta.json, ptr.i32, idx.i32, val.f32, w.f32, y.f32; writes x.f64)
"""
import json
import sys

import numpy as np
import scipy.sparse as sp


def main():
    d = sys.argv[1]
    meta = json.load(open(f"{d}/meta.json"))
    n, cols, dim, mu, iters = meta["n"], meta["cols"], meta["dim"], meta["mu"], meta["iters"]
    ptr = np.fromfile(f"{d}/ptr.i32", "<i4")
    idx = np.fromfile(f"{d}/idx.i32", "<i4")
    val = np.fromfile(f"{d}/val.f32", "<f4")
    w = np.fromfile(f"{d}/w.f32", "<f4")
    Y = np.fromfile(f"{d}/y.f32", "<f4").reshape(n, dim)
    A = sp.csr_matrix((val, idx, ptr), shape=(n, cols))
    At = A.T.tocsr()
    W = w[:, None]

    def normal(X):
        return At @ (W * (A @ X)) + np.float32(mu) * X

    b = (At @ (W * Y)).astype(np.float32)
    X = np.zeros((cols, dim), dtype=np.float32)
    R = b.copy()
    P = R.copy()
    rr = (R * R).sum(0, dtype=np.float64)
    rr0 = rr.copy()
    for it in range(iters):
        AP = normal(P)
        pap = (P * AP).sum(0, dtype=np.float64)
        alpha = np.where(pap > 0, rr / np.where(pap > 0, pap, 1), 0)
        X += (alpha * P).astype(np.float32)
        R -= (alpha * AP).astype(np.float32)
        rrn = (R * R).sum(0, dtype=np.float64)
        beta = np.where(rr > 0, rrn / np.where(rr > 0, rr, 1), 0)
        P = (R + beta * P).astype(np.float32)
        rr = rrn
        if it % 10 == 0 or it == iters - 1:
            print(f"cg {it}: residual {np.sqrt(rr.sum() / rr0.sum()):.2e}", file=sys.stderr)
    X.astype("<f8").tofile(f"{d}/x.f64")


if __name__ == "__main__":
    main()
