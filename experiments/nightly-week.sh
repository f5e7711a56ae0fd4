#!/bin/bash
# nightly-week.sh -- a simulated week of tools/lapsvm-nightly, unattended.
#
# Data: the MNIST test set (DATA/mnist.t10k.libsvm.gz), the binary task
# digit 3 (+1) against digit 8 (-1): 1984 rows.  In file order: the first
# 300 are the holdout (labeled), the next 200 yesterday's data (10 labeled),
# the remaining 1484 split into 7 nightly chunks of 212 rows, 10 of each
# labeled (the first 10 of the chunk), the rest unlabeled (0).
# Training: lapsvm-train -M pcg (warm-started every night), RBF gamma from
# the initial data (pinned by init), graph-build -k 6 heat weights,
# updated with -U.
#
# The week:
#   night 1-3   ordinary nights: accepted, or rejected on their merits (a
#               new model worse on the holdout: with 10 labels a night the
#               holdout accuracy moves by a few rows either way)
#   bad night   a corrupted file: night 4's rows, every one labeled, with
#               the wrong label                            -> rejected (3)
#   night 4     the clean night 4 (ordinary)
#   night 5     killed with SIGKILL during training        -> live untouched
#   night 5     run again                                  -> completes
#   night 6     a second run started while it trains       -> not started (4)
#   night 7     ordinary
# After every run: the live generation and model checksum, and the live
# model's holdout accuracy through lapsvm-predict (the model is valid).
# At the end: the live model against a cold start on the same data and
# graph (predictions on every row and the holdout).
#
# The kill and the overlap need a run caught while it trains: those two use
# a LAPSVM_BIN whose lapsvm-train sleeps SLOW seconds (default 5) first.
# Environment: DATA (../shared/data), OUT (a state directory to keep:
# a new or empty directory, or the state of an earlier week, which is
# replaced; default a temporary one).  Exit status 0 when every check
# passed.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd) || exit 1
DATA=${DATA:-$top/../shared/data}
SLOW=${SLOW:-5}
[ -r "$DATA/mnist.t10k.libsvm.gz" ] || {
	echo "nightly-week.sh: $DATA/mnist.t10k.libsvm.gz not found (set DATA to the directory holding the data sets; default ../shared/data)" >&2
	exit 1
}
# never delete what is not a week's state: OUT must be new, empty, or
# hold the files lapsvm-nightly makes
if [ -n "${OUT:-}" ] && [ -e "$OUT" ] && [ -n "$(ls -A "$OUT" 2>/dev/null)" ] &&
	! { [ -f "$OUT/config" ] && [ -L "$OUT/current" ]; }; then
	echo "nightly-week.sh: OUT=$OUT is not empty and not a lapsvm-nightly state: give a new or empty directory" >&2
	exit 1
