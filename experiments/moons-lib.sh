# moons-lib.sh -- sourced by moons.sh and manifoldboost.sh: the two-moons
# set, its graph and the seeded label pairs they share.  Needs $BIN, $tmp,
# $DRAWS, $SEED and $GRAPH_OPTS set by the caller.

# moons_setup PROG FILE [given]: FILE (or, if absent and not given by the
# user, lapsvm-datagen -S 1 moons, which PROG says) as $tmp/full; its graph (graph-build $GRAPH_OPTS) as
# $tmp/graph; DRAWS pairs of labeled rows (one +1 row, one -1 row) from a
# MINSTD generator seeded by SEED, which every awk computes exactly, as
# $tmp/pairs; the true labels as $tmp/truth_all.
moons_setup() {
	case $DRAWS in
	'' | *[!0-9]* | 0) echo "$1: DRAWS=$DRAWS: expected a number of draws >= 1" >&2; exit 2 ;;
	esac
	case $SEED in
	'' | *[!0-9]*) echo "$1: SEED=$SEED: expected an integer >= 0" >&2; exit 2 ;;
	esac
	if [ -r "$2" ]; then
		cp "$2" "$tmp/full"
	elif [ -n "${3:-}" ]; then
		echo "$1: $2: cannot read" >&2
		exit 1
	else
		echo "$1: $2 not found; using lapsvm-datagen -S 1 moons" >&2
		"$BIN"/lapsvm-datagen -S 1 moons "$tmp/full"
	fi
	# shellcheck disable=SC2086
	"$BIN"/graph-build -q $GRAPH_OPTS "$tmp/full" "$tmp/graph"
	awk -v draws="$DRAWS" -v seed="$SEED" -v prog="$1" '
		{ if ($1 > 0) pos[++np] = NR; else neg[++nn] = NR }
		END {
			if (!np || !nn) {
				print prog ": the data need rows of both classes (label > 0 and <= 0)" > "/dev/stderr"
				exit 1
			}
			x = seed % 2147483647; if (x == 0) x = 1
			for (d = 0; d < draws; d++) {
				x = (x * 16807) % 2147483647; a = pos[1 + x % np]
				x = (x * 16807) % 2147483647; b = neg[1 + x % nn]
				print a, b
			}
		}' "$tmp/full" > "$tmp/pairs"
	cut -d' ' -f1 "$tmp/full" > "$tmp/truth_all"
}
