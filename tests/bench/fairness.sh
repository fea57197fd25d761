#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In the guest: fairness (paper section 6.3, issue 6).  A 1 Mbit/s
# bottleneck (queue FAIR_QUEUE packets, default 50) with 50 ms each way.
#
# Part 1: a test stream at a given send rate competes with a greedy stock
# lksctp stream, for FAIR_SECONDS (default 30) per point.  The test stream
# is stock lksctp or thin-sctp with every mechanism on; rates in packets
# per second of 100-byte messages (FAIR_RATES, default "4 16 64 256"), and
# "greedy" (1400-byte messages every 1 ms, more than the link takes).
#
# Part 2: 50 associations of a variant (group a) and 50 stock ones
# (group b, FAIR_P2_B of them), each 100 bytes every 100 ms, share the
# bottleneck (1.2 Mbit/s offered with headers: losses come from
# congestion).  Variants (FAIR_P2):
# stock (the reference), every mechanism (with the congestion guard),
# every mechanism without the guard, and without the guard: every
# mechanism but linear timeouts, linear timeouts alone, every mechanism
# with at most 2 linear timeouts in a row (all-lt2 has the guard).
#
# Part 3: transitions over time.  One thin-sctp association (every
# mechanism) whose rate climbs from thin to greedy and falls back
# (FAIR_P3, thin-gen --phases, default 4, 16, 64 packets/s of 100 bytes,
# greedy (1400-byte messages as fast as the socket takes them), 4
# packets/s; FAIR_P3_SECONDS, default 20, each) against a greedy
# stock stream; its SCTP_THIN_INFO sampled every 100 ms into
# p3-thin.state.log (tools/plot-states.py draws it).
#
# FAIR_PARTS (default "1 2 3") selects the parts.  FAIR_RECEIVER:
# default (the sinks' delayed SACK as it ships, 200 ms) or tuned
# (delayed SACK off, the setting of the runs before 2026-11-24).
# Writes $THIN_OUT/fairness/: sink logs (thin-gen), sender outputs, and
# fairness.txt with one line per flow:
#   part point variant flow bytes_per_s messages latency_mean_ms latency_p99_ms
# (part 2 lines add the bottleneck's drop percentage during that run)
. "$(dirname "$0")/../kernel/lib.sh"
DUR=${FAIR_SECONDS:-30}
thin_out fairness
res=$OUT/fairness.txt
thin_lab_up 50
trap thin_lab_down EXIT
thin_lab_netem fwd delay 50ms rate 1mbit limit "${FAIR_QUEUE:-50}"
thin_sysctls_off

# $1: sink log, $2: window start (ns), $3: window end (ns).  Goodput and
# latency of the messages received inside the window.
summ() {
	awk -v a="$2" -v b="$3" '!/^#/ && $5 >= a && $5 < b { print $3, ($5 - $4) / 1e6 }' "$1" |
		sort -k2,2n | awk -v w="$(( ($3 - $2) / 1000000 ))" '
		{ n++; by += $1; s += $2; v[n] = $2 }
		END { if (!n) { print "0 0 0 0"; exit }
		      k = int(n * 0.99); if (k < 1) k = 1
		      printf "%.0f %d %.1f %.1f\n", by / (w / 1000), n, s / n, v[k] }'
}

SACKOPT=""
[ "${FAIR_RECEIVER:-default}" = tuned ] && SACKOPT=--sack-delay-off
# $1 name, $2 port, $3 assocs, rest: sender options.  Starts sink+sender.
# FLOW_GO=FILE: the sink creates $OUT/NAME.ready once it has every
# association, and the sender sends nothing until FILE exists (part 2).
flow() {
	local name=$1 port=$2 n=$3 go=()
	shift 3
	[ -n "${FLOW_GO:-}" ] && go=(--wait-file "$FLOW_GO")
	ip netns exec $R "$GEN" sink --proto sctp --listen "10.0.2.1:$port" --expect "$n" \
		$SACKOPT --duration $((DUR + 70)) --log "$OUT/$name.sink.log" --progress 0 \
		${FLOW_GO:+--ready-file "$OUT/$name.ready"} >"$OUT/$name.sink.out" 2>&1 &
	thin_wait_listen sctp "$port"
	local d="--duration $DUR"

	# --phases sets its own duration
	case " $* " in *" --phases "*) d="" ;; esac
	# shellcheck disable=SC2086
	ip netns exec $S "$GEN" send --proto sctp --connect "10.0.2.1:$port" --assocs "$n" \
		$d --drain 1 --nodelay --progress 0 --connect-timeout 30 "${go[@]}" "$@" \
		>"$OUT/$name.send.out" 2>&1 &
}

port=8000
parts=" ${FAIR_PARTS:-1 2 3} "
if [ "${parts#* 1 }" != "$parts" ]; then
	for rate in ${FAIR_RATES:-4 16 64 256} greedy; do
		for v in stock thin; do
			port=$((port + 10))
			if [ "$rate" = greedy ]; then
				topt="--size 1400 --interval 1"
			else
				topt="--size 100 --interval $(awk -v r="$rate" 'BEGIN { printf "%g", 1000 / r }')"
			fi
			thin=""
			[ $v = thin ] && thin="--thin all"
			t0=$(date +%s%N)
			# shellcheck disable=SC2086
			flow "p1-$rate-$v-test" $port 1 $topt $thin
			flow "p1-$rate-$v-greedy" $((port + 1)) 1 --size 1400 --interval 1
			sleep "$DUR"
			sleep 2
			# window: 5 s after the start to the end of sending
			a=$((t0 + 5000000000)) b=$((t0 + DUR * 1000000000))
			wait
			echo "1 $rate $v test $(summ "$OUT/p1-$rate-$v-test.sink.log" $a $b)" | tee -a "$res"
			echo "1 $rate $v greedy $(summ "$OUT/p1-$rate-$v-greedy.sink.log" $a $b)" | tee -a "$res"
		done
	done
