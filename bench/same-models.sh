#!/bin/bash
# same-models.sh -- do two builds of the tools train the same models?  For a
# refactoring that must not change behaviour: a fixed list of lapsvm-train
# commands covering every solver path (LapSVM, LapRLS, TSVM; -M direct, pcg,
# pcg-early, newton, newton -N (Nystrom), the sparse linear primal -t 0 -M
# newton; RLS / SVM at gamma_I = 0; linear, polynomial and RBF kernels; -G or
# the graph built inside; -L, -P, -o, -v, -e; two-class moons, 10-class
# USPST, sparse WebKB), each run once with BEFORE's tools and once with
# AFTER's on the same inputs, and graph-build's graph for a few option sets.
# Compared: the model file byte for byte, else number by number (every
# number, also inside index:value, to |a-b| <= 1e-12 max(|a|,|b|,1e-300));
# the same for the -o predictions, the -v line (stdout) and lapsvm-predict
# -d of the model on held-out rows (each side with its own lapsvm-predict).
# stderr is not compared (times, reports).  The cases are the arrays
# `cases` and `graphs` below.  A decision value near 0 magnifies an
# innocent rounding change in relative terms, so a refactoring that only
# reorders sums can show DIFFERENT in the predictions column alone.
# Prints a Markdown table, one row per case, then `N cases: A identical,
# B equal to 1e-12, C different`.
# Exit 0 when nothing differs, 1 when an output differs or a run failed (a
# run failing in one build only is DIFFERENT), 2 on a usage or build error.
# Not part of make test.
#
#   bench/same-models.sh BEFORE [AFTER]
# BEFORE, AFTER: a directory holding built tools (graph-build, lapsvm-train,
# lapsvm-predict, lapsvm-datagen), or a git revision of this repository,
# which is exported (git archive) to build/same-models/rev-SHA and built
# there with make -j2, quietly, once (reused by later runs).  AFTER defaults
# to the working tree's top-level tools, after `make`.
# Environment: DATA (../shared/data from the top of the tree; without it
# only the moons fixtures exist and the USPST and WebKB cases are listed as
# skipped), TIMEOUT (300: seconds per run), KEEP (1: keep the work
# directory build/same-models/run.* even when nothing differs; it is kept,
# and named, when something does).  OPENBLAS_NUM_THREADS and
# OMP_NUM_THREADS are passed on as given.
# Fixtures, made once by BEFORE's tools: moons (lapsvm-datagen -S 1 -l 5:
# 200 rows, 10 labeled; graph-build -k 6; test rows: -S 2); uspst (the
# first 600 rows of lds_uspst, labels kept on rows 1, 11, 21, ..., the rest
# -1, the unlabeled marker, since 0 is a digit; graph -k 6; test rows: the
# other 1407); webkb (every third row of webkb_page, 3000 tf-idf features,
# labels kept on every eighth of them, the rest 0; graph -k 10 -d cosine;
# test rows: the other 700; ssl_text if webkb_page is absent).
set -uo pipefail
orig=$PWD
cd "$(dirname "$0")/.." || exit 2
root=$PWD
TOL=1e-12
TIMEOUT=${TIMEOUT:-300}
KEEP=${KEEP:-0}
TOOLS="graph-build lapsvm-train lapsvm-predict lapsvm-datagen"

die() { echo "same-models.sh: $*" >&2; exit 2; }
case ${1:-} in
-h | --help) sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
esac
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	die "usage: bench/same-models.sh BEFORE [AFTER] (each a directory of built tools or a git revision)"
fi

