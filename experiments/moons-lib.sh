# moons-lib.sh -- sourced by moons.sh and manifoldboost.sh: the two-moons
# set, its graph and the seeded label pairs they share.  Needs $BIN, $tmp,
# $DRAWS, $SEED and $GRAPH_OPTS set by the caller.

# moons_setup PROG FILE: FILE (or, if absent, lapsvm-datagen -S 1 moons,
# which PROG says) as $tmp/full; its graph (graph-build $GRAPH_OPTS) as
# $tmp/graph; DRAWS pairs of labeled rows (one +1 row, one -1 row) from a
# MINSTD generator seeded by SEED, which every awk computes exactly, as
# $tmp/pairs; the true labels as $tmp/truth_all.
moons_setup() {
	if [ -r "$2" ]; then
		cp "$2" "$tmp/full"
	else
		echo "$1: $2 not found; using lapsvm-datagen -S 1 moons" >&2
		"$BIN"/lapsvm-datagen -S 1 moons "$tmp/full"
	fi
	# shellcheck disable=SC2086
	"$BIN"/graph-build -q $GRAPH_OPTS "$tmp/full" "$tmp/graph"
	awk -v draws="$DRAWS" -v seed="$SEED" '
		{ if ($1 > 0) pos[++np] = NR; else neg[++nn] = NR }
		END {
			x = seed % 2147483647; if (x == 0) x = 1
			for (d = 0; d < draws; d++) {
				x = (x * 16807) % 2147483647; a = pos[1 + x % np]
				x = (x * 16807) % 2147483647; b = neg[1 + x % nn]
				print a, b
			}
		}' "$tmp/full" > "$tmp/pairs"
	cut -d' ' -f1 "$tmp/full" > "$tmp/truth_all"
}
