# SPDX-License-Identifier: GPL-2.0-or-later
# Shared helpers of the in-guest kernel tests (sourced).
# ok/not_ok/skip print TAP-like lines; thin_done prints "N passed, M failed".
THIN_PASS=0
THIN_FAIL=0
TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
# THIN_BIN: the test programs built for another API (upstream-kernel-test.sh)
BIN=${THIN_BIN:-$TOP/build/tests}

# $1: description
ok() { THIN_PASS=$((THIN_PASS + 1)); echo "ok - $1"; }
# $1: description, $2: details
not_ok() { THIN_FAIL=$((THIN_FAIL + 1)); echo "not ok - $1${2:+: $2}"; }
# $1: condition command (string), $2: description
check() { if eval "$1"; then ok "$2"; else not_ok "$2" "$1"; fi; }
# $1: reason.  A skip is a failure under THIN_STRICT=1.
skip() {
	if [ "${THIN_STRICT:-1}" = 1 ]; then not_ok "skip not allowed: $1"; else echo "ok - # SKIP $1"; fi
}
thin_done() { echo "$THIN_PASS passed, $THIN_FAIL failed"; [ "$THIN_FAIL" = 0 ]; }

# The traffic generator and sink (tools/thin-gen.c).
GEN=$TOP/build/tools/thin-gen
# $1: name.  The script's results directory, OUT=$THIN_OUT/NAME (THIN_OUT
# defaults to /tmp), emptied.
thin_out() {
	OUT=${THIN_OUT:-/tmp}/$1
	rm -rf "$OUT"
	mkdir -p "$OUT"
}
# Ends the script (not ok, the summary, exit 1) unless thin-gen is built.
thin_need_gen() { [ -x "$GEN" ] || { not_ok "$GEN missing (make tests)"; thin_done; exit 1; }; }

