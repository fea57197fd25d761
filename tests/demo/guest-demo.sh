#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In the guest: the paper's lab workload (section 6.1) for each variant:
# RTT 100 ms, 5 % uniform loss on the data direction, 20 associations each
# sending 100-byte messages every 250 ms, for DEMO_SECONDS.  The sink
# stops when the sender's connections have all closed (after their data
# is delivered), DEMO_SECONDS + 120 s at most.  Writes
# $THIN_OUT/<variant>.txt (summary) and <variant>.lat (per message).
#   guest-demo.sh VARIANT...   (stock rto200 thin tcp tcp-thin)
. "$(dirname "$0")/../kernel/lib.sh"
DUR=${DEMO_SECONDS:-60}
LAT=$TOP/build/tools/thin-lat
thin_lab_up 50
trap thin_lab_down EXIT
thin_lab_netem fwd delay 50ms loss 5% limit 10000
port=7000
for v in "$@"; do
	port=$((port + 1))
	proto=sctp
	thin_sysctls_off
	ip netns exec $S sysctl -q -w net.sctp.rto_min=1000
	ip netns exec $S sysctl -q -w net.ipv4.tcp_thin_linear_timeouts=0
	case "$v" in
	stock) ;;
	rto200) ip netns exec $S sysctl -q -w net.sctp.rto_min=200 ;;
	thin) ip netns exec $S sysctl -q -p "$TOP/sysctl/90-thin-sctp.conf" ;;
	tcp) proto=tcp ;;
	tcp-thin) proto=tcp; ip netns exec $S sysctl -q -w net.ipv4.tcp_thin_linear_timeouts=1 ;;
	*) echo "unknown variant $v"; exit 2 ;;
	esac
	echo "demo: $v: $DUR s of traffic ($(date +%T))"
	ip netns exec $R "$LAT" sink --proto $proto --port $port \
		--seconds $((DUR + 120)) --out "$THIN_OUT/$v.lat" >"$THIN_OUT/$v.txt" &
	sink=$!
	# A busy guest can take seconds to start the sink: wait until it
	# listens (after a fixed 0.5 s the rto200 sender once found nobody).
	thin_wait_listen $proto $port || echo "demo: $v: the sink does not listen on $port"
	ip netns exec $S "$LAT" send --proto $proto --addr 10.0.2.1 --port $port \
		--assocs 20 --size 100 --interval 250 --seconds "$DUR" >"$THIN_OUT/$v.send" 2>&1
	wait $sink
	echo "variant=$v" >>"$THIN_OUT/$v.txt"
	grep sent= "$THIN_OUT/$v.send" >>"$THIN_OUT/$v.txt"
	cat "$THIN_OUT/$v.txt" | tr '\n' ' '; echo
done
