# SPDX-License-Identifier: GPL-2.0-only
# cyclictest's command line for measuring one CPU fairly (sourced by collect_vs_cyclictest.sh).
# cyclictest_args CPU INTERVAL_US LOOPS [ONLINE_CPU_LIST]: prints the arguments.
# rt-tests 2.x pins cyclictest's main thread to the -a CPUs too; its 10 ms wake-ups then keep
# another hrtimer queued on the measured CPU, which spares the tick's reprogramming on idle
# entry and exit and lowers cyclictest's figure against collect's (whose main thread is off
# the measured CPU). --mainaffinity puts the main thread on another online CPU, as collect does.
cyclictest_args() {
	_cpu=$1 _interval=$2 _loops=$3
	_online=${4:-$(cat /sys/devices/system/cpu/online 2>/dev/null || echo 0)}
	_main=$(echo "$_online" | tr ',' '\n' | awk -F- -v c="$_cpu" '
		{ lo = $1; hi = NF > 1 ? $2 : $1; for (i = lo; i <= hi; i++) if (i != c) { print i; exit } }')
	printf '%s' "-t1 -a $_cpu -p 99 -m -i $_interval -l $_loops -q -v --laptop"
	[ -z "$_main" ] || printf ' %s' "--mainaffinity=$_main"
	printf '\n'
}
