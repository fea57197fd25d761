#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# In the guest: self-test of the lab topology (tests/kernel/lib.sh):
# delay, loss per direction, Gilbert-Elliott loss, rate/queue limit,
# offloads at the device defaults, and a clean tear-down.
. "$(dirname "$0")/lib.sh"
thin_lab_up 50
trap thin_lab_down EXIT

# $1: ping options.  Prints "loss% avg-rtt-ms".
pingstat() {
	ip netns exec $S ping -q -n "$@" 10.0.2.1 2>/dev/null |
		awk -F'[ /%]+' '/packet loss/ { for (i = 1; i <= NF; i++) if ($i == "packet") l = int($(i - 1)) }
				/rtt|round-trip/ { a = $8 } END { printf "%s %s", l, a }'
}

read -r loss rtt <<<"$(pingstat -c 10 -i 0.2)"
check_num "RTT with 50 ms each way: $rtt ms" 'r >= 90 && r <= 250' r="$rtt"
check '[ "$loss" = 0 ]' "no loss by default ($loss%)"
check 'ip netns exec $S ethtool -k s0 | grep -q "^generic-segmentation-offload: on"' "GSO at the device default (on), as deployed"

thin_lab_netem fwd delay 50ms loss 100%
read -r loss rtt <<<"$(pingstat -c 5 -i 0.2 -W 1)"
check '[ "$loss" = 100 ]' "fwd loss 100% blocks the forward direction ($loss%)"
thin_lab_netem fwd delay 50ms
thin_lab_netem rev delay 50ms loss 100%
read -r loss rtt <<<"$(pingstat -c 5 -i 0.2 -W 1)"
check '[ "$loss" = 100 ]' "rev loss 100% blocks the reverse direction ($loss%)"
thin_lab_netem rev delay 50ms

thin_lab_netem fwd loss 30%
read -r loss rtt <<<"$(pingstat -c 300 -i 0.005 -W 1)"
check '[ "$loss" -ge 15 ] && [ "$loss" -le 45 ]' "uniform 30% loss: $loss% of 300 pings"

# Gilbert-Elliott: p 5%, r 20%, loss 100% in the bad state, 0% in the
# good one: the bad state holds p / (p + r) = 20% of the time, in bursts.
thin_lab_netem fwd loss gemodel 5% 20% 100% 0%
read -r loss rtt <<<"$(pingstat -c 300 -i 0.005 -W 1)"
check '[ "$loss" -ge 5 ] && [ "$loss" -le 40 ]' "Gilbert-Elliott loss (mean 20%): $loss% of 300 pings"

# 1 Mbit/s: a 1000-byte ping takes 8 ms to serialize.  With a 5-packet
# queue, a burst of 20 (ping -l) overflows it.
thin_lab_netem fwd rate 1mbit limit 5
read -r loss rtt <<<"$(pingstat -c 5 -i 0.2 -s 1000)"
check_num "rate 1 Mbit/s: 1000-byte ping RTT $rtt ms (50 ms rev delay + 8 ms serialization)" 'r >= 57' r="$rtt"
read -r loss rtt <<<"$(pingstat -c 20 -l 20 -s 1000 -W 2)"
check '[ "$loss" -ge 30 ]' "queue limit 5: a burst of 20 loses packets ($loss%)"
thin_lab_netem fwd delay 50ms

thin_lab_down
trap - EXIT
check '! ip netns list | grep -q "^$LAB"' "tear-down removes every namespace"
thin_done
