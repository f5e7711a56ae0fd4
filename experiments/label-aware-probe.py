#!/usr/bin/env python3
"""label-aware-probe.py DIR FACTORS VARIANTS [CS]: a numpy probe of "ours"
(Wang et al. 2014, Algorithm 1) on one draw, to diagnose its gap to the
paper (issue 17), outside lapsvm.  Not part of the pipeline.

DIR holds, as experiments/label-aware-lib.sh makes them, b0 (la_prepare)
and d1/semi, d1/truth (la_semi DIR 1 DIR/d1), e.g.
    . experiments/label-aware-lib.sh; DATA=/work/shared/data
    la_prepare p usps49 /tmp/u49 3 50 1; mkdir /tmp/u49/d1; la_semi /tmp/u49 1 /tmp/u49/d1
FACTORS: b = b0 x f for f in this comma list (fractions allowed: 1/5).
VARIANTS (comma list):
  nw      the u's alone as a classifier (u_1 > 1/2, Nadaraya-Watson) and the
          centered alignment of u_1 u_1' on the unlabeled block; no SVM
  paper   Algorithm 1 as lapsvm-train -s labelaware: u = D_n^-1 K_nl Y,
          the top n/10 eigenvectors of K, alignf (centered, NNLS), the SVM
  loo     as paper, a labeled row's own K_ss left out of its u
  unnorm  u = K_nl Y / l_k (eq. 5 without the row normalization)
  unit    as paper, each u scaled to unit length (as the v's)
  indep   as paper, weights by independent centered alignment
  uonly   K~ = sum u_i u_i' (no v's)
  K       the RBF kernel itself (the cluster kernel's linear transfer)
CS: the SVM costs (default 100).  The SVM is lapsvm-train -i 0 -t 4 -c C
on the kernel written in -t 4 format (BIN: ./lapsvm-train, or $LAPSVM_TRAIN).
Prints per variant: error % on the unlabeled rows and the centered alignment
of the kernel with the labels on the unlabeled block (the paper's Table 1
diagnostic).
"""
import os
import subprocess
import sys

import numpy as np
from scipy.optimize import nnls

TRAIN = os.environ.get('LAPSVM_TRAIN', './lapsvm-train')


def main():
    d = sys.argv[1]
    fs = [eval(f.replace('/', '*1.0/')) for f in sys.argv[2].split(',')]
    variants = sys.argv[3].split(',')
    cs = sys.argv[4].split(',') if len(sys.argv) > 4 else ['100']
    rows, y, dim = [], [], 0
    for line in open(d + '/d1/semi'):
        t = line.split()
        y.append(float(t[0]))
        x = {}
        for tok in t[1:]:
            i, v = tok.split(':')
            x[int(i)] = float(v)
            dim = max(dim, int(i))
        rows.append(x)
    n = len(rows)
    X = np.zeros((n, dim))
    for r, x in enumerate(rows):
        for i, v in x.items():
            X[r, i - 1] = v
    y = np.array(y)
    truth = np.array([float(s) for s in open(d + '/d1/truth')])
    lab = np.where(y != 0)[0]
    unl = y == 0
    yl = y[lab]
    l = len(lab)
    Y = np.stack([(yl > 0) * 1.0, (yl < 0) * 1.0], 1)
    b0 = float(open(d + '/b0').read())
    sq = (X * X).sum(1)
    D2 = np.maximum(sq[:, None] + sq[None, :] - 2 * X @ X.T, 0)

    def ca(Ku, t):
        u = len(t)
        H = np.eye(u) - 1.0 / u
        tc = H @ t
        Kc = H @ Ku @ H
        return tc @ Ku @ tc / (np.linalg.norm(Kc) * (tc @ tc))

    def alignf(Zl):
        # Cortes et al.'s alignf: min v'Mv - 2v'a, v >= 0, mu = v/|v|
        C = Zl - Zl.mean(0)
        G = C.T @ C
        M = G * G
        B = C.T @ (Y - Y.mean(0))
        a = (B * B).sum(1)
        w, V = np.linalg.eigh(M)
        w = np.maximum(w, 1e-12 * w.max())
        R = (V * np.sqrt(w)).T
        v, _ = nnls(R, np.linalg.solve(R.T, a))
        return v / np.linalg.norm(v)

    def svm(Kt, tag, f):
        fn = d + '/probe.t4'
        with open(fn, 'w') as fh:
            for i in range(n):
                fh.write('%g 0:%d ' % (y[i], i + 1) + ' '.join(
                    '%d:%.12g' % (j + 1, Kt[i, j]) for j in range(n)) + '\n')
        for c in cs:
            r = subprocess.run([TRAIN, '-q', '-i', '0', '-t', '4', '-c', c, '-o',
                                d + '/probe.pred', fn, d + '/probe.model'],
                               capture_output=True, text=True)
            if r.returncode:
                sys.exit(r.stderr)
            p = np.array([float(s.split()[0])
                          for s in open(d + '/probe.pred').readlines()[1:]])
            print('f=%g C=%s %s: error %.2f, unlabeled alignment %.3f' %
                  (f, c, tag, 100 * np.mean(p != truth),
                   ca(Kt[np.ix_(unl, unl)], truth)), flush=True)

    for f in fs:
        K = np.exp(-b0 * f * D2)
        k = n // 10
        V = None
        for var in variants:
            Knl = K[:, lab].copy()
            if var == 'K':
                svm(K, 'K', f)
                continue
            if var == 'loo':
                Knl[lab, np.arange(l)] = 0.0
            U = (Knl @ Y) / Knl.sum(1)[:, None]
            if var == 'nw':
                err = 100 * np.mean(np.where(U[unl, 0] > 0.5, 1, -1) != truth)
                print('f=%g nw: error %.2f, unlabeled alignment of u_1 u_1\' %.3f'
                      % (f, err, ca(np.outer(U[unl, 0], U[unl, 0]), truth)))
                continue
            if var == 'unnorm':
                U = (Knl @ Y) / Y.sum(0)[None, :]
            if var == 'unit':
                U = U / np.linalg.norm(U, axis=0)[None, :]
            if var == 'uonly':
                svm(U @ U.T, var, f)
                continue
            if V is None:
                w, V = np.linalg.eigh(K)
                V = V[:, ::-1][:, :k]
            Z = np.hstack([U, V])
            if var == 'indep':
                C = Z[lab] - Z[lab].mean(0)
                B = C.T @ (Y - Y.mean(0))
                mu = (B * B).sum(1) / (C * C).sum(0)
                mu = mu / np.linalg.norm(mu)
            else:
                mu = alignf(Z[lab])
            svm((Z * mu) @ Z.T, '%s (u weights %.3f, v weights %.3f)' %
                (var, mu[:2].sum(), mu[2:].sum()), f)


main()
