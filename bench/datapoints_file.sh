#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The benches' wult-style file of ROWS rows (seed 1) under DATA: DATA/dp-ROWS/datapoints.csv,
# made by BUILD's gen_datapoints when missing and read once into the page cache. Prints its path.
# usage: bench/datapoints_file.sh BUILD_DIR DATA ROWS
set -eu
f=$2/dp-$3/datapoints.csv
if [ ! -s "$f" ]; then
	mkdir -p "$(dirname "$f")"
	"$1/bench/gen_datapoints" "$3" 1 > "$f.tmp" && mv "$f.tmp" "$f"
fi
cat "$f" > /dev/null
echo "$f"
