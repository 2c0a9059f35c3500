#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The Debian packages, as CI checks them (run by scripts/test.sh after the tree's tests):
#  1. dpkg-buildpackage -us -uc -b on a copy of the tree (in build-deb/, so that nothing is
#     written beside the tree); the tree's tests already ran, so only debian/rules' short
#     data-only subset runs there;
#  2. lintian: no error and no warning (the ones we accept are overridden in debian/ with
#     the reason);
#  3. dpkg-deb -x, and the unpacked programs on the sample runs and on a short timer run;
#  4. as root (unless IDLESCOPE_PKG_INSTALL=0), when neither package is installed already:
#     apt-get install of both .debs (DKMS builds the module for the kernels whose headers
#     are installed), a smoke run of the installed programs, a QEMU boot in which the
#     installed collect loads the DKMS-built module by itself, then both are purged again.
set -eu
cd "$(dirname "$0")/.."
src=$PWD
out=$src/build-deb
# the programs' run cache (docs/cache.md) in the build directory, never in ~/.cache; entries
# built before each command answers (no background builder outlives this script)
export XDG_CACHE_HOME=$out/xdg-cache IDLESCOPE_CACHE_BUILD=foreground
v=$(sed -n 's/^project(idlescope VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
fail() { echo "package-test: FAIL: $*" >&2; exit 1; }
say() { echo "package-test: $*"; }

# 1. build
rm -rf "$out"
mkdir -p "$out/src"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files -co --exclude-standard -z | tar --null -T - -cf - | tar -xf - -C "$out/src"
else
	tar --exclude='./build*' --exclude=./runs -cf - . | tar -xf - -C "$out/src"
fi
say "dpkg-buildpackage -us -uc -b (log: $out/build.log)"
start=$(date +%s)
(cd "$out/src" && DEB_BUILD_OPTIONS="parallel=$(nproc)" dpkg-buildpackage -us -uc -b >"$out/build.log" 2>&1) ||
	{ tail -n 40 "$out/build.log"; fail "dpkg-buildpackage failed"; }
say "built in $(($(date +%s) - start)) s: $(cd "$out" && ls ./*.deb | tr '\n' ' ')"
deb=$out/idlescope_${v}_amd64.deb
dkmsdeb=$out/idlescope-dkms_${v}_all.deb
[ -f "$deb" ] && [ -f "$dkmsdeb" ] || fail "no idlescope_${v}_amd64.deb or idlescope-dkms_${v}_all.deb"

# the packages' metadata and contents
dep=$(dpkg-deb -f "$deb" Depends)
case $dep in *"gnuplot-nox | gnuplot"*"libbpf1"*) ;; *) fail "idlescope Depends: $dep" ;; esac
case $dep in *dkms*) fail "idlescope must not depend on dkms: $dep" ;; esac
case $(dpkg-deb -f "$dkmsdeb" Depends) in *dkms*) ;; *) fail "idlescope-dkms does not depend on dkms" ;; esac
dpkg-deb -c "$deb" | awk '{print $6}' >"$out/contents"
for f in usr/bin/collect usr/bin/analyze usr/bin/report usr/share/man/man1/collect.1.gz \
	usr/share/man/man1/analyze.1.gz usr/share/man/man1/report.1.gz usr/share/man/man5/idlescope-run.5.gz \
	usr/share/bash-completion/completions/collect usr/share/doc/idlescope/docs/format.md.gz; do
	grep -qx "\./$f" "$out/contents" || fail "idlescope lacks /$f"
done
grep -q '^\./usr/src/' "$out/contents" && fail "idlescope holds module sources (they belong to idlescope-dkms)"
dpkg-deb -c "$dkmsdeb" | awk '{print $6}' | grep -qx "\./usr/src/idlescope-$v/dkms.conf" ||
	fail "idlescope-dkms lacks /usr/src/idlescope-$v/dkms.conf"

# 2. lintian
say "lintian"
lintian --fail-on error,warning "$out/idlescope_${v}_amd64.changes" || fail "lintian"

# 3. the unpacked programs
x=$out/unpacked
dpkg-deb -x "$deb" "$x"
bin=$x/usr/bin
for p in collect analyze report; do
	[ "$("$bin/$p" --version)" = "$p (idlescope) $v" ] || fail "unpacked $p --version"
