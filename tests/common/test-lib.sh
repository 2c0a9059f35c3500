# SPDX-License-Identifier: GPL-2.0-only
# The shared shell library of the tests (sourced; POSIX sh, so also by bash tests), in the
# style of git's t/test-lib.sh:
#   fail MSG               FAIL: MSG on stderr; exit 1 (or, with TEST_KEEP_GOING=1 set before
#                          sourcing, count it in $fails and go on; exit 1 at the end if any)
#   skip MSG, note MSG     SKIP (exit 77) / a "# " line
#   expect_fail RC REGEX CMD...
#                          CMD must exit with RC (!= 0) and print a line matching REGEX on stderr
#   test_tmpdir VAR        VAR = a new scratch directory, removed on any exit
#   test_when_finished CMD CMD is run on any exit (last registered first)
#   test_bg CMD...         start CMD in the background ($! as usual); it dies with the test
# On ANY exit (end, fail, set -e, INT/TERM/HUP) every process the test started and is still
# running (all descendants of the test shell) is sent TERM, then KILL, and the registered
# cleanups run. A background command from test_bg also gets PR_SET_PDEATHSIG (setpriv), so it
# dies even when the test shell is SIGKILLed (a ctest timeout; not in the instant between
# the fork and setpriv setting it).
# Never set a trap on EXIT after sourcing this: use test_when_finished.
fails=0
test_cleanups=""
TEST_NAME=${0##*/}

fail() {
	echo "FAIL: $*" >&2
	if [ "${TEST_KEEP_GOING:-0}" = 1 ]; then
		fails=$((fails + 1))
		return 0
	fi
	exit 1
}
skip() { echo "SKIP: $*" >&2; exit 77; }
note() { echo "# $*"; }

test_when_finished() { test_cleanups="$1
$test_cleanups"; }

test_tmpdir() {
	_d=$(mktemp -d "${TMPDIR:-/tmp}/idlescope-test.XXXXXX") || fail "mktemp -d"
	test_when_finished "rm -rf '$_d'"
	eval "$1=\$_d"
}

test_bg() {
	if command -v setpriv >/dev/null 2>&1; then
		setpriv --pdeathsig KILL -- "$@" &
	else
		"$@" &
	fi
}

# The pids of all descendants of this shell, read from /proc with builtins only (a command
# substitution would list itself).
test_descendants() {
	_want=" $$ "
	_found=""
	_more=1
	while [ $_more = 1 ]; do
		_more=0
		for _p in /proc/[0-9]*; do
			_pid=${_p#/proc/}
			case "$_want" in *" $_pid "*) continue ;; esac
			{ read -r _stat <"$_p/stat"; } 2>/dev/null || continue
			_rest=${_stat##*) }
			# shellcheck disable=SC2086
			set -- $_rest
			case "$_want" in *" $2 "*)
				_want="$_want$_pid "
				_found="$_found $_pid"
				_more=1 ;;
			esac
		done
	done
	echo "$_found" >"$test_pidfile"
}

test_kill_started() {
	test_pidfile=$(mktemp "${TMPDIR:-/tmp}/idlescope-pids.XXXXXX") || return 0
	test_descendants
	read -r _pids <"$test_pidfile" || _pids=""
	rm -f "$test_pidfile"
	[ -n "$_pids" ] || return 0
	# shellcheck disable=SC2086
	kill -TERM $_pids 2>/dev/null
	for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		_alive=""
		for _p in $_pids; do kill -0 "$_p" 2>/dev/null && _alive="$_alive $_p"; done
		[ -n "$_alive" ] || break
		sleep 0.1
	done
	if [ -n "$_alive" ]; then
		echo "# $TEST_NAME: killing what the test left running:$_alive" >&2
		# shellcheck disable=SC2086
		kill -KILL $_alive 2>/dev/null
	fi
	wait 2>/dev/null
}

test_exit() {
	_rc=$?
	trap - EXIT
	set +e
	test_kill_started
	eval "$test_cleanups"
	if [ "${TEST_KEEP_GOING:-0}" = 1 ] && [ $_rc -eq 0 ] && [ "$fails" -ne 0 ]; then
		_rc=1
	fi
	exit $_rc
}
trap test_exit EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

expect_fail() {
	_want_rc=$1 _re=$2
	shift 2
	_errf=$(mktemp "${TMPDIR:-/tmp}/idlescope-err.XXXXXX") || fail "mktemp"
	"$@" >/dev/null 2>"$_errf"
	_rc=$?
	_err=$(cat "$_errf")
	rm -f "$_errf"
	if [ "$_rc" -ne "$_want_rc" ] || [ "$_rc" -eq 0 ]; then
		printf '%s\n' "$_err" >&2
		fail "'$*': exit $_rc, expected $_want_rc"
		return 1
	fi
	printf '%s\n' "$_err" | grep -Eq -- "$_re" || {
		printf '%s\n' "$_err" >&2
		fail "'$*': no line on stderr matching /$_re/"
		return 1
	}
	return 0
}

# refuse_root DIR: a fixture builder's guard: DIR must be set and not / (however spelled).
refuse_root() {
	_abs=""
	[ -n "${1:-}" ] && _abs=$(realpath -m -- "$1")
	case "$_abs" in
	"") echo "FAIL: fixture root '${1:-}' is empty or cannot be resolved: refusing to build a fixture" >&2; exit 1 ;;
	/) echo "FAIL: fixture root '$1' is /: refusing to build a fixture there" >&2; exit 1 ;;
	esac
}
