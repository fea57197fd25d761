#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# In the guest (tests/vm/run, our module): thin-stat against thin-gen
# traffic through the lab (RTT 100 ms, 5 % loss forward): two thin
# associations on a one-to-many socket, one stock one-to-one association.
# thin-stat must list all three with their addresses, thin state and
# mechanisms, per-path RTO, the primary path's SRTT near the RTT, a cwnd,
# and the same in --json; the interval mode prints --count samples.
#
#   tests/vm/run --out DIR -- bash tests/deb/thin-stat.sh
# shellcheck source=tests/kernel/lib.sh disable=SC2016,SC2086
. "$(dirname "$0")/../kernel/lib.sh"
GEN=$TOP/build/tools/thin-gen
STAT=$TOP/tools/thin-stat
OUT=${THIN_OUT:-/tmp}/thin-stat
rm -rf "$OUT"
mkdir -p "$OUT"
[ -x "$GEN" ] || { not_ok "$GEN missing (make tests)"; thin_done; exit 1; }
thin_lab_up 50
trap thin_lab_down EXIT
thin_lab_netem fwd delay 50ms loss 5%

# The traffic outlasts the samples: python starts slowly in a busy TCG
# guest (seconds per thin-stat run).
ip netns exec $R "$GEN" sink --proto sctp --listen 10.0.2.1:7100 --ports 2 --duration 150 \
	--progress 0 >"$OUT/sink-thin.out" 2>&1 &
ip netns exec $R "$GEN" sink --proto sctp --listen 10.0.2.1:7200 --duration 150 --progress 0 \
	>"$OUT/sink-stock.out" 2>&1 &
thin_wait_listen sctp 7100
thin_wait_listen sctp 7200
ip netns exec $S "$GEN" send --proto sctp --connect 10.0.2.1:7100 --assocs 2 --style one-to-many \
	--size 100 --interval 100 --duration 120 --thin all --progress 0 >"$OUT/send-thin.out" 2>&1 &
ip netns exec $S "$GEN" send --proto sctp --connect 10.0.2.1:7200 --size 100 --interval 100 \
	--duration 120 --thin none --progress 0 >"$OUT/send-stock.out" 2>&1 &
sleep 10

ip netns exec $S "$STAT" >"$OUT/thin-stat.txt" 2>&1
ip netns exec $S "$STAT" --json >"$OUT/thin-stat.json" 2>&1
ip netns exec $S "$STAT" --json --thin >"$OUT/thin-stat-thin.json" 2>&1
ip netns exec $S "$STAT" -p 7200 >"$OUT/thin-stat-7200.txt" 2>&1
ip netns exec $S "$STAT" --interval 0.5 --count 3 >"$OUT/thin-stat-interval.txt" 2>&1
cat "$OUT/thin-stat.txt"

# jq-less JSON checks: python over the document.
q() { python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print($1)" "$2" 2>/dev/null; }
n=$(q 'len(d["associations"])' "$OUT/thin-stat.json")
check '[ "$n" = 3 ]' "thin-stat --json lists 3 associations (got $n)"
check '[ "$(q "d[\"thin_sctp\"]" "$OUT/thin-stat.json")" = True ]' "it knows the module is thin-sctp"
thin_n=$(q 'len([a for a in d["associations"] if a["thin"]["mechanisms"]])' "$OUT/thin-stat.json")
check '[ "$thin_n" = 2 ]' "2 associations with mechanisms on (got $thin_n)"
srtt=$(q 'min(p["srtt_ms"] for a in d["associations"] for p in a["paths"] if p.get("srtt_ms") is not None)' "$OUT/thin-stat.json")
srtt_max=$(q 'max(p["srtt_ms"] for a in d["associations"] for p in a["paths"] if p.get("srtt_ms") is not None)' "$OUT/thin-stat.json")
check_num "primary paths' SRTT from sctp_diag near the RTT (100 ms, up to +200 ms delayed SACK): $srtt-$srtt_max ms" \
	'a >= 80 && b <= 400' a="$srtt" b="$srtt_max"
cwnd=$(q 'min(p["cwnd"] for a in d["associations"] for p in a["paths"] if "cwnd" in p)' "$OUT/thin-stat.json")
check_num "primary paths' cwnd from sctp_diag: at least $cwnd bytes" 'c >= 1000' c="$cwnd"
rto=$(q 'min(p["rto_ms"] for a in d["associations"] for p in a["paths"])' "$OUT/thin-stat.json")
check_num "per-path RTO in ms (remaddr, CONFIG_HZ): at least $rto" 'r >= 200' r="$rto"
sent=$(q 'sum(a["thin"]["counters"]["sent"] for a in d["associations"] if a["thin"]["mechanisms"])' "$OUT/thin-stat.json")
check_num "mechanism counters: thin associations sent $sent packets" 's >= 100' s="$sent"
check 'grep -q "^ESTAB .*10.0.1.1:.*\*10.0.2.1:7100" "$OUT/thin-stat.txt"' "text: addresses, the primary path marked *"
check 'grep -q "mechanisms:rto_min,restart_timer,linear_timeouts,fast_retransmit,loss_estimation,congestion_guard,sack_immediately" "$OUT/thin-stat.txt"' \
	"text: the mechanisms of a thin association"
check 'grep -q "mechanisms:none" "$OUT/thin-stat.txt"' "text: the stock association with none"
check 'grep -q " srtt:[0-9]*ms cwnd:[0-9]*" "$OUT/thin-stat.txt"' "text: SRTT and cwnd of the primary path"
check '[ "$(grep -c "^ESTAB" "$OUT/thin-stat-7200.txt")" = 1 ]' "-p 7200: only the stock association"
tn=$(q 'len(d["associations"])' "$OUT/thin-stat-thin.json")
check_num "--thin: only associations detected as thin now ($tn of 3)" 'n <= 2' n="$tn"
check '[ "$(grep -c "^--- " "$OUT/thin-stat-interval.txt")" = 3 ]' "--interval 0.5 --count 3: three samples"
# shellcheck disable=SC2046
kill $(jobs -p) 2>/dev/null
wait
thin_done