done
"$bin/analyze" stats samples/bpf-c200 >"$out/stats.txt" || fail "unpacked analyze stats"
grep -q '^ *WakeLatency' "$out/stats.txt" || fail "unpacked analyze stats: no WakeLatency row"
"$bin/analyze" diff samples/timer-c200 samples/bpf-c200 >"$out/diff.txt" || fail "unpacked analyze diff"
grep -q 'WakeLatency: median' "$out/diff.txt" || fail "unpacked analyze diff: no WakeLatency verdict"
"$bin/analyze" counters -S samples/bpf-c200 >"$out/counters.txt" 2>"$out/counters.err" || fail "unpacked analyze counters: $(cat "$out/counters.err")"
"$bin/report" samples/timer-c200 samples/bpf-c200 -o "$out/report" >/dev/null || fail "unpacked report"
grep -q "idlescope $v</p>" "$out/report/index.html" || fail "unpacked report: no version in index.html"
# a short timer run (other collectors may hold a CPU for a while: retry on both ends, 90 s at most)
last=$(($(nproc) - 1))
for try in $(seq 45); do
	"$bin/collect" -q --method timer --cpu $((try % 2 ? 0 : last)) -c 50 --no-counters --force \
		-o "$out/run" 2>"$out/collect.err" && break
	grep -q 'another collector' "$out/collect.err" || fail "unpacked collect: $(cat "$out/collect.err")"
	sleep 2
done
[ "$(jq -r '.toolver + " " + (.datapoints | tostring)' "$out/run/info.json")" = "$v 50" ] ||
	fail "unpacked collect: info.json $(jq -c '{toolver, datapoints}' "$out/run/info.json")"
"$bin/analyze" stats "$out/run" >/dev/null || fail "unpacked analyze on the unpacked collect's run"
say "unpacked programs: --version, analyze stats/diff/counters and report on samples/, a 50-datapoint timer run"

# The installed collect loads the DKMS-built module by itself: boot the kernel DKMS built it
# for (the image kmod-qemu caches in build-test/, scripts/test.sh runs that first) in QEMU
# with a busybox initramfs holding /usr/bin/collect, its libraries and
# /lib/modules/REL/updates/dkms/idlescope.ko at their installed paths, nothing else.
dkms_boot() {
	img=$(ls "$src"/build-test/tests/kmod/qemu/cache/*/root/boot/vmlinuz-* 2>/dev/null | head -n 1)
	if [ -z "$img" ] || ! command -v qemu-system-x86_64 >/dev/null || ! command -v busybox >/dev/null; then
		say "DKMS boot test skipped: no kernel image cached by kmod-qemu, or no qemu or busybox"
		return 0
	fi
	rel=${img##*/vmlinuz-}
	ko=/lib/modules/$rel/updates/dkms/idlescope.ko
	[ -f "$ko" ] || fail "DKMS built no module for $rel, the kernel kmod-qemu boots"
	ir=$out/initramfs
	rm -rf "$ir" && mkdir -p "$ir/bin" "$ir/usr/bin" "$ir${ko%/*}"
	cp "$(command -v busybox)" "$ir/bin/busybox" && ln -s busybox "$ir/bin/sh"
	cp /usr/bin/collect "$ir/usr/bin/" && cp "$ko" "$ir$ko"
	ldd /usr/bin/collect | awk '/=> \// { print $3 } /^[ \t]*\// { print $1 }' | while read -r lib; do
		mkdir -p "$ir${lib%/*}" && cp -L "$lib" "$ir$lib"
	done
	cat >"$ir/init" <<'INIT'
#!/bin/sh
/bin/busybox --install -s /bin
export PATH=/usr/bin:/bin
mkdir -p /proc /sys /dev /tmp
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev
mount -t tracefs tracefs /sys/kernel/tracing; mount -t tmpfs tmpfs /tmp
collect -q --method hrt -c 20 --cpu 1 --no-counters -o /tmp/run >/tmp/log 2>&1
rc=$?
rows=$(($(wc -l </tmp/run/datapoints.csv) - 1))
path=$(grep -o '"path":[[:space:]]*"[^"]*"' /tmp/run/info.json | grep -o '/[^"]*')
echo "IDLESCOPE-DKMS: rc=$rc rows=$rows path=$path module=$([ -d /sys/module/idlescope ] && echo loaded || echo unloaded) $(head -c 300 /tmp/log | tr '\n' ' ')" >/dev/ttyS0
poweroff -f
INIT
	chmod 755 "$ir/init"
	(cd "$ir" && find . | busybox cpio -o -H newc -R 0:0 2>/dev/null | gzip -1 >"$out/initramfs.cpio.gz")
	timeout 300 qemu-system-x86_64 -accel tcg,thread=single -cpu Skylake-Client-v1 -smp 2 -m 512 -kernel "$img" \
		-initrd "$out/initramfs.cpio.gz" -append "console=ttyS0 panic=-1 loglevel=3" -display none \
		-vga none -nic none -no-reboot -monitor none -serial "file:$out/console.log" >"$out/qemu.log" 2>&1 ||
		fail "qemu: $(cat "$out/qemu.log")"
	got=$(grep -a '^IDLESCOPE-DKMS:' "$out/console.log" | tr -d '\r' | sed 's/ *$//')
	[ "$got" = "IDLESCOPE-DKMS: rc=0 rows=20 path=$ko module=unloaded" ] ||
		fail "DKMS boot test: '$got' (console: $out/console.log)"
	say "a $rel guest: the installed collect loaded $ko itself, measured 20 datapoints with hrt, unloaded it"
}

