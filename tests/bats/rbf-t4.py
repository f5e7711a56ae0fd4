#!/usr/bin/env python3
"""rbf-t4.py GAMMA TRAIN [TEST]: the RBF kernel exp(-GAMMA |u - v|^2) in
LIBSVM's precomputed format (-t 4), written independently of lapsvm for the
tests: without TEST the n x n training kernel 'label 0:i 1:K(i,1) ...', with
TEST the rows 'label 0:? 1:K(x,1) ... n:K(x,n)' against the training rows."""
import math
import sys


def read(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.split('#')[0].split()
            if not line:
                continue
            x = {}
            for tok in line[1:]:
                i, v = tok.split(':')
                x[int(i)] = float(v)
            rows.append((line[0], x))
    return rows


def k(g, u, v):
    keys = set(u) | set(v)
    return math.exp(-g * sum((u.get(j, 0.0) - v.get(j, 0.0)) ** 2 for j in keys))


def main():
    g = float(sys.argv[1])
    train = read(sys.argv[2])
    rows = read(sys.argv[3]) if len(sys.argv) > 3 else train
    for i, (y, x) in enumerate(rows):
        serial = '?' if len(sys.argv) > 3 else str(i + 1)
        vals = ' '.join('%d:%.17g' % (j + 1, k(g, x, t)) for j, (_, t) in enumerate(train))
        print('%s 0:%s %s' % (y, serial, vals))


main()
