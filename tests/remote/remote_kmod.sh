#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The hrt/tdt module built on the SUT (collect/remote/deploy_kmod.c) against a private sshd:
# the deploy copies its sources (idlescope-kmod.tar); missing headers are one line naming the
# host (this machine's own kernel when it has no headers, and always a SUT whose uname -r names a
# release without headers); --ksrc with Debian's linux-headers (as tests/kmod uses) builds it on
# the "SUT" into the cache path, modinfo shows our version; it is kept, rebuilt when the sources
# change; compiler errors are passed on; a hrt run names the built file to the SUT's collect.
# Loading the module is impossible here (no module loading), so no hrt/tdt run completes.
. "$(dirname "$0")/../collect/lib.sh"
. "$(dirname "$0")/sshd.sh"
VERSION=$("$COLLECT" --version | awk '{print $NF; exit}')
DEPLOY=$(dirname "$COLLECT")/deploy
[ -f "$DEPLOY/idlescope-kmod.tar" ] || fail "no $DEPLOY/idlescope-kmod.tar"
VDIR=$TMP/sut/collect-$VERSION

# server 2: sessions whose uname -r names a release no headers exist for
mkdir -p "$TMP/fakebin"
cat >"$TMP/fakebin/uname" <<EOS
#!/bin/sh
[ "\$*" = -r ] && { echo 0.0.1-idlescope-none; exit 0; }
exec $(command -v uname) "\$@"
EOS
chmod 755 "$TMP/fakebin" "$TMP/fakebin/uname"
start_sshd 1
SSHD_EXTRA="SetEnv PATH=$TMP/fakebin:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin" start_sshd 2

# one_line RC REGEX CMD...: exit RC, exactly one line on stderr, matching REGEX (besides
# --deploy's line on the copy, and a colleague's experiment noted by the local collect)
one_line() {
	want=$1 re=$2
	shift 2
	"$@" >"$TMP/out" 2>"$TMP/err.all"
	rc=$?
	grep -Ev "^collect: [^ ]*: (already has|deployed) collect |^collect: warning: collect pid [0-9]+ is changing settings" \
		"$TMP/err.all" >"$TMP/err"
	[ $rc -eq "$want" ] || { cat "$TMP/err"; fail "$*: exit $rc, expected $want"; }
	[ "$(wc -l <"$TMP/err")" -eq 1 ] || { cat "$TMP/err"; fail "$*: not one line"; }
	grep -Eq "$re" "$TMP/err" || { cat "$TMP/err"; fail "$*: message does not match $re"; }
	note "$(cat "$TMP/err")"
}
re_quote() { printf '%s' "$1" | sed 's/[].[*^$()+?{}|\\]/\\&/g'; }

# --deploy on a SUT without headers: collect and the sources are copied, a note says why the
# module is not built, exit 0 (timer and bpf do not need it)
rcollect -H sut3 --deploy 2>"$TMP/err" || { cat "$TMP/err"; fail "--deploy on a SUT without headers"; }
grep -q "^collect: sut3: deployed collect $VERSION in " "$TMP/err" || { cat "$TMP/err"; fail "deploy line"; }
grep -qx "collect: note: sut3: no kernel headers for 0.0.1-idlescope-none in /lib/modules/0.0.1-idlescope-none/build: install linux-headers-0.0.1-idlescope-none or give --ksrc DIR; hrt/tdt need the module, the other methods do not" "$TMP/err" ||
	{ cat "$TMP/err"; fail "note on missing headers"; }
