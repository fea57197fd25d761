#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In the guest: data integrity under hostile networks (issue 7), with
# tools/thin-gen.  For each fault scenario, netem on the emulator applies
# the fault to both directions (so SACKs are lost, duplicated, ... too)
# while four flows run side by side with the same traffic seed:
#
#   thin     SCTP one-to-one, 4 associations, every mechanism but the
#            congestion guard, 100 B, exp. 50 ms
#   thin-1tm SCTP one-to-many, 4 associations, --thin all, WoW profile
#   thin-big SCTP one-to-one, 2 associations, as thin, 3000 B messages
#            (3 DATA chunks each) every 100 ms
#   thin-rdb SCTP one-to-one, 4 associations, as thin with the I-bit,
#            redundant data bundling (copies of outstanding chunks in
#            front of new ones: duplicates the receiver must drop) and
#            the tail probe
#   thin-probe SCTP one-to-one, 4 associations, as thin with the I-bit
#            and the tail probe (copies of the newest outstanding chunk)
# (Heavy loss trips the congestion guard, which turns the mechanisms off:
# two flows run without it so that the mechanisms meet every fault.)
#   stock    SCTP one-to-one, 4 associations, no SCTP_THIN (sysctls off)
#
# Once every flow is connected and sending, the faults last
# INTEGRITY_SECONDS (default 6); then the network heals (delay only) and
# the senders go on for 3 s more.
# Checks per flow: every message the sender logged arrived exactly once,
# intact (the sink checks the payload pattern), in order per association;
# the sender is done (its messages acknowledged) within a bound after the
# heal: 25 s with the thin mechanisms, rto_max + 5 s for stock; and the
# sink sees every association shut down within 30 s after that (no
# stall: data stuck in a sender's queue keeps its association open).
# At the end, no thin-sctp object is left.
. "$(dirname "$0")/lib.sh"
GEN=$TOP/build/tools/thin-gen
DUR=${INTEGRITY_SECONDS:-6}
D=20
OUT=${THIN_OUT:-/tmp}/integrity
rm -rf "$OUT"
mkdir -p "$OUT"
[ -x "$GEN" ] || { not_ok "$GEN missing (make tests)"; thin_done; exit 1; }

thin_lab_up $D
trap thin_lab_down EXIT
# Checksums in software on every hop, so that netem's corruption is
# caught by SCTP's CRC32c and not hidden by an offload shortcut.
for l in "$S s0" "$E e0" "$E e1" "$R r0"; do
	set -- $l
	ip netns exec "$1" ethtool -K "$2" tx off rx off >/dev/null 2>&1
done
thin_sysctls_off
rto_max=$(($(ip netns exec $S sysctl -n net.sctp.rto_max) / 1000))

# name|forward netem options|reverse netem options (after "delay 20ms")
SCENARIOS=(
	"loss30|loss 30%|loss 10%"
	"burst|loss gemodel 3% 25% 100% 0%|loss gemodel 3% 25% 100% 0%"
	"reorder|delay ${D}ms 10ms reorder 25% 50%|reorder 25% 50%"
	"dup|duplicate 20%|duplicate 20%"
	"corrupt|corrupt 5%|corrupt 5%"
	"rate|rate 400kbit limit 6|"
	"mix|loss 10% duplicate 5% corrupt 2% reorder 10% 50%|loss 10% duplicate 5% reorder 10% 50%"
)
[ -n "${INTEGRITY_ONLY:-}" ] && SCENARIOS=("$INTEGRITY_ONLY")

# name port assocs sender-options...
FLOWS=(
	"thin 6001 4 --style one-to-one --size 100 --interval 50 --dist exp --thin rto_min,restart,linear,fr,loss"
	"thin-1tm 6101 4 --style one-to-many --profile wow --thin all"
	"thin-big 6201 2 --style one-to-one --size 3000 --interval 100 --thin rto_min,restart,linear,fr,loss"
	"thin-rdb 6401 4 --style one-to-one --size 100 --interval 50 --dist exp --thin rto_min,restart,linear,fr,loss,si,rdb,probe"
	"thin-probe 6501 4 --style one-to-one --size 100 --interval 50 --dist exp --thin rto_min,restart,linear,fr,loss,si,probe"
	"stock 6301 4 --style one-to-one --size 100 --interval 50 --dist exp"
)
[ -n "${INTEGRITY_FLOWS:-}" ] && mapfile -t FLOWS <<<"$INTEGRITY_FLOWS"

