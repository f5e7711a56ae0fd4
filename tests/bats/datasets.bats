#!/usr/bin/env bats
# datasets/: fetch (options, mirror mode and its errors, download mode through
# file:// URLs), the converters on tiny synthetic inputs and on the mirror's
# own data, and the index files against the mirror's.
# shellcheck disable=SC2154 # $stderr is set by bats: run --separate-stderr

load helpers

DS="$BATS_TEST_DIRNAME/../../datasets"
FETCH="$DS/fetch"

# The data set tools need no compiled program: helpers' setup would skip
# when graph-build is not built, so only its working-directory part is kept.
setup() {
	enter_work
}

# The 59 files fetch knows (PROVENANCE.md), in SHA256SUMS order.
ALL_FILES=(usps.train.libsvm.gz usps.test.libsvm.gz usps.train.first400perdigit.txt
	isolet1.libsvm.gz isolet5.libsvm.gz isolet1.speakers.txt isolet5.speakers.txt
	webkb_page.libsvm webkb_link.libsvm webkb_pagelink.libsvm
	lds_uspst.libsvm.gz lds_uspst.splits.l50.txt mnist.t10k.libsvm.gz
	twomoons.libsvm twospirals.libsvm
	ssl_digit1.libsvm.gz ssl_digit1.splits.l10.txt ssl_digit1.splits.l100.txt
	ssl_coil2.libsvm.gz ssl_coil2.splits.l10.txt ssl_coil2.splits.l100.txt
	ssl_text.libsvm.gz ssl_text.splits.l10.txt ssl_text.splits.l100.txt
	ssl_secstr.libsvm.gz ssl_secstr.splits.l100.txt ssl_secstr.splits.l1000.txt
	ssl_secstr.splits.l10000.txt
	argyriou.1v7.subset.txt argyriou.1v7.l4.txt argyriou.1v7.l8.txt argyriou.1v7.l12.txt argyriou.2v3.subset.txt argyriou.2v3.l4.txt argyriou.2v3.l8.txt argyriou.2v3.l12.txt argyriou.2v7.subset.txt argyriou.2v7.l4.txt argyriou.2v7.l8.txt argyriou.2v7.l12.txt argyriou.3v8.subset.txt argyriou.3v8.l4.txt argyriou.3v8.l8.txt argyriou.3v8.l12.txt argyriou.4v7.subset.txt argyriou.4v7.l4.txt argyriou.4v7.l8.txt argyriou.4v7.l12.txt argyriou.6v9.subset.txt argyriou.6v9.l4.txt argyriou.6v9.l8.txt argyriou.6v9.l12.txt argyriou.oddeven.subset.txt argyriou.oddeven.l10.txt argyriou.oddeven.l20.txt argyriou.oddeven.l30.txt
	uci_ionosphere.libsvm uci_sonar.libsvm uci_pima.libsvm)

sha() { sha256sum <"$1" | cut -c1-64; }

# sum_of NAME [SUMSFILE]: NAME's sha256 in datasets/SHA256SUMS
sum_of() { awk -v f="$1" '$2 == f { print $1 }' "${2:-$DS/SHA256SUMS}"; }

# listing DIR: the names in DIR (hidden ones too), one a line, sorted
listing() { find "$1" -mindepth 1 -maxdepth 1 -printf "%f\n" | sort; }

# need_mirror: skip unless LAPSVM_DATA holds the whole mirror
need_mirror() {
	local f
	for f in "${ALL_FILES[@]}"; do need_data "$f"; done
}

need_curl() {
	command -v curl >/dev/null 2>&1 || skip "curl is not installed (file:// downloads need it)"
}

# rep N WORD: " WORD" N times
rep() {
	local i s=""
	for ((i = 0; i < $1; i++)); do s+=" $2"; done
	printf '%s' "$s"
}

# nodownload_path DIR: DIR holds links to the tools fetch and its helpers
# use, but neither curl nor wget; prints DIR for PATH.
nodownload_path() {
	local t p
	mkdir -p "$1"
	for t in sh dash bash awk gawk mawk gzip sha256sum cut mkdir mktemp rm mv cp \
		chmod cat sed wc tr od dirname head; do
		p=$(command -v "$t") && ln -sf "$p" "$1/$t"
	done
	printf '%s' "$1"
}

# ------------------------------------------------------------ options

@test "datasets: fetch -h prints usage on stdout and exits 0" {
	run --separate-stderr "$FETCH" -h
	assert_status 0
	assert_stderr_empty
	[[ "$output" == "Usage: fetch [-m MIRROR_DIR] [-o OUT_DIR] [-d DOWNLOAD_DIR] [-q] [NAME ...]"* ]]
	local n
	for n in usps isolet webkb uspst mnist moons spirals sslbook secstr; do
		[[ "$output" == *"  $n "* ]]
	done
}

@test "datasets: fetch with an unknown data set name exits 2 and names it" {
	run --separate-stderr "$FETCH" -o out usps nosuchset
	assert_usage_error "unknown data set 'nosuchset'" fetch
	[ ! -e out ]
}

@test "datasets: fetch with an unknown option or a missing value exits 2" {
	run --separate-stderr "$FETCH" -x
	assert_usage_error "unknown option '-x'" fetch
	run --separate-stderr "$FETCH" -m
	assert_usage_error "option -m needs a value" fetch
}

@test "datasets: SHA256SUMS lists the 59 reference files, then fashion's; data/ is git-ignored" {
	[ "$(awk '{ print $2 }' "$DS/SHA256SUMS")" = "$(printf '%s\n' "${ALL_FILES[@]}" fashion.libsvm.gz)" ]
	[ "$(awk 'length($1) != 64 || $1 !~ /^[0-9a-f]+$/' "$DS/SHA256SUMS")" = "" ]
	grep -qx 'data/' "$DS/.gitignore"
}

# ------------------------------------------------------------ mirror mode

