#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In the guest (or on a test host, after tests/vm/guest.sh loaded our
# module): run every in-kernel test script listed in tests/vm/suite.list,
# each in its own process, and print "N passed, M failed" over all their
# checks.  Each script prints "ok"/"not ok" lines and its own
# "N passed, M failed" line.  THIN_STRICT=1 (default) turns a skip into a
# failure, so a test cannot pass by not running.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
export THIN_STRICT=${THIN_STRICT:-1}
passed=0 failed=0
declare -a times
while read -r t; do
	case "$t" in ''|'#'*) continue ;; esac
	[ -n "${SUITE_ONLY:-}" ] && ! echo " $SUITE_ONLY " | grep -q " $t " && continue
	echo "### $t"
	t0=$(date +%s)
	out=$(cd "$TOP" && timeout "${SUITE_TIMEOUT:-600}" bash "$t" 2>&1)
	rc=$?
	secs=$(($(date +%s) - t0))
	echo "$out"
	line=$(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
	p=0 f=0
	if [ -n "$line" ]; then
		p=${line%% passed*}
		f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
	fi
	[ "$rc" != 0 ] && [ "$f" = 0 ] && f=1 && echo "not ok - $t exited $rc"
	# A script that ran no check (no summary line, or "0 passed, 0
	# failed") and exited 0 has tested nothing: no pass.
	[ "$p" = 0 ] && [ "$f" = 0 ] && f=1 && echo "not ok - $t ran no check"
	passed=$((passed + p))
	failed=$((failed + f))
	times+=("$(printf '%-32s %5d s  %4d passed, %d failed' "$t" "$secs" "$p" "$f")")
done <"$TOP/tests/vm/suite.list"
# Where the time goes (make check's budget, docs/testing.md).
[ ${#times[@]} = 0 ] || { echo "# suite: time per script"; printf '#   %s\n' "${times[@]}"; }
[ $((passed + failed)) = 0 ] && failed=1 && echo "not ok - no test script ran (SUITE_ONLY: ${SUITE_ONLY:-})"
echo "suite: $passed passed, $failed failed"
[ "$failed" = 0 ]