# $1: netem options for one direction.  A "delay" given there replaces
# the default one-way delay (netem's reorder needs a delay to reorder).
netem_opts() {
	case "$1" in *delay*) echo "$1 limit 10000" ;;
	*rate*) echo "delay ${D}ms $1" ;;
	*) echo "delay ${D}ms $1 limit 10000" ;;
	esac
}

total_sent=0 total_ok=0 nassocs=0
for f in "${FLOWS[@]}"; do
	set -- $f
	nassocs=$((nassocs + $3))
done
for sc in "${SCENARIOS[@]}"; do
	IFS='|' read -r name fwd rev <<<"$sc"
	declare -A SINK=() SEND=()
	for f in "${FLOWS[@]}"; do
		set -- $f
		ip netns exec $R "$GEN" sink --proto sctp --listen "10.0.2.1:$2" --ports "$3" \
			--expect "$3" --sack-delay-off --duration $((DUR + rto_max + 120)) \
			--log "$OUT/$name-$1.sink.log" --progress 0 >"$OUT/$name-$1.sink.out" 2>&1 &
		SINK[$1]=$!
	done
	# INTEGRITY_PCAP=1: both interfaces of the emulator from before the
	# senders start (association set-up included, 400 bytes a packet),
	# and both ends' SCTP counters before and after ($name.snmp).
	cap=""
	if [ -n "${INTEGRITY_PCAP:-}" ]; then
		for i in e0 e1; do
			ip netns exec $E tcpdump -i $i -s 400 -w "$OUT/$name-$i.pcap" sctp 2>/dev/null &
			cap="$cap $!"
		done
		for ns in $S $R; do
			echo "== start ${ns: -1}"
			ip netns exec $ns cat /proc/net/sctp/snmp
		done >"$OUT/$name.snmp"
	fi
	sleep 1
	for f in "${FLOWS[@]}"; do
		set -- $f
		fl=$1 port=$2 n=$3
		shift 3
		ip netns exec $S "$GEN" send --proto sctp --connect "10.0.2.1:$port" --assocs "$n" \
			"$@" --duration $((DUR + 3)) --nodelay --seed "${INTEGRITY_SEED:-11}" --drain $((rto_max + 90)) \
			--connect-timeout 60 --log "$OUT/$name-$fl.send.log" --progress 0 \
			>"$OUT/$name-$fl.send.out" 2>"$OUT/$name-$fl.send.err" &
		SEND[$fl]=$!
	done
	# Faults start once every flow is connected and sending (connection
	# set-up under loss would eat the fault window), for DUR seconds:
	# every association ESTABLISHED (ST 3) on the sender's side, whose
	# COOKIE-ACK has arrived.  (Counting the sink's side alone once let a
	# fault begin while COOKIE-ACKs were still in the emulator's queue,
	# which replacing its qdisc drops: a 7.3 run had one association of
	# two flows never come up in 60 s.)  Both tables are logged every
	# 0.5 s while the scenario runs, in $name.assocs.
	( while :; do
		for ns in $S $R; do
			echo "== $(date +%s.%N) ${ns: -1}"
			ip netns exec $ns cat /proc/net/sctp/assocs
		done
		sleep 0.5
	done ) >"$OUT/$name.assocs" 2>&1 &
	mon=$!
	for i in $(seq 1 300); do
		n=$(ip netns exec $S awk 'NR > 1 && $5 == 3' /proc/net/sctp/assocs | wc -l)
		[ "$n" -ge "$nassocs" ] && break
		sleep 0.1
	done
	echo "# $name: $n associations established after ${i}00 ms"
	# shellcheck disable=SC2046
	thin_lab_netem fwd $(netem_opts "$fwd")
	# shellcheck disable=SC2046
	thin_lab_netem rev $(netem_opts "$rev")
	sleep "$DUR"
	thin_lab_netem fwd delay ${D}ms limit 10000
	thin_lab_netem rev delay ${D}ms limit 10000
	healed=$(date +%s.%N)
	echo "# $name: fwd [$fwd] rev [$rev]: network healed"
	# Senders in the order they finish, so that each one's time is its own.
	declare -A SRC=() DRAIN=()
	while [ ${#SRC[@]} -lt ${#FLOWS[@]} ]; do
		for fl in "${!SEND[@]}"; do
			[ -n "${SRC[$fl]:-}" ] && continue
			kill -0 "${SEND[$fl]}" 2>/dev/null && continue
			wait "${SEND[$fl]}"
			SRC[$fl]=$?
			DRAIN[$fl]=$(awk -v a="$healed" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
		done
		sleep 0.1
	done
	if [ -n "${INTEGRITY_PCAP:-}" ]; then
		for ns in $S $R; do
			echo "== end ${ns: -1}"
			ip netns exec $ns cat /proc/net/sctp/snmp
		done >>"$OUT/$name.snmp"
	fi
	# shellcheck disable=SC2086
	kill $mon $cap 2>/dev/null
	# shellcheck disable=SC2086
	wait $mon $cap 2>/dev/null
	# Every sender has closed: each sink must see all its associations
	# shut down within 30 s.
	for i in $(seq 1 300); do
		n=0
		for fl in "${!SINK[@]}"; do kill -0 "${SINK[$fl]}" 2>/dev/null && n=$((n + 1)); done
		[ $n = 0 ] && break
		sleep 0.1
	done
	if [ $n != 0 ]; then
		echo "# $name: $n sinks still running 30 s after their senders closed; associations:"
		for ns in $S $R; do { ip netns exec $ns cat /proc/net/sctp/assocs /proc/net/sctp/thin /proc/net/sctp/remaddr; ip netns exec $ns ss -n -i -e --sctp; } 2>&1 | sed "s/^/# $ns: /"; done
		for fl in "${!SINK[@]}"; do kill "${SINK[$fl]}" 2>/dev/null; done
	fi
	for f in "${FLOWS[@]}"; do
		set -- $f
		fl=$1
		src=${SRC[$fl]}
		drain=${DRAIN[$fl]}
		wait "${SINK[$fl]}"
		krc=$?
		bound=25
		[ "$fl" = stock ] && bound=$((rto_max + 5))
		v=$(thin_verify "$OUT/$name-$fl.send.log" "$OUT/$name-$fl.sink.log")
		echo "# $name-$fl: $v; $(grep -h '^thin-gen send: thin:' "$OUT/$name-$fl.send.out" | cut -d' ' -f4-)"
		declare -A V=()
		for kvp in $v; do V[${kvp%%=*}]=${kvp#*=}; done
		check '[ $src = 0 ] && [ $krc = 0 ]' \
			"$name/$fl: sender and sink exit 0 ($(tail -n 1 "$OUT/$name-$fl.send.err" 2>/dev/null))"
		check '[ "${V[sent]}" -gt 0 ] && [ "${V[missing]}" = 0 ] && [ "${V[dup]}" = 0 ] && [ "${V[extra]}" = 0 ] && [ "${V[recv]}" = "${V[sent]}" ]' \
			"$name/$fl: every message exactly once (${V[recv]}/${V[sent]}, missing ${V[missing]}, dup ${V[dup]}, extra ${V[extra]})"
		check '[ "${V[order]}" = 0 ] && [ "${V[mismatch]}" = 0 ] && grep -q "dups=0 gaps=0 bad=0 corrupt=0" "$OUT/$name-$fl.sink.out"' \
			"$name/$fl: in order, sizes and timestamps match, payload intact"
		check_num "$name/$fl: sender done ${drain:-(no time)} s after the heal (bound $bound s)" \
			"d <= b" d="$drain" b="$bound"
		total_sent=$((total_sent + ${V[sent]:-0}))
		[ "${V[missing]}${V[dup]}${V[extra]}${V[order]}${V[mismatch]}" = 00000 ] &&
			total_ok=$((total_ok + ${V[recv]:-0}))
	done
done
echo "# integrity: ${#SCENARIOS[@]} scenarios, $total_sent messages sent, $total_ok verified"
thin_lab_settle 10
thin_lab_down
trap - EXIT
check 'thin_objects_zero 15' "no thin-sctp object left ($(cat /sys/module/sctp/parameters/thin_objects))"
thin_done
