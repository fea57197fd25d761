#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# In the guest: thin-gen's options for many associations on one socket,
# which bench-scale relies on (tests/bench/scale.sh):
# - the sink creates --ready-file once it has accepted --expect
#   associations, and the sender's traffic waits for it (--wait-file);
# - --warmup sends one message per association before the traffic,
#   paced at --warmup-rate, and waits for its ack; the sink counts these
#   apart and logs only the traffic's messages, each exactly once.
. "$(dirname "$0")/lib.sh"
thin_out gen
thin_need_gen
thin_lab_up 10
trap thin_lab_down EXIT
N=20
ip netns exec $R "$GEN" sink --proto sctp --listen 10.0.2.1:7000 --ports $N --expect $N \
	--duration 60 --log "$OUT/sink.log" --progress 0 --ready-file "$OUT/ready" \
	>"$OUT/sink.out" 2>&1 &
sink=$!
thin_wait_listen sctp 7000
# 20 warm-up messages at 10/s: the last goes 1.9 s after the first.
ip netns exec $S "$GEN" send --proto sctp --connect 10.0.2.1:7000 --assocs $N \
	--style one-to-many --size 100 --interval 100 --duration 2 --progress 0 \
	--wait-file "$OUT/ready" --warmup --warmup-rate 10 --log "$OUT/send.log" \
	>"$OUT/send.out" 2>&1
rc=$?
wait $sink
check '[ $rc = 0 ]' "sender done (rc $rc)"
check '[ -f "$OUT/ready" ]' "sink created --ready-file"
check 'grep -q "^accepted $N " "$OUT/ready"' "ready file: $(cat "$OUT/ready" 2>/dev/null)"
w=$(sed -n "s/^thin-gen send: warm-up $N messages at 10\/s, all acknowledged after \([0-9.]*\) s$/\1/p" "$OUT/send.out")
check_num "warm-up of $N at 10/s paced: acknowledged after ${w:-?} s (>= 1.9 s)" \
	'w >= 1.9 && w < 10' w="$w"
check 'grep -q "^thin-gen sink: warm-up messages $N (not counted above)" "$OUT/sink.out"' \
	"sink counted $N warm-up messages apart"
sent=$(grep -vc '^#' "$OUT/send.log")
got=$(grep -vc '^#' "$OUT/sink.log")
uniq=$(awk '!/^#/ { print $1, $2 }' "$OUT/sink.log" | sort -u | wc -l)
check '[ "$sent" -gt 0 ] && [ "$got" = "$sent" ] && [ "$uniq" = "$sent" ]' \
	"sink logged the $sent traffic messages once each ($got lines, $uniq distinct), no warm-up"
thin_done
