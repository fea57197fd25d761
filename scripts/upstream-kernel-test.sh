#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The upstream-form kernel (scripts/upstream-kernel.sh) in the test VM:
# it boots, its sctp.ko loads and has the series' sysctls, patch 9's
# selftest passes on it (red without the sysctls: its control), and the
# lksctp-tools functional tests pass with the thin-stream sysctls off
# and with every one of them on (the series' preset and RDB), and the
# module's mechanism tests (tests/kernel/mechanisms.sh, each mechanism
# off and on with chosen losses) pass on it, their thin-send built for the
# series' API (tools/thin-api.h: option 134, counters from sctp_info).
#
#   upstream-kernel-test.sh KVER BUILD
#
# Writes BUILD/upstream-kernel/test/ (the VM's output, lksctp-tools'
# results) and prints "N passed, M failed".
set -u
KVER=$1 BUILD=$2
TOP=$(cd "$(dirname "$0")/.." && pwd)
K=$BUILD/upstream-kernel
O=$K/final
T=$K/test
NET=tools/testing/selftests/net
[ -f "$O/net/sctp/sctp.ko" ] || { echo "upstream-kernel-test: no kernel in $O; run scripts/upstream-kernel.sh"; exit 1; }
"$TOP/tests/regress/fetch-build.sh" >/dev/null || exit 1
"$TOP/scripts/upstream-selftests-src.sh" "$KVER" "$BUILD" || exit 1
rm -rf "$T"
mkdir -p "$T/selftest"
# patch 9's files, with the pristine lib.sh beside them
cp "$TOP/upstream/series/selftests/net/sctp_thin.sh" "$BUILD/pristine-selftests/$NET/lib.sh" "$T/selftest/"
cp -r "$BUILD/pristine-selftests/$NET/lib" "$T/selftest/"
chmod 755 "$T/selftest/sctp_thin.sh"
${CC:-cc} -Wall -O2 -o "$T/selftest/sctp_thin" "$TOP/upstream/series/selftests/net/sctp_thin.c" ||
	{ echo "upstream-kernel-test: cannot build the selftest's helper"; exit 1; }
# thin-send for the series' API: the series' uapi sctp.h, the rest of the
# test programs as built for the module (they do not use its API)
SERIES=$BUILD/upstream-series
[ -f "$SERIES/include/uapi/linux/sctp.h" ] ||
	{ echo "upstream-kernel-test: no $SERIES; run make upstream-series"; exit 1; }
make -s -C "$TOP/tests/kernel" >/dev/null || { echo "upstream-kernel-test: make tests failed"; exit 1; }
mkdir -p "$T/uapi/linux" "$T/bin"
cp "$SERIES/include/uapi/linux/sctp.h" "$T/uapi/linux/"
make -s -C "$TOP/tests/kernel" upstream UPSTREAM_UAPI="$T/uapi" UPSTREAM_OUT="$T/bin" >/dev/null ||
	{ echo "upstream-kernel-test: cannot build thin-send for the series' API"; exit 1; }
for b in thin-drop; do ln -s "$TOP/build/tests/$b" "$T/bin/$b"; done
on="net.sctp.thin_rto_min=200 net.sctp.thin_restart_timer=1 net.sctp.thin_linear_timeouts=1"
on="$on net.sctp.thin_fast_retransmit=1 net.sctp.thin_loss_estimation=1"
on="$on net.sctp.thin_congestion_guard=20 net.sctp.thin_sack_immediately=1 net.sctp.thin_rdb=1"
cat >"$T/guest.sh" <<GUEST
set -u
pass=0 fail=0
ok() { echo "ok - \$*"; pass=\$((pass + 1)); }
bad() { echo "not ok - \$*"; fail=\$((fail + 1)); }
echo "kernel \$(uname -r)"
modprobe sctp && ok "sctp.ko of the upstream-form kernel loads" || bad "modprobe sctp"
n=\$(ls /proc/sys/net/sctp | grep -c '^thin_')
[ "\$n" = 11 ] && ok "11 thin_ sysctls" || bad "\$n thin_ sysctls, not 11"
[ "\$(cat /proc/sys/net/sctp/thin_fast_retransmit)" = 0 ] && ok "off by default" || bad "thin_fast_retransmit is on by default"
cd $T/selftest && ./sctp_thin.sh >\$THIN_OUT/selftest.log 2>&1
rc=\$?
cat \$THIN_OUT/selftest.log
[ \$rc = 0 ] && ok "selftest sctp_thin.sh" || bad "selftest sctp_thin.sh (exit \$rc)"
cd $TOP
tests/regress/run-suite.sh upstream-off >/dev/null 2>&1
REGRESS_SETUP="sysctl -q -w $on" tests/regress/run-suite.sh upstream-thin >/dev/null 2>&1
for c in upstream-off upstream-thin; do
	p=\$(grep -c PASS \$THIN_OUT/\$c.tsv) a=\$(wc -l <\$THIN_OUT/\$c.tsv)
	echo "lksctp-tools \$c: \$p of \$a passed"
done
# every test that passes with the sysctls off passes with them on
while IFS=\$'\\t' read -r t r _; do
	[ "\$r" = PASS ] || continue
	grep -q "^\$t	PASS" \$THIN_OUT/upstream-thin.tsv && pass=\$((pass + 1)) ||
		bad "lksctp-tools \$t passes off, fails with the sysctls on"
done <\$THIN_OUT/upstream-off.tsv
[ "\$(grep -c PASS \$THIN_OUT/upstream-off.tsv)" -gt 30 ] && ok "lksctp-tools: more than 30 pass with the sysctls off" ||
	bad "lksctp-tools: 30 or fewer pass with the sysctls off"
# the module's mechanism tests, on this kernel
THIN_BIN=$T/bin THIN_TRACE_SYSTEM=sctp bash tests/kernel/mechanisms.sh >\$THIN_OUT/mechanisms.log 2>&1
rc=\$?
grep -E '^(ok|not ok|#)' \$THIN_OUT/mechanisms.log | sed 's/^/  mechanisms: /'
mp=\$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed\$/\1/p' \$THIN_OUT/mechanisms.log)
mf=\$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed\$/\2/p' \$THIN_OUT/mechanisms.log)
[ \$rc = 0 ] && [ "\${mf:-x}" = 0 ] && [ "\${mp:-0}" -gt 20 ] &&
	ok "mechanisms.sh: \$mp passed, \$mf failed" ||
	bad "mechanisms.sh: \${mp:-?} passed, \${mf:-?} failed (exit \$rc)"
echo "\$pass passed, \$fail failed"
[ \$fail = 0 ]
GUEST
VM_KDIR=$O VM_QUIET=1 "$TOP/tests/vm/run" --kver "$KVER" --noload --out "$T/vm" -- "bash $T/guest.sh"
rc=$?
grep -E '^(ok|not ok|lksctp-tools|kernel|# |  mechanisms: (not ok|# [0-9a-z]+:)|.*\[ *(OK|FAIL|SKIP) *\])' "$T/vm/console.txt" | sed 's/^/  /'
# the guest's total (VM_VERBOSE=1 puts the kernel's messages after it)
grep -E '^[0-9]+ passed, [0-9]+ failed' "$T/vm/console.txt" | tail -n 1
exit $rc