@test "datasets: the mirror matches SHA256SUMS and SHA256SUMS.uncompressed" {
	need_mirror
	# fashion (not in "all") is not in the project's mirror
	grep -v ' fashion\.' "$DS/SHA256SUMS" >mirror.sums
	[ "$(wc -l <mirror.sums)" -eq 59 ]
	(cd "$DATA" && sha256sum --quiet -c "$WORK/mirror.sums")
	local name
	while read -r sum name; do
		[ "$name" != fashion.libsvm ] || continue
		[ "$(gzip -dc "$DATA/$name.gz" | sha256sum | cut -c1-64)" = "$sum" ]
	done <"$DS/SHA256SUMS.uncompressed"
}

@test "datasets: -m copies every file, verified, and never runs curl or wget" {
	need_mirror
	mkdir fakebin
	printf '#!/bin/sh\ntouch "%s/network-used"\nexit 1\n' "$WORK" >fakebin/curl
	cp fakebin/curl fakebin/wget
	chmod +x fakebin/curl fakebin/wget
	PATH="$WORK/fakebin:$PATH" run --separate-stderr "$FETCH" -m "$DATA" -o out
	assert_status 0
	[ ! -e network-used ]
	[ "$(listing out)" = "$(printf "%s\n" "${ALL_FILES[@]}" | sort)" ]
	local f
	for f in "${ALL_FILES[@]}"; do assert_same "$DATA/$f" "out/$f"; done
	assert_stderr_has "twospirals.libsvm: ok (from the mirror, sha256 verified)"
	# a second run replaces the files with the same ones
	PATH="$WORK/fakebin:$PATH" run --separate-stderr "$FETCH" -q -m "$DATA" -o out
	assert_status 0
	assert_stderr_empty
	[ "$(listing out | wc -l)" -eq 59 ]
}

@test "datasets: -m with data set names copies only their files" {
	need_mirror
	run --separate-stderr "$FETCH" -q -m "$DATA" -o out spirals usps spirals
	assert_status 0
	[ "$(listing out)" = "$(printf "%s\n" twospirals.libsvm usps.test.libsvm.gz \
		usps.train.first400perdigit.txt usps.train.libsvm.gz)" ]
}

@test "datasets: a file missing from the mirror: exit 1, its name, sha256, how to get it" {
	need_mirror
	mkdir mirror
	ln -s "$DATA/usps.train.libsvm.gz" "$DATA/usps.train.first400perdigit.txt" mirror/
	run --separate-stderr "$FETCH" -m mirror -o out usps
	assert_status 1
	assert_stderr_has "fetch: usps.test.libsvm.gz: not found in the mirror mirror"
	assert_stderr_has "expected sha256 $(sum_of usps.test.libsvm.gz)"
	assert_stderr_has "to get it: copy it from a complete mirror"
	assert_stderr_has "or run 'fetch usps' without -m"
	assert_stderr_has "fetch: not produced: usps"
	# the files that were there are copied all the same
	assert_same "$DATA/usps.train.libsvm.gz" out/usps.train.libsvm.gz
	[ ! -e out/usps.test.libsvm.gz ]
}

@test "datasets: a corrupted mirror file: exit 1, expected and found sha256, not copied" {
	need_data twospirals.libsvm
	mkdir mirror
	cp "$DATA/twospirals.libsvm" mirror/
	chmod u+w mirror/twospirals.libsvm
	sed -i '1s/6\.5/6.6/' mirror/twospirals.libsvm
	local found
	found=$(sha mirror/twospirals.libsvm)
	run --separate-stderr "$FETCH" -m mirror -o out spirals
	assert_status 1
	assert_stderr_has "fetch: twospirals.libsvm: wrong sha256 in the mirror: mirror/twospirals.libsvm"
	assert_stderr_has "expected sha256 $(sum_of twospirals.libsvm)"
	assert_stderr_has "found    sha256 $found"
	assert_stderr_has "to get it:"
	[ ! -e out/twospirals.libsvm ]
	[ -z "$(listing out)" ]
}

@test "datasets: -m with a directory that does not exist exits 1" {
	run --separate-stderr "$FETCH" -m no/such/dir -o out
	assert_status 1
	assert_stderr_has "fetch: -m no/such/dir: no such directory"
}

# an unset variable as the mirror must not turn into a download
@test "datasets: an empty -m is a usage error (exit 2), never the network" {
	run --separate-stderr "$FETCH" -m "" -o out spirals
	assert_status 2
	assert_stderr_has "fetch: option -m: empty directory name"
	[ ! -e out ]
}

# mv would have put the file inside the directory, or where a symlink to
# one points, and called it done
@test "datasets: a destination that is a directory, or a symlink to one: exit 1, nothing written into it" {
	need_data twospirals.libsvm
	mkdir -p mirror out/twospirals.libsvm elsewhere out2
	cp "$DATA/twospirals.libsvm" mirror/
	run --separate-stderr "$FETCH" -q -m mirror -o out spirals
	assert_status 1
	assert_stderr_has "fetch: out/twospirals.libsvm: a directory (expected the data file, or nothing)"
	[ -z "$(ls out/twospirals.libsvm)" ]
	ln -s ../elsewhere out2/twospirals.libsvm
	run --separate-stderr "$FETCH" -q -m mirror -o out2 spirals
	assert_status 1
	[ -z "$(ls elsewhere)" ]
}

# ------------------------------------------------------------ converters

@test "datasets: convert-esl-zip writes zip.train and zip.test rows exactly" {
	{
		printf '%s \n' "6.0000 -1.0000 -0.6310 0.0000 1.0000 -0.0000 0.0920$(rep 250 0.0000)"
		printf '%s\n' "9 -1$(rep 98 0) -0.948$(rep 155 0) 1"
		printf '%s\r\n' "0$(rep 256 0)"
	} >zip.txt
	run --separate-stderr "$DS/convert-esl-zip" zip.txt
	assert_status 0
	assert_stderr_empty
	[ "$output" = "$(printf '%s\n' '6 1:-1 2:-0.631 4:1 6:0.092' '9 1:-1 100:-0.948 256:1' '0')" ]
	# standard input works the same
	run --separate-stderr "$DS/convert-esl-zip" <zip.txt
	[ "$output" = "$(printf '%s\n' '6 1:-1 2:-0.631 4:1 6:0.092' '9 1:-1 100:-0.948 256:1' '0')" ]
}