cmp "$VDIR/idlescope-kmod.tar" "$DEPLOY/idlescope-kmod.tar" || fail "module sources not deployed"
[ ! -e "$VDIR/kmod-0.0.1-idlescope-none" ] || fail "a build directory without headers"
# with hrt asked for, the same is an error, one line; a run leaves no run directory
msg="^collect: sut3: no kernel headers for 0\.0\.1-idlescope-none in /lib/modules/0\.0\.1-idlescope-none/build: install linux-headers-0\.0\.1-idlescope-none or give --ksrc DIR\$"
one_line 1 "$msg" rcollect -H sut3 --deploy --method hrt
one_line 1 "$msg" rcollect -H sut3 --method tdt -c 10 -o "$TMP/r0"
[ ! -e "$TMP/r0" ] || fail "a run directory was left after the module could not be built"
# this machine's own kernel, for real, when it has no headers
krel=$(uname -r)
if [ ! -f "/lib/modules/$krel/build/Makefile" ]; then
	one_line 1 "^collect: sut1: no kernel headers for $(re_quote "$krel") in /lib/modules/$(re_quote "$krel")/build: install linux-headers-$(re_quote "$krel") or give --ksrc DIR\$" \
		rcollect -H sut1 --method hrt -c 10 -o "$TMP/r1"
	[ ! -e "$TMP/r1" ] || fail "a run directory was left after the module could not be built"
else
	note "this kernel ($krel) has headers: its missing-headers case is not tested"
fi
one_line 1 "^collect: sut1: --ksrc $TMP/nothing: not a kernel build directory on the SUT \(no Makefile\)\$" \
	rcollect -H sut1 --deploy --ksrc "$TMP/nothing"
one_line 2 "^collect: --ksrc: expected the SUT's kernel build directory" rcollect -H sut1 --deploy --ksrc ''

