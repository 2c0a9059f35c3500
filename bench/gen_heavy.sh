#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# gen_heavy.sh ROWS SEED C6_MEDIAN_US: a heavy-tailed wult-style datapoints.csv on stdout, as
# bpf measures on a VM: two idle states (C1 40%, log-normal around half the C6 median; C6
# 60%, log-normal around C6_MEDIAN_US), 2% of Pareto outliers up to 9000 us; LDist uniform
# 100-4000 us. Deterministic for one awk (Debian's mawk); tests check against the file
# itself, never against fixed figures.
# Example (the report in docs/report-screenshot.png):
#   gen_heavy.sh 20000 7 90 >a/datapoints.csv; gen_heavy.sh 50000 11 100 >b/datapoints.csv
set -eu
awk -v n="${1:?usage: gen_heavy.sh ROWS SEED C6_MEDIAN_US}" -v seed="${2:-7}" -v med="${3:-90}" 'BEGIN {
	srand(seed); print "LDist,SilentTime,WakeLatency,IntrLatency,ReqCState"
	for (i = 0; i < n; i++) {
		z = sqrt(-2 * log(rand() + 1e-12)) * cos(6.283185307 * rand())
		c6 = rand() < 0.6; w = (c6 ? med : med / 2) * exp(0.35 * z)
		if (rand() < 0.02) w += 200 * (rand() ^ -1.1 - 1)
		if (w > 9000) w = 9000 - rand() * 100
		ld = 100 + rand() * 3900
		printf "%.3f,%.3f,%.3f,%.3f,%s\n", ld, ld - 10, w, w * 0.8, c6 ? "C6" : "C1" } }'
