/*
 * ref.h -- an independent brute-force kNN / epsilon graph for the tests:
 * dense rows, every pair's distance by a plain loop over all features, a
 * full sort of each row's candidates by (distance, index).  Deliberately
 * the naive O(n^2 d) method, sharing no code with common/knn.c.
 */
#ifndef REF_H
#define REF_H

#include "lapsvm.h"

/* Returns a new graph (free with lsv_graph_free) or NULL when out of memory. */
lsv_graph *ref_graph(const lsv_data *x, const lsv_graph_param *p);

/* 1 if a and b are identical (same rows, columns and weights, bit for bit). */
int ref_graph_equal(const lsv_graph *a, const lsv_graph *b);

#endif
