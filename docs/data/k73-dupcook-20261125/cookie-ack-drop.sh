# Drop every COOKIE-ACK on the emulator for $1 s, then let them through; how
# long does connect() take?  Expect ~RTO.Initial (3 s) + RTT if duplicate
# COOKIE-ECHOs are answered (RFC 9260 5.2.4 action D).
. tests/kernel/lib.sh
W=${1:-1}
thin_lab_up 10
ip netns exec $E nft -f - <<NFT
table inet dc {
	chain f {
		type filter hook forward priority -10;
		sctp chunk cookie-ack exists counter drop
	}
}
NFT
ip netns exec $E tcpdump -i e1 -n -w /tmp/dc.pcap sctp 2>/dev/null &
TD=$!
# answer the queue: thin-drop passes everything
ip netns exec $E "$BIN/thin-drop" -q 0 -l /tmp/dc.log -t 30 &
DROP=$!
sleep 1
ip netns exec $R "$BIN/thin-send" recv 5151 25 &
thin_wait_listen sctp 5151
( sleep $W; ip netns exec $E nft delete table inet dc; echo "# COOKIE-ACK drop removed at ${W}s" ) &
t0=$(date +%s%N)
ip netns exec $S timeout 20 "$BIN/thin-send" send 10.0.2.1 5151 -n 1 -w 3000 >/tmp/dc.out 2>&1
rc=$?
t1=$(date +%s%N)
echo "connect+send rc=$rc after $(( (t1 - t0) / 1000000 )) ms"
cat /tmp/dc.out | head -5
ip netns exec $S cat /proc/net/sctp/snmp | grep -E "ActiveEstab|PassiveEstab" | sed 's/^/S /'
ip netns exec $R cat /proc/net/sctp/snmp | grep -E "ActiveEstab|PassiveEstab|OutCtrl|InCtrl" | sed 's/^/R /'
sleep 1; kill $TD; wait $TD 2>/dev/null
tcpdump -n -r /tmp/dc.pcap 2>/dev/null | sed 's/^/pcap /' | head -30
kill $DROP 2>/dev/null
thin_lab_down