# Measurements that feed a comparison must exist and be numbers: awk
# compares an empty or non-numeric value as a string ("" <= 1.4 is true,
# so is "-nan" <= 1.4), and bash's $((...)) reads an empty value or a
# word as 0.  These helpers refuse such values.
#
# $1: value.  True only for a finite decimal number: 12, -3, 0.25, 1e3
# (not "", "-nan", "inf", "0x1f", "12 ms", two lines).
thin_num() { [[ "$1" =~ ^[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?$ ]]; }
# $1: value.  True only for a decimal integer (what [ -ge ] and $((...))
# take).
thin_int() { [[ "$1" =~ ^[-+]?[0-9]+$ ]]; }
# $@: NAME=VALUE...  Prints why the first VALUE that is no number is not
# ("NAME missing" or "NAME not a number: VALUE") and returns 0; returns 1
# when all are numbers.
thin_nan() {
	local a
	for a; do
		thin_num "${a#*=}" && continue
		if [ -z "${a#*=}" ]; then echo "${a%%=*} missing"; else echo "${a%%=*} not a number: ${a#*=}"; fi
		return 0
	done
	return 1
}
# $1: awk condition, rest: NAME=VALUE...  True if every VALUE is a number
# and the condition holds with NAME bound to it (as a number).
thin_holds() {
	local v
	v=$(thin_calc "($1) ? 1 : 0" "${@:2}") && [ "$v" = 1 ]
}
# thin_expect EXPR DESC: one check of $g: ok if the awk expression EXPR
# holds for it, not ok if it does not, and not ok whatever EXPR says when
# $g is not a number (no measurement).  THIN_EXPECT_UNIT follows $g in the
# output.
thin_expect() {
	local why u=${THIN_EXPECT_UNIT:+ $THIN_EXPECT_UNIT}
	if why=$(thin_nan g="$g"); then
		not_ok "$2" "no measurement: $why"
	elif thin_holds "$1" g="$g"; then
		ok "$2 ($g$u)"
	else
		not_ok "$2" "$g$u"
	fi
}
# $1: awk expression, rest: NAME=VALUE...  Prints the expression's value
# with NAME bound to each VALUE; prints nothing and fails if a VALUE is no
# number (where $((a - b)) would print -b for an empty a).
thin_calc() {
	local expr=$1 a init="" args=()
	shift
	thin_nan "$@" >/dev/null && return 1
	for a; do
		args+=(-v "$a")
		init="$init ${a%%=*} += 0;"
	done
	awk "${args[@]}" "BEGIN { $init printf \"%.15g\\n\", ($expr) }"
}
# $1: description, $2: awk condition, rest: NAME=VALUE...  ok if every
# VALUE is a number and the condition holds; otherwise not ok, saying
# which measurement is missing or not a number, or the values.
check_num() {
	local desc=$1 cond=$2 why
	shift 2
	if why=$(thin_nan "$@"); then
		not_ok "$desc" "no measurement: $why"
	elif thin_holds "$cond" "$@"; then
		ok "$desc"
	else
		not_ok "$desc" "not ($cond) with $*"
	fi
}

# Wall-clock ns (CLOCK_REALTIME, as thin-gen --events stamps), without a
# fork (a busy TCG guest makes forks slow).
now_ns() { local t=${EPOCHREALTIME/./}; echo "${t}000"; }
# Statistics of the numbers on stdin, one per line (other lines are
# ignored): "n median min p75" (p75 by nearest rank), "0 - - -" if none.
thin_stats() {
	awk '/^-?[0-9]+(\.[0-9]+)?$/ { v[n++] = $1 + 0 }
		END {
			if (!n) { print "0 - - -"; exit }
			for (i = 1; i < n; i++)
				for (j = i; j > 0 && v[j - 1] > v[j]; j--) { x = v[j]; v[j] = v[j - 1]; v[j - 1] = x }
			m = n % 2 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2
			printf "%d %.3f %.3f %.3f\n", n, m, v[0], v[int((3 * n + 3) / 4) - 1]
		}'
}
# Mann-Whitney's rank test, one-sided: are the numbers in file $1 smaller
# than those in file $2 (one per line; other lines ignored)?  Prints z of
# U = #{(a, b): a < b} + #{a = b} / 2 by the normal approximation (right
# for 8 or more values each): 3.09 or more says "smaller" with p < 0.001
# when both come from one distribution.  Prints nothing (fails) when a
# file holds no number.
thin_mw_z() {
	awk '/^-?[0-9]+(\.[0-9]+)?$/ { if (FNR == NR) a[na++] = $1 + 0; else b[nb++] = $1 + 0 }
		END {
			if (!na || !nb) exit 1
			for (i = 0; i < na; i++)
				for (j = 0; j < nb; j++)
					u += a[i] < b[j] ? 1 : a[i] == b[j] ? 0.5 : 0
			printf "%.2f\n", (u - na * nb / 2) / sqrt(na * nb * (na + nb + 1) / 12)
		}' "$1" "$2"
}

# How late the guest runs a 20 ms timer (a loaded TCG guest stalls):
# "t_us lateness_us" per wake-up into $1; THIN_LATE holds the pid.
thin_late_start() {
	# shellcheck disable=SC2016
	bash -c 'exec 3<> <(:)
		p=${EPOCHREALTIME/./}
		while :; do
			read -r -t 0.02 -u 3
			t=${EPOCHREALTIME/./}
			echo "$t $((t - p - 20000))"
			p=$t
		done' >"$1" 2>/dev/null &
	THIN_LATE=$!
}
# $1: lateness file, $2: from (ns), $3: seconds.  "max p99" lateness, ms.
thin_late_stats() {
	awk -v a="$2" -v s="$3" '$1 * 1000 >= a && $1 * 1000 < a + s * 1e9 { v[n++] = $2 / 1000 }
		END {
			if (!n) { print "- -"; exit }
			for (i = 1; i < n; i++) for (j = i; j > 0 && v[j - 1] > v[j]; j--) { x = v[j]; v[j] = v[j - 1]; v[j - 1] = x }
			printf "%.0f %.0f\n", v[n - 1], v[int((n - 1) * 0.99)]
		}' "$1"
}

# Wait until no thin-sctp object is alive (association teardown is
# asynchronous: RCU and netns cleanup).  $1: seconds.
thin_objects_zero() {
	local i
	for i in $(seq 1 $((${1:-10} * 10))); do
		[ "$(cat /sys/module/sctp/parameters/thin_objects)" = 0 ] && return 0
		sleep 0.1
	done
	return 1
}

# The paper's lab (Fig. 7) in three namespaces, for the mechanism tests:
#
#   [S] 10.0.1.1 --veth-- 10.0.1.2 [E] 10.0.2.2 --veth-- 10.0.2.1 [R]
#
# E delays each direction by $1 ms (netem) and queues every SCTP packet it
# forwards to NFQUEUE 0, where thin-drop drops chosen transmissions and
# logs every DATA chunk and SACK.  Offloads (TSO/GSO/GRO) stay at the
# devices' defaults, as on a user's host: SCTP builds GSO packets, which
# NFQUEUE segments before thin-drop sees them (it does not ask for
# NFQA_CFG_F_GSO), so thin-drop still acts on wire packets.  A lab whose
# losses all come from netem (safety.sh) leaves the NFQUEUE hop out.
# thin_lab_down removes everything.  The namespaces are $S $E $R: a
# caller may set them to other names (safety.sh runs a second lab so).
LAB=thl$$
S=${LAB}s E=${LAB}e R=${LAB}r

# $1: one-way delay in ms, $2: "noqueue" to leave out the NFQUEUE rule
# (then no thin-drop is needed; nothing drops chosen packets), or "udp"
# with $3 a UDP port: queue SCTP over UDP from or to that port (RFC 6951,
# interop.sh; run thin-drop with -u PORT) instead of plain SCTP, which E
# then only counts (thin_lab_plain_sctp).
thin_lab_up() {
	# (the loop below sets the positional parameters)
	local d=$1 mode=${2:-} port=${3:-} ns l
	for ns in $S $E $R; do ip netns add $ns; ip -n $ns link set lo up; done
	ip link add s0 netns $S type veth peer name e0 netns $E
	ip link add r0 netns $R type veth peer name e1 netns $E
	ip -n $S addr add 10.0.1.1/24 dev s0
	ip -n $E addr add 10.0.1.2/24 dev e0
	ip -n $E addr add 10.0.2.2/24 dev e1
	ip -n $R addr add 10.0.2.1/24 dev r0
	for l in "$S s0" "$E e0" "$E e1" "$R r0"; do
		set -- $l
		ip -n "$1" link set "$2" up
	done
	ip -n $S route add default via 10.0.1.2
	ip -n $R route add default via 10.0.2.2
	ip netns exec $E sysctl -q -w net.ipv4.ip_forward=1
	thin_lab_netem fwd delay "${d}ms" limit 10000
	thin_lab_netem rev delay "${d}ms" limit 10000
	[ "$mode" = noqueue ] && return 0
	if [ "$mode" = udp ]; then
		ip netns exec $E nft -f - <<NFT
table inet thin {
	chain thin_fwd {
		type filter hook forward priority 0;
		meta l4proto sctp counter
		udp dport $port queue num 0 bypass
		udp sport $port queue num 0 bypass
	}
}
NFT
		return 0
	fi
	ip netns exec $E nft -f - <<NFT
table inet thin {
	chain thin_fwd {
		type filter hook forward priority 0;
		meta l4proto sctp queue num 0 bypass
	}
}
NFT
}

# Plain (not UDP-encapsulated) SCTP packets E forwarded in a
# "thin_lab_up DELAY udp PORT" lab; nothing if the counter cannot be read.
thin_lab_plain_sctp() {
	ip netns exec $E nft list chain inet thin thin_fwd 2>/dev/null |
		awk '/meta l4proto sctp counter/ { for (i = 1; i < NF; i++) if ($i == "packets") print $(i + 1) }'
}

# netem on the emulator, per direction.  $1: fwd (sender -> receiver) or
# rev (receiver -> sender); rest: netem options, replacing all of the
# direction's current ones, for example:
#   delay 50ms                          one-way delay
#   delay 50ms loss 5%                  uniform loss
#   delay 50ms loss gemodel 1% 30% 100% 0%   Gilbert-Elliott (p r 1-h 1-k)
#   delay 50ms rate 1mbit limit 100     bottleneck rate, 100-packet queue
# both: the same options for each direction, fwd then rev.
thin_lab_netem() {
	local dev=e1
	if [ "$1" = both ]; then
		shift
		thin_lab_netem fwd "$@"
		thin_lab_netem rev "$@"
		return
	fi
	[ "$1" = rev ] && dev=e0
	shift
	ip netns exec $E tc qdisc replace dev $dev root netem "$@" \
		$(thin_netem_resets "$@")
}

# "tc qdisc replace" on an existing netem is a change: the kernel keeps
# corrupt, reorder, rate and correlation unless the request names them
# (sch_netem.c netem_change; loss, delay, limit and duplicate are always
# set).  A heal with "delay 50ms" therefore kept an earlier "corrupt 1%".
# Deleting and re-adding the qdisc would drop the packets in its delay
# line, so name the sticky options as off instead.  (The delay, loss and
# duplicate correlations stay too; no caller sets them.)  $@: the options
# given.
thin_netem_resets() {
	local o out="corrupt 0% reorder 0% rate 0bit"
	for o in "$@"; do
		case $o in
		corrupt) out=${out/corrupt 0%/} ;;
		reorder) out=${out/reorder 0%/} ;;
		rate) out=${out/rate 0bit/} ;;
		esac
	done
	echo $out
}

