# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/net/lib.sh: the lab of Petlund et al. 2009 (Fig. 7) in network
# namespaces.  Source it from bash; every helper is named thin_net_*.
#
#  +----------------+        +-------------------------------+        +----------------+
#  | sender         |        | emu (router + netem)          |        | receiver       |
#  | $THIN_NET_SND  |        | $THIN_NET_EMU                 |        | $THIN_NET_RCV  |
#  |                |  veth  |                               |  veth  |                |
#  |  snd0 ---------+--------+-- emu0                emu1 ---+--------+--------- rcv0  |
#  |  10.0.1.1/24   |        |   10.0.1.2        10.0.2.2    |        |   10.0.2.1/24  |
#  |  fd00:1::1/64  |        |   fd00:1::2      fd00:2::2    |        |   fd00:2::1/64 |
#  +----------------+        |                               |        +----------------+
#                            |  "rev" netem: emu0 egress     |
#                            |        (receiver -> sender)   |
#                            |  "fwd" netem: emu1 egress     |
#                            |        (sender -> receiver)   |
#                            +-------------------------------+
#
# The endpoints route everything through emu, which forwards.  TSO, GSO
# and GRO are off on all four veth ends, so netem sees (and drops, delays)
# real wire packets, not 64 KB super-packets.  IPv6 is optional
# (THIN_NET_IPV6=1 before thin_net_setup).
#
# Namespace names carry this shell's pid and a random number, so parallel
# runs never collide.  thin_net_setup installs "trap thin_net_cleanup EXIT";
# thin_net_cleanup kills every process in the namespaces and deletes them.
# A caller that needs its own EXIT trap must call thin_net_cleanup from it.
#
# Needs ip and tc (iproute2), ethtool and, for the self-test, ping
# (iputils-ping); tests/net/DEPS lists them for scripts/deps.sh.  The lab
# never installs anything itself: installing is the caller's job.
#
# Typical use:
#	. tests/net/lib.sh
#	thin_net_setup
#	thin_net_delay both 50          # 50 ms each way, RTT 100 ms
#	thin_net_loss fwd 5             # 5 % uniform loss sender -> receiver
#	thin_net_bg rcv ./sink ...      # background, killed by the cleanup
#	thin_net_exec snd ./sender ...

THIN_NET_SND_IP=10.0.1.1
THIN_NET_EMU_SND_IP=10.0.1.2
THIN_NET_EMU_RCV_IP=10.0.2.2
THIN_NET_RCV_IP=10.0.2.1
THIN_NET_SND_IP6=fd00:1::1
THIN_NET_EMU_SND_IP6=fd00:1::2
THIN_NET_EMU_RCV_IP6=fd00:2::2
THIN_NET_RCV_IP6=fd00:2::1
THIN_NET_SND="" THIN_NET_EMU="" THIN_NET_RCV=""
THIN_NET_PIDS=""
# netem's queue holds delayed packets too; 1000 (its default) fills up
# at a few thousand packets/s with 100 ms of delay.
THIN_NET_DEFAULT_LIMIT=${THIN_NET_DEFAULT_LIMIT:-10000}

# Print an error on stderr.
# $1: message
thin_net_err() {
	echo "thin_net: $*" >&2
}

# Check that the tools the lab needs exist; print which ones are missing.
# No arguments.  Returns 1 if any is missing.
thin_net_require() {
	local c missing=""

	for c in ip tc ethtool; do
		command -v "$c" >/dev/null 2>&1 || missing="$missing $c"
	done
	if [ -n "$missing" ]; then
		thin_net_err "missing:$missing (apt-get install iproute2 ethtool; see tests/net/DEPS)"
		return 1
	fi
	if [ "$(id -u)" != 0 ]; then
		thin_net_err "must run as root (network namespaces)"
		return 1
	fi
}

# Print the namespace name of a role.
# $1: snd|emu|rcv (or sender|receiver), or a namespace name (printed as is)
thin_net_ns() {
	case "$1" in
	snd | sender) echo "$THIN_NET_SND" ;;
	emu) echo "$THIN_NET_EMU" ;;
	rcv | receiver) echo "$THIN_NET_RCV" ;;
	*) echo "$1" ;;
	esac
}

# Run a command in a namespace, in the foreground; returns its status.
# $1: namespace (role or name), rest: command and arguments
thin_net_exec() {
	local ns

	ns=$(thin_net_ns "$1")
	shift
	ip netns exec "$ns" "$@"
}

