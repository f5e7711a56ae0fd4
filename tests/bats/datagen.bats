#!/usr/bin/env bats
# lapsvm-datagen: the toy data sets, their options, errors and determinism.

load helpers

# label_counts FILE: "count label" lines, sorted by label.
label_counts() {
	awk '{ print $1 }' "$1" | sort -n | uniq -c | awk '{ print $1, $2 }'
}

@test "datagen: -h prints usage on stdout and exits 0" {
	run --separate-stderr "$DG" -h
	assert_status 0
	[[ "$output" == "Usage: lapsvm-datagen [options] moons|spirals|rings [output_file]"* ]]
	assert_stderr_empty
}

@test "datagen: moons by default has 200 rows, 100 of each label" {
	run --separate-stderr "$DG" moons
	assert_status 0
	assert_stderr_empty
	printf '%s\n' "$output" >m.txt
	[ "$(wc -l <m.txt)" -eq 200 ]
	[ "$(label_counts m.txt)" = "$(printf '%s\n' '100 -1' '100 1')" ]
	# the first half is +1, the second -1
	[ "$(head -n 100 m.txt | awk '$1 != 1' | wc -l)" -eq 0 ]
	[ "$(tail -n 100 m.txt | awk '$1 != -1' | wc -l)" -eq 0 ]
}

@test "datagen: every row is 'label 1:x 2:y' and graph-build reads it" {
	"$DG" -n 50 moons m.txt
	[ "$(awk 'NF != 3 || $2 !~ /^1:/ || $3 !~ /^2:/' m.txt)" = "" ]
	run --separate-stderr "$GB" -q m.txt
	assert_status 0
	check_graph m.txt.graph 50
}

@test "datagen: moons without noise lie exactly on the two arcs" {
	"$DG" -n 20 -e 0 moons m.txt
	# +1: x^2 + y^2 = 1, y >= 0;  -1: (1 - x)^2 + (1/2 - y)^2 = 1, y <= 1/2
	run awk -F'[ :]' '
	{ x = $3; y = $5
	  if ($1 == 1) { r = x * x + y * y; ok = y >= -1e-12 }
	  else { r = (1 - x) ^ 2 + (0.5 - y) ^ 2; ok = y <= 0.5 + 1e-12 }
	  d = r - 1; if (d < 0) d = -d
	  if (d > 1e-12 || !ok) print "off its arc: " $0 }' m.txt
	[ -z "$output" ]
	[ "$(head -n 1 m.txt)" = "1 1:1 2:0" ]
}

@test "datagen: spirals -n 194 gives 194 rows, 97 per class, from (0, 6.5)" {
	run --separate-stderr "$DG" -n 194 spirals
	assert_status 0
	printf '%s\n' "$output" >s.txt
	[ "$(wc -l <s.txt)" -eq 194 ]
	[ "$(label_counts s.txt)" = "$(printf '%s\n' '97 -1' '97 1')" ]
	[ "$(head -n 1 s.txt)" = "1 1:0 2:6.5" ]
}

# arm_gaps FILE: "largest same-arm nearest-neighbour distance" and
# "smallest distance between the arms" of a two-class file, 3 decimals.
arm_gaps() {
	awk '{ split($2, a, ":"); split($3, b, ":"); x[NR] = a[2]; y[NR] = b[2]; l[NR] = $1 }
	END { ms = 0; mo = 1e300
		for (i = 1; i <= NR; i++) { bs = 1e300
			for (j = 1; j <= NR; j++) { if (i == j) continue
				d = sqrt((x[i] - x[j])^2 + (y[i] - y[j])^2)
				if (l[i] == l[j]) { if (d < bs) bs = d } else if (d < mo) mo = d }
			if (bs > ms) ms = bs }
		printf "%.3f %.3f\n", ms, mo }' "$1"
}