@test "datasets: convert-esl-zip refuses short rows, bad values, bad labels; warns on a 257th value" {
	printf '%s\n' "3$(rep 256 0)" "5$(rep 255 0)" >short.txt
	run --separate-stderr "$DS/convert-esl-zip" short.txt
	assert_status 1
	assert_stderr_has "convert-esl-zip: short.txt:2: found 255 grey levels, expected 256"
	printf '%s\n' "3$(rep 100 0) 1e-3$(rep 155 0)" >bad.txt
	run --separate-stderr "$DS/convert-esl-zip" bad.txt
	assert_status 1
	assert_stderr_has "bad.txt:1: grey level 101 (\"1e-3\") is not a plain decimal number"
	printf '%s\n' "10$(rep 256 0)" >label.txt
	run --separate-stderr "$DS/convert-esl-zip" label.txt
	assert_status 1
	assert_stderr_has "label.txt:1: label \"10\" is not a digit 0-9"
	printf '%s\n' "1 0.5$(rep 255 0) -0.796" >extra.txt
	run --separate-stderr "$DS/convert-esl-zip" extra.txt
	assert_status 0
	[ "$output" = "1 1:0.5" ]
	assert_stderr_has "extra.txt:1: warning: found 257 grey levels, expected 256"
	: >empty.txt
	run --separate-stderr "$DS/convert-esl-zip" empty.txt
	assert_status 1
	assert_stderr_has "empty.txt: no rows"
}

@test "datasets: convert-isolet converts UCI rows exactly" {
	{
		printf '%s\n' " -0.4394, -0.0930, 0.0000, 1.0000,$(rep 613 '0.0000,') 1."
		printf '%s\r\n' "0.5000,$(rep 615 '0.0000,') -0.0010, 26."
	} >iso.data
	run --separate-stderr "$DS/convert-isolet" iso.data
	assert_status 0
	assert_stderr_empty
	[ "$output" = "$(printf '%s\n' '1 1:-0.4394 2:-0.093 4:1' '26 1:0.5 617:-0.001')" ]
}

@test "datasets: convert-isolet refuses a wrong field count and a bad class" {
	printf '%s\n' "0.1,$(rep 615 '0,') 3." >short.data
	run --separate-stderr "$DS/convert-isolet" short.data
	assert_status 1
	assert_stderr_has "convert-isolet: short.data:1: found 617 comma-separated fields, expected 618"
	printf '%s\n' "0.1,$(rep 616 '0,') 27." >class.data
	run --separate-stderr "$DS/convert-isolet" class.data
	assert_status 1
	assert_stderr_has "class.data:1: class \"27.\" is not an integer 1-26"
	printf '%s\n' "0.1,$(rep 615 '0,') x, 2." >value.data
	run --separate-stderr "$DS/convert-isolet" value.data
	assert_status 1
	assert_stderr_has "value.data:1: feature 617 (\"x\") is not a plain decimal number"
}

# mnist_pair: three 2 x 3 images (labels 7, 2, 0) in idx files
mnist_pair() {
	{
		printf '\x00\x00\x08\x03\x00\x00\x00\x03\x00\x00\x00\x02\x00\x00\x00\x03'
		printf '\x00\xff\x00\x00\x0c\x00'
		printf '\x01\x00\x00\x00\x00\xc8'
		printf '\x00\x00\x00\x00\x00\x00'
	} >img.idx
	printf '\x00\x00\x08\x01\x00\x00\x00\x03\x07\x02\x00' >lab.idx
}

@test "datasets: convert-mnist-idx converts an idx pair exactly, plain or gzipped" {
	mnist_pair
	[ "$(wc -c <img.idx)" -eq 34 ]
	run --separate-stderr "$DS/convert-mnist-idx" img.idx lab.idx
	assert_status 0
	assert_stderr_empty
	[ "$output" = "$(printf '%s\n' '7 2:255 5:12' '2 1:1 6:200' '0')" ]
	gzip -c img.idx >img.idx.gz
	gzip -c lab.idx >lab.idx.gz
	run --separate-stderr "$DS/convert-mnist-idx" img.idx.gz lab.idx.gz
	assert_status 0
	[ "$output" = "$(printf '%s\n' '7 2:255 5:12' '2 1:1 6:200' '0')" ]
}

@test "datasets: convert-mnist-idx refuses swapped files, a count mismatch, truncation" {
	mnist_pair
	run --separate-stderr "$DS/convert-mnist-idx" lab.idx img.idx
	assert_status 1
	assert_stderr_has "convert-mnist-idx: lab.idx: not an idx3-ubyte image file (magic number 2049, expected 2051"
	printf '\x00\x00\x08\x01\x00\x00\x00\x02\x07\x02' >lab2.idx
	run --separate-stderr "$DS/convert-mnist-idx" img.idx lab2.idx
	assert_status 1
	assert_stderr_has "lab2.idx: 2 labels, but img.idx holds 3 images"
	head -c 33 img.idx >short.idx
	run --separate-stderr "$DS/convert-mnist-idx" short.idx lab.idx
	assert_status 1
	assert_stderr_has "short.idx: 33 bytes, expected 34 for 3 images of 2 x 3"
	run --separate-stderr "$DS/convert-mnist-idx" img.idx
	assert_usage_error "expected two arguments: IMAGES LABELS" convert-mnist-idx
}

@test "datasets: index-first-per-class lists the first N rows of each class in file order" {
	printf '%s\n' '1 1:1' '0 1:1' '1 1:2' '2' '1.0 1:3' '0 2:1' '+2' >l.txt
	run --separate-stderr "$DS/index-first-per-class" 2 l.txt
	assert_status 0
	assert_stderr_empty
	[ "$output" = "1 2 3 4 6 7" ]
	run --separate-stderr "$DS/index-first-per-class" 3 l.txt
	assert_status 0
	[ "$output" = "1 2 3 4 5 6 7" ]
	assert_stderr_has "warning: class 0 has only 2 rows, fewer than 3"
	run --separate-stderr "$DS/index-first-per-class" x l.txt
	assert_usage_error "N: 'x' is not a positive integer" index-first-per-class
}

