#!/usr/bin/env python3
"""kdesign-ref.py DESIGN DATA GAMMA K KT4 [GRAPH [DELTA]]: checks the learned
kernel K~ that lapsvm-train -s kdesign -J DESIGN -g GAMMA -n K -x KT4 wrote,
independently of lapsvm (numpy), and prints one line "ok ..." or "BAD ...".

cluster    K~ rebuilt from the RBF kernel exp(-GAMMA |u - v|^2) of DATA as
           Chapelle et al.'s cluster kernel with the linear transfer on
           the spectrum of S = D^-1/2 K D^-1/2 (K's diagonal kept, D =
           diag(K 1)), its top K eigenpairs (K = n: all of them, the
           linear transfer; K < n: linear-step), eigenvalues clipped at 0,
           unit diagonal: max |K~ - ref| must be below 1e-8; with K = n
           also |K~ - K| (the linear transfer gives K back).
diffusion  K~ rebuilt as sum exp(-lambda_j/DELTA) phi_j phi_j' over the K
           smallest eigenpairs of the normalized Laplacian of GRAPH; GRAPH
           "kernel": of the weights W = the RBF kernel matrix itself (its
           diagonal included), I - D^-1/2 W D^-1/2 with D = diag(W 1)
           (Wang et al.'s baselines, lapsvm-train -V kernel).
maxalign   the weights mu_j = v_j' K~ v_j on the top K eigenvectors of the
           RBF kernel: K~ = sum mu_j v_j v_j' (within 1e-8), mu >= 0, |mu| = 1.
spectral   the weights on the K smallest Laplacian eigenvectors of GRAPH
           (or "kernel", as above):
           K~ = sum mu_j phi_j phi_j', mu_1 >= mu_2 >= .. >= mu_K >= 0
           (within 1e-10), trace K~ = sum mu = 1.
"""
import sys

import numpy as np


def read_data(path):
    rows = []
    dim = 0
    for line in open(path):
        tok = line.split('#')[0].split()
        if not tok:
            continue
        x = {}
        for t in tok[1:]:
            i, v = t.split(':')
            x[int(i)] = float(v)
            dim = max(dim, int(i))
        rows.append(x)
    X = np.zeros((len(rows), dim))
    for r, x in enumerate(rows):
        for i, v in x.items():
            X[r, i - 1] = v
    return X


def read_t4(path, n):
    K = np.zeros((n, n))
    r = 0
    for line in open(path):
        tok = line.split()
        if not tok:
            continue
        for t in tok[2:]:
            j, v = t.split(':')
            K[r, int(j) - 1] = float(v)
        r += 1
    return K


def laplacian(path, n):
    W = np.zeros((n, n))
    for line in open(path):
        tok = line.split('#')[0].split()
        if not tok:
            continue
        i = int(tok[0]) - 1
        for t in tok[1:]:
            j, w = t.split(':')
            W[i, int(j) - 1] = float(w)
    d = W.sum(axis=1)
    s = np.where(d > 0, 1.0 / np.sqrt(np.where(d > 0, d, 1.0)), 0.0)
    L = np.diag((d > 0).astype(float)) - s[:, None] * W * s[None, :]
    return L


def kernel_laplacian(W):
    """I - D^-1/2 W D^-1/2 of the dense weights W, D = diag(W 1)."""
    s = 1.0 / np.sqrt(W.sum(axis=1))
    return np.eye(W.shape[0]) - s[:, None] * W * s[None, :]


def main():
    design, data, gamma, k, kt4 = sys.argv[1:6]
    gamma, k = float(gamma), int(k)
    X = read_data(data)
    n = X.shape[0]
    Kt = read_t4(kt4, n)
    sq = (X * X).sum(axis=1)
    K = np.exp(-gamma * np.maximum(sq[:, None] + sq[None, :] - 2 * X @ X.T, 0))
    if design == 'cluster':
        s = 1.0 / np.sqrt(K.sum(axis=1))
        lam, U = np.linalg.eigh(s[:, None] * K * s[None, :])
        lam, U = lam[::-1][:k], U[:, ::-1][:, :k]
        Lt = U @ np.diag(np.maximum(lam, 0)) @ U.T
        dd = np.sqrt(np.diag(Lt))
        ref = Lt / dd[:, None] / dd[None, :]
        err = np.abs(Kt - ref).max()
        if k == n:
            err = max(err, np.abs(Kt - K).max())
        print(('ok' if err < 1e-8 else 'BAD'), 'cluster max diff %.3g' % err)
        return
    if design == 'maxalign':
        lam, V = np.linalg.eigh(K)
        V = V[:, ::-1][:, :k]
    else:
        L = (kernel_laplacian(K) if sys.argv[6] == 'kernel'
             else laplacian(sys.argv[6], n))
        lam, V = np.linalg.eigh(L)
        lam, V = lam[:k], V[:, :k]
    if design == 'diffusion':
        delta = float(sys.argv[7])
        ref = V @ np.diag(np.exp(-np.maximum(lam, 0) / delta)) @ V.T
        err = np.abs(Kt - ref).max()
        print(('ok' if err < 1e-8 else 'BAD'), 'diffusion max diff %.3g' % err)
        return
    mu = np.einsum('ij,ik,kj->j', V, Kt, V)
    rec = np.abs(Kt - V @ np.diag(mu) @ V.T).max()
    bad = []
    if rec > 1e-8:
        bad.append('K~ is not sum mu_j z_j z_j\' (diff %.3g)' % rec)
    if mu.min() < -1e-10:
        bad.append('a weight is negative (%.3g)' % mu.min())
    if design == 'maxalign':
        if abs(np.linalg.norm(mu) - 1) > 1e-8:
            bad.append('|mu| = %.12g, not 1' % np.linalg.norm(mu))
    else:
        if np.diff(mu).max() > 1e-10:
            bad.append('weights not non-increasing (%.3g)' % np.diff(mu).max())
        if abs(mu.sum() - 1) > 1e-8:
            bad.append('sum mu = %.12g, not 1' % mu.sum())
    print('BAD ' + '; '.join(bad) if bad else
          'ok %s: %d weights > 1e-12, reconstruction %.3g' %
          (design, int((mu > 1e-12).sum()), rec))


main()