# Start a command in a namespace in the background and track it for
# thin_net_cleanup.  Sets THIN_NET_LAST_PID (ip netns exec execs the
# command, so this is the command's own pid).  Redirect its output at the
# call site if needed: thin_net_bg rcv cmd >log 2>&1
# $1: namespace (role or name), rest: command and arguments
thin_net_bg() {
	local ns

	ns=$(thin_net_ns "$1")
	shift
	ip netns exec "$ns" "$@" &
	THIN_NET_LAST_PID=$!
	THIN_NET_PIDS="$THIN_NET_PIDS $THIN_NET_LAST_PID"
}

# Wait for a background process started with thin_net_bg, at most a given
# time; kill it (TERM, then KILL) if it overstays.  Returns its status,
# or 124 on timeout.
# $1: pid, $2: timeout in seconds (default 60)
thin_net_wait() {
	local pid=$1 t=$((${2:-60} * 10)) i rc

	for ((i = 0; i < t; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill "$pid" 2>/dev/null
		sleep 0.5
		kill -9 "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		return 124
	fi
	wait "$pid"
	rc=$?
	return $rc
}

# Wait until something listens on a port in a namespace (ss).
# $1: namespace, $2: tcp|sctp, $3: port, $4: timeout in seconds (default 10)
thin_net_wait_listen() {
	local ns i

	ns=$(thin_net_ns "$1")
	for ((i = 0; i < ${4:-10} * 20; i++)); do
		ip netns exec "$ns" ss -Hln "--$2" "sport = :$3" 2>/dev/null | grep -q . && return 0
		sleep 0.05
	done
	thin_net_err "nothing listens on $2 port $3 in $ns"
	return 1
}

# Turn TSO, GSO and GRO off on an interface and check that they are off.
# $1: namespace, $2: interface
thin_net_offloads_off() {
	local ns

	ns=$(thin_net_ns "$1")
	if ! ip netns exec "$ns" ethtool -K "$2" tso off gso off gro off >/dev/null 2>&1; then
		thin_net_err "ethtool -K $2 in $ns failed"
		return 1
	fi
	thin_net_offloads_are_off "$ns" "$2"
}

# Succeeds if TSO, GSO and GRO are all off on an interface.
# $1: namespace, $2: interface
thin_net_offloads_are_off() {
	local ns

	ns=$(thin_net_ns "$1")
	ip netns exec "$ns" ethtool -k "$2" 2>/dev/null |
		awk '/^(tcp-segmentation-offload|generic-segmentation-offload|generic-receive-offload):/ {
			n++; if ($2 != "off") bad++ }
		     END { exit !(n == 3 && !bad) }'
}

# Build the lab: three namespaces, two veth pairs, addresses, routes via
# emu, forwarding on emu, offloads off, plain netem (no delay) on both of
# emu's egress interfaces.  Installs "trap thin_net_cleanup EXIT".
# Sets THIN_NET_SND, THIN_NET_EMU, THIN_NET_RCV (namespace names).
# Set THIN_NET_IPV6=1 before the call for IPv6 addresses and routes too.
# No arguments.
thin_net_setup() {
	local sfx ns l

	thin_net_require || return 1
	# BASHPID differs in subshells, $$ does not.
	sfx=${BASHPID:-$$}-$(printf '%04x' $((RANDOM)))
	THIN_NET_SND=thin-snd-$sfx
	THIN_NET_EMU=thin-emu-$sfx
	THIN_NET_RCV=thin-rcv-$sfx
	THIN_NET_PIDS=""
	THIN_NET_CONF=()
	trap thin_net_cleanup EXIT
	for ns in "$THIN_NET_SND" "$THIN_NET_EMU" "$THIN_NET_RCV"; do
		ip netns add "$ns" || { thin_net_err "ip netns add $ns failed"; return 1; }
		ip -n "$ns" link set lo up
	done
	# Created inside the namespaces: no name clash with other runs.
	ip -n "$THIN_NET_SND" link add snd0 type veth peer name emu0 netns "$THIN_NET_EMU" &&
	ip -n "$THIN_NET_RCV" link add rcv0 type veth peer name emu1 netns "$THIN_NET_EMU" ||
		{ thin_net_err "cannot create veth pairs"; return 1; }
	ip -n "$THIN_NET_SND" addr add $THIN_NET_SND_IP/24 dev snd0
	ip -n "$THIN_NET_EMU" addr add $THIN_NET_EMU_SND_IP/24 dev emu0
	ip -n "$THIN_NET_EMU" addr add $THIN_NET_EMU_RCV_IP/24 dev emu1
	ip -n "$THIN_NET_RCV" addr add $THIN_NET_RCV_IP/24 dev rcv0
	if [ "${THIN_NET_IPV6:-0}" = 1 ]; then
		ip -n "$THIN_NET_SND" addr add $THIN_NET_SND_IP6/64 dev snd0 nodad
		ip -n "$THIN_NET_EMU" addr add $THIN_NET_EMU_SND_IP6/64 dev emu0 nodad
		ip -n "$THIN_NET_EMU" addr add $THIN_NET_EMU_RCV_IP6/64 dev emu1 nodad
		ip -n "$THIN_NET_RCV" addr add $THIN_NET_RCV_IP6/64 dev rcv0 nodad
		ip netns exec "$THIN_NET_EMU" sysctl -q -w net.ipv6.conf.all.forwarding=1
	fi
	for l in "$THIN_NET_SND snd0" "$THIN_NET_EMU emu0" "$THIN_NET_EMU emu1" "$THIN_NET_RCV rcv0"; do
		set -- $l
		ip -n "$1" link set "$2" up
		thin_net_offloads_off "$1" "$2" || return 1
	done
	ip -n "$THIN_NET_SND" route add default via $THIN_NET_EMU_SND_IP
	ip -n "$THIN_NET_RCV" route add default via $THIN_NET_EMU_RCV_IP
	if [ "${THIN_NET_IPV6:-0}" = 1 ]; then
		ip -n "$THIN_NET_SND" -6 route add default via $THIN_NET_EMU_SND_IP6
		ip -n "$THIN_NET_RCV" -6 route add default via $THIN_NET_EMU_RCV_IP6
	fi
	ip netns exec "$THIN_NET_EMU" sysctl -q -w net.ipv4.ip_forward=1
	thin_net_reset both
}

# Print emu's egress interface of a direction.
# $1: fwd (sender -> receiver) or rev (receiver -> sender)
thin_net_dev() {
	case "$1" in
	fwd) echo emu1 ;;
	rev) echo emu0 ;;
	*) thin_net_err "direction must be fwd, rev or both, not '$1'"; return 1 ;;
	esac
}