@test "datasets: index-speakers starts a new speaker where the letter goes down" {
	# speaker 1: A A B B; speaker 2: A B B (one A missing); speaker 3: A A
	printf '%s\n' 1 1 2 2 1 2 2 1 1 >s.txt
	run --separate-stderr "$DS/index-speakers" s.txt
	assert_status 0
	assert_stderr_empty
	[ "$output" = "$(printf '%s\n' '1 2 3 4' '5 6 7' '8 9')" ]
}

@test "datasets: gen-spirals is byte for byte the reference twospirals.libsvm" {
	"$DS/gen-spirals" >s.libsvm
	[ "$(sha s.libsvm)" = "$(sum_of twospirals.libsvm)" ]
	[ "$(wc -l <s.libsvm)" -eq 194 ]
}

# ------------------------------------------ converters on the mirror's data

@test "datasets: the mirror's first400perdigit is index-first-per-class 400 of usps.train" {
	need_data usps.train.libsvm.gz
	need_data usps.train.first400perdigit.txt
	gzip -dc "$DATA/usps.train.libsvm.gz" | "$DS/index-first-per-class" 400 >idx.txt
	assert_same "$DATA/usps.train.first400perdigit.txt" idx.txt
}

@test "datasets: the mirror's speakers files are index-speakers of isolet1 and isolet5" {
	need_data isolet1.libsvm.gz
	need_data isolet5.libsvm.gz
	need_data isolet1.speakers.txt
	gzip -dc "$DATA/isolet1.libsvm.gz" | "$DS/index-speakers" >s1.txt
	assert_same "$DATA/isolet1.speakers.txt" s1.txt
	# isolet1: speaker s is rows 52(s-1)+1 .. 52s
	[ "$(awk '$1 != 52 * (NR - 1) + 1 || NF != 52' s1.txt)" = "" ]
	gzip -dc "$DATA/isolet5.libsvm.gz" | "$DS/index-speakers" >s5.txt
	assert_same "$DATA/isolet5.speakers.txt" s5.txt
	[ "$(awk 'NF != 52 { print NR, NF }' s5.txt)" = "4 51" ]
}

@test "datasets: convert-esl-zip gives back the mirror's usps.test from ESL text" {
	need_data usps.test.libsvm.gz
	# the mirror's rows written back as zip.train writes them ("%.4f", a
	# trailing blank): the conversion must give the very same bytes
	gzip -dc "$DATA/usps.test.libsvm.gz" | head -n 700 >want.libsvm
	awk '{
		delete v
		for (f = 2; f <= NF; f++) { split($f, a, ":"); v[a[1]] = a[2] }
		s = sprintf("%.4f", $1)
		for (i = 1; i <= 256; i++) s = s sprintf(" %.4f", v[i])
		print s " " }' want.libsvm >zip.test
	"$DS/convert-esl-zip" zip.test >got.libsvm
	assert_same want.libsvm got.libsvm
	# gzip -9n of the whole content is the reference .gz, byte for byte
	[ "$(gzip -dc "$DATA/usps.test.libsvm.gz" | gzip -9n | sha256sum | cut -c1-64)" = \
		"$(sum_of usps.test.libsvm.gz)" ]
}

@test "datasets: convert-isolet gives back the mirror's isolet5 rows from UCI text" {
	need_data isolet5.libsvm.gz
	gzip -dc "$DATA/isolet5.libsvm.gz" | head -n 400 >want.libsvm
	awk '{
		delete v
		for (f = 2; f <= NF; f++) { split($f, a, ":"); v[a[1]] = a[2] }
		s = ""
		for (i = 1; i <= 617; i++) s = s sprintf(" %.4f,", v[i])
		print s " " $1 "." }' want.libsvm >isolet5.data
	"$DS/convert-isolet" isolet5.data >got.libsvm
	assert_same want.libsvm got.libsvm
}

@test "datasets: convert-mnist-idx gives back the mirror's MNIST rows from idx files" {
	need_data mnist.t10k.libsvm.gz
	gzip -dc "$DATA/mnist.t10k.libsvm.gz" | head -n 300 >want.libsvm
	LC_ALL=C awk -v L=lab.idx 'BEGIN {
		printf "%c%c%c%c%c%c%c%c%c%c%c%c%c%c%c%c", 0, 0, 8, 3, 0, 0, 1, 44, 0, 0, 0, 28, 0, 0, 0, 28
		printf "%c%c%c%c%c%c%c%c", 0, 0, 8, 1, 0, 0, 1, 44 >L
	}
	{
		printf "%c", $1 + 0 >L
		delete v
		for (f = 2; f <= NF; f++) { split($f, a, ":"); v[a[1]] = a[2] }
		for (i = 1; i <= 784; i++) printf "%c", v[i] + 0
	}' want.libsvm >img.idx
	[ "$(wc -c <img.idx)" -eq $((16 + 300 * 784)) ]
	"$DS/convert-mnist-idx" img.idx lab.idx >got.libsvm
	assert_same want.libsvm got.libsvm
}

# ------------------------------------------------------------ download mode
# Downloads through file:// URLs (curl reads them): the whole path runs --
# download, checksum of the raw file, conversion, gzip, verification --
# with tiny synthetic sources and a SHA256SUMS made for them.

# esl_sources: zip.train.gz / zip.test.gz with a few rows, and sums.txt /
# plain.txt: the checksums of what fetch must make of them.
esl_sources() {
	mkdir -p src
	{
		printf '%s \n' "6.0000 -1.0000 0.5000$(rep 254 0.0000)"
		printf '%s \n' "1.0000 0.2500$(rep 255 0.0000)"
		printf '%s \n' "6.0000$(rep 256 0.0000)"
	} | gzip >src/zip.train.gz
	printf '%s\n' "3 1$(rep 255 0)" | gzip >src/zip.test.gz
	printf '%s\n' '6 1:-1 2:0.5' '1 1:0.25' '6' >train.want
	printf '%s\n' '3 1:1' >test.want
	{
		echo "$(gzip -9n <train.want | sha256sum | cut -c1-64)  usps.train.libsvm.gz"
		echo "$(gzip -9n <test.want | sha256sum | cut -c1-64)  usps.test.libsvm.gz"
		echo "$(echo '1 2 3' | sha256sum | cut -c1-64)  usps.train.first400perdigit.txt"
	} >sums.txt
	export FETCH_URL_ESL_TRAIN="file://$WORK/src/zip.train.gz"
	export FETCH_URL_ESL_TEST="file://$WORK/src/zip.test.gz"
}

