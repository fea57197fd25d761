#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Association set-up with a lost COOKIE ACK, on a server whose association
# moves to a socket of its own: accept() on a one-to-one socket, and
# SCTP_SOCKOPT_PEELOFF on a one-to-many socket.
#
# The client's namespace drops the first COOKIE ACK (nft).  The client
# retransmits its COOKIE ECHO when T1-cookie expires (rto_initial, 1 s
# here).  The server has the association ESTABLISHED, on the new socket,
# and must answer the duplicate with a COOKIE ACK (RFC 9260, section
# 5.2.4, action D), so the client's connect() returns after about 1 s.
# Without that answer the client retransmits until Max.Init.Retransmits;
# we give connect() 10 s.
#
# TOPO: CLIENT_NS (veth0, 10.0.0.1) <---> (veth0, 10.0.0.2) SERVER_NS

source lib.sh

CLIENT_IP=10.0.0.1
SERVER_IP=10.0.0.2
CONNECT_TIMEOUT_MS=10000

cleanup()
{
	cleanup_all_ns
}

setup()
{
	modprobe -q sctp
	setup_ns CLIENT_NS SERVER_NS || exit $ksft_skip
	if [ ! -d /proc/sys/net/sctp ]; then
		echo "SKIP: no SCTP in this kernel"
		exit $ksft_skip
	fi
	ip -n "$CLIENT_NS" link add veth0 type veth peer name veth0 netns "$SERVER_NS"
	ip -n "$CLIENT_NS" addr add "$CLIENT_IP/24" dev veth0
	ip -n "$SERVER_NS" addr add "$SERVER_IP/24" dev veth0
	ip -n "$CLIENT_NS" link set veth0 up
	ip -n "$SERVER_NS" link set veth0 up
	ip netns exec "$CLIENT_NS" sysctl -wq net.sctp.rto_initial=1000
}

# The client's namespace drops the first COOKIE ACK from the server and
# lets the later ones through: the first adds the server's address to
# the set "seen".
drop_start()
{
	ip netns exec "$CLIENT_NS" nft -f - <<-EOF_NFT
		table ip sctp_dupcookie {
			set seen {
				type ipv4_addr
				flags dynamic
			}
			chain input {
				type filter hook input priority filter; policy accept;
				sctp chunk cookie-ack exists ip saddr @seen accept
				sctp chunk cookie-ack exists add @seen { ip saddr } counter drop
			}
		}
	EOF_NFT
}

drop_stop()
{
	ip netns exec "$CLIENT_NS" nft delete table ip sctp_dupcookie
}

drop_count()
{
	ip netns exec "$CLIENT_NS" nft list table ip sctp_dupcookie |
		sed -n 's/.*counter packets \([0-9]*\).*/\1/p'
}

# $1: accept|peeloff, $2: port
run_test()
{
	local mode=$1 port=$2 spid dropped i

	RET=0
	ip netns exec "$SERVER_NS" ./sctp_dupcookie server "$mode" "$port" &
	spid=$!
	for i in $(seq 50); do
		ip netns exec "$SERVER_NS" ss -SlnH "sport = :$port" | grep -q . && break
		sleep 0.1
	done
	drop_start
	ip netns exec "$CLIENT_NS" ./sctp_dupcookie client "$SERVER_IP" "$port" \
		"$CONNECT_TIMEOUT_MS"
	check_err $? "the client did not connect (duplicate COOKIE ECHO unanswered)"
	dropped=$(drop_count)
	drop_stop
	log_info "$mode: ${dropped:-no} COOKIE ACK dropped"
	wait "$spid"
	check_err $? "the server did not get the message on its new socket"
	[ "${dropped:-0}" -eq 1 ]
	check_err $? "${dropped:-no} COOKIE ACKs dropped, not 1: the test proves nothing"
	log_test "lost COOKIE ACK, association moved by $mode"
}

if ! nft --version >/dev/null 2>&1; then
	echo "SKIP: nft not installed"
	exit $ksft_skip
fi
trap cleanup EXIT
setup
if ! drop_start; then
	echo "SKIP: nft cannot match SCTP chunks"
	exit $ksft_skip
fi
drop_stop

run_test accept 1234
run_test peeloff 1235

exit $EXIT_STATUS