if [ -n "${DATA:-}" ]; then
	case $DATA in /*) ;; *) DATA=$orig/$DATA ;; esac
else
	DATA=$root/../shared/data
fi

mkdir -p build/same-models || exit 2

# tools_of SPEC WHO: the directory of SPEC's tools in $dir, a description
# in $desc; a revision is exported and built under build/same-models.
tools_of() {
	local spec=$1 who=$2 sha tmpd t
	if [ -d "$spec" ] || { [ "${spec#/}" = "$spec" ] && [ -d "$orig/$spec" ]; }; then
		dir=$(cd "$orig" && cd "$spec" && pwd) || die "$who: cannot enter $spec"
		desc="directory $dir"
	elif sha=$(git rev-parse --verify --quiet "$spec^{commit}"); then
		dir=$root/build/same-models/rev-$sha
		desc="revision $spec = ${sha:0:12}, built in build/same-models/rev-$sha"
		if [ ! -x "$dir/lapsvm-train" ]; then
			echo "same-models.sh: building $spec (${sha:0:12}) in build/same-models/rev-$sha" >&2
			tmpd=$(mktemp -d build/same-models/.rev-XXXXXX) || exit 2
			if ! { git archive "$sha" | tar -x -C "$tmpd" && make -C "$tmpd" -j2 -s all; } > "$tmpd.log" 2>&1; then
				tail -n 20 "$tmpd.log" >&2
				die "$who: building $spec failed (log: $tmpd.log, tree: $tmpd)"
			fi
			mv "$tmpd.log" "$tmpd/build/same-models-make.log"
			# another run may have built it meanwhile: keep the first
			mv -T "$tmpd" "$dir" 2> /dev/null || rm -rf "$tmpd"
		fi
	else
		die "$who: '$spec' is neither a directory of tools nor a git revision"
	fi
	for t in $TOOLS; do
		[ -x "$dir/$t" ] || die "$who: $dir has no executable $t"
	done
}

tools_of "$1" BEFORE
B=$dir
Bdesc=$desc
if [ $# -ge 2 ]; then
	tools_of "$2" AFTER
	A=$dir
	Adesc=$desc
else
	make -s -j2 all > build/same-models/make.log 2>&1 || {
		tail -n 20 build/same-models/make.log >&2
		die "AFTER: make in the working tree failed (log: build/same-models/make.log)"
	}
	A=$root
	Adesc="the working tree's tools ($root, after make)"
fi

work=$(mktemp -d "$root/build/same-models/run.XXXXXX") || exit 2
F=$work/fix
mkdir -p "$F" "$work/before" "$work/after"
start=$SECONDS

# ---------------------------------------------------------------- fixtures
fixfail() { echo "same-models.sh: making the fixtures with BEFORE's tools failed: $*" >&2; exit 2; }
"$B/lapsvm-datagen" -S 1 -l 5 moons "$F/moons" || fixfail "lapsvm-datagen"
"$B/lapsvm-datagen" -S 2 moons "$F/moons.test" || fixfail "lapsvm-datagen"
"$B/graph-build" -q -k 6 "$F/moons" "$F/moons.graph" || fixfail "graph-build moons"
have=" moons "
notes=()
if [ -d "$DATA" ]; then
	if [ -r "$DATA/lds_uspst.libsvm.gz" ]; then
		# labels 0-9 are digits: the unlabeled marker is -1
		zcat "$DATA/lds_uspst.libsvm.gz" > "$F/uspst.all" || fixfail "zcat lds_uspst"
		awk 'NR <= 600 { if (NR % 10 != 1) $1 = -1; print }' "$F/uspst.all" > "$F/uspst"
		awk 'NR > 600' "$F/uspst.all" > "$F/uspst.test"
		"$B/graph-build" -q -k 6 "$F/uspst" "$F/uspst.graph" || fixfail "graph-build uspst"
		have+="uspst "
	else
		notes+=("$DATA/lds_uspst.libsvm.gz not found: the uspst cases are skipped")
	fi
	sparse=
	if [ -r "$DATA/webkb_page.libsvm" ]; then
		cp "$DATA/webkb_page.libsvm" "$F/webkb.all"
		sparse="webkb_page.libsvm"
	elif [ -r "$DATA/ssl_text.libsvm.gz" ]; then
		zcat "$DATA/ssl_text.libsvm.gz" > "$F/webkb.all" || fixfail "zcat ssl_text"
		sparse="ssl_text.libsvm.gz (webkb_page.libsvm is absent)"
	else
		notes+=("no webkb_page.libsvm nor ssl_text.libsvm.gz in $DATA: the webkb cases are skipped")
	fi
	if [ -n "$sparse" ]; then
		awk 'NR % 3 == 1 { if (NR % 24 != 1) $1 = 0; print }' "$F/webkb.all" > "$F/webkb"
		awk 'NR % 3 != 1' "$F/webkb.all" > "$F/webkb.test"
		"$B/graph-build" -q -k 10 -d cosine "$F/webkb" "$F/webkb.graph" || fixfail "graph-build webkb"
		have+="webkb "
	fi
else
	notes+=("DATA ($DATA) not found: only the moons fixtures; the uspst and webkb cases are skipped")
fi

# ------------------------------------------------------------------ cases
# name | fixture | options.  @G is the fixture's graph, @O the -o file.
# The fixture gives the training file (and its test rows for lapsvm-predict).
cases=(
	"m-lapsvm-direct        | moons | -s lapsvm -M direct -t 2 -g 4 -G @G"
	"m-lapsvm-defaults      | moons | -G @G"
	"m-lapsvm-pcg           | moons | -s lapsvm -M pcg -t 2 -g 4 -G @G"
	"m-lapsvm-pcg-early     | moons | -s lapsvm -M pcg-early -t 2 -g 4 -G @G"
	"m-lapsvm-newton        | moons | -s lapsvm -M newton -t 2 -g 4 -G @G"
	"m-lapsvm-nystrom       | moons | -s lapsvm -M newton -N 50 -S 3 -t 2 -g 4 -G @G"
	"m-laprls-direct        | moons | -s laprls -M direct -t 2 -g 4 -G @G"
	"m-laprls-pcg           | moons | -s laprls -M pcg -t 2 -g 4 -G @G"
	"m-laprls-pcg-early     | moons | -s laprls -M pcg-early -t 2 -g 4 -G @G"
	"m-laprls-newton        | moons | -s laprls -M newton -t 2 -g 4 -G @G"
	"m-laprls-nystrom       | moons | -s laprls -M newton -N 50 -S 3 -t 2 -g 4 -G @G"
	"m-lapsvm-linear        | moons | -s lapsvm -t 0 -G @G"
	"m-lapsvm-linear-newton | moons | -s lapsvm -M newton -t 0 -G @G"
	"m-laprls-linear-newton | moons | -s laprls -M newton -t 0 -G @G"
	"m-lapsvm-poly          | moons | -s lapsvm -t 1 -d 3 -g 1 -r 1 -G @G"
	"m-laprls-poly-pcg      | moons | -s laprls -M pcg -t 1 -d 2 -g 0.5 -r 1 -G @G"
	"m-lapsvm-knn           | moons | -s lapsvm -t 2 -g 4 -k 5"
	"m-laprls-knn-newton    | moons | -s laprls -M newton -t 2 -g 4 -k 5"
	"m-svm                  | moons | -s lapsvm -t 2 -g 4 -c 10 -I 0"
	"m-svm-pcg              | moons | -s lapsvm -M pcg -t 2 -g 4 -I 0"
	"m-svm-newton           | moons | -s lapsvm -M newton -t 2 -g 4 -i 0"
	"m-rls                  | moons | -s laprls -t 2 -g 4 -i 0"
	"m-rls-pcg              | moons | -s laprls -M pcg -t 2 -g 4 -I 0"
	"m-rls-nystrom          | moons | -s laprls -M newton -N 50 -S 2 -t 2 -g 4 -I 0"
	"m-lapsvm-unnormalized  | moons | -s lapsvm -t 2 -g 4 -A 0.01 -I 1 -L unnormalized -G @G"
	"m-laprls-P2            | moons | -s laprls -t 2 -g 4 -P 2 -G @G"
	"m-lapsvm-pcg-unnorm-P2 | moons | -s lapsvm -M pcg -t 2 -g 4 -L unnormalized -P 2 -G @G"
	"m-lapsvm-eps           | moons | -s lapsvm -t 2 -g 4 -e 1e-5 -G @G"
	"m-lapsvm-o             | moons | -s lapsvm -t 2 -g 4 -G @G -o @O"
	"m-laprls-pcg-early-o   | moons | -s laprls -M pcg-early -t 2 -g 4 -G @G -o @O"
	"m-tsvm                 | moons | -s tsvm -t 2 -g 4"
	"m-tsvm-Cpw-o           | moons | -s tsvm -t 2 -g 4 -c 5 -C 0.5 -p 0.4 -w 20 -o @O"
	"m-lapsvm-cv            | moons | -s lapsvm -t 2 -g 4 -G @G -v 5"
	"m-laprls-pcg-cv        | moons | -s laprls -M pcg -t 2 -g 4 -G @G -v 5 -S 7"
	"u-lapsvm-direct        | uspst | -u -1 -s lapsvm -M direct -t 2 -g 0.01 -G @G"
	"u-lapsvm-pcg           | uspst | -u -1 -s lapsvm -M pcg -t 2 -g 0.01 -G @G"
	"u-lapsvm-pcg-early     | uspst | -u -1 -s lapsvm -M pcg-early -t 2 -g 0.01 -G @G"
	"u-lapsvm-newton        | uspst | -u -1 -s lapsvm -M newton -t 2 -g 0.01 -G @G"
	"u-lapsvm-nystrom       | uspst | -u -1 -s lapsvm -M newton -N 100 -S 2 -t 2 -g 0.01 -G @G"
	"u-laprls-direct-poly   | uspst | -u -1 -s laprls -M direct -t 1 -d 3 -g 1 -r 0 -a 0.005 -i 0.045 -G @G"
	"u-laprls-pcg           | uspst | -u -1 -s laprls -M pcg -t 2 -g 0.01 -G @G -o @O"
	"u-laprls-pcg-early     | uspst | -u -1 -s laprls -M pcg-early -t 2 -g 0.01 -G @G"
	"u-laprls-newton        | uspst | -u -1 -s laprls -M newton -t 2 -g 0.01 -G @G"
	"u-laprls-nystrom       | uspst | -u -1 -s laprls -M newton -N 100 -S 2 -t 2 -g 0.01 -G @G"
	"u-lapsvm-linear-newton | uspst | -u -1 -s lapsvm -M newton -t 0 -G @G"
	"u-lapsvm-knn-P2        | uspst | -u -1 -s lapsvm -t 2 -g 0.01 -k 5 -P 2"
	"u-tsvm                 | uspst | -u -1 -s tsvm -t 2 -g 0.01 -w 50 -o @O"
	"u-svm-pcg              | uspst | -u -1 -s lapsvm -M pcg -t 2 -g 0.01 -I 0"
	"u-rls-cv               | uspst | -u -1 -s laprls -t 1 -d 3 -g 1 -a 0.05 -i 0 -v 5"
	"w-lapsvm-linear-newton | webkb | -s lapsvm -M newton -t 0 -a 1 -i 100 -P 3 -G @G"
	"w-laprls-linear-newton | webkb | -s laprls -M newton -t 0 -a 0.01 -i 1 -P 3 -G @G -o @O"
	"w-svm-linear-newton    | webkb | -s lapsvm -M newton -t 0 -a 1 -i 0"
	"w-laprls-linear-direct | webkb | -s laprls -t 0 -a 0.01 -i 1 -G @G"
	"w-tsvm-linear          | webkb | -s tsvm -t 0 -a 1"
)
# name | fixture | graph-build options (BEFORE's graph against AFTER's)
graphs=(
	"g-moons                | moons | -k 6"
	"g-moons-k10-mutual     | moons | -k 10 -m"
	"g-moons-eps            | moons | -e 0.25"
	"g-moons-binary         | moons | -k 6 -w binary"
	"g-moons-heat-t         | moons | -k 6 -w heat -t 0.05"
	"g-moons-distance       | moons | -k 8 -w distance -p double"
	"g-uspst                | uspst | -k 6"
	"g-uspst-double         | uspst | -k 6 -p double"
	"g-uspst-cosine-eps     | uspst | -e 0.2 -d cosine -w binary"
	"g-webkb-cosine         | webkb | -k 10 -d cosine"
	"g-webkb-sparse         | webkb | -k 10 -A sparse"
	"g-webkb-dense-double   | webkb | -k 10 -A dense -p double"
)

# ------------------------------------------------------------- comparison
# cmpnum A B: "FIRST MAXREL": the first line where a token differs (a
# number by more than TOL relative, or any other token; 0: none) and the
# largest relative difference of the numbers.  Tokens are split at blanks
# and colons, so index:value compares both.
cmpnum() {
	awk -v tol="$TOL" -v fa="$1" -v fb="$2" '
	function isnum(s) { return s ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }
	function abs(x) { return x < 0 ? -x : x }
	BEGIN {
		first = 0; maxrel = 0; n = 0
		while (1) {
			ra = (getline la < fa) > 0; rb = (getline lb < fb) > 0
			if (!ra && !rb) break
			n++
			if (ra != rb) { if (!first) first = n; break }
			if (la == lb) continue
			na = split(la, ta, /[ \t:]+/); nb = split(lb, tb, /[ \t:]+/)
			bad = na != nb
			for (i = 1; i <= na && i <= nb; i++) {
				if (ta[i] == tb[i]) continue
				if (isnum(ta[i]) && isnum(tb[i])) {
					a = ta[i] + 0; b = tb[i] + 0
					m = abs(a) > abs(b) ? abs(a) : abs(b)
					if (m < 1e-300) m = 1e-300
					rel = abs(a - b) / m
					if (rel > maxrel) maxrel = rel
					if (rel > tol) bad = 1
				} else
					bad = 1
			}
			if (bad && !first) first = n
		}
		printf "%d %.3g\n", first, maxrel
	}'
}

# compare A B: one output of both builds; appends to the case's state
# (st: 0 identical, 1 equal to TOL, 2 different; mx: largest relative
# difference; fl: the first differing line; cell: this output's verdict).
compare() {
	local a=$1 b=$2 first rel
	if [ ! -e "$a" ] && [ ! -e "$b" ]; then
		cell="none"
		return
	fi
	if [ ! -e "$a" ] || [ ! -e "$b" ]; then
		cell="DIFFERENT: written by $([ -e "$a" ] && echo BEFORE || echo AFTER) only"
		st=2
		[ -n "$fl" ] || fl=1
		return
	fi
	if cmp -s "$a" "$b"; then
		cell=identical
		return
	fi
	read -r first rel < <(cmpnum "$a" "$b")
	mx=$(awk -v a="$mx" -v b="$rel" 'BEGIN { print (b + 0 > a + 0) ? b : a }')
	if [ "$first" -eq 0 ]; then
		cell="equal (max rel. diff $rel)"
		[ "$st" -ge 1 ] || st=1
	else
		cell="DIFFERENT at line $first (max rel. diff $rel)"
		st=2
		[ -n "$fl" ] || fl=$first
	fi
}

# lasterr FILE: the last line of a stderr file, shortened, for the table
lasterr() { tail -n 1 "$1" 2> /dev/null | cut -c 1-100 | tr '|' '/'; }

rows=()
nident=0 nequal=0 ndiff=0 nskip=0
# verdict NAME OPTS MODELCELL PREDCELL: one table row from st, mx, fl
verdict() {
	local res
	case $st in
	0) res=identical; nident=$((nident + 1)) ;;
	1) res="equal to $TOL (max rel. diff $mx)"; nequal=$((nequal + 1)) ;;
	*) res="DIFFERENT (max rel. diff $mx, first differing line $fl)"; ndiff=$((ndiff + 1)) ;;
	esac
	rows+=("| $1 | \`$2\` | $3 | $4 | $res |")
}
# failed NAME OPTS RB RA EB EA: a run that failed in either build
failed() {
	local msg
	if [ "$3" = "$4" ]; then
		msg="FAILED in both (exit $3: $(lasterr "$5"))"
	else
		msg="DIFFERENT (exit $3 in BEFORE, $4 in AFTER"
		[ "$3" = 0 ] || msg+="; BEFORE: $(lasterr "$5")"
		[ "$4" = 0 ] || msg+="; AFTER: $(lasterr "$6")"
		msg+=")"
	fi
	ndiff=$((ndiff + 1))
	rows+=("| $1 | \`$2\` | — | — | $msg |")
}
skipped() {
	nskip=$((nskip + 1))
	rows+=("| $1 | \`$2\` | — | — | skipped: $3 |")
}
progress() { [ -t 2 ] && printf '\r\033[Ksame-models: %s' "$1" >&2; }

trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; printf '%s' "${s%"${s##*[![:space:]]}"}"; }

# ------------------------------------------------------------------ graphs
for g in "${graphs[@]}"; do
	IFS='|' read -r name fix opts <<< "$g"
	name=$(trim "$name"); fix=$(trim "$fix"); opts=$(trim "$opts")
	shown="graph-build $opts $fix"
	case $have in *" $fix "*) ;; *) skipped "$name" "$shown" "no $fix fixture"; continue ;; esac
	progress "$name"
	for side in before after; do
		T=$B; [ $side = after ] && T=$A
		d=$work/$side/$name
		mkdir -p "$d"
		# shellcheck disable=SC2086
		timeout "$TIMEOUT" "$T/graph-build" -q $opts "$F/$fix" "$d/graph" < /dev/null > "$d/stdout" 2> "$d/stderr"
		echo $? > "$d/rc"
	done
	rb=$(cat "$work/before/$name/rc") ra=$(cat "$work/after/$name/rc")
	if [ "$rb" = 2 ]; then skipped "$name" "$shown" "usage error in BEFORE"; continue; fi
	if [ "$rb" != 0 ] || [ "$ra" != 0 ]; then
		failed "$name" "$shown" "$rb" "$ra" "$work/before/$name/stderr" "$work/after/$name/stderr"
		continue
	fi
	st=0 mx=0 fl=
	compare "$work/before/$name/graph" "$work/after/$name/graph"
	verdict "$name" "$shown" "graph: $cell" "—"
done

# ------------------------------------------------------------------- cases
for c in "${cases[@]}"; do
	IFS='|' read -r name fix opts <<< "$c"
	name=$(trim "$name"); fix=$(trim "$fix"); opts=$(trim "$opts")
	shown=$opts
	shown=${shown//@G/$fix.graph}
	shown=${shown//@O/FILE}
	shown="$shown $fix"
	case $have in *" $fix "*) ;; *) skipped "$name" "$shown" "no $fix fixture"; continue ;; esac
	progress "$name"
	for side in before after; do
		T=$B; [ $side = after ] && T=$A
		d=$work/$side/$name
		mkdir -p "$d"
		args=()
		for w in $opts; do
			case $w in
			@G) args+=("$F/$fix.graph") ;;
			@O) args+=("$d/pred") ;;
			*) args+=("$w") ;;
			esac
		done
		timeout "$TIMEOUT" "$T/lapsvm-train" "${args[@]}" "$F/$fix" "$d/model" < /dev/null > "$d/stdout" 2> "$d/stderr"
		echo $? > "$d/rc"
		if [ -e "$d/model" ]; then
			timeout "$TIMEOUT" "$T/lapsvm-predict" -d "$F/$fix.test" "$d/model" "$d/test.pred" < /dev/null > "$d/predict.stdout" 2> "$d/predict.stderr"
			echo $? > "$d/predict.rc"
		fi
	done
	b=$work/before/$name a=$work/after/$name
	rb=$(cat "$b/rc") ra=$(cat "$a/rc")
	if [ "$rb" = 2 ]; then skipped "$name" "$shown" "usage error in BEFORE"; continue; fi
	if [ "$rb" != 0 ] || [ "$ra" != 0 ]; then
		failed "$name" "$shown" "$rb" "$ra" "$b/stderr" "$a/stderr"
		continue
	fi
	pb=$(cat "$b/predict.rc" 2> /dev/null || echo none) pa=$(cat "$a/predict.rc" 2> /dev/null || echo none)
	if [ "$pb" != "$pa" ] || { [ "$pb" != 0 ] && [ "$pb" != none ]; }; then
		failed "$name" "$shown (lapsvm-predict -d)" "$pb" "$pa" "$b/predict.stderr" "$a/predict.stderr"
		continue
	fi
	st=0 mx=0 fl=
	compare "$b/model" "$a/model"
	mcell=$cell
	[ "$mcell" != none ] || mcell="none (-v)"
	pcells=()
	if [ -e "$b/test.pred" ] || [ -e "$a/test.pred" ]; then
		compare "$b/test.pred" "$a/test.pred"
		pcells+=("predict -d: $cell")
	fi
	if [ -e "$b/pred" ] || [ -e "$a/pred" ]; then
		compare "$b/pred" "$a/pred"
		pcells+=("-o: $cell")
	fi
	if [ -s "$b/stdout" ] || [ -s "$a/stdout" ]; then
		compare "$b/stdout" "$a/stdout"
		pcells+=("stdout: $cell")
	fi
	pcell=$(IFS=';'; printf '%s' "${pcells[*]:-—}")
	verdict "$name" "$shown" "$mcell" "${pcell//;/; }"
done
[ -t 2 ] && printf '\r\033[K' >&2

# ------------------------------------------------------------------ report
elapsed=$((SECONDS - start))
echo "BEFORE: $Bdesc"
echo "AFTER: $Adesc"
echo "DATA: $DATA"
for n in "${notes[@]}"; do echo "note: $n"; done
echo
echo "| case | options | model | predictions | result |"
echo "|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "Run time ${elapsed} s (fixtures and both builds' runs); outputs in ${work#"$root"/}$( [ "$ndiff" -gt 0 ] || [ "$KEEP" = 1 ] || echo ' (removed)')."
summary="$((nident + nequal + ndiff)) cases: $nident identical, $nequal equal to $TOL, $ndiff different"
[ "$nskip" -eq 0 ] || summary+=" ($nskip skipped)"
echo "$summary"
if [ "$ndiff" -gt 0 ]; then
	exit 1
fi
[ "$KEEP" = 1 ] || rm -rf "$work"
exit 0