@test "datasets: download mode makes usps from ESL files and verifies it" {
	need_curl
	esl_sources
	FETCH_SHA256SUMS=sums.txt run --separate-stderr "$FETCH" -o out -d dl usps
	assert_status 0
	assert_stderr_has "zip.train.gz: downloading file://$WORK/src/zip.train.gz"
	assert_stderr_has "usps.train.libsvm.gz: ok (made here, sha256 verified)"
	[ "$(gzip -dc out/usps.train.libsvm.gz)" = "$(cat train.want)" ]
	[ "$(gzip -dc out/usps.test.libsvm.gz)" = "$(cat test.want)" ]
	[ "$(cat out/usps.train.first400perdigit.txt)" = "1 2 3" ]
	[ -f dl/zip.train.gz ] && [ -f dl/zip.test.gz ]
	[ -z "$(find out -name '.*')" ]
	# present and verified: nothing is downloaded again
	FETCH_URL_ESL_TRAIN=file:///nonexistent FETCH_SHA256SUMS=sums.txt \
		run --separate-stderr "$FETCH" -o out -d dl usps
	assert_status 0
	assert_stderr_has "usps: already in out (sha256 verified)"
}

@test "datasets: download mode reports a result that is not the reference, and keeps it aside" {
	need_curl
	esl_sources
	run --separate-stderr "$FETCH" -o out -d dl usps
	assert_status 1
	assert_stderr_has "fetch: usps.train.libsvm.gz: the converted file is not the reference file"
	assert_stderr_has "expected sha256 $(sum_of usps.train.libsvm.gz)"
	assert_stderr_has "found    sha256 $(gzip -9n <train.want | sha256sum | cut -c1-64)"
	assert_stderr_has "the source may have changed since the reference was made"
	assert_stderr_has "fetch: not produced: usps"
	[ ! -e out/usps.train.libsvm.gz ]
	[ "$(gzip -dc dl/usps.train.libsvm.gz.unverified)" = "$(cat train.want)" ]
}

@test "datasets: download mode accepts another gzip when the uncompressed content matches" {
	need_curl
	esl_sources
	# a SHA256SUMS whose .gz checksums are another compressor's
	sed 's/^[0-9a-f]*  \(usps\.t[a-z]*\.libsvm\.gz\)$/0000000000000000000000000000000000000000000000000000000000000000  \1/' \
		sums.txt >other.txt
	{
		echo "$(sha train.want)  usps.train.libsvm"
		echo "$(sha test.want)  usps.test.libsvm"
	} >plain.txt
	FETCH_SHA256SUMS=other.txt FETCH_SHA256SUMS_UNCOMPRESSED=plain.txt \
		run --separate-stderr "$FETCH" -o out -d dl usps
	assert_status 0
	assert_stderr_has "usps.test.libsvm.gz: ok (made here; its content has the reference's sha256, only the gzip compression differs)"
	[ "$(gzip -dc out/usps.test.libsvm.gz)" = "$(cat test.want)" ]
}

@test "datasets: download mode checks the MNIST downloads against their sha256" {
	need_curl
	mnist_pair
	gzip -9n -c img.idx >img.gz
	gzip -9n -c lab.idx >lab.gz
	export FETCH_URL_MNIST_IMAGES="file:///nonexistent/a.gz file://$WORK/img.gz"
	export FETCH_URL_MNIST_LABELS="file://$WORK/lab.gz"
	# the real sha256 (PROVENANCE.md): these files are refused
	run --separate-stderr "$FETCH" -o out -d dl mnist
	assert_status 1
	assert_stderr_has "t10k-images-idx3-ubyte.gz: download failed (curl): file:///nonexistent/a.gz"
	assert_stderr_has "t10k-images-idx3-ubyte.gz: wrong sha256 for the download from file://$WORK/img.gz"
	assert_stderr_has "expected sha256 167310007f03058885c7e95e6c0b19c20de5c7fd3031f4cbdadc9014a523d80b"
	assert_stderr_has "found    sha256 $(sha img.gz)"
	assert_stderr_has "set FETCH_URL_MNIST_IMAGES to the URL of another copy"
	[ ! -e dl/t10k-images-idx3-ubyte.gz ]
	[ ! -e out/mnist.t10k.libsvm.gz ]
	# with their own sha256, they are converted and verified
	printf '%s\n' '7 2:255 5:12' '2 1:1 6:200' '0' >want.libsvm
	echo "$(gzip -9n <want.libsvm | sha256sum | cut -c1-64)  mnist.t10k.libsvm.gz" >sums.txt
	FETCH_SHA256_MNIST_IMAGES=$(sha img.gz) FETCH_SHA256_MNIST_LABELS=$(sha lab.gz) \
		FETCH_SHA256SUMS=sums.txt run --separate-stderr "$FETCH" -o out -d dl mnist
	assert_status 0
	[ "$(gzip -dc out/mnist.t10k.libsvm.gz)" = "$(cat want.libsvm)" ]
}