fi
case $DATA in /*) ;; *) DATA=$PWD/$DATA ;; esac
case ${OUT:-} in '' | /*) ;; *) OUT=$PWD/$OUT ;; esac
cd "$top" || exit 1
make -s all || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
st=${OUT:-$tmp/state}
rm -rf "$st"
N=./tools/lapsvm-nightly
export LAPSVM_BIN=$PWD
fail=0
check() {  # check WHAT CONDITION...
	local what=$1
	shift
	if "$@"; then echo "  ok: $what"; else echo "  FAILED: $what"; fail=1; fi
}

# every row ends with feature 784 (an explicit 784:0 where the file omits
# the zero pixel), as when the week was measured: graph-build -U then
# refused new sparse rows with a feature index past the old data's last
zcat "$DATA/mnist.t10k.libsvm.gz" |
	awk '$1 == 3 || $1 == 8 { $1 = $1 == 3 ? 1 : -1
		if ($NF !~ /^784:/) $0 = $0 " 784:0"; print }' >"$tmp/all"
sed -n '1,300p' "$tmp/all" >"$tmp/holdout"
# unlabel all but the first 10 rows of a file
label10() { awk '{ if (NR > 10) $1 = 0; print }'; }
sed -n '301,500p' "$tmp/all" | label10 >"$tmp/day0"
for d in 1 2 3 4 5 6 7; do
	from=$((501 + (d - 1) * 212))
	sed -n "${from},$((from + 211))p" "$tmp/all" | label10 >"$tmp/night$d"
done
# the bad night: night 4's rows, every one labeled wrong
sed -n '1137,1348p' "$tmp/all" | awk '{ $1 = -$1; print }' >"$tmp/bad"
mkdir "$tmp/slow"
ln -s "$PWD/graph-build" "$PWD/lapsvm-predict" "$tmp/slow/"
printf '#!/bin/sh\ntouch "%s/started"\nsleep %s\nexec "%s/lapsvm-train" "$@"\n' \
	"$tmp" "$SLOW" "$PWD" >"$tmp/slow/lapsvm-train"
chmod +x "$tmp/slow/lapsvm-train"

live() { echo "$(readlink "$st/current") $(cksum <"$st/current/model" | cut -d' ' -f1)"; }
acc() { ./lapsvm-predict "$st/holdout" "$st/current/model" /dev/null 2>&1 | head -1; }
rows=200  # the live data's rows: + 212 for each accepted night
# night LABEL FILE EXPECTED: EXPECTED a status, or "night" for an ordinary
# night: accepted (0) or rejected on its merits (3, worse on the holdout)
night() {
	local label=$1 file=$2 want=$3 t0=$SECONDS
	env "$N" run "$st" "$file" 2>"$tmp/err"
	local rc=$?
	echo "$label: exit $rc ($((SECONDS - t0)) s); live $(live); $(acc)"
	[ -s "$tmp/err" ] && sed 's/^/  stderr: /' "$tmp/err"
	if [ "$want" = night ]; then
		check "$label exits 0 (accepted) or 3 (rejected, worse)" \
			[ "$rc" -eq 0 -o "$rc" -eq 3 ]
	else
		check "$label exits $want" [ "$rc" -eq "$want" ]
	fi
	[ "$rc" -eq 0 ] && rows=$((rows + 212))
	check "$label: the live data hold $rows rows" \
		[ "$(wc -l <"$st/current/data")" -eq "$rows" ]
	check "$label: the live model predicts the holdout" \
		./lapsvm-predict -q "$st/holdout" "$st/current/model" /dev/null
}
wait_started() {
	for _ in $(seq 300); do [ -e "$tmp/started" ] && return 0; sleep 0.1; done
	return 1
}

"$N" init -d 784 -T "-M pcg" "$st" "$tmp/day0" "$tmp/holdout" || exit 1
echo "init: live $(live); $(acc); config: $(tr '\n' ' ' <"$st/config")"
night "night 1" "$tmp/night1" night
night "night 2" "$tmp/night2" night
night "night 3" "$tmp/night3" night
before=$(live)
night "bad night (corrupted labels)" "$tmp/bad" 3
check "the bad night changed nothing live" [ "$(live)" = "$before" ]
night "night 4" "$tmp/night4" night

before=$(live)
rm -f "$tmp/started"
LAPSVM_BIN=$tmp/slow setsid "$N" run "$st" "$tmp/night5" 2>/dev/null &
pid=$!
wait_started
sleep 1
kill -KILL -- -"$pid"
wait "$pid" 2>/dev/null
echo "night 5: killed (SIGKILL, its whole process group) during training; live $(live)"
check "the killed run left the live model untouched" [ "$(live)" = "$before" ]
check "the killed run left its scratch behind" ls -d "$st"/work.* >/dev/null
night "night 5 (again)" "$tmp/night5" night
check "the recovered run removed the scratch" [ -z "$(ls -d "$st"/work.* 2>/dev/null)" ]

rm -f "$tmp/started"
LAPSVM_BIN=$tmp/slow "$N" run "$st" "$tmp/night6" 2>"$tmp/err6" &
pid=$!
wait_started
night "night 6 (a second run meanwhile)" "$tmp/night6" 4
wait "$pid"
rc=$?
echo "night 6 (the first run): exit $rc; live $(live); $(acc)"
check "the first run of night 6 completed (accepted or rejected)" \
	[ "$rc" -eq 0 -o "$rc" -eq 3 ]
[ "$rc" -eq 0 ] && rows=$((rows + 212))
check "night 6 appended at most once" [ "$(wc -l <"$st/current/data")" -eq "$rows" ]
night "night 7" "$tmp/night7" night

echo "log:"
sed 's/^/  /' "$st/log"
# the week's live model against a cold start on the same data and graph
g=$(sed -n 's/^train_options=.*-g \([^ ]*\).*/\1/p' "$st/config")
./lapsvm-train -q -M pcg -g "$g" -G "$st/current/graph" "$st/current/data" "$tmp/cold.model"
./lapsvm-predict "$st/current/data" "$st/current/model" "$tmp/a" >/dev/null
./lapsvm-predict "$st/current/data" "$tmp/cold.model" "$tmp/b" >/dev/null
check "the week's model predicts every training row as a cold start does" cmp -s "$tmp/a" "$tmp/b"
./lapsvm-predict "$st/holdout" "$tmp/cold.model" "$tmp/b" | head -1 | sed 's/^/cold start on the final data, holdout: /'
exit $fail
