#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# bash completion (install/bash-completion/idlescope): subcommands, options read from each
# program's --help, method names, metric names from a run's header, runs as files.
# usage: completion.sh SRC_DIR BIN_DIR... (directories holding collect, analyze, report)
set -u
. "$(dirname "$0")/../common/test-lib.sh"
src=$1
shift
for d in "$@"; do PATH=$d:$PATH; done
cmds=$(mktemp -d)
test_when_finished 'rm -rf "$cmds"'
printf '#!/bin/sh\n' >"$cmds/zz-idlescope-cmd" && chmod +x "$cmds/zz-idlescope-cmd"
PATH=$cmds:$PATH
cd "$src" || exit 1
# shellcheck source=/dev/null
. install/bash-completion/idlescope
fails=0

# expect "WORDS..." "COMPLETIONS" (the last word is the one being completed)
expect() {
	read -r -a COMP_WORDS <<<"$1"
	[[ $1 == *" " ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_idlescope
	local got="${COMPREPLY[*]}"
	if [[ $got != "$2" ]]; then
		echo "FAIL: [$1] completed to [$got], expected [$2]"
		fails=$((fails + 1))
	fi
}

expect "analyze " "stats diff counters export cache -h --help -V --version"
expect "analyze st" "stats"
expect "analyze stats --m" "--metrics"
expect "analyze stats --hi" "--hist --hist-range"
expect "analyze diff --a" "--allow-same"
expect "analyze diff --by-" "--by-bins"
expect "analyze diff --pri" "--primary"
expect "analyze diff --mar" "--margin"
expect "report --by-" "--by-bins"
expect "analyze stats --no-c" "--no-cache"
expect "analyze cache --" "--info --clear --help"
expect "analyze counters --S" "--Summary"
expect "analyze stats samples/bpf-c200 -m " "LDist SilentTime WakeLatency IntrLatency IntrOff ReqCState LTime TBI TAI TIntr"
expect "analyze diff samples/wult-good samples/bpf-c200 --metrics Wa" "WakeLatency"
expect "analyze stats samples/bpf-c200/datapoints.csv --by Req" "ReqCState"
expect "analyze stats -f med,99.9" "med,99.9% med,99.99% med,99.999%"
expect "analyze stats -F " "text csv json"
expect "analyze stats samples/t" "samples/timer-c200"
expect "analyze stats samples/bpf-c200/d" "samples/bpf-c200/datapoints.csv"
expect "collect --me" "--method"
expect "collect --method " "auto hrt tdt bpf timer"
expect "collect --ver" "--version"
expect "collect --co" "--count --counters-interval --connect-timeout --counters"
expect "collect --counters --s" "--system-cpu --sysroot --show"
expect "collect --counters -o x -- zz-idles" "zz-idlescope-cmd"
expect "collect -c " ""
expect "report -f" "-f"
expect "report --c" "--chist --copy-raw --compare-inputs --causes"
expect "report samples/wult-good --xaxes LDist,Wa" "LDist,WakeLatency"
expect "report samples/wult-good -m Wa" "WakeLatency"
expect "report -o samples/w" "samples/wult-good"
expect "collect --ks" "--ksrc"

if ((fails)); then
	echo "completion: $fails failed"
	exit 1
fi
echo "completion: all cases passed"
