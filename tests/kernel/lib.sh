# SPDX-License-Identifier: GPL-2.0-or-later
# Shared helpers of the in-guest kernel tests (sourced).
# ok/not_ok/skip print TAP-like lines; thin_done prints "N passed, M failed".
THIN_PASS=0
THIN_FAIL=0
TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
BIN=$TOP/build/tests

# $1: description
ok() { THIN_PASS=$((THIN_PASS + 1)); echo "ok - $1"; }
# $1: description, $2: details
not_ok() { THIN_FAIL=$((THIN_FAIL + 1)); echo "not ok - $1${2:+: $2}"; }
# $1: condition command (string), $2: description
check() { if eval "$1"; then ok "$2"; else not_ok "$2" "$1"; fi; }
# $1: reason.  A skip is a failure under THIN_STRICT=1.
skip() {
	if [ "${THIN_STRICT:-1}" = 1 ]; then not_ok "skip not allowed: $1"; else echo "ok - # SKIP $1"; fi
}
thin_done() { echo "$THIN_PASS passed, $THIN_FAIL failed"; [ "$THIN_FAIL" = 0 ]; }

# Wait until no thin-sctp object is alive (association teardown is
# asynchronous: RCU and netns cleanup).  $1: seconds.
thin_objects_zero() {
	local i
	for i in $(seq 1 $((${1:-10} * 10))); do
		[ "$(cat /sys/module/sctp/parameters/thin_objects)" = 0 ] && return 0
		sleep 0.1
	done
	return 1
}
