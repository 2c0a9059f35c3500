#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Paths read from a run's metadata stay inside its directory (issue 23 item 5): an experiment
# whose experiment.json names a run by '..', an absolute path or a symlink out is refused, with
# no report written; the same experiment with paths inside makes a report.
REPORT=$1 DATA=$2
. "$(dirname "$0")/lib.sh"
set -e
command -v gnuplot >/dev/null || { echo "SKIP: no gnuplot"; exit 77; }
mkdir -p "$W/exp" "$W/elsewhere"
cp -r "$DATA/wult-good" "$W/exp/a-1"
cp -r "$DATA/wult-good" "$W/exp/b-1"
cp -r "$DATA/wult-good" "$W/elsewhere/run"
ln -s ../elsewhere/run "$W/exp/link-out"

exp_json() {
	printf '{"design": {"factors": [{"name": "x", "values": ["a", "b"]}]}, "runs": [
{"path": "a-1", "config": {"x": "a"}, "complete": true},
{"path": "%s", "config": {"x": "b"}, "complete": true}]}\n' "$1" >"$W/exp/experiment.json"
}

for p in ../elsewhere/run /tmp link-out; do
	case $p in
	..*) why="'..' in the path (it must stay inside the directory)" ;;
	/*) why="an absolute path (it must be inside the directory)" ;;
	*) why="a symbolic link out of the directory" ;;
	esac
	exp_json "$p"
	expect_rc 2 "$REPORT" "$W/exp" -o "$W/rep"
	expect_err "report: $W/exp/experiment.json: runs[1].path '$p': $why: refused"
	[ ! -e "$W/rep" ] || fail "$p: a report was written"
done
exp_json b-1
expect_rc 0 "$REPORT" "$W/exp" -o "$W/rep"
[ -s "$W/rep/index.html" ] || fail "no report from paths inside the experiment"
echo "metadata_paths: OK"