# fashion_sources DIR: the four Fashion-MNIST idx files (gzipped) in DIR,
# made of mnist_pair (3 images as training set, the same 3 as test set),
# their decompressed sha256 in FETCH_SHA256_FASHION_*, and sums.txt /
# want.libsvm: what fetch must make of them.
fashion_sources() {
	mnist_pair
	mkdir -p "$1"
	gzip -c img.idx >"$1/train-images-idx3-ubyte.gz"
	gzip -c lab.idx >"$1/train-labels-idx1-ubyte.gz"
	gzip -c img.idx >"$1/t10k-images-idx3-ubyte.gz"
	gzip -c lab.idx >"$1/t10k-labels-idx1-ubyte.gz"
	export FETCH_SHA256_FASHION_TRAIN_IMAGES=$(sha img.idx) FETCH_SHA256_FASHION_TEST_IMAGES=$(sha img.idx)
	export FETCH_SHA256_FASHION_TRAIN_LABELS=$(sha lab.idx) FETCH_SHA256_FASHION_TEST_LABELS=$(sha lab.idx)
	printf '%s\n' '7 2:255 5:12' '2 1:1 6:200' '0' '7 2:255 5:12' '2 1:1 6:200' '0' >want.libsvm
	echo "$(gzip -9n <want.libsvm | sha256sum | cut -c1-64)  fashion.libsvm.gz" >sums.txt
}

@test "datasets: fashion is not part of all, and -m says how to get it" {
	run --separate-stderr "$FETCH" -h
	assert_status 0
	[[ "$output" == *"fashion  fashion.libsvm.gz (only when named: not part of all"* ]]
	mkdir mirror
	run --separate-stderr "$FETCH" -m mirror -o out fashion
	assert_status 1
	assert_stderr_has "fetch: fashion.libsvm.gz: not found in the mirror mirror"
	assert_stderr_has "run 'fetch fashion' without -m: it converts the idx files of Debian's package dataset-fashion-mnist"
}

@test "datasets: fashion from a local copy of the idx files (Debian's package): no network, content verified" {
	fashion_sources deb
	local p
	p=$(nodownload_path "$WORK/bin")
	FETCH_FASHION_DIR=deb FETCH_SHA256SUMS=sums.txt PATH="$p" \
		run --separate-stderr "$FETCH" -o out -d dl fashion
	assert_status 0
	assert_stderr_has "train-images-idx3-ubyte.gz: from deb (Debian's dataset-fashion-mnist)"
	assert_stderr_has "fashion.libsvm.gz: ok (made here, sha256 verified)"
	[ "$(gzip -dc out/fashion.libsvm.gz)" = "$(cat want.libsvm)" ]
	[ ! -e dl ]
	# another version of a file (its decompressed bytes differ): refused
	printf '\x00\x00\x08\x01\x00\x00\x00\x03\x07\x02\x01' | gzip >deb/t10k-labels-idx1-ubyte.gz
	rm out/fashion.libsvm.gz
	FETCH_FASHION_DIR=deb FETCH_SHA256SUMS=sums.txt PATH="$p" \
		run --separate-stderr "$FETCH" -o out -d dl fashion
	assert_status 1
	assert_stderr_has "fetch: t10k-labels-idx1-ubyte.gz: its decompressed content is not the reference's"
	assert_stderr_has "expected sha256 $(sha lab.idx) (of the decompressed idx file)"
	assert_stderr_has "fetch: not produced: fashion"
	[ ! -e out/fashion.libsvm.gz ]
}

@test "datasets: fashion downloaded when there is no local copy; gzip bytes not pinned" {
	need_curl
	fashion_sources src
	# recompressed: other .gz bytes, the same content
	gzip -dc src/train-images-idx3-ubyte.gz | gzip -9n >src/x && mv src/x src/train-images-idx3-ubyte.gz
	FETCH_FASHION_DIR=nowhere FETCH_URL_FASHION="file:///nonexistent file://$WORK/src" \
		FETCH_SHA256SUMS=sums.txt run --separate-stderr "$FETCH" -o out -d dl fashion
	assert_status 0
	assert_stderr_has "train-images-idx3-ubyte.gz: download failed (curl): file:///nonexistent/train-images-idx3-ubyte.gz"
	assert_stderr_has "train-images-idx3-ubyte.gz: downloading file://$WORK/src/train-images-idx3-ubyte.gz"
	[ "$(gzip -dc out/fashion.libsvm.gz)" = "$(cat want.libsvm)" ]
	[ -f dl/t10k-labels-idx1-ubyte.gz ]
}

@test "datasets: download mode for isolet refuses a file without the speaker layout" {
	need_curl
	mkdir src
	printf '%s\n' "0.1,$(rep 616 '0,') 1." "0.2,$(rep 616 '0,') 1." | gzip >src/a.Z
	export FETCH_URL_ISOLET_1234="file://$WORK/src/a.Z" FETCH_URL_ISOLET_5="file://$WORK/src/a.Z"
	run --separate-stderr "$FETCH" -o out -d dl isolet
	assert_status 1
	assert_stderr_has "warning: isolet1+2+3+4.data has 2 rows, UCI says 6238"
	assert_stderr_has "isolet1+2+3+4.data, rows 1-1560 (isolet1): found 1 speaker blocks (A A B B .. Z Z) holding 2 rows, expected 30 holding 1560"
	[ -z "$(listing out)" ]
}

@test "datasets: download mode for uspst and webkb downloads the .mat and says it needs Octave" {
	need_curl
	printf 'MATLAB 5.0 MAT-file, not really\n' >uspst.mat
	FETCH_URL_USPST="file://$WORK/uspst.mat" FETCH_SHA256_USPST=$(sha uspst.mat) \
		run --separate-stderr "$FETCH" -o out -d dl uspst
	assert_status 1
	assert_stderr_has "fetch: uspst: downloaded dl/uspst.mat (sha256 verified), but cannot convert it"
	assert_stderr_has "needs Octave"
	assert_stderr_has "take lds_uspst.libsvm.gz lds_uspst.splits.l50.txt from a mirror: fetch -m ../shared/data uspst"
	assert_same uspst.mat dl/uspst.mat
	[ -z "$(listing out)" ]
	# a .mat with another sha256 than the pinned one is refused
	FETCH_URL_WEBKB="file://$WORK/uspst.mat" run --separate-stderr "$FETCH" -o out -d dl webkb
	assert_status 1
	assert_stderr_has "WebKB.mat: wrong sha256 for the download from file://$WORK/uspst.mat"
	assert_stderr_has "expected sha256 1a9cd6bc1b0dac7e6290779ff3bc792bb01307ca0b80851632abfc0b5ac426d8"
}

