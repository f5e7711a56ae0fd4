#!/usr/bin/env bats
# lapsvm-gridplot: the table of lapsvm-train -v drawn as a PNG map of the
# hinge loss over two parameters; its errors.  Skipped without gnuplot
# (CI installs gnuplot-nox).

load helpers

# a script in the source tree, not built: the same under make asan
PLOT="$BATS_TEST_DIRNAME/../../lapsvm-gridplot"

setup() {
	need_tools "$TRAIN" "$DG"
	command -v gnuplot >/dev/null || skip "gnuplot not installed"
	enter_work
	moons m.txt -S 1 -l 10
}

is_png() {
	[ "$(head -c 4 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e47" ]
}

@test "a 3 x 3 grid of -a and -i becomes a PNG, from a file or standard input" {
	"$TRAIN" -q -v 2 -a 1e-4:1e-2:x10 -i 0,0.1,1 m.txt g.model >grid.txt
	run --separate-stderr "$PLOT" -o a.png grid.txt
	assert_status 0
	assert_stderr_empty
	is_png a.png
	run --separate-stderr "$PLOT" -o b.png - <grid.txt
	assert_status 0
	is_png b.png
	[ "$(ls)" = "$(printf 'a.png\nb.png\ng.model\ngrid.txt\nm.txt')" ]
}

@test "other columns by -x/-y; the rest held at the best line's values" {
	"$TRAIN" -q -v 2 -g 1,4 -a 1e-4,1e-2 -i 0,1 m.txt g.model >grid.txt
	run --separate-stderr "$PLOT" -o g.png -x g -y i grid.txt
	assert_status 0
	is_png g.png
	run --separate-stderr "$PLOT" -o d.png grid.txt
	assert_status 0
	is_png d.png
}

@test "a table it cannot draw: exit 1, saying why, no image" {
	printf 'hello\n' >junk.txt
	run --separate-stderr "$PLOT" -o x.png junk.txt
	assert_status 1
	assert_stderr_has "lapsvm-gridplot: junk.txt: no table of lapsvm-train -v"
	"$TRAIN" -q -v 2 -a 1e-4,1e-2 -i 1 m.txt g.model >one.txt
	run --separate-stderr "$PLOT" -o x.png one.txt
	assert_status 1
	assert_stderr_has "no varied column for gamma_I (-i, -I) to draw up; use -y"
	run --separate-stderr "$PLOT" -o x.png missing.txt
	assert_status 1
	assert_stderr_has "lapsvm-gridplot: missing.txt: cannot read"
	[ ! -e x.png ]
}

@test "usage errors: exit 2" {
	run --separate-stderr "$PLOT" -x q t.txt
	assert_usage_error "unknown column '-q'" lapsvm-gridplot
	run --separate-stderr "$PLOT" -x a -y a t.txt
	assert_usage_error "-x and -y name the same column" lapsvm-gridplot
	run --separate-stderr "$PLOT" a b
	assert_usage_error "too many arguments" lapsvm-gridplot
}

@test "without gnuplot: exit 1 with how to get it" {
	"$TRAIN" -q -v 2 -a 1e-4,1e-2 -i 0,1 m.txt g.model >grid.txt
	mkdir bin
	for t in sh cat awk mktemp rm mv cp head; do ln -s "$(command -v $t)" bin/$t; done
	PATH="$PWD/bin" run --separate-stderr "$PLOT" -o x.png grid.txt
	assert_status 1
	assert_stderr_has "gnuplot not found (Debian: apt-get install gnuplot-nox)"
	[ ! -e x.png ]
}

@test "messages quote control bytes: an escape sequence in a file name or the table never reaches the terminal raw" {
	printf 'x\033[2J\r\n' >"$(printf 'bad\033[31m.txt')"
	run --separate-stderr "$PLOT" -o x.png "$(printf 'bad\033[31m.txt')"
	assert_status 1
	assert_stderr_has 'lapsvm-gridplot: bad\x1b[31m.txt: no table of lapsvm-train -v'
	! printf '%s' "$stderr" | LC_ALL=C grep -q "$(printf '[\033\r]')"
	run --separate-stderr "$PLOT" -o x.png "$(printf 'no\033]0;title\007such')"
	assert_status 1
	assert_stderr_has 'lapsvm-gridplot: no\x1b]0;title\x07such: cannot read'
	[ ! -e x.png ]
}

@test "the image replaces a file keeping its mode, writes through a link, refuses a directory before drawing" {
	"$TRAIN" -q -v 2 -a 1e-4,1e-2 -i 0,1 m.txt g.model >grid.txt
	echo old >p.png
	chmod 600 p.png
	run --separate-stderr "$PLOT" -o p.png grid.txt
	assert_status 0
	is_png p.png
	[ "$(stat -c %a p.png)" = 600 ]
	# a new file follows the umask
	(umask 027 && "$PLOT" -o n.png grid.txt)
	[ "$(stat -c %a n.png)" = 640 ]
	# a link to a file not there yet: the target is written, the link kept
	mkdir d
	ln -s d/target.png link.png
	run --separate-stderr "$PLOT" -o link.png grid.txt
	assert_status 0
	[ -L link.png ]
	is_png d/target.png
	run --separate-stderr "$PLOT" -o d grid.txt
	assert_status 1
	assert_stderr_has "lapsvm-gridplot: d: is a directory"
	run --separate-stderr "$PLOT" -o nodir/x.png grid.txt
	assert_status 1
	assert_stderr_has "lapsvm-gridplot: nodir/x.png: no such directory: nodir"
	# no temporary left by any of these
	[ -z "$(find . -name '.*.tmp.*')" ]
}

@test "the table is data: a quote in a value cannot run a command; a loss that is no number, or two best lines, are refused" {
	"$TRAIN" -q -v 2 -a 1e-4,1e-2 -i 0,1 m.txt g.model >grid.txt
	# a value crafted to close gnuplot's string and call system()
	awk 'NR == 3 || NR == 4 { sub(/0[.]0001/, "x\".system(\"touch${IFS}pwned\").\"") } { print }' grid.txt >evil.txt
	grep -c system evil.txt | grep -qx 2
	run --separate-stderr "$PLOT" -o e.png evil.txt
	assert_status 0
	[ ! -e pwned ]
	sed "s/0[.]0001/it's/" grid.txt >quote.txt
	run --separate-stderr "$PLOT" -o q.png quote.txt
	[ ! -e pwned ]
	awk 'NR == 3 { $3 = "garbage" } { print }' grid.txt | sed '3s/^/  /' >nan.txt
	run --separate-stderr "$PLOT" -o n.png nan.txt
	assert_status 1
	assert_stderr_has "nan.txt: line 3: the loss 'garbage' is not a finite number"
	sed '3s/^ /*/' grid.txt >two.txt
	grep -c '^\*' two.txt | grep -qx 2
	run --separate-stderr "$PLOT" -o t.png two.txt
	assert_status 1
	assert_stderr_has "a second line marked * (the best is one line)"
	[ ! -e n.png ] && [ ! -e t.png ]
}
