#!/usr/bin/env bats
# The Argyriou, Herbster & Pontil experiment scripts (experiments/argyriou-*.sh)
# on small settings: they run through the tools end to end and print their
# tables and checks.  The full runs and their numbers are in experiments/README.md.

load helpers

setup() {
	TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	export BIN="${LAPSVM_BIN:-$TOP}" DATA="${LAPSVM_DATA:-}"
	WORK="$BATS_TEST_TMPDIR/work"
	mkdir -p "$WORK"
	cd "$WORK"
}

need() {
	[ -n "$DATA" ] && [ -r "$DATA/$1" ] || skip "real data set $1 not found (LAPSVM_DATA)"
}

@test "experiments/argyriou-table1.sh: 2v3, two trials: the table beside the paper's, tangent beats Euclidean" {
	need argyriou.2v3.l4.txt
	run env TASKS=2v3 TRIALS=2 OUT="$WORK/a" "$TOP/experiments/argyriou-table1.sh"
	[ "$status" -eq 0 ]
	[[ "$output" == *"| 2v3 | 4 | "*"| 3.08 ± 0.85 |"* ]]
	[[ "$output" == *"tangent beats Euclidean on 1 of 1 tasks"* ]]
	[ "$(grep -c ' single ' "$WORK/a/runs.txt")" -eq 6 ]
}

@test "experiments/argyriou-fig3.sh: 6v9, two trials of 4 labels, 3 kernels per distance" {
	need argyriou.6v9.l4.txt
	run env TRIALS=2 LABELS=4 KMAX=3 OUT="$WORK/a" "$TOP/experiments/argyriou-fig3.sh"
	[ "$status" -eq 0 ]
	[[ "$output" == *"| paper (transformation for tangent) | 0.24 | 0.24 | 17.47 | 0.26 |"* ]]
	[[ "$output" == *"- 4 labels: rotation-invariant weight "* ]]
	[ "$(wc -l < "$WORK/a/fig3-weights.dat")" -eq 9 ]
}

@test "experiments/argyriou-fig4.sh: odd/even at n = 200 and 400, two trials" {
	need argyriou.oddeven.l10.txt
	run env SIZES="200 400" TRIALS=2 LABELS=10 OUT="$WORK/a" "$TOP/experiments/argyriou-fig4.sh"
	[ "$status" -eq 0 ]
	[[ "$output" == *"| 200 | "*"| 400 | "* ]]
	run env SIZES="150" TRIALS=1 LABELS=10 OUT="$WORK/a" "$TOP/experiments/argyriou-fig4.sh"
	[ "$status" -eq 2 ]
}

@test "experiments/argyriou-table1.sh SELECT=balanced: odd vs even labels equal per digit, among the first 20 of each, nested" {
	need argyriou.oddeven.l10.txt
	run env TASKS=oddeven TRIALS=1 SELECT=balanced OUT="$WORK/a" "$TOP/experiments/argyriou-table1.sh"
	[ "$status" -eq 0 ]
	[[ "$output" == *"| oddeven | 10 | "*"| 18.60 ± 3.98 |"* ]]
	local l
	for l in 10 20 30; do
		# 30 lines of l rows; subset row r is digit position (r - 1) % 10
		# of image (r - 1) / 10 + 1: each position l/10 times, images <= 20
		awk -v l="$l" '{ if (NF != l) exit 1; split("", c)
			for (i = 1; i <= NF; i++) { if ($i < 1 || $i > 200) exit 1; c[($i - 1) % 10]++ }
			for (j = 0; j < 10; j++) if (c[j] != l / 10) exit 1 }
			END { if (NR != 30) exit 1 }' "$WORK/a/selections-oddeven-l$l.txt"
	done
	# l = 20 extends l = 10
	paste -d'|' "$WORK/a/selections-oddeven-l10.txt" "$WORK/a/selections-oddeven-l20.txt" |
		awk -F'|' '{ if (index($2, $1 " ") != 1) exit 1 }'
	# the authors' selections are the default
	run env TASKS=oddeven TRIALS=1 OUT="$WORK/b" "$TOP/experiments/argyriou-table1.sh"
	[ "$status" -eq 0 ]
	cmp <(head -n 30 "$DATA/argyriou.oddeven.l10.txt") "$WORK/b/selections-oddeven-l10.txt"
}