# Each direction's emulation is kept as parts (delay, loss, rate, limit,
# bottleneck) that the helpers below change one at a time; thin_net_apply
# turns them into one netem qdisc (plus a tbf child for a bottleneck).
declare -A THIN_NET_CONF=()

# Apply a direction's settings to its interface.
# $1: fwd|rev
thin_net_apply() {
	local dir=$1 dev limit bn opts

	dev=$(thin_net_dev "$dir") || return 1
	limit=${THIN_NET_CONF[$dir.limit]:-$THIN_NET_DEFAULT_LIMIT}
	# shellcheck disable=SC2206
	opts=(limit "$limit" ${THIN_NET_CONF[$dir.delay]:-} ${THIN_NET_CONF[$dir.loss]:-}
	      ${THIN_NET_CONF[$dir.rate]:-})
	# netem_change() keeps an old rate when the new options have none,
	# so start from scratch whenever the rate goes away.
	if [ -n "${THIN_NET_CONF[$dir.applied_rate]:-}" ] && [ -z "${THIN_NET_CONF[$dir.rate]:-}" ]; then
		ip netns exec "$THIN_NET_EMU" tc qdisc del dev "$dev" root 2>/dev/null
	fi
	THIN_NET_CONF[$dir.applied_rate]=${THIN_NET_CONF[$dir.rate]:-}
	if ! ip netns exec "$THIN_NET_EMU" tc qdisc replace dev "$dev" root handle 1: netem "${opts[@]}"; then
		thin_net_err "tc netem ${opts[*]} on $dev failed"
		return 1
	fi
	bn=${THIN_NET_CONF[$dir.bottleneck]:-}
	if [ -n "$bn" ]; then
		# shellcheck disable=SC2086
		ip netns exec "$THIN_NET_EMU" tc qdisc replace dev "$dev" parent 1:1 handle 10: tbf $bn ||
			{ thin_net_err "tc tbf $bn on $dev failed"; return 1; }
	else
		ip netns exec "$THIN_NET_EMU" tc qdisc del dev "$dev" parent 1:1 handle 10: 2>/dev/null
	fi
	return 0
}

