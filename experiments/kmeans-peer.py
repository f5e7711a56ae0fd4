#!/usr/bin/python3
"""kmeans-peer.py -- the peer baseline of the clustering experiments:
scikit-learn's KMeans on the raw features (not part of the toolkit; used
only by experiments/cluster-digits.sh to print k-means beside lapsvm's
clustering).

    kmeans-peer.py C SEED TRAIN.libsvm [TEST.libsvm]

KMeans(n_clusters=C, n_init=10, random_state=SEED) (k-means++ seeding,
Lloyd) fitted on the rows of TRAIN; its clusters scored against TRAIN's
labels, then (with TEST) TEST's rows assigned to the nearest centre and
scored against TEST's labels.  Scores as lapsvm-predict's: the accuracy
under the best one-to-one matching of clusters to classes (Hungarian,
scipy's linear_sum_assignment) and the NMI I(C;Y) / ((H(C) + H(Y))/2)
(scikit-learn's normalized_mutual_info_score, arithmetic mean).  Prints
one line: "acc_train nmi_train [acc_test nmi_test]", accuracies in
percent, then "seconds S" (fit and predict, reading excluded) on stderr.
Needs Debian's python3-sklearn (run by /usr/bin/python3).
"""
import sys
import time

import numpy as np
from scipy.optimize import linear_sum_assignment
from sklearn.cluster import KMeans
from sklearn.datasets import load_svmlight_file
from sklearn.metrics import normalized_mutual_info_score


def score(y, c):
    classes, yi = np.unique(y, return_inverse=True)
    s = max(len(classes), c.max() + 1)
    table = np.zeros((s, s))
    np.add.at(table, (c, yi), 1)
    r, k = linear_sum_assignment(-table)
    return 100.0 * table[r, k].sum() / len(y), normalized_mutual_info_score(y, c)


def main():
    if len(sys.argv) not in (4, 5):
        sys.stderr.write(__doc__)
        sys.exit(2)
    c, seed = int(sys.argv[1]), int(sys.argv[2])
    xtr, ytr = load_svmlight_file(sys.argv[3])
    dim = xtr.shape[1]
    if len(sys.argv) == 5:
        xte, yte = load_svmlight_file(sys.argv[4])
        dim = max(dim, xte.shape[1])
        xte = load_svmlight_file(sys.argv[4], n_features=dim)[0].toarray()
    xtr = load_svmlight_file(sys.argv[3], n_features=dim)[0].toarray()
    t0 = time.perf_counter()
    km = KMeans(n_clusters=c, n_init=10, random_state=seed).fit(xtr)
    out = list(score(ytr, km.labels_))
    if len(sys.argv) == 5:
        out += list(score(yte, km.predict(xte)))
    t1 = time.perf_counter()
    print(" ".join("%.2f" % v if i % 2 == 0 else "%.4f" % v
                   for i, v in enumerate(out)))
    sys.stderr.write("seconds %.2f\n" % (t1 - t0))


if __name__ == "__main__":
    main()