# Let the associations of S and R end while the path still exists: end
# their processes (not E's, whose packet injector would then drop the
# SHUTDOWN exchange), wait up to $1 s (default 10) for both namespaces'
# association tables to empty, and print what is left.  Deleting the
# namespaces in the middle of a shutdown leaves an association to
# retransmit into nothing until association_max_retrans ends it, minutes
# later; stock does the same, but only ours is counted by thin_objects.
thin_lab_settle() {
	local ns i n
	for ns in $S $R; do
		ip netns pids $ns 2>/dev/null | xargs -r kill 2>/dev/null
	done
	for i in $(seq 1 $((${1:-10} * 10))); do
		n=0
		for ns in $S $R; do
			n=$((n + $(ip netns exec $ns tail -n +2 /proc/net/sctp/assocs 2>/dev/null | wc -l)))
		done
		[ $n = 0 ] && return 0
		sleep 0.1
	done
	for ns in $S $R; do
		ip netns exec $ns tail -n +2 /proc/net/sctp/assocs 2>/dev/null |
			sed "s/^/# still alive in $ns after ${1:-10} s: /"
	done
	return 0
}

thin_lab_down() {
	local ns
	for ns in $S $E $R; do
		ip netns pids $ns 2>/dev/null | xargs -r kill 2>/dev/null
	done
	sleep 0.2
	for ns in $S $E $R; do ip netns del $ns 2>/dev/null; done
}

