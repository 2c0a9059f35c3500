# SPDX-License-Identifier: GPL-2.0-only
# Shared helpers for the counters tests (sourced).
. "$(dirname "$0")/../common/test-lib.sh"
# near DESC ACTUAL EXPECTED: equal within 1e-9 (relative) - the values are exact by design,
# the tolerance only absorbs the last bit of decimal printing.
near() {
	awk -v a="$2" -v b="$3" 'BEGIN { if (a == "" || a == "null") exit 1; d = a - b; if (d < 0) d = -d;
		m = b < 0 ? -b : b; exit !(d <= 1e-9 * m + 1e-9) }' || fail "$1: got '$2', expected $3"
	echo "ok: $1 = $3"
}
eq() { [ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"; echo "ok: $1"; }
has() { printf '%s' "$2" | grep -q -- "$3" || fail "$1: '$3' not in: $2"; echo "ok: $1"; }

# cpu ROOT CPU CORE PKG: topology of one CPU
cpu() {
	refuse_root "${1:-}"   # never a fixture over the machine (test-lib.sh)
	d=$1/sys/devices/system/cpu/cpu$2/topology
	mkdir -p "$d" "$1/dev/cpu/$2"
	echo "$3" > "$d/core_id"
	echo "$4" > "$d/physical_package_id"
}
# idle ROOT CPU STATE NAME USAGE TIME ABOVE BELOW
idle() {
	refuse_root "${1:-}"   # never a fixture over the machine (test-lib.sh)
	d=$1/sys/devices/system/cpu/cpu$2/cpuidle/state$3
	mkdir -p "$d"
	echo "$4" > "$d/name"; echo "$5" > "$d/usage"; echo "$6" > "$d/time"
	echo "$7" > "$d/above"; echo "$8" > "$d/below"
}
# cpuinfo ROOT VENDOR FAMILY MODEL
cpuinfo() {
	refuse_root "${1:-}"   # never a fixture over the machine (test-lib.sh)
	mkdir -p "$1/proc"
	printf 'processor\t: 0\nvendor_id\t: %s\ncpu family\t: %s\nmodel\t\t: %s\nmodel name\t: fixture\n\n' \
		"$2" "$3" "$4" > "$1/proc/cpuinfo"
}
# Pin the Time column: snapshot s at 100 + s seconds, so that per-second values are exact.
pin_time() {
	awk -F, 'BEGIN { OFS = "," } NR == 1 { print; next } { $2 = 100 + $1; print }' "$1" > "$1.tmp" &&
		mv "$1.tmp" "$1"
}