fi

# Part 2: 50 thin + 50 stock thin streams, one run per variant of the
# first group (FAIR_P2, "name:thin-gen options" separated by ";").  The
# first variant, stock, is the reference: 50 stock vs 50 stock.
IFS=';' read -r -a P2 <<<"${FAIR_P2:-stock:;all:--thin all;noguard:--thin rto_min,restart,linear,fr,loss;nolinear:--thin rto_min,restart,fr,loss;linear:--thin linear,loss;all-lt2:--thin all --thin-linear-max 2}"
[ "${parts#* 2 }" = "$parts" ] && P2=()
# FAIR_P2_B: associations of the stock group b (50; 0: group a alone,
# whose own load is then the only one on the bottleneck).
NB=${FAIR_P2_B:-50}
for var in "${P2[@]}"; do
	v=${var%%:*}
	opts=${var#*:}
	port=$((port + 200))
	# Both groups are connected before either sends: a group that
	# starts first can keep the other's handshakes from completing
	# within the 30 s connect timeout (seen with RDB, whose copies fill
	# the link: 15 of the stock group's 50 never came up, and thin-gen
	# then sent nothing for it).
	go=$OUT/p2-$v.go
	rm -f "$go" "$OUT/p2-$v-a.ready" "$OUT/p2-$v-b.ready"
	# shellcheck disable=SC2086
	FLOW_GO=$go flow "p2-$v-a" $port 50 --size 100 --interval 100 $opts
	groups="a"
	if [ "$NB" -gt 0 ]; then
		FLOW_GO=$go flow "p2-$v-b" $((port + 100)) "$NB" --size 100 --interval 100
		groups="a b"
	fi
	for i in $(seq 1 300); do
		up=1
		for g in $groups; do [ -f "$OUT/p2-$v-$g.ready" ] || up=0; done
		[ $up = 1 ] && break
		sleep 0.1
	done
	[ $up = 1 ] || echo "# p2-$v: not every association up after 30 s"
	ip netns exec $E tc -s qdisc show dev e1 >"$OUT/p2-$v.q0"
	t0=$(date +%s%N)
	touch "$go"
	sleep "$DUR"
	a=$((t0 + 5000000000)) b=$((t0 + DUR * 1000000000))
	wait
	ip netns exec $E tc -s qdisc show dev e1 >"$OUT/p2-$v.q1"
	# bottleneck drops and packets during this variant's run
	drop=$(cat "$OUT/p2-$v.q0" "$OUT/p2-$v.q1" | awk 'BEGIN { n = 0 } /Sent/ { s[n] = $4; d[n] = $7 + 0; n++ }
		END { printf "%.1f", 100 * (d[1] - d[0]) / (s[1] - s[0] + d[1] - d[0]) }')
	for g in $groups; do
		echo "2 50x$NB-$v $g group $(summ "$OUT/p2-$v-$g.sink.log" $a $b) $drop" | tee -a "$res"
		grep -h "thin-gen send: thin:" "$OUT/p2-$v-$g.send.out" | sed "s/^/# $v-$g: /"
	done
done

# Part 3: one association from thin to greedy and back.
if [ "${parts#* 3 }" != "$parts" ]; then
	ps=${FAIR_P3_SECONDS:-20}
	phases=${FAIR_P3:-100:250:$ps,100:62.5:$ps,100:15.625:$ps,1400:0:$ps,100:250:$ps}
	total=$(echo "$phases" | tr , '\n' | awk -F: '{ t += $3 } END { printf "%d", t }')
	save=$DUR
	DUR=$total
	port=$((port + 300))
	t0=$(date +%s%N)
	flow p3-thin $port 1 --thin all --phases "$phases" --state-log "$OUT/p3-thin.state.log" \
		--log "$OUT/p3-thin.send.log"
	flow p3-greedy $((port + 1)) 1 --size 1400 --interval 1
	wait
	DUR=$save
	# per phase: goodput and latency of both flows, samples thin
	a=$t0
	k=0
	for ph in $(echo "$phases" | tr , ' '); do
		b=$((a + ${ph##*:} * 1000000000))
		thin=$(awk -v a="$(( (a - t0) / 1000000 ))" -v b="$(( (b - t0) / 1000000 ))" \
			'!/^#/ && $1 >= a && $1 < b { n++; t += $3 % 2; f += $4 }
			 END { if (n) printf "%.2f %.1f", t / n, f / n; else print "0 0" }' \
			"$OUT/p3-thin.state.log")
		echo "3 phase$k-$ph thin test $(summ "$OUT/p3-thin.sink.log" $a $b) $thin" | tee -a "$res"
		echo "3 phase$k-$ph thin greedy $(summ "$OUT/p3-greedy.sink.log" $a $b)" | tee -a "$res"
		a=$b
		k=$((k + 1))
	done
	grep -h "thin-gen send: thin:" "$OUT/p3-thin.send.out" | sed "s/^/# p3: /"
fi
ip netns exec $E tc -s qdisc show dev e1 | sed 's/^/# bottleneck: /'
