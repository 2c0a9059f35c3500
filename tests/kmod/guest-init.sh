#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# /init of the QEMU guest (tests/kmod/run-qemu.sh): loads the idlescope module, runs collect
# with the hrt method, checks bad configuration, then sends /out over the second serial
# port (tar | base64 between marker lines) and powers off. Each check adds one line
# "NAME: RESULT" to /out/results.txt; the host compares them.
/bin/busybox --install -s /bin
export PATH=/bin
mkdir -p /proc /sys /dev /tmp /run /out
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tracefs tracefs /sys/kernel/tracing
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
R=/out/results.txt
res() { echo "$1: $2" >> $R; echo "GUEST $1: $2"; }
loaded() { [ -d /sys/module/idlescope ] && echo loaded || echo unloaded; }
onlyline() { grep -m1 "$2" "$1" | tr -d '\r'; }

insmod /idlescope.ko; res insmod "rc=$?"
res modversion "$(cat /sys/module/idlescope/version 2>&1)"
res device "$(ls -l /dev/idlescope | cut -c1-10)"

# the measurement the host checks row by row
t0=$(cut -d' ' -f1 /proc/uptime)
collect --method hrt -c 300 --cpu 1 --keep-raw -o /out/run1 >/out/run1.log 2>&1
res collect-hrt "rc=$?"
t1=$(cut -d' ' -f1 /proc/uptime)
echo "$t0 $t1" > /out/run1.time
# --method auto takes hrt when the module is loaded
collect -q -c 20 --cpu 1 --keep-raw -o /out/run4 >/out/run4.log 2>&1
res collect-auto "rc=$? $(grep -o '"method":[[:space:]]*"[a-z]*"' /out/run4/info.json | head -1 | grep -o '[a-z]*"$' | tr -d '"')"

# cause columns (issue 26): a quiet run; one while a shell on CPU 0 keeps starting short tasks
# on CPU 1 (each wakes CPU 1 with an IPI: RES or CAL in IRQTop); one with --no-causes
collect --method hrt -c 200 --cpu 1 --keep-raw -o /out/cq >/out/cq.log 2>&1
res collect-causes-quiet "rc=$?"
: >/tmp/load-on
( while [ -e /tmp/load-on ]; do taskset 2 true; done ) &
lpid=$!
taskset -p 1 $lpid >/dev/null
collect --method hrt -c 200 --cpu 1 --keep-raw -o /out/cl >/out/cl.log 2>&1
res collect-causes-load "rc=$?"
rm -f /tmp/load-on
wait $lpid
collect --method hrt -c 50 --cpu 1 --no-causes -o /out/cn >/out/cn.log 2>&1
res collect-causes-off "rc=$?"

# SMIs (issue 26): QEMU sends the SMI of an APM port write to the first CPU, so CPU 0 is
# measured: a quiet run, then one while smi_gen on CPU 1 writes the port every 300 us
if [ -x /bin/smi_gen ]; then
	collect --method hrt -c 200 --cpu 0 --keep-raw -o /out/sq >/out/sq.log 2>&1
	res collect-smi-quiet "rc=$?"
	smi_gen 1 300 600 >/out/smi-writes.txt 2>/out/smi-gen.err &
	spid=$!
	collect --method hrt -c 200 --cpu 0 --keep-raw -o /out/sl >/out/sl.log 2>&1
	res collect-smi-load "rc=$?"
	kill $spid 2>/dev/null
	wait $spid
fi

# the module's own validation, root-only access, one opener at a time
res busy "$(kmod_check busy)"
res nobody "$(kmod_check nobody)"
res inverted "$(kmod_check config 1 1 4000000 1000000)"
res zero-ldist "$(kmod_check config 1 1 0 1000)"
res ldist-too-long "$(kmod_check config 1 1 1000 20000000000)"
res cpu-out-of-range "$(kmod_check config 7 1 1000000 2000000)"
res bad-method "$(kmod_check config 1 9 1000000 2000000)"
res tdt-config "$(kmod_check config 1 2 1000000 2000000)"
collect --method hrt -c 10 --cpu 1 -l 4000,1000 -o /out/x >/out/inverted.log 2>&1
res collect-inverted "rc=$? $(onlyline /out/inverted.log inverted)"

# offline CPU: the module and collect refuse it
echo 0 > /sys/devices/system/cpu/cpu1/online
res offline "$(kmod_check config 1 1 1000000 2000000)"
collect --method hrt -c 10 --cpu 1 -o /out/x >/out/offline.log 2>&1
res collect-offline "rc=$? $(onlyline /out/offline.log offline)"
echo 1 > /sys/devices/system/cpu/cpu1/online

# the measured CPU goes offline during a run: collect stops with a clear error, no crash
collect --method hrt -c 1000000 --cpu 1 -o /out/x2 >/out/hotplug.log 2>&1 &
sleep 2
echo 0 > /sys/devices/system/cpu/cpu1/online
wait $!
res collect-cpu-gone "rc=$? $(onlyline /out/hotplug.log 'went offline')"
echo 1 > /sys/devices/system/cpu/cpu1/online

# unloading while a reader holds the device is refused; after close it works
exec 3</dev/idlescope
rmmod idlescope 2>/dev/null; res rmmod-while-open "rc=$? $(loaded)"
exec 3<&-
rmmod idlescope; res rmmod-after-close "rc=$? $(loaded)"

