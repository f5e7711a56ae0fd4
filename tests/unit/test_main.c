/*
 * test_main.c -- runs every unit test case, prints one line per failure
 * and the closing "N passed, N failed" line.
 */
#include <stdio.h>
#include <stdlib.h>

#include "unit.h"

int unit_failed_checks;

extern const unit_case parse_cases[], data_cases[], graph_cases[],
	knn_cases[], io_cases[], rng_cases[], model_cases[], metrics_cases[],
	train_cases[], tsvm_cases[], pca_cases[], pcg_cases[], primal_cases[],
	newton_cases[], grid_cases[], cv_cases[], balance_cases[], kernel_cases[],
	cluster_cases[], text_cases[],
	classes_cases[], combine_cases[], tangent_cases[], precomputed_cases[], alignf_cases[], labelaware_cases[], kdesign_cases[],
	boost_cases[], comm_cases[], update_cases[], format_cases[];

int main(int argc, char **argv)
{
	const unit_case *suites[] = {parse_cases, data_cases, graph_cases,
				     knn_cases, io_cases, rng_cases, model_cases,
				     metrics_cases, train_cases, tsvm_cases,
				     pca_cases, pcg_cases, primal_cases,
				     newton_cases, grid_cases, cv_cases, balance_cases,
				     kernel_cases, cluster_cases, text_cases, classes_cases,
				     combine_cases, tangent_cases, precomputed_cases,
				     alignf_cases, labelaware_cases, boost_cases,
				     kdesign_cases, comm_cases, update_cases,
				     format_cases};
	size_t s;
	int passed = 0, failed = 0;

	for (s = 0; s < sizeof suites / sizeof *suites; s++) {
		const unit_case *c;
		for (c = suites[s]; c->name != NULL; c++) {
			int before = unit_failed_checks;
			if (argc > 1 && strstr(c->name, argv[1]) == NULL)
				continue;
			c->fn();
			if (unit_failed_checks == before) {
				passed++;
			} else {
				failed++;
				fprintf(stderr, "FAIL %s\n", c->name);
			}
		}
	}
	printf("unit: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
