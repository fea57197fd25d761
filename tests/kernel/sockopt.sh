#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# In the guest: SCTP_THIN / SCTP_THIN_INFO over loopback (tests/kernel/sockopt.c),
# with the sysctls at their defaults and then all on; then no thin object
# is left once the sockets are closed.
. "$(dirname "$0")/lib.sh"
ip link set lo up
out=$("$BIN/sockopt" 7700)
echo "$out" | grep -v -E '^[0-9]+ passed'
THIN_PASS=$((THIN_PASS + $(echo "$out" | grep -c '^ok')))
THIN_FAIL=$((THIN_FAIL + $(echo "$out" | grep -c '^not ok')))

sysctl -q -p "$TOP/sysctl/90-thin-sctp.conf"
out=$("$BIN/sockopt" 7710)
echo "$out" | grep -v -E '^[0-9]+ passed' | sed 's/^\(not \)\?ok - /&[sysctl all on] /'
THIN_PASS=$((THIN_PASS + $(echo "$out" | grep -c '^ok')))
THIN_FAIL=$((THIN_FAIL + $(echo "$out" | grep -c '^not ok')))
for k in thin_rto_min thin_restart_timer thin_linear_timeouts thin_fast_retransmit; do
	sysctl -q -w net.sctp.$k=0
done
check 'thin_objects_zero 10' "every thin object freed after close ($(cat /sys/module/sctp/parameters/thin_objects) left)"
thin_done
