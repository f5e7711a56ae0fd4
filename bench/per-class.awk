# per-class.awk -- seeded labeled set for the benchmarks: the row numbers of
# the first `per` rows of each class in a MINSTD shuffle of the file's rows.
#   awk -f bench/per-class.awk -v seed=1 -v per=10 data.libsvm > rows
function rnd(m) { x = (x * 16807) % 2147483647; return x % m }
{ lab[NR] = $1; n = NR }
END {
	x = seed
	for (i = 1; i <= n; i++)
		p[i] = i
	for (i = n; i > 1; i--) {
		j = 1 + rnd(i); t = p[i]; p[i] = p[j]; p[j] = t
	}
	for (i = 1; i <= n; i++)
		if (cnt[lab[p[i]]]++ < per)
			print p[i]
}