# Debian's headers (scripts/deps/remote.txt: linux-headers-amd64), as tests/kmod/run-qemu.sh finds them
hdr=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null | sed 's/[ ,].*//')
KDIR=/usr/src/$hdr REL=${hdr#linux-headers-}
[ -n "$hdr" ] && [ -f "$KDIR/Makefile" ] || skip "linux-headers-amd64 not installed (scripts/deps/remote.txt)"
command -v make >/dev/null && command -v gcc >/dev/null || skip "make and gcc needed"
KO=$VDIR/kmod-$REL/idlescope.ko
rcollect -H sut1 --deploy --ksrc "$KDIR" 2>"$TMP/err" || { cat "$TMP/err"; fail "module build with --ksrc $KDIR"; }
grep -qx "collect: sut1: built the idlescope module for $REL: $KO" "$TMP/err" || { cat "$TMP/err"; fail "built line"; }
[ -f "$KO" ] || fail "no $KO"
[ "$(modinfo -F version "$KO")" = "$VERSION" ] || fail "modinfo version '$(modinfo -F version "$KO")', expected $VERSION"
modinfo -F vermagic "$KO" | grep -q "^$REL " || fail "vermagic '$(modinfo -F vermagic "$KO")' is not for $REL"
note "built on the SUT: $KO ($(modinfo -F version "$KO"), $(modinfo -F vermagic "$KO"))"
# the same sources and release: kept
before=$(stat -c %Y.%i "$KO")
rcollect -H sut1 --deploy --ksrc "$KDIR" 2>"$TMP/err" || { cat "$TMP/err"; fail "second deploy"; }
grep -qx "collect: sut1: has the idlescope module for $REL: $KO" "$TMP/err" || { cat "$TMP/err"; fail "kept line"; }
[ "$(stat -c %Y.%i "$KO")" = "$before" ] || fail "the module was rebuilt with nothing changed"

# other sources (a deploy directory whose tar differs): copied and rebuilt
mkdir -p "$TMP/src2" "$TMP/deploy2"
tar -xf "$DEPLOY/idlescope-kmod.tar" -C "$TMP/src2"
echo "/* changed */" >>"$TMP/src2/main.c"
cp "$DEPLOY/collect" "$TMP/deploy2/"
(cd "$TMP/src2" && tar -cf "$TMP/deploy2/idlescope-kmod.tar" *)
IDLESCOPE_DEPLOY_DIR=$TMP/deploy2 rcollect -H sut1 --deploy --ksrc "$KDIR" 2>"$TMP/err" ||
	{ cat "$TMP/err"; fail "deploy of changed sources"; }
grep -qx "collect: sut1: built the idlescope module for $REL: $KO" "$TMP/err" || { cat "$TMP/err"; fail "not rebuilt"; }
tail -n 1 "$VDIR/kmod-$REL/main.c" | grep -qx '/\* changed \*/' || fail "the changed sources were not built"

# a compiler error: one line naming the host with the first error, then make's last lines
echo "this is not C;" >>"$TMP/src2/event.c"
(cd "$TMP/src2" && tar -cf "$TMP/deploy2/idlescope-kmod.tar" *)
IDLESCOPE_DEPLOY_DIR=$TMP/deploy2 rcollect -H sut1 --deploy --ksrc "$KDIR" 2>"$TMP/err"
rc=$?
[ $rc -eq 1 ] || { cat "$TMP/err"; fail "compiler error: exit $rc"; }
grep -q "^collect: sut1: the idlescope module does not build against $KDIR: .*event\.c:[0-9]*:[0-9]*: error: .* (log: $VDIR/kmod-$REL.new/build.log)\$" "$TMP/err" ||
	{ cat "$TMP/err"; fail "compiler error line"; }
grep -q "^collect: sut1: make: " "$TMP/err" || { cat "$TMP/err"; fail "make's last lines not passed on"; }
[ -f "$KO" ] && tail -n 1 "$VDIR/kmod-$REL/main.c" | grep -qx '/\* changed \*/' || fail "the last good build was not kept"
note "$(grep "^collect: sut1: the idlescope module does not build" "$TMP/err")"

# back to this build's sources; a hrt run gives the built module to the SUT's collect
# (--kmod-path). Server 3 logs each session's command (ForceCommand) to show it: the SUT's collect
# itself refuses hrt here before it reads the file (this kernel cannot load modules).
rcollect -H sut1 --deploy --ksrc "$KDIR" 2>"$TMP/err" || { cat "$TMP/err"; fail "redeploy"; }
cat >"$TMP/logcmd" <<EOS
#!/bin/sh
printf '%s\n' "\$SSH_ORIGINAL_COMMAND" >>$TMP/commands
exec /bin/sh -c "\$SSH_ORIGINAL_COMMAND"
EOS
chmod 755 "$TMP/logcmd"
SSHD_EXTRA="ForceCommand $TMP/logcmd" start_sshd 3
printf 'Host sutlog\n  HostName 127.0.0.1\n  Port %s\n' "$PORT3" | cat - "$SSHDIR/config" >"$SSHDIR/config.new"
mv "$SSHDIR/config.new" "$SSHDIR/config"
wait_cpu_free
rcollect_cpu -H sutlog --method hrt --ksrc "$KDIR" -c 10 --cpu "$CPU" -o "$TMP/r2"
rc=$?
[ $rc -ne 0 ] || fail "a hrt run succeeded where no module can be loaded"
grep -q -- "--remote-agent .* --kmod-path '$KO'\$" "$TMP/commands" ||
	{ cat "$TMP/commands" "$TMP/err"; fail "the SUT's collect was not given --kmod-path $KO"; }
note "the SUT's collect: $(grep "^collect: sutlog: collect:" "$TMP/err" | head -n 1)"
# with the user's own --kmod-path, no build and that file
: >"$TMP/commands"
rcollect_cpu -H sutlog --method tdt --ksrc "$TMP/nothing" --kmod-path /x/mine.ko -c 10 --cpu "$CPU" -o "$TMP/r3"
grep -q -- "'--kmod-path' '/x/mine.ko'" "$TMP/commands" && ! grep -q "make -C" "$TMP/commands" ||
	{ cat "$TMP/commands"; fail "--kmod-path given: the module was built or the path not passed"; }
echo "remote_kmod: OK"
