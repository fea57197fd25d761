# SPDX-License-Identifier: GPL-2.0-or-later
# Shared helpers of the in-guest kernel tests (sourced).
# ok/not_ok/skip print TAP-like lines; thin_done prints "N passed, M failed".
THIN_PASS=0
THIN_FAIL=0
TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
BIN=$TOP/build/tests

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
# NFQA_CFG_F_GSO), so thin-drop still acts on wire packets.
# thin_lab_down removes everything.
LAB=thl$$
S=${LAB}s E=${LAB}e R=${LAB}r

# $1: one-way delay in ms
thin_lab_up() {
	local d=$1 ns
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
	ip netns exec $E nft -f - <<NFT
table inet thin {
	chain thin_fwd {
		type filter hook forward priority 0;
		meta l4proto sctp queue num 0 bypass
	}
}
NFT
}

# netem on the emulator, per direction.  $1: fwd (sender -> receiver) or
# rev (receiver -> sender); rest: netem options, replacing all of the
# direction's current ones, for example:
#   delay 50ms                          one-way delay
#   delay 50ms loss 5%                  uniform loss
#   delay 50ms loss gemodel 1% 30% 100% 0%   Gilbert-Elliott (p r 1-h 1-k)
#   delay 50ms rate 1mbit limit 100     bottleneck rate, 100-packet queue
thin_lab_netem() {
	local dev=e1
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
# key=value output in $OUTDIR/$1.out.
OUTDIR=${THIN_OUT:-/tmp}/scenarios
thin_scenario() {
	local label=$1 sysctls=$2 port=$3 drop=$4 kv inj
	shift 4
	mkdir -p "$OUTDIR"
	for kv in thin_rto_min=0 thin_restart_timer=0 thin_linear_timeouts=0 \
		  thin_fast_retransmit=0 thin_loss_estimation=1 thin_sack_immediately=0 \
		  thin_rdb=0 thin_rdb_max_bytes=0 thin_rdb_max_packets=1 \
		  thin_linear_timeouts_max=6 thin_congestion_guard=20 $sysctls; do
		ip netns exec $S sysctl -q -w "net.sctp.$kv" 2>/dev/null
	done
	# THIN_RECV_SACK=default: the receiver's delayed SACK as it ships.
	# shellcheck disable=SC2086
	ip netns exec $R "$BIN/thin-send" recv "$port" 60 ${THIN_RECV_SACK:-} &
	# shellcheck disable=SC2086
	ip netns exec $E "$BIN/thin-drop" -q 0 -l "$OUTDIR/$label.log" -t 60 $drop 2>/dev/null &
	inj=$!
	# The first start of a binary over 9p can take seconds under TCG
	# (seen: scenario 1 refused when it ran first in a fresh guest).
	thin_wait_listen sctp "$port"
	sleep 0.5
	ip netns exec $S "$BIN/thin-send" send 10.0.2.1 "$port" "$@" >"$OUTDIR/$label.out" 2>&1
	kill $inj 2>/dev/null
	wait $inj 2>/dev/null
}

# $1: label, $2: key.  Value from the sender's output.
thin_kv() { sed -n "s/^$2=//p" "$OUTDIR/$1.out"; }

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
		net.sctp.thin_sack_immediately=0 net.sctp.thin_rdb=0 >/dev/null 2>&1
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
