#!/bin/bash
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

expect_rc 0 "$REPORT" "$RUN" -o "$W/rep/" --force
[ ! -e "$W/rep/marker" ] || fail "--force did not replace the old report"
[ -s "$W/rep/index.html" ] || fail "no index.html after --force"

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

# Killed while gnuplot runs: the children are stopped and the unfinished report removed.
printf '#!/bin/sh\necho $$ >>"%s/gnuplot.pids"\nexec sleep 60\n' "$W" >"$W/bin/gnuplot"
PATH="$W/bin:$PATH" "$REPORT" "$RUN" -o "$W/killed" -j 2 >/dev/null 2>&1 &
pid=$!
for i in $(seq 100); do [ -s "$W/gnuplot.pids" ] && break; sleep 0.1; done
[ -s "$W/gnuplot.pids" ] || fail "fake gnuplot never started"
ls -d "$W"/.killed.tmp-* >/dev/null 2>&1 || fail "no temporary directory while running"
kill -TERM "$pid"
set +e
wait "$pid"
rc=$?
set -e
[ "$rc" = 143 ] || fail "exit $rc after SIGTERM, expected 143"
ls -A "$W" | grep -q '^\.' && fail "temporary directory left after SIGTERM: $(ls -A "$W")"
while read -r gp; do
	for i in $(seq 50); do kill -0 "$gp" 2>/dev/null || break; sleep 0.1; done
	kill -0 "$gp" 2>/dev/null && { kill "$gp"; fail "gnuplot $gp still running after SIGTERM"; }
done <"$W/gnuplot.pids"

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
