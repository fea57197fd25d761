#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Thin streams: one lost message of a stream of small messages 100 ms
# apart, RTT 10 ms, the receiver at its default delayed SACK.
#
# The server's namespace drops the first DATA chunk with payload
# protocol identifier 7 (nft); the client marks message 10 of 20 so.
# Without the thin-stream sysctls the loss waits for three miss
# indications (RFC 9260 7.2.4), three more messages: about 300 ms.  With
# them (net.sctp.thin_fast_retransmit and the I-bit while thin), the
# first miss indication fast-retransmits it: about one interval, 100 ms
# plus the RTT.  Checked: every message arrives, the lost one within
# 250 ms with the sysctls and no sooner than 250 ms without them (the
# control: the drop happened and the stock path is slow).
#
# TOPO: CLIENT_NS (veth0, 10.0.0.1) <---> (veth0, 10.0.0.2) SERVER_NS

source lib.sh

CLIENT_IP=10.0.0.1
SERVER_IP=10.0.0.2
COUNT=20
MARK=10
INTERVAL_MS=100
THIN_MAX_MS=250

cleanup()
{
	cleanup_all_ns
}

setup()
{
	modprobe -q sctp
	setup_ns CLIENT_NS SERVER_NS || exit $ksft_skip
	if [ ! -f /proc/sys/net/sctp/thin_fast_retransmit ]; then
		echo "SKIP: no SCTP thin-stream sysctls in this kernel"
		exit $ksft_skip
	fi
	ip -n "$CLIENT_NS" link add veth0 type veth peer name veth0 netns "$SERVER_NS"
	ip -n "$CLIENT_NS" addr add "$CLIENT_IP/24" dev veth0
	ip -n "$SERVER_NS" addr add "$SERVER_IP/24" dev veth0
	ip -n "$CLIENT_NS" link set veth0 up
	ip -n "$SERVER_NS" link set veth0 up
	tc -n "$CLIENT_NS" qdisc add dev veth0 root netem delay 5ms ||
		{ echo "SKIP: no netem"; exit $ksft_skip; }
	tc -n "$SERVER_NS" qdisc add dev veth0 root netem delay 5ms
}

# The server's namespace drops the first DATA chunk marked with PPID 7
# and lets its retransmission through: the first adds the client's
# address to the set "seen".
drop_start()
{
	ip netns exec "$SERVER_NS" nft -f - <<-EOF_NFT
		table ip sctp_thin {
			set seen {
				type ipv4_addr
				flags dynamic
			}
			chain input {
				type filter hook input priority filter; policy accept;
				sctp chunk data ppid 7 ip saddr @seen accept
				sctp chunk data ppid 7 add @seen { ip saddr } counter drop
			}
		}
	EOF_NFT
}

drop_stop()
{
	ip netns exec "$SERVER_NS" nft delete table ip sctp_thin
}

drop_count()
{
	ip netns exec "$SERVER_NS" nft list table ip sctp_thin |
		sed -n 's/.*counter packets \([0-9]*\).*/\1/p'
}

# $1: 0 (thin-stream sysctls off) or 1 (on), $2: port.  Sets LAT to the
# latency in ms of the message that was lost (empty if none).
run_stream()
{
	local thin=$1 port=$2 out spid i n

	# the mechanism under test alone: a lower RTO.Min (thin_rto_min)
	# would repair the loss at 200 ms without it
	ip netns exec "$CLIENT_NS" sysctl -wq net.sctp.thin_fast_retransmit="$thin" \
		net.sctp.thin_sack_immediately="$thin" net.sctp.thin_rto_min=0
	out=$(mktemp)
	ip netns exec "$SERVER_NS" ./sctp_thin server "$port" "$COUNT" >"$out" &
	spid=$!
	for i in $(seq 50); do
		ip netns exec "$SERVER_NS" ss -SlnH "sport = :$port" | grep -q . && break
		sleep 0.1
	done
	drop_start
	ip netns exec "$CLIENT_NS" ./sctp_thin client "$SERVER_IP" "$port" \
		"$COUNT" "$INTERVAL_MS" "$MARK"
	check_err $? "the client failed"
	wait "$spid"
	check_err $? "the server did not read $COUNT messages"
	n=$(drop_count)
	drop_stop
	[ "${n:-0}" -eq 1 ]
	check_err $? "${n:-no} chunks dropped, not 1: the test proves nothing"
	[ "$(grep -c '^msg ' "$out")" -eq "$COUNT" ]
	check_err $? "not every message arrived"
	LAT=$(sed -n "s/^msg $MARK latency_ms \\([0-9.]*\\)$/\\1/p" "$out")
	rm -f "$out"
}

if ! nft --version >/dev/null 2>&1; then
	echo "SKIP: nft not installed"
	exit $ksft_skip
fi
trap cleanup EXIT
setup
if ! drop_start; then
	echo "SKIP: nft cannot match SCTP DATA chunks"
	exit $ksft_skip
fi
drop_stop

RET=0
run_stream 0 1240
stock=$LAT
log_info "sysctls off: the lost message took ${stock:-?} ms"
[ -n "$stock" ] && awk -v v="$stock" -v m="$THIN_MAX_MS" 'BEGIN { exit !(v + 0 >= m) }'
check_err $? "without the sysctls the loss took ${stock:-?} ms, under $THIN_MAX_MS: no control"
log_test "control: a lost message waits for three miss indications"

RET=0
run_stream 1 1241
thin=$LAT
log_info "sysctls on: the lost message took ${thin:-?} ms"
[ -n "$thin" ] && awk -v v="$thin" -v m="$THIN_MAX_MS" 'BEGIN { exit !(v + 0 < m) }'
check_err $? "with the sysctls the loss took ${thin:-?} ms, not under $THIN_MAX_MS"
log_test "thin stream: a lost message is fast-retransmitted on the first indication"

exit $EXIT_STATUS
