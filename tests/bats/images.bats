#!/usr/bin/env bats
# graph-build's image distances: -d tangent and -d rotation over rows
# declared as images by -D WxH; the graphs and lists they give, the
# summary, and every usage error and refused input.

load helpers

# bars FILE: 24 images of 8 x 8 pixels (background -1, ink 1): a vertical
# bar in column 1..6, a horizontal bar in row 1..6, each twice (the second
# copy a little fainter), so that every image has near neighbours.
bars() {
	awk 'BEGIN {
		for (o = 0; o < 2; o++) for (p = 1; p <= 6; p++) for (c = 0; c < 2; c++) {
			line = "0"
			for (r = 0; r < 8; r++) for (q = 0; q < 8; q++) {
				v = ((o == 0 && q == p) || (o == 1 && r == p)) ? 1 - 0.1 * c : -1
				line = line " " (r * 8 + q + 1) ":" v
			}
			print line
		}
	}' > "$1"
}

# turned FILE: an L shape, the same turned by 180 degrees, and a bar.
turned() {
	awk 'BEGIN {
		for (k = 0; k < 3; k++) {
			line = "0"
			for (r = 0; r < 8; r++) for (q = 0; q < 8; q++) {
				rr = (k == 1) ? 7 - r : r; qq = (k == 1) ? 7 - q : q
				ink = (k < 2) ? ((qq == 1 && rr >= 1 && rr <= 6) || (rr == 6 && qq >= 1 && qq <= 4)) : (q == 4)
				line = line " " (r * 8 + q + 1) ":" (ink ? 1 : -1)
			}
			print line
		}
	}' > "$1"
}

# ------------------------------------------------------------ what it does

@test "-d tangent -D 8x8: a valid graph, the summary naming C and the pairs" {
	bars b.txt
	run --separate-stderr "$GB" -d tangent -D 8x8 -k 2 -w binary b.txt b.graph
	assert_status 0
	check_graph b.graph 24
	assert_stderr_regex "^graph-build: tangent distance \(8x8 images, tangents smoothed with sigma 0.5 px\) on each row's C = 20 Euclidean nearest rows \(-C\): [0-9]+ pairs"
	assert_stderr_has "24 rows, k = 2:"
}

@test "-d tangent -N: lists by increasing tangent distance, none above the Euclidean one" {
	bars b.txt
	run --separate-stderr "$GB" -q -N -d tangent -D 8x8 -k 3 b.txt t.lists
	assert_status 0
	run --separate-stderr "$GB" -q -N -k 1 b.txt e.lists
	assert_status 0
	# increasing along each line
	awk '{ p = -1; for (f = 2; f <= NF; f++) { split($f, a, ":"); if (a[2] + 0 < p) exit 1; p = a[2] + 0 } }' t.lists
	# each row's nearest tangent distance <= its nearest Euclidean one
	paste -d' ' <(awk '{ split($2, a, ":"); print a[2] }' t.lists) \
		<(awk '{ split($2, a, ":"); print a[2] }' e.lists) |
		awk '{ if ($1 > $2 * (1 + 1e-12)) exit 1 }'
}

@test "-d tangent: -C below k gives k = C, with the warning of a short candidate list" {
	bars b.txt
	run --separate-stderr "$GB" -d tangent -D 8x8 -C 2 -k 5 b.txt b.graph
	assert_status 0
	assert_stderr_has "warning: k = 5 but each point has only 2 candidate neighbours; using k = 2"
	assert_stderr_has "on each row's C = 2 Euclidean nearest rows (-C)"
	check_graph b.graph 24
}