# collect loads the module itself and unloads it afterwards
collect --method hrt -c 50 --cpu 1 --keep-raw --kmod-path /idlescope.ko -o /out/run2 >/out/run2.log 2>&1
res collect-autoload "rc=$? $(loaded)"
collect --method hrt -c 5 --cpu 1 --kmod-path /init -o /out/x3 >/out/badko.log 2>&1
res collect-bad-ko "rc=$? $(loaded) $(onlyline /out/badko.log loading)"
# SIGINT mid-run: collect stops, keeps what it measured, unloads what it loaded
collect --method hrt -c 1000000 --cpu 1 --keep-raw --kmod-path /idlescope.ko -o /out/run5 >/out/run5.log 2>&1 &
sleep 2
kill -INT $!
wait $!
res collect-sigint "rc=$? $(loaded) $(grep -c . /out/run5/datapoints.csv | awk '{ print ($1 > 10) ? "rows" : "no-rows" }') $(grep -o '"complete":[[:space:]]*[a-z]*' /out/run5/info.json | grep -o '[a-z]*$')"
collect --method tdt -c 50 --cpu 1 --kmod-path /idlescope.ko -o /out/run3 >/out/run3.log 2>&1
res collect-tdt "rc=$? $(loaded) $(onlyline /out/run3.log "tdt")"

# a read into a bad buffer loses no record
insmod /idlescope.ko
kmod_check efault 1 > /out/efault.log 2>&1
res efault "$(grep -o 'bad buffer: [A-Za-z]*' /out/efault.log) $(grep -o 'first seq [0-9]*' /out/efault.log) $(tail -1 /out/efault.log | grep -o '[A-Za-z]*$')"
# the measured CPU kept busy by a real-time task (throttling off): the armer never runs, nothing
# arrives, and collect says so within LDist max + 1 s instead of trusting the silence
echo -1 > /proc/sys/kernel/sched_rt_runtime_us
kmod_check hog 1 5 &
hog=$!
sleep 1
collect --method hrt -c 100 --cpu 1 -o /out/x5 >/out/silence.log 2>&1
res collect-silence "rc=$? $(onlyline /out/silence.log 'no record')"
wait $hog
echo 950000 > /proc/sys/kernel/sched_rt_runtime_us
rmmod idlescope

# ring overflow is counted and reported, never silent
insmod /idlescope.ko ring_records=16; res insmod-ring16 "rc=$?"
kmod_check overflow 1 > /out/overflow.log 2>&1
res overflow "$(grep -m1 'overflow: ok\|overflow: FAILED\|setup failed' /out/overflow.log)"
rmmod idlescope

# a module of another release (same ABI): collect measures, records its version, warns
insmod /idlescope-other.ko
collect --method hrt -c 5 --cpu 1 -o /out/run6 >/out/run6.log 2>&1
res collect-other-version "rc=$? $(onlyline /out/run6.log 'module is version')"
rmmod idlescope

# ENABLE/DISABLE against hot-plug of the measured CPU (issue 18: a hot-plug writer between two
# cpus_read_lock() of ENABLE deadlocked the whole system). Bounded: the cycles run for
# HOTPLUG_S seconds; a hung-task report or no end HOTPLUG_GRACE seconds later is a failure.
HOTPLUG_S=15 HOTPLUG_GRACE=30
echo 5 > /proc/sys/kernel/hung_task_timeout_secs
insmod /idlescope.ko
kmod_check hotplug $HOTPLUG_S 1 0 > /out/hotplug-stress.log 2>&1 &
kpid=$!
( n=0; while [ ! -f /tmp/hotplug-stop ]; do
	echo 0 > /sys/devices/system/cpu/cpu1/online; echo 1 > /sys/devices/system/cpu/cpu1/online; n=$((n + 1))
  done; echo "$n offline/online cycles" > /out/hotplug-cycles.txt ) &
hpid=$!
waited=0
while kill -0 $kpid 2>/dev/null && [ $waited -lt $((HOTPLUG_S + HOTPLUG_GRACE)) ]; do sleep 1; waited=$((waited + 1)); done
touch /tmp/hotplug-stop
w2=0
while kill -0 $hpid 2>/dev/null && [ $w2 -lt 10 ]; do sleep 1; w2=$((w2 + 1)); done
hung=$(dmesg | grep -c 'blocked for more than')
if kill -0 $kpid 2>/dev/null || kill -0 $hpid 2>/dev/null; then
	res hotplug-stress "TIMEOUT after ${waited}s, $hung hung-task report(s): $(tail -1 /out/hotplug-stress.log)"
	HUNG=yes
else
	wait $kpid
	res hotplug-stress "rc=$? hung=$hung $(grep -o '^hotplug: [a-zA-Z]*' /out/hotplug-stress.log | tail -1)"
	rmmod idlescope
fi

grep -m1 '^flags' /proc/cpuinfo > /out/cpuflags.txt
cat /sys/devices/system/clocksource/clocksource0/current_clocksource > /out/clocksource.txt
ls /sys/devices/system/cpu/cpu1/cpuidle > /out/cpuidle.txt 2>&1
dmesg > /out/dmesg.txt
res done yes

echo "BEGIN-IDLESCOPE-OUT" > /dev/ttyS1
tar -C /out -cf - . | base64 > /dev/ttyS1
echo "END-IDLESCOPE-OUT" > /dev/ttyS1
sync
# a deadlocked hot-plug lock would stop poweroff too: reboot at once (qemu -no-reboot exits)
[ "${HUNG:-}" = yes ] && echo b > /proc/sysrq-trigger
poweroff -f
