#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In the guest: run every lksctp-tools functional test (v4 and v6) with a
# timeout and write $THIN_OUT/<label>.tsv: name, PASS/FAIL, seconds.
#   run-suite.sh LABEL
# REGRESS_SETUP, if set, is run first (for example sysctls that force every
# thin mechanism on).  Each run has a network namespace of its own, made
# for it and deleted after it: its sysctls stay there, so the tests that
# follow in the same boot (make check) find the host's values as they
# were.  (sctp.ko cannot be unloaded to start afresh: its control sockets
# hold references, tests/kernel/lifecycle.sh.)
set -u
LABEL=$1
if [ -z "${REGRESS_NETNS:-}" ]; then
	export REGRESS_NETNS=thin-regress-$LABEL
	ip netns add "$REGRESS_NETNS" || exit 1
	ip netns exec "$REGRESS_NETNS" "$0" "$@"
	rc=$?
	ip netns del "$REGRESS_NETNS"
	exit "$rc"
fi
TOP=$(cd "$(dirname "$0")/../.." && pwd)
DIR=$TOP/build/lksctp-tools/current/src/func_tests
OUT=${THIN_OUT:?}/$LABEL.tsv
ip link set lo up
sysctl -q -w net.ipv6.conf.lo.disable_ipv6=0 2>/dev/null || true
if [ -n "${REGRESS_SETUP:-}" ]; then
	echo "regress: setup: $REGRESS_SETUP"
	bash -c "$REGRESS_SETUP" || { echo "regress: setup failed"; exit 1; }
fi
tests=$(sed -n '/^PASSING_KERN_TESTS\|^PASSING_V6_KERN_TESTS\|^[[:space:]]test_/p' "$DIR/Makefile.am" |
	grep -o 'test_[a-z0-9_]*' | sort -u)
: >"$OUT"
cd "$DIR" || exit 1
for t in $tests; do
	[ -x "./$t" ] || continue
	t0=$(date +%s.%N)
	if timeout 120 "./$t" >"$THIN_OUT/$LABEL-$t.log" 2>&1; then r=PASS; else r=FAIL; fi
	printf '%s\t%s\t%.1f\n' "$t" "$r" "$(echo "$(date +%s.%N) - $t0" | bc)" >>"$OUT"
	echo "regress: $LABEL $t $r"
done
echo "regress: $LABEL $(grep -c PASS "$OUT") of $(wc -l <"$OUT") passed"
