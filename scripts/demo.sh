#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make demo: the paper's lab workload, stock lksctp vs thin-sctp vs TCP, in
# the VM (tests/demo/guest-demo.sh, traffic from tools/thin-gen).
# Debian's stock module runs in one VM (stock, rto200, rto200-si); our
# module in a second one (thin-noi, thin, and TCP on the same kernel: tcp,
# tcp-thin).  The receivers keep their default delayed SACK (and TCP its
# delayed ACK); DEMO_TUNED=1 adds a second pass with delayed SACK/ACK off
# at the receivers, reported beside the first.  tools/report.py prints the
# latency tables (spurious retransmissions from the captures, through
# tools/analyze.py) and writes results/<date>-demo/ with the per-message
# logs, summary.md, summary.json and the plots.
#   DEMO_SECONDS   seconds of traffic per variant (60)
#   DEMO_TUNED     1: also the receiver-tuned configuration
#   DEMO_PROFILE   lab (the paper's, the default) or telecom (RTT 10 ms,
#                  10 associations, a message every 100 ms); results in
#                  results/<date>-demo (lab) or results/<date>-demo-telecom
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP"
DUR=${DEMO_SECONDS:-60}
RECEIVERS=default NREC=1
if [ "${DEMO_TUNED:-0}" = 1 ]; then RECEIVERS="default tuned" NREC=2; fi
VSTOCK=(stock rto200 rto200-si)
VOURS=(thin-noi thin tcp tcp-thin)
PROFILE=${DEMO_PROFILE:-lab}
case "$PROFILE" in
lab) WORKLOAD="RTT 100 ms, 5% uniform loss (data direction), 20 associations (thin-gen, Nagle off), 100 B every 250 ms"
	PROF="owd_ms=50 interval_ms=250" SUFFIX="" ;;
telecom) WORKLOAD="RTT 10 ms, 5% uniform loss (data direction), 10 associations (thin-gen, Nagle off), 100 B every 100 ms"
	PROF="owd_ms=5 interval_ms=100" SUFFIX=-telecom
	VOURS=(thin-noi thin thin-probe tcp tcp-thin) ;;
*) echo "demo: DEMO_PROFILE is lab or telecom, not $PROFILE" >&2; exit 2 ;;
esac
RES=$TOP/results/$(date +%Y%m%d-%H%M%S)-demo$SUFFIX
t0=$(date +%s)
echo "demo: [1/5] dependencies"; scripts/deps.sh >/dev/null
echo "demo: [2/5] build"
mkdir -p "$TOP/build"
make -s modules tests >"$TOP/build/demo-build.log" 2>&1 || { tail -n 20 "$TOP/build/demo-build.log"; exit 1; }
mkdir -p "$RES"
failed=""
# $1: vm-stock|vm-ours, rest: the variants.  A variant takes DUR s and
# its drain (at most 180 s; seconds in practice).
vm() {
	local dir=$RES/$1 opt=()
	shift
	[ "$dir" = "$RES/vm-stock" ] && opt=(--stock)
	VM_QUIET=1 tests/vm/run "${opt[@]}" --timeout $(($# * NREC * (DUR + 200) + 300)) --out "$dir" -- \
		"DEMO_SECONDS=$DUR DEMO_PROFILE=$PROFILE DEMO_RECEIVERS='$RECEIVERS' tests/demo/guest-demo.sh $*" ||
		failed="$failed ${dir##*/}"
}
echo "demo: [3/5] Debian's sctp module: ${VSTOCK[*]}; receivers: $RECEIVERS;" \
	"$((${#VSTOCK[@]} * NREC * DUR)) s of traffic"
vm vm-stock "${VSTOCK[@]}"
echo "demo: [4/5] thin-sctp module: ${VOURS[*]}; receivers: $RECEIVERS;" \
	"$((${#VOURS[@]} * NREC * DUR)) s of traffic"
vm vm-ours "${VOURS[@]}"
# The guests write only into their --out directories: merge both VMs'
# files into one analysis cell per receiver configuration.
for r in $RECEIVERS; do
	mkdir -p "$RES/$r"
	for d in vm-stock vm-ours; do
		[ -d "$RES/$d/$r" ] || continue
		cat "$RES/$d/$r/variants.txt" >>"$RES/$r/variants.txt" 2>/dev/null || true
		find "$RES/$d/$r" -maxdepth 1 -type f ! -name variants.txt -exec mv {} "$RES/$r/" \;
		rmdir "$RES/$d/$r" 2>/dev/null || true
	done
done
{
	echo "kernel: $(cd "$RES" && grep -h 'guest:' vm-stock/console.txt vm-ours/console.txt 2>/dev/null | sort -u | tr '\n' ' ')"
	echo "thin-sctp: $(git describe --always --dirty --tags)"
	echo "workload: $WORKLOAD, ${DUR} s per variant"
	echo "profile: $PROFILE $PROF"
	echo "variants: Debian's sctp module: ${VSTOCK[*]}; thin-sctp module: ${VOURS[*]}"
	for r in $RECEIVERS; do
		st=$(sed -n 's/^net.sctp.sack_timeout = //p' "$RES/$r/receiver.sysctl" 2>/dev/null | head -n 1)
		case "$r" in
		default) echo "receivers default ($r/): delayed SACK as shipped" \
			"(net.sctp.sack_timeout = ${st:-?} ms), TCP's delayed ACK" ;;
		tuned) echo "receivers tuned ($r/): delayed SACK off (thin-gen sink" \
			"--sack-delay-off: SCTP_DELAYED_SACK sack_freq 1; TCP_QUICKACK)" ;;
		esac
	done
} >"$RES/params.txt"
echo "demo: [5/5] report"
/opt/thin-venv/bin/python3 tools/report.py "$RES"
t=$(($(date +%s) - t0))
echo "demo: results in $RES ($((t / 60)) min $((t % 60)) s)"
if [ -n "$failed" ]; then
	echo "demo: the run in$failed reported a failure (see console.txt and the *.verify files)" >&2
	exit 1
fi
