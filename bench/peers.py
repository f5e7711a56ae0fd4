#!/usr/bin/python3
"""peers.py -- the exact kNN peers graph-build is compared with.

    peers.py faiss|sklearn DATA.libsvm K THREADS OUT

Reads LIBSVM data (dense features 1..d), finds each row's K nearest
neighbours (Euclidean, itself excluded) and writes them as graph-build -N
does: line i is "i j:d j:d ..." (1-based, increasing distance).  Prints the
time of the search itself (reading excluded) on stderr as "search_seconds S".
FAISS: exact IndexFlatL2 (float32, its own BLAS sgemm path).  scikit-learn:
NearestNeighbors(algorithm="brute") in float64, as kneighbors_graph uses.
"""
import sys
import time

import numpy as np


def read_libsvm(path):
    rows = []
    dim = 0
    with open(path) as f:
        for line in f:
            parts = line.split()
            feats = []
            for tok in parts[1:]:
                i, v = tok.split(":")
                feats.append((int(i), float(v)))
                dim = max(dim, int(i))
            rows.append(feats)
    x = np.zeros((len(rows), dim), dtype=np.float64)
    for r, feats in enumerate(rows):
        for i, v in feats:
            x[r, i - 1] = v
    return x


def main():
    peer, path, k, threads, out = sys.argv[1:6]
    k = int(k)
    threads = int(threads)
    x = read_libsvm(path)
    n = x.shape[0]
    if peer == "faiss":
        import faiss
        faiss.omp_set_num_threads(threads)
        xf = np.ascontiguousarray(x, dtype=np.float32)
        t0 = time.perf_counter()
        index = faiss.IndexFlatL2(xf.shape[1])
        index.add(xf)
        dist, idx = index.search(xf, k + 1)
        t1 = time.perf_counter()
        dist = np.sqrt(np.maximum(dist, 0))
    elif peer == "sklearn":
        from sklearn.neighbors import NearestNeighbors
        t0 = time.perf_counter()
        nn = NearestNeighbors(n_neighbors=k + 1, algorithm="brute",
                              n_jobs=threads).fit(x)
        dist, idx = nn.kneighbors(x)
        t1 = time.perf_counter()
    else:
        sys.exit("peers.py: unknown peer " + peer)
    print("search_seconds %.3f" % (t1 - t0), file=sys.stderr)
    with open(out, "w") as f:
        for i in range(n):
            # drop the row itself (or one of its duplicates at distance 0)
            js = list(idx[i])
            ds = list(dist[i])
            if i in js:
                p = js.index(i)
            else:
                p = len(js) - 1
            del js[p]
            del ds[p]
            f.write(str(i + 1) + "".join(
                " %d:%.9g" % (j + 1, d) for j, d in zip(js[:k], ds[:k])) + "\n")


if __name__ == "__main__":
    main()
