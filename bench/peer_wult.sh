#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Intel's wult as the peer for the speed benches: find it, run 'wult calc' on a datapoints.csv,
# time it (median of N runs: wall s and max RSS KB).
#
# usage: bench/peer_wult.sh find                  the wult command, or "wult: not found" (exit 1)
#        bench/peer_wult.sh calc CSV              wult calc on CSV (a result dir is made for it)
#        bench/peer_wult.sh time N CSV...         median wall s and max RSS KB of N runs of
#                                                 'wult calc' on each CSV one after the other
#
# wult is looked for in $WULT, then PATH, then /opt/peer/bin/wult.
#
# Obtaining it without PyPI (Debian 12, as on the development VMs; /opt/peer/README there):
#   apt-get install -y python3-pandas python3-numpy python3-yaml python3-colorama \
#       python3-argcomplete python3-paramiko python3-plotly
#   git clone https://github.com/intel/wult /opt/peer/wult       (1.12.65 was measured)
#   git clone https://github.com/intel/pepc /opt/peer/pepc
#   git clone https://github.com/intel/stats-collect /opt/peer/stats-collect
#   and a wrapper /opt/peer/bin/wult:
#     PYTHONPATH=/opt/peer/wult:/opt/peer/pepc:/opt/peer/stats-collect exec /usr/bin/python3 \
#       -c 'import sys; from wulttools.wult._Wult import main; sys.exit(main())' "$@"
# (or 'pip install wult' where PyPI is reachable).
#
# What 'wult calc RESULT' computes by default: every numeric column (13 of the 14 columns
# bench/gen_datapoints writes; ReqCState is text), over all datapoints only (no per-C-state
# groups), functions min, min_index, max, max_index, avg, med, std, 99%, 99.9%, 99.99%,
# 99.999% and nzcnt. 'analyze stats' by default: the same columns, max, 99.999%, 99.99%, 99.9%,
# 99%, med, avg, std and min, over all datapoints and per ReqCState (here 3 selections of each
# column instead of wult's one); so the comparison gives wult the lighter job.
set -eu

find_wult() {
	if [ -n "${WULT:-}" ]; then
		command -v "$WULT" && return 0
	elif command -v wult; then
		return 0
	elif [ -x /opt/peer/bin/wult ]; then
		echo /opt/peer/bin/wult
		return 0
	fi
	echo "wult: not found" >&2
	return 1
}

# a wult result directory for CSV (datapoints.csv linked, a minimal info.yml) on stdout
result_dir() {
	local csv dir
	csv=$(realpath "$1")
	dir=$(dirname "$csv")/wult-result
	mkdir -p "$dir"
	ln -sf "$csv" "$dir/datapoints.csv"
	[ -s "$dir/info.yml" ] || printf '%s\n' 'format_version: "1.3"' 'reportid: bench' \
		'toolname: wult' 'toolver: 1.12.65' 'devid: tdt' 'cpu: 0' > "$dir/info.yml"
	echo "$dir"
}

cmd=${1:-}
case $cmd in
find)
	find_wult
	;;
calc)
	w=$(find_wult)
	"$w" calc "$(result_dir "$2")"
	;;
time)
	w=$(find_wult)
	n=$2
	shift 2
	dirs=()
	for csv in "$@"; do dirs+=("$(result_dir "$csv")"); done
	out=$(mktemp)
	trap 'rm -f "$out"' EXIT
	for _ in $(seq "$n"); do
		/usr/bin/time -f '%e %M' -o "$out" sh -c \
			'w=$1; shift; for d in "$@"; do "$w" calc -q "$d" > /dev/null || exit 1; done' \
			sh "$w" "${dirs[@]}"
		cat "$out"
	done | sort -n | awk '{ w[NR] = $1; if ($2 > m) m = $2 } END { print w[int((NR + 1) / 2)], m }'
	;;
*)
	sed -n '2,10p' "$0" >&2
	exit 2
	;;
esac
