# SPDX-License-Identifier: GPL-2.0-only
# Shared helpers of the report tests (sourced).
set -u
. "$(dirname "$0")/../common/test-lib.sh"
W=$(mktemp -d /tmp/report-test.XXXXXX)
test_when_finished 'rm -rf "$W"'

# expect_rc CODE CMD... : run, keep stdout/stderr in $W/out.txt $W/err.txt, check the exit code
expect_rc() {
	want=$1; shift
	set +e
	"$@" >"$W/out.txt" 2>"$W/err.txt"
	got=$?
	set -e
	[ "$got" = "$want" ] || { cat "$W/err.txt" >&2; fail "exit $got, expected $want: $*"; }
}

# expect_err LINE : stderr is exactly this one line
expect_err() {
	[ "$(cat "$W/err.txt")" = "$1" ] || fail "stderr: '$(cat "$W/err.txt")', expected '$1'"
}

# gen_run DIR ROWS SEED SHIFT [REPORTID]: a wult-style run from bench/gen_datapoints
gen_run() {
	mkdir -p "$1"
	"$GEN" "$2" "$3" "$4" >"$1/datapoints.csv"
	if [ $# -ge 5 ]; then
		printf '{"toolname": "idlescope", "reportid": "%s", "method": "generated"}\n' "$5" >"$1/info.json"
	fi
}