@test "datasets: -m sslbook secstr copies the SSL book's files" {
	need_mirror
	run --separate-stderr "$FETCH" -q -m "$DATA" -o out secstr sslbook
	assert_status 0
	assert_stderr_empty
	[ "$(listing out)" = "$(printf "%s\n" "${ALL_FILES[@]}" | grep '^ssl_' | sort)" ]
}

@test "datasets: -m argyriou copies the authors' selections, and download mode gets their .mat files and says it needs Octave" {
	need_mirror
	run --separate-stderr "$FETCH" -q -m "$DATA" -o out argyriou
	assert_status 0
	assert_stderr_empty
	[ "$(listing out)" = "$(printf "%s\n" "${ALL_FILES[@]}" | grep '^argyriou[.]' | sort)" ]
	need_curl
	mkdir src
	printf 'pairs\n' >src/indexes.mat
	printf 'odd even\n' >src/indexes_oe.mat
	FETCH_URL_ARGYRIOU="file://$WORK/src/indexes.mat" FETCH_SHA256_ARGYRIOU=$(sha src/indexes.mat) \
		FETCH_URL_ARGYRIOU_OE="file://$WORK/src/indexes_oe.mat" FETCH_SHA256_ARGYRIOU_OE=$(sha src/indexes_oe.mat) \
		run --separate-stderr "$FETCH" -o out2 -d dl argyriou
	assert_status 1
	assert_stderr_has "argyriou: downloaded dl/indexes.mat (sha256 verified), but cannot convert it"
	assert_stderr_has "needs Octave"
	assert_same src/indexes.mat dl/indexes.mat
	assert_same src/indexes_oe.mat dl/indexes_oe.mat
}

@test "datasets: download mode for sslbook and secstr downloads the .mat files and says it needs Octave" {
	need_curl
	local f
	mkdir src
	# a stand-in for the pinned data.mat of set 1: refused by its sha256
	printf 'not the SSL book\n' >"src/SSL,set=1,data.mat"
	FETCH_URL_SSLBOOK="file://$WORK/src" run --separate-stderr "$FETCH" -o out -d dl sslbook
	assert_status 1
	assert_stderr_has "SSL,set=1,data.mat: wrong sha256 for the download from file://$WORK/src/SSL,set=1,data.mat"
	assert_stderr_has "expected sha256 49aa23425965f0e40db8087d04be06a1888b72b9287f0e5b916847a84764050d"
	assert_stderr_has "set FETCH_URL_SSLBOOK (the directory holding it) to the URL of another copy"
	assert_stderr_has "fetch: not produced: sslbook"
	# SecStr's four files with their own sha256: all downloaded (the
	# first of two directories fails), none converted
	for f in data splits,labeled=100 splits,labeled=1000 splits,labeled=10000; do
		printf '%s\n' "$f" >"src/SSL,set=8,$f.mat"
	done
	FETCH_URL_SSLBOOK="file://$WORK/nowhere file://$WORK/src" \
		FETCH_SHA256_SSL8_DATA=$(sha "src/SSL,set=8,data.mat") \
		FETCH_SHA256_SSL8_L100=$(sha "src/SSL,set=8,splits,labeled=100.mat") \
		FETCH_SHA256_SSL8_L1000=$(sha "src/SSL,set=8,splits,labeled=1000.mat") \
		FETCH_SHA256_SSL8_L10000=$(sha "src/SSL,set=8,splits,labeled=10000.mat") \
		run --separate-stderr "$FETCH" -o out -d dl secstr
	assert_status 1
	assert_stderr_has "fetch: secstr: downloaded the SSL book's .mat files to dl (sha256 verified), but cannot convert them"
	assert_stderr_has "needs Octave"
	assert_stderr_has "take ssl_secstr.libsvm.gz ssl_secstr.splits.l100.txt ssl_secstr.splits.l1000.txt ssl_secstr.splits.l10000.txt from a mirror: fetch -m ../shared/data secstr"
	for f in data splits,labeled=100 splits,labeled=1000 splits,labeled=10000; do
		assert_same "src/SSL,set=8,$f.mat" "dl/SSL,set=8,$f.mat"
	done
	[ -z "$(listing out)" ]
}

@test "datasets: download mode: moons only from a mirror; spirals generated without network" {
	run --separate-stderr "$FETCH" -o out -d dl moons spirals
	assert_status 1
	assert_stderr_has "fetch: moons: twomoons.libsvm cannot be generated exactly here"
	assert_stderr_has "numpy's RandomState(0)"
	assert_stderr_has "fetch -m ../shared/data moons"
	assert_stderr_has "lapsvm-datagen -n 200 moons twomoons.libsvm"
	assert_stderr_has "twospirals.libsvm: ok (made here, sha256 verified)"
	assert_stderr_has "fetch: not produced: moons"
	[ "$(listing out)" = twospirals.libsvm ]
	[ "$(sha out/twospirals.libsvm)" = "$(sum_of twospirals.libsvm)" ]
	[ ! -e dl ]
}

@test "datasets: without curl or wget, download mode says so and exits 1" {
	local p
	p=$(nodownload_path "$WORK/bin")
	PATH="$p" run --separate-stderr "$FETCH" -o out -d dl usps mnist spirals
	assert_status 1
	assert_stderr_has "fetch: neither curl nor wget is installed, so nothing can be downloaded"
	assert_stderr_has "install one (Debian: apt-get install curl), or take the files from a mirror: fetch -m MIRROR_DIR"
	[ "$(grep -c 'neither curl nor wget' <<<"$stderr")" -eq 1 ]
	assert_stderr_has "fetch: not produced: usps mnist"
	[ "$(listing out)" = twospirals.libsvm ]
}

@test "datasets: download mode after -m finds every file present and downloads nothing" {
	need_mirror
	"$FETCH" -q -m "$DATA" -o out
	local p
	p=$(nodownload_path "$WORK/bin")
	PATH="$p" run --separate-stderr "$FETCH" -o out -d dl
	assert_status 0
	assert_stderr_has "fetch: uspst: already in out (sha256 verified)"
	assert_stderr_has "fetch: done: 59 files in out, sha256 verified"
	[ ! -e dl ]
}