# $1: injector log, $2: receiver port, $3: TSN offset.  Prints the times
# (ms, relative to the first transmission) of each transmission.
thin_tx_times() {
	awk -v p="-$2" -v k="$3" 'index($2, p) && $3 == k && $3 != "SACK" {
		if (!t0) t0 = $1; printf "%d ", ($1 - t0) / 1e6 }' "$1"
}

# $1: log, $2: port, $3: TSN offset.  ms from the first transmission of
# the offset to the first SACK whose cumulative ack reaches it - 1 (the
# partial SACK that restarts T3-rtx).
thin_partial_sack() {
	awk -v p="-$2" -v k="$3" 'index($2, p) && $3 == k && !t0 { t0 = $1 }
		index($2, p) && $3 == "SACK" && t0 && $4 == k - 1 {
			printf "%d", ($1 - t0) / 1e6; exit }' "$1"
}

# Run one scenario.  $1: label, $2: sysctl settings for S ("k=v ..."),
# $3: receiver port, $4: thin-drop rules ("-d K:N ..."), rest: thin-send
# options.  Leaves the injector log in $OUTDIR/$1.log and the sender's
# key=value output in $OUTDIR/$1.out.  THIN_SCENARIO_RECV: a function
# that starts another receiver in R instead of thin-send's (interop.sh:
# usrsctp's), called with the label and the port; it returns once the
# receiver listens.
OUTDIR=${THIN_OUT:-/tmp}/scenarios
thin_scenario() {
	local label=$1 sysctls=$2 port=$3 drop=$4 kv inj
	shift 4
	mkdir -p "$OUTDIR"
	for kv in thin_rto_min=0 thin_restart_timer=0 thin_linear_timeouts=0 \
		  thin_fast_retransmit=0 thin_loss_estimation=1 thin_sack_immediately=0 \
		  thin_rdb=0 thin_rdb_max_bytes=0 thin_rdb_max_packets=1 \
		  thin_linear_timeouts_max=6 thin_congestion_guard=20 \
		  thin_tail_probe=0 thin_rack=0 $sysctls; do
		ip netns exec $S sysctl -q -w "net.sctp.$kv" 2>/dev/null
	done
	if [ -n "${THIN_SCENARIO_RECV:-}" ]; then
		"$THIN_SCENARIO_RECV" "$label" "$port"
	else
		# THIN_RECV_SACK=default: the receiver's delayed SACK as it ships.
		# shellcheck disable=SC2086
		ip netns exec $R "$BIN/thin-send" recv "$port" 60 ${THIN_RECV_SACK:-} &
	fi
	# shellcheck disable=SC2086
	ip netns exec $E "$BIN/thin-drop" -q 0 -l "$OUTDIR/$label.log" -t 60 $drop 2>"$OUTDIR/$label.drop" &
	inj=$!
	# The first start of a binary over 9p can take seconds under TCG
	# (seen: scenario 1 refused when it ran first in a fresh guest).
	[ -n "${THIN_SCENARIO_RECV:-}" ] || thin_wait_listen sctp "$port"
	# Packets the queue sees before thin-drop binds it pass unseen (the
	# rule's bypass), and its TSN offsets would then count from a later
	# message: wait for its "ready" (10 s).
	for _ in $(seq 1 100); do
		grep -q ready "$OUTDIR/$label.drop" 2>/dev/null && break
		sleep 0.1
	done
	sleep 0.5
	ip netns exec $S "$BIN/thin-send" send 10.0.2.1 "$port" "$@" >"$OUTDIR/$label.out" 2>&1
	kill $inj 2>/dev/null
	wait $inj 2>/dev/null
}

