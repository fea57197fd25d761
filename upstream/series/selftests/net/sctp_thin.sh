#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Thin streams: small messages 100 ms apart, RTT 10 ms, the receiver at
# its default delayed SACK; nftables in the receiver's namespace drops
# the DATA chunk with payload protocol identifier 7 (one message the
# client marks) once or more.  Each mechanism is switched on alone (with
# the I-bit, which keeps the RTT samples free of the delayed SACK) and
# checked against the same stream with every thin-stream sysctl off,
# the control, which also shows that the drop happened:
#
# - fast retransmit on the first miss indication (thin_fast_retransmit):
#   a message in the middle lost once; stock waits for three miss
#   indications, three more messages (about 300 ms); thin: one interval
#   and a round trip (under 250 ms);
# - RTO.Min while thin (thin_rto_min 200): the last message lost once,
#   so only T3-rtx can repair it; stock's RTO.Min is 1 s (at least
#   800 ms); thin: under 500 ms;
# - linear timeouts (thin_linear_timeouts): the last message lost three
#   times; stock doubles the RTO (1 s, then 2 s, ...: at least 2500 ms),
#   and so would thin without them (0.2, 0.4, 0.8 s: 1.4 s); with them,
#   0.6 s (under 1000 ms).
#
# Every message must arrive.  The test skips on a kernel without the
# sysctls, without netem or without nftables' SCTP chunk matching.
#
# TOPO: CLIENT_NS (veth0, 10.0.0.1) <---> (veth0, 10.0.0.2) SERVER_NS

source lib.sh

CLIENT_IP=10.0.0.1
SERVER_IP=10.0.0.2
COUNT=20
INTERVAL_MS=100
OFF="net.sctp.thin_fast_retransmit=0 net.sctp.thin_sack_immediately=0
net.sctp.thin_rto_min=0 net.sctp.thin_restart_timer=0
net.sctp.thin_linear_timeouts=0"

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

# The server's namespace drops the first $1 DATA chunks marked with PPID
# 7 and lets the later ones through: drop k adds the client's address to
# the set s<k>.
drop_start()
{
	local n=${1:-1} m="sctp chunk data ppid 7" k sets="" rules

	rules="$m ip saddr @s$n accept"
	for k in $(seq "$n"); do
		sets="$sets set s$k { type ipv4_addr; flags dynamic; };"
		[ "$k" -lt "$n" ] || continue
		rules="$rules; $m ip saddr @s$((n - k))"
		rules="$rules add @s$((n - k + 1)) { ip saddr } counter drop"
	done
	rules="$rules; $m add @s1 { ip saddr } counter drop"
	ip netns exec "$SERVER_NS" nft -f - <<-EOF_NFT
		table ip sctp_thin {
			$sets
			chain input {
				type filter hook input priority filter; policy accept;
				$rules
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
		sed -n 's/.*counter packets \([0-9]*\).*/\1/p' |
		awk '{ n += $1 } END { print n + 0 }'
}

# $1: the client's thin-stream sysctls ("" for all off), $2: port, $3:
# the message to drop, $4: how many times.  Sets LAT to that message's
# latency in ms (empty if none).
run_stream()
{
	local set=$1 port=$2 mark=$3 times=$4 out spid i n

	# shellcheck disable=SC2086 # word splitting wanted: NAME=V pairs
	ip netns exec "$CLIENT_NS" sysctl -wq $OFF $set
	out=$(mktemp)
	ip netns exec "$SERVER_NS" ./sctp_thin server "$port" "$COUNT" >"$out" &
	spid=$!
	for i in $(seq 50); do
		ip netns exec "$SERVER_NS" ss -SlnH "sport = :$port" | grep -q . && break
		sleep 0.1
	done
	drop_start "$times"
	ip netns exec "$CLIENT_NS" ./sctp_thin client "$SERVER_IP" "$port" \
		"$COUNT" "$INTERVAL_MS" "$mark"
	check_err $? "the client failed"
	wait "$spid"
	check_err $? "the server did not read $COUNT messages"
	n=$(drop_count)
	drop_stop
	[ "${n:-0}" -eq "$times" ]
	check_err $? "${n:-no} chunks dropped, not $times: the test proves nothing"
	[ "$(grep -c '^msg ' "$out")" -eq "$COUNT" ]
	check_err $? "not every message arrived"
	LAT=$(sed -n "s/^msg $mark latency_ms \\([0-9.]*\\)$/\\1/p" "$out")
	rm -f "$out"
}

# $1: name, $2: sysctls, $3: port, $4: message, $5: drops, $6: stock's
# least latency (ms), $7: thin's bound (ms, exclusive)
run_case()
{
	local name=$1 set=$2 port=$3 mark=$4 times=$5 least=$6 bound=$7

	RET=0
	run_stream "" "$port" "$mark" "$times"
	log_info "$name, sysctls off: the lost message took ${LAT:-?} ms"
	[ -n "$LAT" ] && awk -v v="$LAT" -v m="$least" 'BEGIN { exit !(v + 0 >= m) }'
	check_err $? "without the sysctls it took ${LAT:-?} ms, under $least: no control"
	log_test "$name: control, stock's timing"

	RET=0
	run_stream "$set" "$((port + 1))" "$mark" "$times"
	log_info "$name, $set: the lost message took ${LAT:-?} ms"
	[ -n "$LAT" ] && awk -v v="$LAT" -v m="$bound" 'BEGIN { exit !(v + 0 < m) }'
	check_err $? "with $set it took ${LAT:-?} ms, not under $bound"
	log_test "$name: thin stream, under $bound ms"
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

I_BIT=net.sctp.thin_sack_immediately=1
run_case "fast retransmit on the first miss indication" \
	"net.sctp.thin_fast_retransmit=1 $I_BIT" 1240 10 1 250 250
run_case "RTO.Min while thin, a lost last message" \
	"net.sctp.thin_rto_min=200 $I_BIT" 1250 $((COUNT - 1)) 1 800 500
run_case "linear timeouts, a last message lost three times" \
	"net.sctp.thin_rto_min=200 net.sctp.thin_linear_timeouts=1 $I_BIT" \
	1260 $((COUNT - 1)) 3 2500 1000

exit $EXIT_STATUS