@test "-d rotation: an image turned over is at distance 0; the summary says the rotations" {
	turned t.txt
	run --separate-stderr "$GB" -N -d rotation -D 8x8 -k 1 t.txt t.lists
	assert_status 0
	[ "$(sed -n 1p t.lists)" = "1 2:0" ]
	[ "$(sed -n 2p t.lists)" = "2 1:0" ]
	assert_stderr_has "rotation-invariant distance (8x8 images): 40 rotations 9 degrees apart in [-180, 180], every pair"
	run --separate-stderr "$GB" -q -N -d rotation -r 45 -D 8x8 -k 1 t.txt t2.lists
	assert_status 0
	[ "$(sed -n 1p t2.lists)" = "1 2:0" ]
}

@test "-d tangent and -d rotation on USPS: valid graphs, the same file twice" {
	need_data usps.test.libsvm.gz
	zcat "$DATA_PATH" | head -300 > u.txt
	run --separate-stderr "$GB" -q -d tangent -D 16x16 -k 5 u.txt a.graph
	assert_status 0
	check_graph a.graph 300
	"$GB" -q -d tangent -D 16x16 -k 5 u.txt b.graph
	assert_same a.graph b.graph
	run --separate-stderr "$GB" -q -d rotation -D 16x16 -k 5 u.txt r.graph
	assert_status 0
	check_graph r.graph 300
}

# ------------------------------------------------------------- bad input

@test "image distances: rows beyond the declared shape: exit 1 naming file and row" {
	bars b.txt
	sed -i '3s/$/ 65:1/' b.txt
	run --separate-stderr "$GB" -d tangent -D 8x8 b.txt b.graph
	assert_fails graph-build "b.txt:3: feature 65 is beyond the declared 8x8 image (64 pixels): not an image of that shape"
	[ ! -e b.graph ]
	run --separate-stderr "$GB" -d rotation -D 8x8 b.txt b.graph
	assert_fails graph-build "b.txt:3: feature 65 is beyond the declared 8x8 image"
}

@test "image distances: sparse text data are refused" {
	awk 'BEGIN { for (i = 1; i <= 5; i++) print "1 " (i * 7) ":1 " (i * 300) ":2 " (i * 400 + 1) ":1" }' > text.txt
	run --separate-stderr "$GB" -d tangent -D 50x50 text.txt t.graph
	assert_fails graph-build "text.txt: the rows are sparse (0.12% of the 2500 pixels of a 50x50 image stored on average), like text: the image distances are for dense images"
	[ ! -e t.graph ]
}

@test "image distances: usage errors" {
	bars b.txt
	run --separate-stderr "$GB" -d tangent b.txt
	assert_usage_error "-d tangent needs the image shape: -D WIDTHxHEIGHT (e.g. -D 16x16)"
	run --separate-stderr "$GB" -D 8x8 b.txt
	assert_usage_error "-D declares the image shape of -d tangent or -d rotation"
	local s
	for s in 8 8x 0x8 8x8x8 ax8 8x70000; do
		run --separate-stderr "$GB" -d tangent -D "$s" b.txt
		assert_usage_error "option -D: '$s' is not an image shape"
	done
	run --separate-stderr "$GB" -C 5 b.txt
	assert_usage_error "-C applies to -d tangent"
	run --separate-stderr "$GB" -d rotation -D 8x8 -s 1 b.txt
	assert_usage_error "-s applies to -d tangent"
	run --separate-stderr "$GB" -d tangent -D 8x8 -r 10 b.txt
	assert_usage_error "-r applies to -d rotation"
	run --separate-stderr "$GB" -d tangent -D 8x8 -e 1 b.txt
	assert_usage_error "-e with -d tangent: the image distances build kNN graphs (-k)"
	run --separate-stderr "$GB" -d rotation -D 8x8 -A sparse b.txt
	assert_usage_error "-A sparse with -d rotation: images are dense rows"
	run --separate-stderr "$GB" -d tangent -D 8x8 -C 0 b.txt
	assert_usage_error "option -C: '0' out of range"
	run --separate-stderr "$GB" -d rotation -D 8x8 -r 0 b.txt
	assert_usage_error "option -r: '0' out of range"
	[ ! -e b.txt.graph ]
}