# The host preset (sysctl/90-thin-sctp.conf) as thin_scenario's "k=v ..."
# settings: every mechanism it switches on, with its values.
thin_preset_kv() {
	sed -n 's/^net\.sctp\.\([a-z0-9_]*\) *= *\([^ ]*\).*/\1=\2/p' "$TOP/sysctl/90-thin-sctp.conf" |
		paste -sd' '
}

# $1: injector log, $2: receiver port, $3: one-way delay E -> R (ms).
# How long the receiver held its SACK: for each DATA chunk whose first
# transmission E let through and whose predecessor was acked before it
# arrived (so the cumulative ack can move on its arrival alone), the ms
# from E passing it to the first SACK E saw whose cumulative ack reaches
# it, less the one-way delay to R (the SACK comes back through E before
# the lab's netem delays it towards S).  One number per line, in TSN
# order.
thin_sack_delays() {
	awk -v p="-$2" -v d="$3" 'BEGIN { cumt[-1] = 0; lo = 0 }
		index($2, p) && $3 != "SACK" && $4 == 1 && $5 == "PASS" { t[$3] = $1; next }
		index($2, p) && $3 == "SACK" {
			for (k = lo; k <= $4; k++)
				if ((k in t) && ((k - 1) in cumt) && cumt[k - 1] <= t[k] + d * 1e6)
					printf "%.1f\n", ($1 - t[k]) / 1e6 - d
			for (k = lo; k <= $4; k++) cumt[k] = $1
			if ($4 + 1 > lo) lo = $4 + 1
		}' "$1"
}

# $1: label, $2: key.  Value from the sender's output.
thin_kv() { sed -n "s/^$2=//p" "$OUTDIR/$1.out"; }

# $1: netns, $2: counter (SctpThin*).  Its value in that netns: our
# module's /proc/net/sctp/thin_snmp, or the upstream-form kernel's
# /proc/net/sctp/snmp (the SCTP MIB); nothing if neither has it.
thin_mib() {
	local f
	for f in /proc/net/sctp/thin_snmp /proc/net/sctp/snmp; do
		ip netns exec "$1" awk -v k="$2" '$1 == k { print $2; f = 1 } END { exit !f }' "$f" 2>/dev/null &&
			return 0
	done
	return 1
}
# $1: label, $2: counter (SctpThin*), $3: the sender's key, $4: the
# counter's value before the scenario.  One check: the netns S counted in
# the MIB exactly what the scenario's association counted.
thin_mib_check() {
	local g
	g=$(thin_calc 'b - a - k' b="$(thin_mib $S "$2")" a="$4" k="$(thin_kv "$1" "$3")")
	thin_expect "g == 0" "$1: the SCTP MIB's $2 grew by the association's $3 ($(thin_kv "$1" "$3"))"
}

# $1: injector log, $2: receiver port.  DATA packets of that flow that the
# emulator saw (the sender-side capture).
thin_data_packets() {
	awk -v p="-$2" 'index($2, p) && $3 != "SACK"' "$1" | awk '{ print $1 }' | sort -u | wc -l
}

# $1: sctp|tcp, $2: port.  Wait (up to 10 s) until something listens on
# that port in R: the first start of a binary over 9p is slow under TCG.
thin_wait_listen() {
	local i
	for i in $(seq 1 100); do
		if [ "$1" = sctp ]; then
			ip netns exec $R awk -v p="$2" 'NR > 1 && $6 == p { f = 1 } END { exit !f }' \
				/proc/net/sctp/eps && return 0
		else
			ip netns exec $R awk -v p="$(printf '%04X' "$2")" \
				'$4 == "0A" && $2 ~ ":" p "$" { f = 1 } END { exit !f }' /proc/net/tcp && return 0
		fi
		sleep 0.1
	done
	return 1
}