@test "datasets: a signal during a download leaves no partial file behind" {
	need_curl
	esl_sources
	mkfifo src/slow
	export FETCH_URL_ESL_TRAIN="file://$WORK/src/slow"
	FETCH_SHA256SUMS=sums.txt timeout 60 "$FETCH" -o out -d dl usps \
		2>err.txt 3>&- 7>&- &
	pid=$!
	# half a file through the FIFO, the writer kept open: curl has made
	# dl/zip.train.gz.part and waits for the rest
	exec 7>src/slow
	printf 'partial' >&7
	for _ in $(seq 100); do
		[ -e dl/zip.train.gz.part ] && break
		sleep 0.1
	done
	[ -e dl/zip.train.gz.part ] || { exec 7>&-; false; }
	kill -TERM "$pid"
	# the shell acts on the signal once curl is done: end the download
	exec 7>&-
	status=0
	wait "$pid" || status=$?
	[ "$status" -eq 143 ]
	[ ! -e dl/zip.train.gz.part ]
	[ -z "$(find out -name '.fetch.tmp.*')" ]
}

# raw_uci SET: the raw UCI text of the mirror's uci_SET.libsvm, the zeros
# written as the source writes them (its sha256 is the pinned one)
raw_uci() {
	local d z lab
	case $1 in
	ionosphere) d=34 z='"0"' lab='$1 == 1 ? "g" : "b"' ;;
	sonar) d=60 z='"0.0000"' lab='$1 == 1 ? "M" : "R"' ;;
	pima) d=8 z='(j == 6 ? "0.0" : "0")' lab='$1 == 1 ? 1 : 0' ;;
	esac
	awk -v d="$d" '{ delete v; for (i = 2; i <= NF; i++) { split($i, a, ":"); v[a[1]] = a[2] }
		s = ""; for (j = 1; j <= d; j++) s = s ((j in v) ? v[j] : '"$z"') ","; print s ('"$lab"') }' \
		"$DATA/uci_$1.libsvm"
}

@test "datasets: -m uci copies the three UCI sets; download mode converts the raw UCI files to the same bytes" {
	need_mirror
	run --separate-stderr "$FETCH" -q -m "$DATA" -o out uci
	assert_status 0
	assert_stderr_empty
	[ "$(listing out)" = "$(printf '%s\n' uci_ionosphere.libsvm uci_pima.libsvm uci_sonar.libsvm)" ]
	mkdir src
	raw_uci ionosphere >src/ionosphere.data
	raw_uci sonar >src/sonar.all-data
	raw_uci pima >src/pima.data
	# the rebuilt raw files are the pinned sources, byte for byte
	[ "$(sha src/ionosphere.data)" = 46d52186b84e20be52918adb93e8fb9926b34795ff7504c24350ae0616a04bbd ]
	[ "$(sha src/sonar.all-data)" = e90434cdbf00fcf93ffa911fe447ae25606979658e60f1d32e155c3b5240234d ]
	[ "$(sha src/pima.data)" = 06f5b7c2cd7bca686fda4f92eab5f61e7ff6426a9acefa2e3dda04fc54293cf5 ]
	need_curl
	FETCH_URL_UCI_IONOSPHERE="file://$WORK/src/ionosphere.data" FETCH_URL_UCI_SONAR="file://$WORK/src/sonar.all-data" \
		FETCH_URL_UCI_PIMA="file://$WORK/src/pima.data" run --separate-stderr "$FETCH" -o out2 -d dl uci
	assert_status 0
	assert_stderr_has "uci_ionosphere.libsvm: ok (made here, sha256 verified)"
	assert_stderr_has "uci_pima.libsvm: ok (made here, sha256 verified)"
	local f
	for f in uci_ionosphere.libsvm uci_sonar.libsvm uci_pima.libsvm; do
		assert_same "$DATA/$f" "out2/$f"
	done
}

@test "datasets: convert-uci refuses a wrong field count, a bad value, an unknown class, an unknown set" {
	printf '1,0,0.5,b\n' >short.data
	run --separate-stderr "$DS/convert-uci" ionosphere short.data
	assert_status 1
	assert_stderr_has "convert-uci: short.data:1: found 4 comma-separated fields, expected 35 (34 features and the class)"
	printf '6,148,72,35,0,33.6,x,50,1\n' >bad.data
	run --separate-stderr "$DS/convert-uci" pima bad.data
	assert_status 1
	assert_stderr_has "convert-uci: bad.data:1: feature 7 (\"x\") is not a plain decimal number"
	printf '6,148,72,35,0,33.6,0.627,50,2\n' >cls.data
	run --separate-stderr "$DS/convert-uci" pima cls.data
	assert_status 1
	assert_stderr_has "convert-uci: cls.data:1: class \"2\" is neither 1 nor 0"
	run --separate-stderr "$DS/convert-uci" iris cls.data
	assert_status 2
	assert_stderr_has "convert-uci: unknown SET 'iris' (expected ionosphere, sonar or pima)"
	# zeros dropped, other values as written, CR line ends accepted
	printf '6,148,72,35,0,0.0,0.6270,50,1\r\n0,85,66,29,0,26.6,0.351,31,0\n' >ok.data
	run --separate-stderr "$DS/convert-uci" pima ok.data
	assert_status 0
	[ "$output" = "$(printf '1 1:6 2:148 3:72 4:35 7:0.6270 8:50\n-1 2:85 3:66 4:29 6:26.6 7:0.351 8:31')" ]
}

@test "datasets: the scratch of a fetch killed by SIGKILL is removed by the next fetch; a live fetch's is kept" {
	need_mirror
	mkdir -p out/.fetch.tmp.999999999.AbCdEf "out/.fetch.tmp.$$.XyZ"
	run --separate-stderr "$FETCH" -m "$DATA" -o out moons
	[ "$status" -eq 0 ]
	[ ! -e out/.fetch.tmp.999999999.AbCdEf ]
	[ -d "out/.fetch.tmp.$$.XyZ" ]
	[ -s out/twomoons.libsvm ]
}
