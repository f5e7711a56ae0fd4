# figures-lib.sh -- sourced by the experiment scripts that draw PNGs
# (moons-figures.sh, cluster-figures.sh): the checks they share.  Each
# needs $prog (the script's name, for messages), $BIN and $install (1 when
# --install was given).

# need_tools TOOL...: every tool is built in $BIN, or exit 1 naming it.
need_tools() {
	local t
	for t in "$@"; do
		if [ ! -x "$BIN/$t" ]; then
			echo "$prog: $BIN/$t not found: run make (or set BIN)" >&2
			exit 1
		fi
	done
}

# need_gnuplot WIDTH HEIGHT: gnuplot is there (installed with apt-get when
# --install was given and we are root), and $term is set to its PNG
# terminal of that size (pngcairo when it has it, else png); or exit 1
# saying how to get it.
need_gnuplot() {
	if ! command -v gnuplot >/dev/null 2>&1; then
		if [ "$install" = 1 ] && [ "$(id -u)" = 0 ]; then
			echo "$prog: gnuplot not found; installing gnuplot-nox with apt-get" >&2
			export DEBIAN_FRONTEND=noninteractive
			apt-get install -y gnuplot-nox >&2 ||
				{ apt-get update >&2 && apt-get install -y gnuplot-nox >&2; } ||
				{ echo "$prog: apt-get install gnuplot-nox failed" >&2; exit 1; }
			command -v gnuplot >/dev/null 2>&1 ||
				{ echo "$prog: gnuplot still not found after the install" >&2; exit 1; }
		else
			echo "$prog: gnuplot is needed to draw the figures but was not found." >&2
			echo "  Install it with:  apt-get install gnuplot-nox   (as root)" >&2
			if [ "$install" = 1 ]; then
				echo "  (--install works only as root)" >&2
			else
				echo "  or run this script as root with --install." >&2
			fi
			exit 1
		fi
	fi
	if gnuplot -e 'set terminal pngcairo' >/dev/null 2>&1; then
		term="pngcairo size $1,$2 font 'DejaVu Sans,11'"
	elif gnuplot -e 'set terminal png' >/dev/null 2>&1; then
		term="png size $1,$2"
	else
		echo "$prog: this gnuplot has neither the pngcairo nor the png terminal" >&2
		exit 1
	fi
}