# Every thin mechanism's sysctl off in S (the defaults of its new sockets).
# Quiet: Debian's stock module, which has none of them, runs this too.
thin_sysctls_off() {
	ip netns exec $S sysctl -q -w net.sctp.thin_rto_min=0 net.sctp.thin_restart_timer=0 \
		net.sctp.thin_linear_timeouts=0 net.sctp.thin_fast_retransmit=0 \
		net.sctp.thin_sack_immediately=0 net.sctp.thin_rdb=0 \
		net.sctp.thin_tail_probe=0 net.sctp.thin_rack=0 >/dev/null 2>&1
}

# Busy jiffies of the whole guest (user nice system irq softirq steal).
thin_cpu_busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
# All CPU time, idle included (the denominator of a busy share).
thin_cpu_all() { awk '/^cpu / { print $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat; }

# thin-gen logs: $1 sender log, $2 sink log.  Prints key=value pairs:
# messages sent, received, missing, duplicated, not sent (extra), with a
# size or timestamp mismatch, out of order within their association.
thin_verify() {
	awk '
		/^#/ { next }
		FNR == NR { k = $1 " " $2; size[k] = $3; ts[k] = $4 ""; nsent++; next }
		{
			k = $1 " " $2; n++
			if (!(k in size)) extra++
			else if (got[k]++) dup++
			else if ($3 != size[k] || $4 "" != ts[k]) mism++
			want = ($1 in nxt) ? nxt[$1] : 0
			if ($2 != want) order++
			nxt[$1] = $2 + 1
		}
		END {
			for (k in size) if (!(k in got)) miss++
			printf "sent=%d recv=%d missing=%d dup=%d extra=%d mismatch=%d order=%d\n",
				nsent, n, miss + 0, dup + 0, extra + 0, mism + 0, order + 0
		}' "$1" "$2"
}

# ---- The two-path lab (multihome.sh, mhfail.sh) --------------------------
#
#   [S] 10.0.1.1 s0 ---- path 1 (primary) ---- r0 10.0.1.2 [R]
#       10.0.3.1 s1 ---- path 2            ---- r1 10.0.3.2
#
# Two namespaces, $S and $R (the caller names them), joined by two veth
# pairs, one per path, no router between: a multi-homed association
# between S and R has two paths.  netem delays every device's egress by
# the same one-way delay; offloads stay at the devices' defaults.  The
# caller sets its sysctls.  thin_mh_lab_down removes everything.

# $1: one-way delay in ms, on each path, each way.
thin_mh_lab_up() {
	local p l ns
	THIN_MH_DELAY=$1
	for ns in $S $R; do ip netns add $ns; ip -n $ns link set lo up; done
	for p in 0 1; do
		ip link add s$p netns $S type veth peer name r$p netns $R
		ip -n $S addr add 10.0.$((2 * p + 1)).1/24 dev s$p
		ip -n $R addr add 10.0.$((2 * p + 1)).2/24 dev r$p
		for l in "$S s$p" "$R r$p"; do
			set -- $l
			ip -n "$1" link set dev "$2" up
			ip netns exec "$1" tc qdisc replace dev "$2" root netem delay "${THIN_MH_DELAY}ms" limit 10000
		done
	done
}

# $1: path (0 or 1), rest: netem options after the lab's delay, replacing
# the path's current ones at both ends (none: the delay alone).
thin_mh_netem() {
	local p=$1
	shift
	ip netns exec $S tc qdisc replace dev s$p root netem delay "${THIN_MH_DELAY}ms" "$@" limit 10000
	ip netns exec $R tc qdisc replace dev r$p root netem delay "${THIN_MH_DELAY}ms" "$@" limit 10000
}

# Ends every process in S and R (SIGTERM, then 0.3 s later SIGKILL) and
# deletes the namespaces.
thin_mh_lab_down() {
	local ns
	for ns in $S $R; do ip netns pids $ns 2>/dev/null | xargs -r kill 2>/dev/null; done
	sleep 0.3
	for ns in $S $R; do ip netns pids $ns 2>/dev/null | xargs -r kill -9 2>/dev/null; done
	for ns in $S $R; do ip netns del $ns 2>/dev/null; done
}

# ---- The scripted-peer lab (hostile.sh, tsnjump.sh) ----------------------
#
#   [$THIN_PEER_S] 10.0.1.1 SDEV --veth-- PDEV 10.0.1.2 [$THIN_PEER_P]
#
# A real sender of our module in THIN_PEER_S against a fake SCTP peer in
# THIN_PEER_P, both played by one peer script (tests/kernel/*_peer.py on
# sctp_peer.py, see its docstring).  In THIN_PEER_P nftables drops every
# inbound SCTP packet, so the kernel there never answers; the peer reads
# frames with AF_PACKET (before netfilter) and writes its answers on the
# link (after it).  Offloads are off on both ends: the peer reads and
# writes raw frames and needs real checksums and one SCTP packet per
# frame.  Process start-up costs up to seconds under TCG, so one sender
# process runs every scenario: it reads peer ports on one fifo and answers
# on another.  A script runs:
#
#   thin_peer_up NAME SDEV PDEV
#   thin_peer_start SCRIPT
#   while read -r port name desc; do
#       thin_peer_run $port            # the sender's result line
#       check ...                      # the script's own checks
#       thin_peer_after $name          # dmesg, thin_objects
#   done < <(thin_peer_scenarios SCRIPT [REGEX])
#   thin_peer_finish
#   thin_done

# Lines of the kernel log that show a problem.
THIN_KPROBLEMS='Call Trace|BUG[: ]|WARNING:|kmemleak|thin-sctp: leak'
# Their count; "unreadable" (no count) if dmesg fails, so that two failed
# reads do not compare equal as "0".
thin_kproblems() {
	local log
	log=$(dmesg 2>/dev/null) || { echo unreadable; return; }
	printf '%s\n' "$log" | grep -cE "$THIN_KPROBLEMS"
}

# $1: name (of the namespaces, the nftables table and the results
# directory $THIN_OUT/NAME, emptied: THIN_PEER_OUT), $2: the sender's
# device, $3: the peer's.  THIN_PEER_TMP: a directory for fifos and flag
# files (they cannot live on the 9p results directory).  thin_peer_down,
# the EXIT trap, removes everything.
thin_peer_up() {
	local ns
	THIN_PEER_S=$1$$s THIN_PEER_P=$1$$p THIN_PEER_DEV=$3
	THIN_PEER_OUT=${THIN_OUT:-/tmp}/$1
	rm -rf "$THIN_PEER_OUT"
	mkdir -p "$THIN_PEER_OUT"
	THIN_PEER_TMP=$(mktemp -d)
	trap thin_peer_down EXIT
	for ns in $THIN_PEER_S $THIN_PEER_P; do ip netns add $ns; ip -n $ns link set lo up; done
	ip link add "$2" netns $THIN_PEER_S type veth peer name "$3" netns $THIN_PEER_P
	ip -n $THIN_PEER_S addr add 10.0.1.1/24 dev "$2"
	ip -n $THIN_PEER_P addr add 10.0.1.2/24 dev "$3"
	ip -n $THIN_PEER_S link set "$2" up
	ip -n $THIN_PEER_P link set "$3" up
	ip netns exec $THIN_PEER_S ethtool -K "$2" tso off gso off gro off tx off rx off >/dev/null 2>&1
	ip netns exec $THIN_PEER_P ethtool -K "$3" tso off gso off gro off tx off rx off >/dev/null 2>&1
	ip netns exec $THIN_PEER_P nft -f - <<NFT
table inet $1 {
	chain input {
		type filter hook input priority 0;
		meta l4proto sctp drop
	}
}
NFT
}

thin_peer_down() {
	local ns
	for ns in $THIN_PEER_S $THIN_PEER_P; do
		ip netns pids $ns 2>/dev/null | xargs -r kill 2>/dev/null
	done
	sleep 0.2
	for ns in $THIN_PEER_S $THIN_PEER_P; do ip netns del $ns 2>/dev/null; done
	rm -rf "$THIN_PEER_TMP"
}

# $1: the peer script.  Starts its peer (THIN_PY: a python3 with scapy;
# output in $THIN_PEER_OUT/peer.out) and its sender (errors in
# sender.err), and checks that the peer says ready within 90 s.
thin_peer_start() {
	local ready=0 _
	ip netns exec $THIN_PEER_P "${THIN_PY:-/opt/thin-venv/bin/python3}" "$1" peer \
		$THIN_PEER_DEV 10.0.1.2 "$THIN_PEER_OUT" "$THIN_PEER_TMP" >"$THIN_PEER_OUT/peer.out" 2>&1 &
	mkfifo "$THIN_PEER_TMP/ctl" "$THIN_PEER_TMP/res"
	ip netns exec $THIN_PEER_S python3 "$1" send 10.0.1.2 "$THIN_PEER_OUT" "$THIN_PEER_TMP" \
		<"$THIN_PEER_TMP/ctl" >"$THIN_PEER_TMP/res" 2>"$THIN_PEER_OUT/sender.err" &
	exec {THIN_PEER_CTL}>"$THIN_PEER_TMP/ctl" {THIN_PEER_RES}<"$THIN_PEER_TMP/res"
	for _ in $(seq 1 900); do
		if grep -q '^ready$' "$THIN_PEER_OUT/peer.out"; then ready=1; break; fi
		sleep 0.1
	done
	check '[ $ready = 1 ]' "fake peer (scapy) ready on $THIN_PEER_DEV"
	THIN_PEER_T0=$SECONDS THIN_PEER_N=0
	THIN_PEER_K0=$(thin_kproblems)
}

# $1: the peer script, $2: a regular expression (default all).  The
# "PORT NAME DESCRIPTION" lines of the scenarios whose name matches.
thin_peer_scenarios() {
	python3 "$1" list | grep -E "^[0-9]+ (${2:-.*}) "
}

# $1: a peer port.  The sender runs its scenario; its lines go to
# $THIN_PEER_OUT/sender.out and as comments to stdout, the last one,
# "result PORT NAME ...", to THIN_PEER_RESULT (empty if the sender said
# nothing for 120 s).
thin_peer_run() {
	local line
	THIN_PEER_N=$((THIN_PEER_N + 1))
	echo "$1" >&$THIN_PEER_CTL
	THIN_PEER_RESULT=
	while read -r -t 120 -u $THIN_PEER_RES line; do
		echo "$line" >>"$THIN_PEER_OUT/sender.out"
		case "$line" in
		result\ *) THIN_PEER_RESULT=$line; break ;;
		*) echo "#   $line" ;;
		esac
	done
	echo "#   $THIN_PEER_RESULT"
}