# 4. install, smoke run, purge
if [ "$(id -u)" != 0 ] || [ "${IDLESCOPE_PKG_INSTALL:-1}" = 0 ]; then
	say "install test skipped (not root, or IDLESCOPE_PKG_INSTALL=0)"
	exit 0
fi
# Several checkouts on one machine may run this at once: one install test at a time (the
# others wait here), and apt/dpkg wait for each other's lock instead of failing.
exec 9>/run/lock/idlescope-package-test.lock
flock -w 900 9 || fail "waited 15 min for another install test (/run/lock/idlescope-package-test.lock)"
for p in idlescope idlescope-dkms; do
	if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'installed$'; then
		say "install test skipped: $p is installed on this machine already (not ours to replace)"
		exit 0
	fi
done
apt_get() { DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 -y -q "$@"; }
purge() { apt_get purge idlescope idlescope-dkms >"$out/purge.log" 2>&1; }
trap purge EXIT
say "apt-get install ./idlescope_${v}_amd64.deb ./idlescope-dkms_${v}_all.deb (log: $out/install.log)"
apt_get install --no-install-recommends "$deb" "$dkmsdeb" >"$out/install.log" 2>&1 || { tail -n 30 "$out/install.log"; fail "apt-get install"; }
[ "$(command -v collect)" = /usr/bin/collect ] || fail "collect is not /usr/bin/collect after install"
for p in collect analyze report; do
	[ "$("/usr/bin/$p" --version)" = "$p (idlescope) $v" ] || fail "installed $p --version"
done
/usr/bin/analyze stats samples/wult-good >/dev/null || fail "installed analyze stats"
/usr/bin/report samples/bpf-c200 -o "$out/report-installed" >/dev/null || fail "installed report"
bash -c '. /usr/share/bash-completion/completions/analyze && complete -p analyze' | grep -q '_idlescope' ||
	fail "installed completion does not register"

# DKMS: the module for every kernel whose headers are here, where collect looks for it
built=0
for kdir in /lib/modules/*/build; do
	[ -e "$kdir/Makefile" ] || continue
	k=${kdir#/lib/modules/}
	k=${k%/build}
	ko=/lib/modules/$k/updates/dkms/idlescope.ko
	[ -f "$ko" ] || { grep -i -A5 error "$out/install.log" | head -20; fail "DKMS did not install $ko"; }
	[ "$(modinfo -F version "$ko")" = "$v" ] || fail "$ko: version $(modinfo -F version "$ko"), expected $v"
	say "DKMS built $ko (version $v)"
	built=$((built + 1))
done
[ $built -gt 0 ] || say "no kernel headers installed: DKMS had nothing to build for"
r=$(uname -r)
if [ -f "/lib/modules/$r/updates/dkms/idlescope.ko" ] && [ -e /proc/modules ]; then
	# collect loads the DKMS module itself (or says that this machine refused to load it)
	if /usr/bin/collect -q --method hrt -c 20 --no-counters -o "$out/run-hrt" 2>"$out/hrt.err"; then
		say "installed collect loaded the DKMS module and measured 20 datapoints with hrt"
	elif grep -q "loading /lib/modules/$r/updates/dkms/idlescope.ko" "$out/hrt.err"; then
		say "installed collect found the DKMS module; this kernel refused it: $(cat "$out/hrt.err")"
	else
		fail "installed collect --method hrt: $(cat "$out/hrt.err")"
	fi
else
	say "collect --method hrt not tried: no module for the running kernel $r or no module loading here"
fi
dkms_boot
purge || fail "apt-get purge (log: $out/purge.log)"
trap - EXIT
[ ! -e "/usr/src/idlescope-$v" ] || fail "/usr/src/idlescope-$v left after purge"
for ko in /lib/modules/*/updates/dkms/idlescope.ko; do
	[ -e "$ko" ] && fail "$ko left after purge"
done
say "installed, smoke-run and purged both packages"