# Run a per-direction helper for fwd, rev or both.
# $1: fwd|rev|both, $2: function taking the direction as its first
# argument, rest: its other arguments
thin_net_each() {
	local dir=$1 fn=$2 d

	shift 2
	case "$dir" in
	both) for d in fwd rev; do "$fn" "$d" "$@" || return 1; done ;;
	fwd | rev) "$fn" "$dir" "$@" ;;
	*) thin_net_dev "$dir" ;;
	esac
}

# Raw netem options for a direction, replacing everything set before
# (the helpers below are easier; this is the escape hatch).
# $1: fwd|rev|both, rest: netem options, e.g. delay 50ms loss 5%
thin_net_netem() {
	local dir=$1

	shift
	thin_net_each "$dir" _thin_net_netem "$@"
}
_thin_net_netem() {
	local dir=$1

	shift
	_thin_net_clear "$dir"
	THIN_NET_CONF[$dir.delay]="$*"
	thin_net_apply "$dir"
}
_thin_net_clear() {
	local k

	for k in delay loss rate limit bottleneck; do
		unset "THIN_NET_CONF[$1.$k]"
	done
}

# One-way delay, optionally with jitter (netem keeps packet order only
# without jitter, so jitter also reorders).
# $1: fwd|rev|both, $2: delay in ms (0 removes it), $3: jitter in ms (optional)
thin_net_delay() {
	thin_net_each "$1" _thin_net_delay "${@:2}"
}
_thin_net_delay() {
	if [ "${2:-0}" = 0 ]; then
		unset "THIN_NET_CONF[$1.delay]"
	else
		THIN_NET_CONF[$1.delay]="delay ${2}ms${3:+ ${3}ms}"
	fi
	thin_net_apply "$1"
}

# Uniform (Bernoulli) loss.
# $1: fwd|rev|both, $2: loss in percent (0 removes it), $3: correlation
# in percent (optional)
thin_net_loss() {
	thin_net_each "$1" _thin_net_loss "${@:2}"
}
_thin_net_loss() {
	if [ "${2:-0}" = 0 ]; then
		unset "THIN_NET_CONF[$1.loss]"
	else
		THIN_NET_CONF[$1.loss]="loss random ${2}%${3:+ ${3}%}"
	fi
	thin_net_apply "$1"
}

# Gilbert-Elliott loss (netem "loss gemodel p r 1-h 1-k"): p = P(good ->
# bad), r = P(bad -> good), 1-h = loss probability in the bad state, 1-k =
# loss probability in the good state.  Mean loss =
# (p (1-h) + r (1-k)) / (p + r); mean burst length in the bad state 1/r.
# $1: fwd|rev|both, $2: p %, $3: r %, $4: 1-h % (default 100),
# $5: 1-k % (default 0)
thin_net_loss_ge() {
	thin_net_each "$1" _thin_net_loss_ge "${@:2}"
}
_thin_net_loss_ge() {
	THIN_NET_CONF[$1.loss]="loss gemodel ${2}% ${3}% ${4:-100}% ${5:-0}%"
	thin_net_apply "$1"
}

# Rate limit in netem itself, with a packet limit on netem's queue.  The
# queue also holds the packets that are only being delayed: make the limit
# at least (delay * rate / packet size) larger than the wanted queue.  For
# a queue separate from the delay line use thin_net_bottleneck.
# $1: fwd|rev|both, $2: rate (tc units, e.g. 1mbit; 0 removes it),
# $3: netem limit in packets (optional)
thin_net_rate() {
	thin_net_each "$1" _thin_net_rate "${@:2}"
}
_thin_net_rate() {
	if [ "${2:-0}" = 0 ]; then
		unset "THIN_NET_CONF[$1.rate]" "THIN_NET_CONF[$1.limit]"
	else
		THIN_NET_CONF[$1.rate]="rate $2"
		[ -n "${3:-}" ] && THIN_NET_CONF[$1.limit]=$3
	fi
	thin_net_apply "$1"
}

