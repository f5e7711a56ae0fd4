/*
 * knn-ref -- brute-force reference graph builder, for checking graph-build
 * on real data (bench/knn-check.sh).  Naive O(n^2 d) loops, no BLAS.
 *
 *     knn-ref [-k k] [-e eps] [-m] [-d euclidean|cosine]
 *             [-w binary|heat|distance] [-t t] data_file > graph
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lapsvm.h"
#include "ref.h"

int main(int argc, char **argv)
{
	lsv_graph_param p;
	lsv_data *x;
	lsv_graph *g;
	lsv_error err;
	int c;

	lsv_graph_param_default(&p);
	while ((c = getopt(argc, argv, "k:e:md:w:t:")) != -1) {
		switch (c) {
		case 'k': p.k = atoi(optarg); break;
		case 'e': p.epsilon = strtod(optarg, NULL); break;
		case 'm': p.mutual = 1; break;
		case 'd': p.distance = strcmp(optarg, "cosine") == 0; break;
		case 'w':
			p.weight = strcmp(optarg, "binary") == 0 ? LSV_WEIGHT_BINARY
				 : strcmp(optarg, "distance") == 0 ? LSV_WEIGHT_DISTANCE
				 : LSV_WEIGHT_HEAT;
			break;
		case 't': p.t = strtod(optarg, NULL); break;
		default: return 2;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "usage: knn-ref [options] data_file\n");
		return 2;
	}
	if (lsv_data_read_path(argv[optind], 0.0, &x, &err) != LSV_OK) {
		fprintf(stderr, "knn-ref: %s\n", err.msg);
		return 1;
	}
	g = ref_graph(x, &p);
	if (g == NULL) {
		fprintf(stderr, "knn-ref: out of memory\n");
		return 1;
	}
	if (lsv_graph_write(stdout, "(stdout)", g, &err) != LSV_OK) {
		fprintf(stderr, "knn-ref: %s\n", err.msg);
		return 1;
	}
	lsv_graph_free(g);
	lsv_data_free(x);
	return 0;
}