@test "datagen: spirals -n 600 (300 per arm) are dense enough for a neighbourhood graph, -n 194 are not" {
	# experiments/cluster-figures.sh (JMLR Figure 10) relies on this: along
	# an arm every point has a neighbour closer than the other arm is, so an
	# epsilon-ball graph (eps between the two numbers) joins each arm and
	# never the two.  With Lang & Witbrock's 97 per arm an outer point is
	# 1.27 from its nearest neighbour on its arm, the arms only 0.93 apart.
	"$DG" -n 600 spirals s600.txt
	[ "$(label_counts s600.txt)" = "$(printf '%s\n' '300 -1' '300 1')" ]
	read -r same other < <(arm_gaps s600.txt)
	[ "$same $other" = "0.410 0.932" ]
	"$DG" -n 194 spirals s194.txt
	read -r same other < <(arm_gaps s194.txt)
	awk -v s="$same" -v o="$other" 'BEGIN { exit !(s > o) }'
	# same formula, same ends: the first point of -n 600 is that of -n 194
	[ "$(head -n 1 s600.txt)" = "$(head -n 1 s194.txt)" ]
}

@test "datagen: odd -n gives the extra point to the +1 class" {
	"$DG" -n 7 moons m.txt
	[ "$(label_counts m.txt)" = "$(printf '%s\n' '3 -1' '4 1')" ]
}

@test "datagen: -l 1 keeps exactly 1 labeled point per class, others 0" {
	"$DG" -l 1 moons m.txt
	[ "$(wc -l <m.txt)" -eq 200 ]
	[ "$(label_counts m.txt)" = "$(printf '%s\n' '1 -1' '198 0' '1 1')" ]
	# the kept +1 is in the first half, the kept -1 in the second
	[ "$(head -n 100 m.txt | awk '$1 == -1' | wc -l)" -eq 0 ]
	[ "$(tail -n 100 m.txt | awk '$1 == 1' | wc -l)" -eq 0 ]
}

@test "datagen: -l changes only labels, not the points" {
	"$DG" -S 3 moons all.txt
	"$DG" -S 3 -l 5 moons some.txt
	[ "$(label_counts some.txt)" = "$(printf '%s\n' '5 -1' '190 0' '5 1')" ]
	cut -d' ' -f2- all.txt >all.x
	cut -d' ' -f2- some.txt >some.x
	assert_same all.x some.x
}

@test "datagen: -l 0 unlabels every point" {
	"$DG" -n 10 -l 0 moons m.txt
	[ "$(label_counts m.txt)" = "10 0" ]
}

# it kept every label, not the m asked for
@test "datagen: -l larger than the smallest class exits 2; -l equal to it keeps every label" {
	run --separate-stderr "$DG" -n 11 -l 6 moons m.txt
	assert_status 2
	assert_stderr_has "lapsvm-datagen: option -l: 6 labels per class, but the smallest class of 11 points of moons has 5 (expected at most 5)"
	[ ! -e m.txt ]
	"$DG" -n 10 moons all.txt
	"$DG" -n 10 -l 5 moons m.txt
	assert_same all.txt m.txt
}

@test "datagen: the same seed gives the same data" {
	"$DG" -S 42 moons a.txt
	"$DG" -S 42 moons b.txt
	assert_same a.txt b.txt
	"$DG" -S 42 -l 3 moons a.txt
	"$DG" -S 42 -l 3 moons b.txt
	assert_same a.txt b.txt
}

@test "datagen: a different seed gives different data" {
	"$DG" -S 1 moons a.txt
	"$DG" -S 2 moons b.txt
	run cmp -s a.txt b.txt
	[ "$status" -eq 1 ]
	# same shape, though
	[ "$(label_counts a.txt)" = "$(label_counts b.txt)" ]
}

@test "datagen: default seed is 1" {
	"$DG" moons a.txt
	"$DG" -S 1 moons b.txt
	assert_same a.txt b.txt
}

@test "datagen: writing to a file equals writing to stdout" {
	"$DG" -S 9 spirals file.txt
	"$DG" -S 9 spirals >stdout.txt
	"$DG" -S 9 spirals - >dash.txt
	assert_same file.txt stdout.txt
	assert_same file.txt dash.txt
	[ ! -e ./- ]
	assert_no_tmp_files .
}

@test "datagen: -n 1 exits 2" {
	run --separate-stderr "$DG" -n 1 moons
	assert_usage_error "option -n:" lapsvm-datagen
	assert_stderr_has "out of range"
}

