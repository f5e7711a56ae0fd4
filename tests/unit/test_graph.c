/* The graph file reader and writer. */
#include <stdlib.h>

#include "lapsvm.h"
#include "unit.h"

static lsv_status read_graph(const char *text, size_t expect_n, lsv_graph **g,
			     lsv_error *e)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	lsv_status st;
	if (fp == NULL)
		return LSV_EIO;
	st = lsv_graph_read(fp, "g", expect_n, g, e);
	fclose(fp);
	return st;
}

static void graph_reads_a_symmetric_graph_with_isolated_row(void)
{
	lsv_graph *g;
	lsv_error e;
	CHECK(read_graph("1 2:0.5 3:1\n2 1:0.5\n3 1:1\n4\n", 4, &g, &e) == LSV_OK);
	if (g == NULL)
		return;
	CHECK(g->n == 4 && g->nnz == 4);
	CHECK(g->rowptr[3] == 4 && g->rowptr[4] == 4);
	CHECK(g->col[0] == 1 && g->w[0] == 0.5 && g->col[1] == 2);
	lsv_graph_free(g);
}

static void graph_write_then_read_is_identical(void)
{
	char buf[1024];
	FILE *fp;
	lsv_graph *g, *h;
	lsv_error e;
	size_t i;
	CHECK(read_graph("1 2:0.1\n2 1:0.1 3:0.33333333333333331\n3 2:0.33333333333333331\n",
			 0, &g, &e) == LSV_OK);
	if (g == NULL)
		return;
	fp = fmemopen(buf, sizeof buf, "w");
	CHECK(lsv_graph_write(fp, "m", g, &e) == LSV_OK);
	fclose(fp);
	CHECK_STR(buf, "1 2:0.10000000000000001\n2 1:0.10000000000000001 "
		       "3:0.33333333333333331\n3 2:0.33333333333333331\n");
	CHECK(read_graph(buf, 3, &h, &e) == LSV_OK);
	if (h != NULL) {
		CHECK(h->nnz == g->nnz);
		for (i = 0; i < g->nnz; i++)
			CHECK(h->w[i] == g->w[i] && h->col[i] == g->col[i]);
		lsv_graph_free(h);
	}
	lsv_graph_free(g);
}

static void graph_refuses_each_malformed_input_with_its_message(void)
{
	struct { const char *in; size_t n; const char *msg; } bad[] = {
		{"2 1:1\n", 0, "g:1: bad row number '2' (expected 1: line i holds row i; is this a data file?)"},
		{"1\n3\n", 0, "g:2: bad row number '3' (expected 2: line i holds row i)"},
		{"-1 1:1\n", 0, "g:1: bad row number '-1' (expected 1: line i holds row i; this looks like a data file (a label first), not a graph)"},
		{"lapsvm_model 1\n", 0, "g:1: bad row number 'lapsvm_model' (expected 1: line i holds row i; this looks like a lapsvm model file, not a graph)"},
		{"x\n", 0, "g:1: bad row number 'x' (expected 1: line i holds row i)"},
		{"1 2:1\n\n", 0, "g:2: empty line (expected row number 2)"},
		{"1 1:1\n", 0, "g:1: self loop 1:1 (expected no entry for column 1; is this a data file?)"},
		{"1 2:1\n2 2:1\n", 0, "g:2: self loop 2:1 (expected no entry for column 2)"},
		{"1 3:1 2:1\n2 1:1\n3 1:1\n", 0,
		 "g:1: column 2 decreasing (found 2 after 3, expected columns strictly increasing)"},
		{"1 2:1 2:1\n2 1:1\n", 0,
		 "g:1: column 2 repeated (found 2 after 2, expected columns strictly increasing)"},
		{"1 2:0\n2 1:0\n", 0,
		 "g:1: weight 0 for column 2 is not positive (expected w > 0; omit absent edges)"},
		{"1 2:-1\n2 1:-1\n", 0,
		 "g:1: weight -1 for column 2 is not positive (expected w > 0; omit absent edges)"},
		{"1 2:nan\n2 1:1\n", 0, "g:1: bad weight 'nan' for column 2: not finite"},
		{"1 2\n", 0, "g:1: bad entry '2' (expected column:weight)"},
		{"1 0:1\n", 0, "g:1: bad column '0' (expected 1..2147483647)"},
		{"1 5:1\n2\n", 2, "g:1: bad column '5' (expected 1..2)"},
		{"1 5:1\n2\n", 0, "g:1: column 5 beyond the last row (expected 1..2)"},
		{"1 2:1\n2\n", 0,
		 "g:1: edge 1-2 has no mirror: row 2 does not list 1 (W must be symmetric)"},
		{"1 2:1\n2 1:2\n", 0,
		 "g:1: weight of edge 1-2 is 1 but row 2 gives 2 (W must be symmetric)"},
		{"1\n2\n", 3, "g: 2 rows, but the data has 3 (expected 3)"},
		{"1\n2\n3\n", 2, "g:3: more rows than the data's 2 (found row 3, expected 2 rows)"},
		{"", 0, "g: no rows (empty graph file)"},
	};
	size_t i;
	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		lsv_graph *g = (lsv_graph *)1;
		lsv_error e;
		CHECK(read_graph(bad[i].in, bad[i].n, &g, &e) == LSV_EFORMAT);
		CHECK(g == NULL);
		CHECK_STR(e.msg, bad[i].msg);
	}
}

static void graph_accepts_symmetry_up_to_rounding(void)
{
	lsv_graph *g;
	lsv_error e;
	CHECK(read_graph("1 2:0.3333333333\n2 1:0.33333333330000001\n", 0, &g, &e) ==
	      LSV_OK);
	lsv_graph_free(g);
}

const unit_case graph_cases[] = {
	{"graph_reads_a_symmetric_graph_with_isolated_row",
	 graph_reads_a_symmetric_graph_with_isolated_row},
	{"graph_write_then_read_is_identical", graph_write_then_read_is_identical},
	{"graph_refuses_each_malformed_input_with_its_message",
	 graph_refuses_each_malformed_input_with_its_message},
	{"graph_accepts_symmetry_up_to_rounding", graph_accepts_symmetry_up_to_rounding},
	{NULL, NULL},
};
