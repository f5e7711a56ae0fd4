/*
 * names.c -- the one spelling of every enumerated name: solvers, methods,
 * kernels and Laplacians.  The command line parses with these tables, the
 * model writer writes from them and the reader reads with them, and
 * messages list them, so a name cannot drift between the three.
 */
#include <string.h>

#include "lapsvm.h"

const lsv_name lsv_solver_names[] = {
	{"lapsvm", LSV_SOLVER_LAPSVM},
	{"laprls", LSV_SOLVER_LAPRLS},
	{"tsvm", LSV_SOLVER_TSVM},
	{"cluster", LSV_SOLVER_CLUSTER},
	{"combine", LSV_SOLVER_COMBINE},
	{"labelaware", LSV_SOLVER_LABELAWARE},
	{"boost", LSV_SOLVER_BOOST},
	{"kdesign", LSV_SOLVER_KDESIGN},
	{NULL, -1}
};

const lsv_name lsv_method_names[] = {
	{"direct", LSV_METHOD_DIRECT},
	{"pcg", LSV_METHOD_PCG},
	{"pcg-early", LSV_METHOD_PCG_EARLY},
	{"newton", LSV_METHOD_NEWTON},
	{"random", LSV_METHOD_RANDOM},
	{NULL, -1}
};

const lsv_name lsv_kernel_names[] = {
	{"linear", LSV_KERNEL_LINEAR},
	{"polynomial", LSV_KERNEL_POLY},
	{"rbf", LSV_KERNEL_RBF},
	{"precomputed", LSV_KERNEL_PRECOMPUTED},
	{NULL, -1}
};

/* The values are the lsv_train_param.normalized flag. */
const lsv_name lsv_laplacian_names[] = {
	{"normalized", 1},
	{"unnormalized", 0},
	{NULL, -1}
};

/* The values are the lsv_train_param.cluster_unit flag. */
const lsv_name lsv_cluster_rows_names[] = {
	{"unit", 1},
	{"raw", 0},
	{NULL, -1}
};

const lsv_name lsv_boost_learner_names[] = {
	{"tree", LSV_BOOST_TREE},
	{"rbf", LSV_BOOST_RBF},
	{NULL, -1}
};

const lsv_name lsv_kdesign_names[] = {
	{"cluster", LSV_KDESIGN_CLUSTER},
	{"diffusion", LSV_KDESIGN_DIFFUSION},
	{"maxalign", LSV_KDESIGN_MAXALIGN},
	{"spectral", LSV_KDESIGN_SPECTRAL},
	{NULL, -1}
};

const lsv_name lsv_la_basis_names[] = {
	{"kernel", LSV_LA_KERNEL},
	{"laplacian", LSV_LA_LAPLACIAN},
	{NULL, -1}
};

const lsv_name lsv_lap_graph_names[] = {
	{"kernel", LSV_LAP_KERNEL},
	{"graph", LSV_LAP_GRAPH},
	{NULL, -1}
};

int lsv_name_value(const lsv_name *t, const char *s)
{
	for (; t->name != NULL; t++)
		if (strcmp(t->name, s) == 0)
			return t->value;
	return -1;
}

const char *lsv_name_of(const lsv_name *t, int v)
{
	for (; t->name != NULL; t++)
		if (t->value == v)
			return t->name;
	return NULL;
}

const char *lsv_name_list(const lsv_name *t, char *buf, size_t size)
{
	size_t len = 0, count = 0, i;

	if (size == 0)
		return buf;
	buf[0] = '\0';
	while (t[count].name != NULL)
		count++;
	for (i = 0; i < count; i++) {
		const char *sep = i == 0 ? "" : i + 1 == count ? " or " : ", ";
		int w = snprintf(buf + len, size - len, "%s%s", sep, t[i].name);
		if (w < 0 || (size_t)w >= size - len) {
			buf[len] = '\0';  /* whole names only */
			break;
		}
		len += (size_t)w;
	}
	return buf;
}

const char *lsv_solver_name(lsv_solver s)
{
	return lsv_name_of(lsv_solver_names, (int)s);
}

const char *lsv_method_name(lsv_method m)
{
	return lsv_name_of(lsv_method_names, (int)m);
}

const char *lsv_kernel_name(lsv_kernel_type t)
{
	return lsv_name_of(lsv_kernel_names, (int)t);
}
