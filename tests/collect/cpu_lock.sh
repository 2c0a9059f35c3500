#!/bin/sh
# A second collector on the same CPU is refused while the first runs; another CPU is fine.
. "$(dirname "$0")/lib.sh"
wait_cpu_free
"$COLLECT" --method timer -c 1000000 --cpu "$CPU" -q --no-counters -o "$TMP/first" &
pid=$!
for _ in $(seq 100); do [ -f "$TMP/first/info.json" ] && break; sleep 0.1; done
[ -f "$TMP/first/info.json" ] || fail "first collector did not start"
expect_fail 1 "^collect: another collector is measuring CPU $CPU \(pid $pid\); wait for it or choose another --cpu$" \
	"$COLLECT" --method timer -c 10 --cpu "$CPU" -q --no-counters -o "$TMP/second"
[ ! -e "$TMP/second" ] || fail "refused collector created its directory"
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	# an unprivileged user meets root's lock too
	expect_fail 1 "^collect: another collector is measuring CPU $CPU \(pid $pid\)" \
		as_nobody --method timer -c 10 --cpu "$CPU" -q --no-counters -o "$TMP/third"
fi
other=$(( CPU == 0 ? 1 : 0 ))
if [ "$other" -lt "$(nproc --all)" ]; then
	retry_busy "$COLLECT" --method timer -c 10 --cpu $other -q --no-counters -o "$TMP/othercpu" || fail "collector on CPU $other refused"
fi
kill -INT $pid
wait $pid
retry_busy "$COLLECT" --method timer -c 10 --cpu "$CPU" -q --no-counters -o "$TMP/after" || fail "CPU $CPU still locked after the first collector ended"
note "cpu lock: ok"
