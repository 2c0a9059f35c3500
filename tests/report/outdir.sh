#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The output directory: refused when it exists, replaced with --force, never half-written.
REPORT=$1 DATA=$2
. "$(dirname "$0")/lib.sh"
set -e
RUN=$DATA/wult-good

expect_rc 0 "$REPORT" "$RUN" -o "$W/rep"
[ "$(cat "$W/out.txt")" = "$(cd "$W/rep" && pwd -P)/index.html" ] || fail "printed '$(cat "$W/out.txt")'"
[ -s "$W/rep/index.html" ] || fail "no index.html"
sum=$(md5sum <"$W/rep/index.html")
touch "$W/rep/marker"

expect_rc 1 "$REPORT" "$RUN" -o "$W/rep"
expect_err "report: $W/rep: already exists (use --force to replace it)"
[ "$(md5sum <"$W/rep/index.html")" = "$sum" ] && [ -e "$W/rep/marker" ] || fail "existing report touched"

# --force replaces a report, never a directory that holds anything else.
expect_rc 1 "$REPORT" "$RUN" -o "$W/rep/" --force
expect_err "report: $W/rep/: not a report (it holds 'marker', which report does not write); not replacing it"
[ "$(md5sum <"$W/rep/index.html")" = "$sum" ] && [ -e "$W/rep/marker" ] || fail "non-report replaced"
rm "$W/rep/marker"
# at every depth (issue 23): notes and another run under raw/, a file or a directory under
# plots/, a symbolic link, a hidden file; each refused, nothing removed
expect_rc 0 "$REPORT" "$RUN" "$RUN" -o "$W/deep" --copy-raw --keep-plot-data
n_before=$(find "$W/deep" | wc -l)
for bad in raw/sut1/notes.txt raw/run1/notes.txt plots/marker plots/sub/m000-hist.svg plot-data/.hidden.dat \
	plot-data/run2/datapoints.csv raw/run1/info.json/x LINK; do
	case $bad in
	LINK) ln -s /etc "$W/deep/plots/etc.svg"; bad=plots/etc.svg ;;
	raw/run1/info.json/x) mkdir -p "$W/deep/raw/run9/info.json" && touch "$W/deep/raw/run9/info.json/x"; bad=raw/run9/info.json ;;
	*) mkdir -p "$(dirname "$W/deep/$bad")" && echo precious >"$W/deep/$bad" ;;
	esac
	expect_rc 1 "$REPORT" "$RUN" -o "$W/deep" --force
	first=${bad%%/*} rest=${bad#*/}
	case $bad in raw/sut1/*|plots/sub/*|plot-data/run2/*) bad=$first/${rest%%/*} ;; esac
	expect_err "report: $W/deep: not a report (it holds '$bad', which report does not write); not replacing it"
	[ -e "$W/deep/index.html" ] && [ -e "$W/deep/raw/run2/datapoints.csv" ] || fail "$bad: the old report was touched"
	rm -rf "${W:?}/deep/$bad" "$W/deep/raw/sut1" "$W/deep/plots/sub" "$W/deep/plot-data/run2" "$W/deep/raw/run9"
done
[ "$(find "$W/deep" | wc -l)" = "$n_before" ] || fail "the old report changed while refused"
# a report written with --copy-raw --keep-plot-data is replaced by --force
expect_rc 0 "$REPORT" "$RUN" -o "$W/deep" --force
[ ! -e "$W/deep/plot-data" ] && [ ! -e "$W/deep/raw" ] && [ -s "$W/deep/index.html" ] ||
	fail "--force did not replace the report with raw/ and plot-data/"
# the interactive plots' files (plots/viewer.js, plots/ID.js) are what a report writes
[ -s "$W/rep/plots/viewer.js" ] && ls "$W/rep/plots/"m000-*.js >/dev/null 2>&1 ||
	fail "no plots/viewer.js or plots/m000-*.js in the report"
touch "$W/rep/plots/m000-old.svg" "$W/rep/plots/m000-old.js"
expect_rc 0 "$REPORT" "$RUN" -o "$W/rep/" --force
[ ! -e "$W/rep/plots/m000-old.svg" ] && [ ! -e "$W/rep/plots/m000-old.js" ] ||
	fail "--force did not replace the old report"
[ -s "$W/rep/plots/viewer.js" ] || fail "no plots/viewer.js after --force"
[ -s "$W/rep/index.html" ] || fail "no index.html after --force"
mkdir "$W/empty"
expect_rc 0 "$REPORT" "$RUN" -o "$W/empty" --force

# An output directory that is, holds or lies inside an input is refused before anything is
# removed, however it is spelt (., .., symbolic links) and whatever the kind of input.
cp -r "$RUN" "$W/myrun"
ln -s myrun "$W/lnk"
mkdir "$W/viaLink"
ln -s ../myrun/datapoints.csv "$W/viaLink/datapoints.csv"
inputs_intact() {
	cmp -s "$W/myrun/datapoints.csv" "$RUN/datapoints.csv" && cmp -s "$W/myrun/info.yml" "$RUN/info.yml" ||
		fail "an input was changed: $*"
}
guard() {  # guard DIR-TO-RUN-IN EXPECTED-STDERR REPORT-ARGS...
	dir=$1 msg=$2; shift 2
	(cd "$dir" && expect_rc 1 "$REPORT" "$@" && expect_err "$msg") || exit 1
	inputs_intact "$@"
}
guard "$W" "report: myrun: is the run myrun, an input of this report; choose another -o" myrun -o myrun --force
guard "$W" "report: myrun/../myrun/.: is the run myrun, an input of this report; choose another -o" \
	myrun -o myrun/../myrun/. --force
guard "$W/myrun" "report: .: is the run ../lnk, an input of this report; choose another -o" ../lnk -o . --force
guard "$W" "report: .: holds myrun/datapoints.csv, an input of this report; not replacing it (choose another -o)" \
	myrun -o . --force
guard "$W" "report: myrun: holds myrun/datapoints.csv, an input of this report; not replacing it (choose another -o)" \
	myrun/datapoints.csv -o myrun --force
guard "$W" "report: myrun: holds viaLink/datapoints.csv, an input of this report; not replacing it (choose another -o)" \
	viaLink -o myrun --force
guard "$W" "report: myrun/html: lies inside the run myrun, an input of this report; choose an -o outside it" \
	myrun -o myrun/html
guard "$W" "report: lnk/html: lies inside the run myrun, an input of this report; choose an -o outside it" \
	myrun -o lnk/html
[ ! -e "$W/myrun/html" ] && [ "$(ls -A "$W/myrun" | wc -l)" = 2 ] || fail "written into the run: $(ls -A "$W/myrun")"
# A report's own raw copy, and a run put inside an earlier report.
expect_rc 0 "$REPORT" "$W/myrun" -o "$W/withraw" --copy-raw
expect_rc 1 "$REPORT" "$W/withraw/raw/run1" -o "$W/withraw" --force
expect_err "report: $W/withraw: holds $W/withraw/raw/run1/datapoints.csv, an input of this report; not replacing it (choose another -o)"
cp -r "$W/myrun" "$W/withraw/plots/inner"
expect_rc 1 "$REPORT" "$W/withraw/plots/inner" -o "$W/withraw" --force
expect_err "report: $W/withraw: holds $W/withraw/plots/inner/datapoints.csv, an input of this report; not replacing it (choose another -o)"
[ -s "$W/withraw/raw/run1/datapoints.csv" ] && [ -s "$W/withraw/plots/inner/datapoints.csv" ] || fail "raw copy removed"
# The same file, just a report beside it: fine.
expect_rc 0 "$REPORT" "$W/myrun/datapoints.csv" -o "$W/beside"

# Bind mounts (root, in a private mount namespace): the same directory under another path,
# and a directory mounted inside an old report, which --force must leave alone.
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
	mkdir "$W/bm" "$W/keep"
	echo precious >"$W/keep/f"
	expect_rc 0 unshare -m sh -c '
		set -e
		mount --make-rprivate /
		mount --bind "$2/myrun" "$2/bm"
		"$1" "$2/bm" -o "$2/myrun" --force 2>"$2/e1" && exit 11
		"$1" "$2/myrun" -o "$2/bm/sub" 2>"$2/e2" && exit 12
		"$1" "$2/myrun" -o "$2/rep2" >/dev/null
		mkdir "$2/rep2/plots/mnt"
		mount --bind "$2/keep" "$2/rep2/plots/mnt"
		"$1" "$2/myrun" -o "$2/rep2" --force >/dev/null 2>"$2/e3" && exit 13
		[ -s "$2/rep2/index.html" ] || exit 14
		exit 0' sh "$REPORT" "$W"
	[ "$(cat "$W/e1")" = "report: $W/myrun: is the run $W/bm, an input of this report; choose another -o" ] ||
		fail "bind mount: $(cat "$W/e1")"
	[ "$(cat "$W/e2")" = "report: $W/bm/sub: lies inside the run $W/myrun, an input of this report; choose an -o outside it" ] ||
		fail "bind mount: $(cat "$W/e2")"
	[ "$(cat "$W/e3")" = "report: $W/rep2: not a report (it holds 'plots/mnt', which report does not write); not replacing it" ] ||
		fail "mount inside: $(cat "$W/e3")"
	[ "$(cat "$W/keep/f")" = precious ] || fail "--force removed what was mounted inside the old report"
	inputs_intact bind mounts
	rm -rf "$W"/.rep2.old-*
	# --copy-raw onto a full file system: the real reason, not "Success" after a short write
	mkdir "$W/big" "$W/small"
	awk 'BEGIN { srand(2); print "WakeLatency,LDist"; for (i = 0; i < 200000; i++) printf "%.3f,%d\n", rand() * 100, i % 4000 }' \
		>"$W/big/datapoints.csv"
	unshare -m sh -c 'mount -t tmpfs -o size=2m tmpfs "$2/small" || exit 99
		"$1" "$2/big" -o "$2/small/rep" --copy-raw --metrics WakeLatency >/dev/null 2>"$2/e4"; echo $? >"$2/rc4"
		ls -A "$2/small" >"$2/left4"' sh "$REPORT" "$W"
	[ "$(cat "$W/rc4")" = 1 ] || { cat "$W/e4"; fail "--copy-raw on a full disk: exit $(cat "$W/rc4")"; }
	grep -q "datapoints.csv: write error: No space left on device$" "$W/e4" || fail "full disk: $(cat "$W/e4")"
	[ ! -s "$W/left4" ] || fail "full disk: left behind: $(cat "$W/left4")"
else
	echo "note: bind-mount cases skipped (need root and unshare -m)"
fi

: >"$W/file"
expect_rc 1 "$REPORT" "$RUN" -o "$W/file" --force
expect_err "report: $W/file: exists and is not a directory; not replacing it"

expect_rc 1 "$REPORT" "$RUN" -o "$W/nodir/rep"
grep -q "^report: $W/nodir/rep: cannot create a directory next to it" "$W/err.txt" || fail "$(cat "$W/err.txt")"

# A run that does not exist: nothing at -o, no temporary directory left.
expect_rc 1 "$REPORT" "$W/missing" -o "$W/new"
expect_err "report: $W/missing: No such file or directory"
[ ! -e "$W/new" ] || fail "output created for a failed report"

# gnuplot failing: the error is reported, the half-made report is removed.
mkdir "$W/bin"
printf '#!/bin/sh\necho "line 1: broken on purpose" >&2\nexit 1\n' >"$W/bin/gnuplot"
chmod +x "$W/bin/gnuplot"
expect_rc 1 env PATH="$W/bin:$PATH" "$REPORT" "$RUN" -o "$W/new"
grep -q "^report: gnuplot failed on m000.gp (exit 1): line 1: broken on purpose$" "$W/err.txt" ||
	fail "gnuplot failure: $(cat "$W/err.txt")"
[ ! -e "$W/new" ] || fail "output created although gnuplot failed"
ls -A "$W" | grep -q '^\.' && fail "temporary directory left: $(ls -A "$W")"

# Killed while gnuplot runs: the children are stopped and the unfinished report removed;
# SIGPIPE (a closed output) as SIGTERM.
printf '#!/bin/sh\necho $$ >>"%s/gnuplot.pids"\nexec sleep 60\n' "$W" >"$W/bin/gnuplot"
for sig in PIPE TERM; do
rm -f "$W/gnuplot.pids"
PATH="$W/bin:$PATH" "$REPORT" "$RUN" -o "$W/killed" -j 2 >/dev/null 2>&1 &
pid=$!
for i in $(seq 100); do [ -s "$W/gnuplot.pids" ] && break; sleep 0.1; done
[ -s "$W/gnuplot.pids" ] || fail "fake gnuplot never started"
ls -d "$W"/.killed.tmp-* >/dev/null 2>&1 || fail "no temporary directory while running"
kill -$sig "$pid"
set +e
wait "$pid"
rc=$?
set -e
[ "$rc" = $((128 + $(kill -l $sig))) ] || fail "exit $rc after SIG$sig, expected $((128 + $(kill -l $sig)))"
ls -A "$W" | grep -q '^\.' && fail "temporary directory left after SIG$sig: $(ls -A "$W")"
while read -r gp; do
	for i in $(seq 50); do kill -0 "$gp" 2>/dev/null || break; sleep 0.1; done
	kill -0 "$gp" 2>/dev/null && { kill "$gp"; fail "gnuplot $gp still running after SIG$sig"; }
done <"$W/gnuplot.pids"
done

# Usage errors
expect_rc 2 "$REPORT" "$RUN"
expect_err "report: no output directory: use -o DIR (see 'report --help')"
expect_rc 2 "$REPORT" -o "$W/x"
expect_err "report: no run given (see 'report --help')"
expect_rc 2 "$REPORT" "$RUN" -o "$W/x" -j 0
expect_err "report: --jobs: expected a whole number from 1 to 1024, got '0'"
expect_rc 2 "$REPORT" "$RUN" -o "$W/x" --metrics '('
grep -q "^report: --metrics: bad regular expression '(': " "$W/err.txt" || fail "$(cat "$W/err.txt")"
expect_rc 1 "$REPORT" "$RUN" -o "$W/x" --metrics 'NoSuchMetric'
expect_err "report: no metric matches --metrics 'NoSuchMetric' in every run"
expect_rc 2 "$REPORT" "$RUN" -o "$W/x" --include 'LDist <'
grep -q "^report: --include: " "$W/err.txt" || fail "$(cat "$W/err.txt")"
[ ! -e "$W/x" ] || fail "output created on a usage error"
"$REPORT" --help | grep -q '^usage: report \[options\] CONFIG \[CONFIG...\] -o DIR$' || fail "--help"
echo PASS