@test "datagen: -n abc exits 2" {
	run --separate-stderr "$DG" -n abc moons
	assert_usage_error "option -n: 'abc' is not an integer" lapsvm-datagen
}

@test "datagen: -e -1 exits 2" {
	run --separate-stderr "$DG" -e -1 moons
	assert_usage_error "option -e:" lapsvm-datagen
	assert_stderr_has "out of range"
}

@test "datagen: -e nan exits 2" {
	run --separate-stderr "$DG" -e nan moons
	assert_usage_error "option -e: 'nan' is not finite" lapsvm-datagen
}

@test "datagen: -S -1 exits 2" {
	run --separate-stderr "$DG" -S -1 moons
	assert_usage_error "option -S:" lapsvm-datagen
}

@test "datagen: -l x exits 2" {
	run --separate-stderr "$DG" -l x moons
	assert_usage_error "option -l: 'x' is not an integer" lapsvm-datagen
}

@test "datagen: option missing its value exits 2" {
	run --separate-stderr "$DG" moons -n
	assert_usage_error "option -n needs a value" lapsvm-datagen
}

@test "datagen: unknown option exits 2" {
	run --separate-stderr "$DG" -z moons
	assert_usage_error "unknown option -z" lapsvm-datagen
}

@test "datagen: unknown data set name exits 2" {
	run --separate-stderr "$DG" circles
	assert_usage_error "unknown data set 'circles' (expected moons, spirals or rings)" lapsvm-datagen
	[ "$(ls -A)" = "" ]
}

@test "datagen: no data set name exits 2" {
	run --separate-stderr "$DG"
	assert_usage_error "missing data set name" lapsvm-datagen
}

@test "datagen: too many arguments exits 2" {
	run --separate-stderr "$DG" moons a.txt b.txt
	assert_usage_error "too many arguments" lapsvm-datagen
	[ ! -e a.txt ]
}

@test "datagen: output in a nonexistent directory exits 1" {
	run --separate-stderr "$DG" moons no-such-dir/m.txt
	assert_status 1
	assert_stderr_has "lapsvm-datagen: no-such-dir/m.txt:"
	[ ! -e no-such-dir ]
}

@test "datagen: write error on stdout (/dev/full) exits 1" {
	[ -w /dev/full ] || skip "/dev/full not available"
	run --separate-stderr bash -c '"$1" moons >/dev/full' _ "$DG"
	assert_status 1
	assert_stderr_has "write error"
}

@test "datagen: rings: three circles of radius 1, 2, 3, n/3 rows each, seeded; -l per class" {
	run --separate-stderr "$DG" -n 301 -e 0 rings
	assert_status 0
	printf '%s\n' "$output" >r.txt
	[ "$(label_counts r.txt)" = "$(printf '%s\n' '101 1' '100 2' '100 3')" ]
	# without noise every row lies on its circle
	awk '{ split($2, a, ":"); split($3, b, ":"); r = sqrt(a[2] ^ 2 + b[2] ^ 2)
		d = r - $1; if (d < 0) d = -d; if (d > 1e-12) bad++ } END { exit bad > 0 }' r.txt
	# the default noise 0.1, the same seed the same rows, another seed others
	"$DG" -S 4 rings a.txt
	"$DG" -S 4 rings b.txt
	"$DG" -S 5 rings c.txt
	assert_same a.txt b.txt
	! cmp -s a.txt c.txt
	[ "$(wc -l <a.txt)" -eq 200 ]
	"$DG" -S 4 -l 2 rings l.txt
	[ "$(label_counts l.txt)" = "$(printf '%s\n' '194 0' '2 1' '2 2' '2 3')" ]
	cmp <(cut -d' ' -f2- a.txt) <(cut -d' ' -f2- l.txt)
}

@test "datagen: rings with fewer points than its three classes exits 2" {
	run --separate-stderr "$DG" -n 2 rings
	assert_usage_error "option -n: 2 points cannot make the 3 classes of rings (expected at least 3)" lapsvm-datagen
	run --separate-stderr "$DG" -n 3 rings
	[ "$status" -eq 0 ]
	[ "$(cut -d' ' -f1 <<<"$output" | sort -u | tr '\n' ' ')" = "1 2 3 " ]
}