# netem's queue limit alone, in packets.
# $1: fwd|rev|both, $2: packets (empty or 0 restores the default)
thin_net_limit() {
	thin_net_each "$1" _thin_net_limit "${@:2}"
}
_thin_net_limit() {
	if [ "${2:-0}" = 0 ]; then
		unset "THIN_NET_CONF[$1.limit]"
	else
		THIN_NET_CONF[$1.limit]=$2
	fi
	thin_net_apply "$1"
}

# A bottleneck after the delay line (the paper's 6.2 setup: 10 Mbit/s,
# 100 packets): a tbf child of netem with its own queue of a number of
# full-size (1514-byte) packets.  Packets over the queue are dropped.
# $1: fwd|rev|both, $2: rate (e.g. 10mbit; 0 removes it), $3: queue in
# packets (default 100), $4: burst in bytes (default 3028)
thin_net_bottleneck() {
	thin_net_each "$1" _thin_net_bottleneck "${@:2}"
}
_thin_net_bottleneck() {
	if [ "${2:-0}" = 0 ]; then
		unset "THIN_NET_CONF[$1.bottleneck]"
	else
		THIN_NET_CONF[$1.bottleneck]="rate $2 burst ${4:-3028} limit $((${3:-100} * 1514))"
	fi
	thin_net_apply "$1"
}

# Remove all emulation of a direction: a plain netem (no delay, no loss,
# no rate) stays as the root qdisc.
# $1: fwd|rev|both
thin_net_reset() {
	thin_net_each "$1" _thin_net_reset
}
_thin_net_reset() {
	_thin_net_clear "$1"
	thin_net_apply "$1"
}

# Print the qdiscs of a direction (tc -s qdisc show), for logs.
# $1: fwd|rev
thin_net_show() {
	ip netns exec "$THIN_NET_EMU" tc -s qdisc show dev "$(thin_net_dev "$1")"
}

# Kill every process in the lab's namespaces (those started with
# thin_net_bg and any others), then delete the namespaces.  Idempotent;
# installed as the EXIT trap by thin_net_setup.  No arguments.
thin_net_cleanup() {
	local ns pids p i

	for p in $THIN_NET_PIDS; do
		kill "$p" 2>/dev/null
	done
	for ns in $THIN_NET_SND $THIN_NET_EMU $THIN_NET_RCV; do
		ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null
	done
	for ((i = 0; i < 20; i++)); do
		pids=""
		for ns in $THIN_NET_SND $THIN_NET_EMU $THIN_NET_RCV; do
			pids="$pids$(ip netns pids "$ns" 2>/dev/null)"
		done
		for p in $THIN_NET_PIDS; do
			kill -0 "$p" 2>/dev/null && pids="$pids $p"
		done
		[ -z "${pids// /}" ] && break
		[ "$i" = 10 ] && echo "$pids" | xargs -r kill -9 2>/dev/null
		sleep 0.1
	done
	for p in $THIN_NET_PIDS; do
		wait "$p" 2>/dev/null
	done
	for ns in $THIN_NET_SND $THIN_NET_EMU $THIN_NET_RCV; do
		ip netns del "$ns" 2>/dev/null
	done
	THIN_NET_PIDS=""
	THIN_NET_SND="" THIN_NET_EMU="" THIN_NET_RCV=""
	THIN_NET_CONF=()
	return 0
}

# TAP-ish result helpers for scripts built on the lab.  Each check prints
# "ok N - text" or "not ok N - text"; thin_net_done prints the final
# "N passed, M failed" line and returns non-zero if anything failed.
THIN_NET_PASS=0 THIN_NET_FAIL=0

# $1: description
thin_net_ok() {
	THIN_NET_PASS=$((THIN_NET_PASS + 1))
	echo "ok $((THIN_NET_PASS + THIN_NET_FAIL)) - $1"
}

# $1: description, $2: details (optional)
thin_net_not_ok() {
	THIN_NET_FAIL=$((THIN_NET_FAIL + 1))
	echo "not ok $((THIN_NET_PASS + THIN_NET_FAIL)) - $1${2:+ # $2}"
}

# $1: shell condition (evaluated), $2: description
thin_net_check() {
	if eval "$1"; then thin_net_ok "$2"; else thin_net_not_ok "$2" "$1"; fi
}

# No arguments.
thin_net_done() {
	echo "$THIN_NET_PASS passed, $THIN_NET_FAIL failed"
	[ "$THIN_NET_FAIL" = 0 ]
}