# $1: the scenario's name.  Checks that the kernel log has no new problem
# line (and shows it) and that no thin-sctp object is left (within 10 s).
thin_peer_after() {
	local k1 n
	k1=$(thin_kproblems)
	check 'thin_int "$k1" && [ "$k1" = "$THIN_PEER_K0" ]' \
		"$1: no Call Trace/BUG/WARNING in dmesg ($THIN_PEER_K0 -> $k1 lines)"
	if [ "$k1" != "$THIN_PEER_K0" ]; then
		dmesg | grep -E -A 20 "$THIN_KPROBLEMS" | tail -n 60 | sed 's/^/#   dmesg: /'
		THIN_PEER_K0=$k1
	fi
	read -r n </sys/module/sctp/parameters/thin_objects
	[ "$n" = 0 ] || { thin_objects_zero 10; read -r n </sys/module/sctp/parameters/thin_objects; }
	check '[ "$n" = 0 ]' "$1: thin_objects back to 0 ($n)"
}

# After the scenarios: at least one ran, the peer and the sender said no
# error; then the lab goes, and no thin-sctp object or kernel problem may
# be left.
thin_peer_finish() {
	echo "# scenarios took $((SECONDS - THIN_PEER_T0)) s"
	check '[ "$THIN_PEER_N" -gt 0 ]' "scenarios run: $THIN_PEER_N (an empty list would pass every check)"
	exec {THIN_PEER_CTL}>&- {THIN_PEER_RES}<&-
	grep -v '^ready$' "$THIN_PEER_OUT/peer.out" | head -n 20 | sed 's/^/# peer: /'
	head -n 20 "$THIN_PEER_OUT/sender.err" | sed 's/^/# sender: /'
	check '[ ! -s "$THIN_PEER_OUT/sender.err" ] && [ "$(grep -vc "^ready$" "$THIN_PEER_OUT/peer.out")" = 0 ]' \
		"the peer and the sender ran without an error"
	thin_peer_down
	trap - EXIT
	check 'thin_objects_zero 20' "no thin-sctp object left once the namespaces are gone"
	check '[ "$(thin_kproblems)" = 0 ]' "dmesg has no Call Trace/BUG/WARNING/leak line"
}
# ---- end of the scripted-peer lab ----------------------------------------
