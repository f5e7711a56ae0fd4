# draw.awk -- seeded draws of labeled rows, the same in every awk:
#
#   awk -f experiments/draw.awk -v draws=D -v pos=P -v neg=Q -v seed=S FILE
#
# prints D lines, each P rows of FILE with a label > 0 and then Q rows with
# a label <= 0 (1-based row numbers), drawn without replacement by a
# partial Fisher-Yates shuffle driven by the MINSTD generator
# x <- 16807 x mod (2^31 - 1), whose products stay below 2^53 and so are
# exact in any awk's doubles.
function rnd(m) { x = (x * 16807) % 2147483647; return x % m }
function pick(arr, n, k,   i, j, t, o) {
	o = ""
	for (i = 0; i < k; i++) {
		j = i + rnd(n - i); t = arr[i]; arr[i] = arr[j]; arr[j] = t
		o = o " " arr[i]
	}
	return o
}
{ if ($1 > 0) p[np++] = NR; else q[nq++] = NR }
END {
	x = seed % 2147483647; if (x == 0) x = 1
	for (d = 0; d < draws; d++)
		print substr(pick(p, np, pos) pick(q, nq, neg), 2)
}
