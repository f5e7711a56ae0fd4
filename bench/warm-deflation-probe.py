#!/usr/bin/python3
"""warm-deflation-probe.py -- would recycling yesterday's Krylov space give
issue 20's 3x?  A numpy probe outside lapsvm, not part of make test.

LapRLS by PCG as common/pcg.c runs it: CG on M a = c in the K inner product,
    M = 1/l J K + gamma_A I + gamma_I/n^2 L K,   c = Y/l,
the normalized Laplacian of the graph file, the RBF kernel exp(-g |x-z|^2),
gamma_A = a/l and gamma_I = i n^2/l (lapsvm-train's -a and -i), the stop
sqrt(s'Ks / c'Kc) < 1e-6.  Four runs on the grown problem:
  cold      from a = 0;
  warm      from yesterday's a, the new rows at 0 (lapsvm-train -f);
  deflated  the warm start, and CG deflated (Saad, Yeung, Erhel and
            Guyomarc'h, SIAM J. Sci. Comput. 21, 2000) by W: yesterday's
            top-k Ritz vectors of M from yesterday's own CG (its residuals
            are K-orthogonal Lanczos vectors, its step lengths give the
            tridiagonal T), padded with 0 on the new rows, rank-reduced by
            the eigenvalues of W'KW (lost orthogonality repeats the large
            Ritz values).  The start is projected (a += W (W'AW)^-1 W'K s,
            A = K M) and every direction made A-orthogonal to W.
Per deflated run the extra work is two products of K with k columns (K W,
then K (M W)) and O(n k) per iteration; yesterday's run must keep its
residuals (n x its iterations) to form W.

  bench/warm-deflation-probe.py OLD_DATA OLD_GRAPH NEW_DATA NEW_GRAPH [g a i [k ...]]

NEW_DATA = the old rows then the appended ones (bench/warm-start.sh's
cases write them).  Defaults: g 0.01, a 0.005, i 0.045 (the bench's), k
60 80 100 (Ritz vectors taken before the rank reduction).
"""
import sys

import numpy as np


def read_data(path):
    ys, rows, dim = [], [], 0
    for line in open(path):
        t = line.split()
        if not t or t[0].startswith('#'):
            continue
        ys.append(float(t[0]))
        r = {}
        for kv in t[1:]:
            k, v = kv.split(':')
            r[int(k)] = float(v)
            dim = max(dim, int(k))
        rows.append(r)
    X = np.zeros((len(rows), dim))
    for i, r in enumerate(rows):
        for k, v in r.items():
            X[i, k - 1] = v
    return np.array(ys), X


def read_laplacian(path, n):
    W = np.zeros((n, n))
    for line in open(path):
        t = line.split()
        if not t or t[0].startswith('#'):
            continue
        i = int(t[0]) - 1
        for kv in t[1:]:
            k, v = kv.split(':')
            W[i, int(k) - 1] = float(v)
    d = W.sum(1)
    s = np.where(d > 0, 1 / np.sqrt(np.where(d > 0, d, 1)), 0)
    return np.diag((d > 0).astype(float)) - s[:, None] * W * s[None, :]


def problem(data, graph, g, a, i):
    y, X = read_data(data)
    sq = (X * X).sum(1)
    K = np.exp(-g * np.maximum(sq[:, None] + sq[None, :] - 2 * X @ X.T, 0))
    lab = y != 0
    l = lab.sum()
    M = lab[:, None] * K / l + (a / l) * np.eye(len(y)) \
        + (i / l) * read_laplacian(graph, len(y)) @ K
    return K, M, y / l


def cg(K, M, c, a0, W=None, keep=False, tol=1e-6, maxit=100000):
    """Iterations to the stop; with keep, also the K-normalized residuals
    and the Lanczos tridiagonal."""
    a = a0.copy()
    s = c - M @ a
    rho0 = c @ K @ c
    if W is not None:
        AW = K @ (M @ W)
        WAW = W.T @ AW
        a += W @ np.linalg.solve(WAW, W.T @ (K @ s))
        s = c - M @ a
    rho = s @ K @ s
    if np.sqrt(rho / rho0) < tol:
        return 0, None, None
    d = s.copy()
    if W is not None:
        d -= W @ np.linalg.solve(WAW, AW.T @ s)
    S, al, be = [s / np.sqrt(rho)], [], []
    for it in range(1, maxit + 1):
        q = M @ d
        step = rho / ((K @ d) @ q)
        a += step * d
        s -= step * q
        rn = s @ K @ s
        beta, rho = rn / rho, rn
        al.append(step)
        be.append(beta)
        if np.sqrt(rho / rho0) < tol:
            break
        if keep:
            S.append(s / np.sqrt(rho))
        d = s + beta * d
        if W is not None:
            d -= W @ np.linalg.solve(WAW, AW.T @ s)
    if not keep:
        return it, a, None
    m = len(S)
    T = np.zeros((m, m))
    for j in range(m):
        T[j, j] = 1 / al[j] + (be[j - 1] / al[j - 1] if j else 0)
        if j + 1 < m:
            T[j, j + 1] = T[j + 1, j] = -np.sqrt(be[j]) / al[j]
    return it, a, (np.array(S).T, T)


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    od, og, nd, ng = sys.argv[1:5]
    g, a, i = (float(v) for v in (sys.argv[5:8] or (0.01, 0.005, 0.045)))
    ks = [int(v) for v in sys.argv[8:]] or [60, 80, 100]
    Ko, Mo, co = problem(od, og, g, a, i)
    K, M, c = problem(nd, ng, g, a, i)
    no, n = len(co), len(c)
    ic, ac, _ = cg(K, M, c, np.zeros(n))
    io, ao, (S, T) = cg(Ko, Mo, co, np.zeros(no), keep=True)
    a0 = np.concatenate([ao, np.zeros(n - no)])
    iw, aw, _ = cg(K, M, c, a0)
    fc = K @ ac
    print(f'rows {no} -> {n}; yesterday cold {io} iterations; today cold {ic}, warm {iw} ({ic / iw:.2f}x)')
    print('| Ritz vectors taken | kept (rank) | deflated warm iterations | ratio to cold | labels differing | max |f - f_cold| |')
    print('|---|---|---|---|---|---|')
    th, Y = np.linalg.eigh(T)
    for k in ks:
        k = min(k, len(th))
        W = S @ Y[:, -k:]
        e, U = np.linalg.eigh(W.T @ Ko @ W)
        ok = e > 1e-6 * e.max()
        W = W @ U[:, ok] / np.sqrt(e[ok])
        W = np.vstack([W, np.zeros((n - no, W.shape[1]))])
        idf, ad, _ = cg(K, M, c, a0, W=W)
        fd = K @ ad
        print(f'| {k} | {W.shape[1]} | {idf} | {ic / idf:.2f}x | '
              f'{int(((fd > 0) != (fc > 0)).sum())}/{n} | {np.abs(fd - fc).max():.1e} |')


if __name__ == '__main__':
    main()
