#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In the guest (as root, sctp already loaded by tests/vm/guest.sh): run every
# lksctp-tools functional test program that tests/regress/fetch-build.sh
# built, one after the other, each with a timeout, and write
#   $THIN_OUT/<label>.tsv        one line per test: name, PASS/FAIL, seconds
#   $THIN_OUT/<label>/<test>.log the test's output
#   $THIN_OUT/<label>/env.txt    addresses and net.sctp sysctls it ran with
#
#   run-suite.sh LABEL
#
# The suite runs in a network namespace of its own (unshare -n): only "lo"
# exists there, so nothing a test sends can leave the guest (test_sctp_sendv
# lists made-up peers in 172.16.1.0/24 and 2020::/64).  The tests need
# loopback up with 127.0.0.1/8 and ::1, and root (they bind port 1024, as
# PROT_SOCK); nothing else (no sysctl, see src/func_tests/Makefile.am and
# src/testlib/sctputil.h; Debian's package has no debian/tests).
#
# Environment:
#   REGRESS_SETUP           shell snippet run in that namespace before the
#                           tests (e.g. sysctls); failure aborts the suite
#   REGRESS_SETUP_OPTIONAL  1: sysctl keys that do not exist are skipped with
#                           a note (sysctl -e) and a failing snippet is only
#                           reported
#   REGRESS_TIMEOUT         seconds per test (default 60)
#   REGRESS_ONLY            run only these tests (space-separated names)
#
# Exit: 0 all passed, 1 some failed, 2 the suite could not run.
set -u
LABEL=${1:?usage: run-suite.sh LABEL}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
LK=$TOP/build/lksctp-tools
DIR=$LK/current/src/func_tests
OUT=${THIN_OUT:?THIN_OUT not set (run through tests/vm/run)}
TSV=$OUT/$LABEL.tsv
LOGS=$OUT/$LABEL
TMO=${REGRESS_TIMEOUT:-60}

say() { echo "regress[$LABEL]: $*"; }

# Re-run in a fresh network namespace (the setup snippet too, so per-netns
# sysctls it sets apply to the tests).
if [ -z "${REGRESS_IN_NETNS:-}" ]; then
	REGRESS_IN_NETNS=1 exec unshare -n -- "$TOP/tests/regress/run-suite.sh" "$@"
fi

rm -rf "$LOGS"
mkdir -p "$LOGS"
: >"$TSV"
[ -s "$LK/tests.txt" ] || { say "no $LK/tests.txt: run tests/regress/fetch-build.sh"; exit 2; }
mapfile -t tests <"$LK/tests.txt"
if [ -n "${REGRESS_ONLY:-}" ]; then
	read -r -a tests <<<"$REGRESS_ONLY"
fi

# Loopback with both families.
ip link set lo up
sysctl -q -w net.ipv6.conf.all.disable_ipv6=0 net.ipv6.conf.lo.disable_ipv6=0 >/dev/null 2>&1
ip -6 addr show dev lo | grep -q 'inet6 ::1/' || ip -6 addr add ::1/128 dev lo 2>/dev/null
ip -4 addr show dev lo | grep -q 'inet 127.0.0.1/' || ip -4 addr add 127.0.0.1/8 dev lo 2>/dev/null
if ! ip -6 addr show dev lo | grep -q 'inet6 ::1/' || ! ip -4 addr show dev lo | grep -q 'inet 127.0.0.1/'; then
	say "loopback lacks 127.0.0.1 or ::1"
	ip addr
	exit 2
fi

if [ -n "${REGRESS_SETUP:-}" ]; then
	say "setup: $REGRESS_SETUP"
	if [ "${REGRESS_SETUP_OPTIONAL:-0}" = 1 ]; then
		# sysctl with keys this kernel lacks: name them, skip them.
		setup_sysctl() {
			local a k
			for a in "$@"; do
				case "$a" in
				-*) ;;
				*=*)
					k=${a%%=*}
					[ -e "/proc/sys/${k//.//}" ] || echo "regress: setup: no sysctl $k here, skipped" ;;
				esac
			done
			command sysctl -e "$@"
		}
		if ! bash -c "sysctl() { setup_sysctl \"\$@\"; }; $(declare -f setup_sysctl)
$REGRESS_SETUP"; then
			say "setup failed; going on (REGRESS_SETUP_OPTIONAL=1)"
		fi
	elif ! bash -c "$REGRESS_SETUP"; then
		say "setup failed"
		exit 2
	fi
fi

{
	echo "kernel $(uname -r), sctp $(cat /sys/module/sctp/version 2>/dev/null || echo in-tree)"
	ip -br addr
	sysctl -a 2>/dev/null | grep '^net\.sctp\.'
} >"$LOGS/env.txt"

# wait_quiet: until the previous test's endpoints and associations are gone
# (the tests reuse ports 1024/1025; upstream's v4test sleeps 1 s instead).
wait_quiet() {
	for _ in $(seq 1 50); do
		[ "$(cat /proc/net/sctp/eps /proc/net/sctp/assocs 2>/dev/null | grep -vc -e '^ *ENDPT' -e '^ *ASSOC')" = 0 ] &&
			return 0
		sleep 0.1
	done
	say "sctp endpoints/associations linger after the previous test"
	return 0
}

cd "$DIR" || exit 2
pass=0 fail=0 failed=""
t_all=$EPOCHREALTIME
for t in "${tests[@]}"; do
	wait_quiet
	t0=$EPOCHREALTIME
	if [ ! -x "./$t" ]; then
		echo "$t: not built" >"$LOGS/$t.log"
		rc=127
	else
		timeout -k 5 "$TMO" "./$t" >"$LOGS/$t.log" 2>&1 </dev/null
		rc=$?
	fi
	secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
	if [ "$rc" = 0 ]; then
		r=PASS pass=$((pass + 1))
	else
		r=FAIL fail=$((fail + 1)) failed="$failed $t"
		[ "$rc" = 124 ] && echo "regress: timed out after $TMO s" >>"$LOGS/$t.log"
		echo "regress: exit status $rc" >>"$LOGS/$t.log"
	fi
	printf '%s\t%s\t%s\n' "$t" "$r" "$secs" >>"$TSV"
	printf 'regress[%s]: %-32s %s %6s s\n' "$LABEL" "$t" "$r" "$secs"
done
secs=$(awk -v a="$t_all" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')
say "$pass/$((pass + fail)) passed in $secs s${failed:+; failed:$failed}"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
