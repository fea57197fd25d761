#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Experiment runner: a matrix of network conditions x variants, in the
# test VM (tests/vm/run), analysed by tools/analyze.py.
#
#   tools/experiment.sh [--name N] [--rtt "100"] [--loss "u1 u5 ge web"]
#                       [--interval "250"] [--seconds 60] [--assocs 10]
#                       [--variants "..."] [--receiver default|tuned] [--full]
#                       [--jitter P]
#
# --jitter P: the one-way delay varies by +-P % (netem jitter, both ways).
# --receiver: the receivers' delayed SACK (SCTP) and delayed ACK (TCP) as
# they ship (default: 200 ms, the deployment our users have), or tuned
# (delayed SACK off, the paper's lab setting), a second configuration to
# show beside the first, never instead of it.
# Each cell (RTT, loss, interval) runs every variant side by side in one
# lab (tests/exp/guest-exp.sh), so they share the network conditions.
# Variants that do not need our module (stock, rto200, tcp, tcp-thin) run
# in a VM with Debian's own sctp module; the thin ones (rtomin, linear,
# restart, fr, all, and off = our module with every mechanism off) in a
# VM with ours.  Losses: u1, u5 (uniform %), ge (Gilbert-Elliott bursts),
# web (congestion from web-like cross traffic, tools/thin-web, through a
# 10 Mbit/s bottleneck; EXP_WEB_CLIENTS sets its load, default 81 as in
# the paper; see tests/exp/guest-exp.sh).  --full is the whole
# matrix of the issue: RTT {0 50 100 200 250 400} x loss {u1 u5 ge web} x
# interval {50 100 150 200 250}: 120 cells, about 2 x 120 x (seconds +
# 15 s) under TCG.
# Results: results/<date>-<name>/<cell>/ and matrix.md / matrix.json.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP"
name=matrix rtts=100 losses="u1 u5 ge" ivals=250 dur=60 assocs=10 receiver=default jitter=0
variants="stock rto200 rto200-si rtomin linear restart fr noi all off tcp tcp-thin"
while [ $# -gt 0 ]; do
	case "$1" in
	--name) name=$2; shift ;;
	--rtt) rtts=$2; shift ;;
	--loss) losses=$2; shift ;;
	--interval) ivals=$2; shift ;;
	--seconds) dur=$2; shift ;;
	--assocs) assocs=$2; shift ;;
	--variants) variants=$2; shift ;;
	--receiver) receiver=$2; shift ;;
	--jitter) jitter=$2; shift ;;
	--full) rtts="0 50 100 200 250 400" losses="u1 u5 ge web" ivals="50 100 150 200 250" ;;
	*) echo "usage: see the head of $0" >&2; exit 2 ;;
	esac
	shift
done
case "$receiver" in
default|tuned) ;;
*) echo "experiment: --receiver default or tuned, not $receiver" >&2; exit 2 ;;
esac
res=$TOP/results/$(date +%Y%m%d-%H%M%S)-$name
cells=""
for r in $rtts; do for l in $losses; do for i in $ivals; do cells="$cells $r:$l:$i"; done; done; done
vstock="" vours=""
for v in $variants; do
	case "$v" in
	stock|rto200|rto200-si|tcp|tcp-thin) vstock="$vstock $v" ;;
	*) vours="$vours $v" ;;
	esac
done
mkdir -p "$res"
scripts/deps.sh >/dev/null
make -s modules tests >"$res/build.log" 2>&1 || { tail -n 20 "$res/build.log"; exit 1; }
{
	echo "name=$name"
	echo "cells=$cells"
	echo "variants=$variants"
	echo "seconds=$dur assocs=$assocs web_clients=${EXP_WEB_CLIENTS:-81}"
	echo "receiver=$receiver"
	echo "jitter=$jitter"
	echo "thin-sctp=$(git describe --always --dirty --tags)"
	echo "kernel=$(ls -d /usr/src/linux-headers-6.1.0-*-amd64 | sed 's,.*/linux-headers-,,' | sort -V | tail -n 1)"
	echo "linux-source=$(dpkg-query -W -f='${Version}' linux-source-6.1)"
	echo "qemu=$(dpkg-query -W -f='${Version}' qemu-system-x86)"
	echo "date=$(date -Is)"
} >"$res/params.txt"
for c in $cells; do
	IFS=: read -r rtt loss ival <<<"$c"
	d="$res/rtt${rtt}-${loss}-${ival}"
	mkdir -p "$d"
	printf 'rtt=%s\nloss=%s\ninterval=%s\nseconds=%s\nassocs=%s\n' \
		"$rtt" "$loss" "$ival" "$dur" "$assocs" >"$d/params.txt"
done
n=$(echo $cells | wc -w)
to=$((n * (dur + 60) + 300))
if [ -n "$vstock" ]; then
	echo "experiment: $n cells with Debian's sctp:$vstock"
	VM_QUIET=1 tests/vm/run --stock --timeout "$to" --out "$res/vm-stock" -- \
		"EXP_TAG=-stock EXP_JITTER=$jitter EXP_RECEIVER=$receiver EXP_ASSOCS=$assocs EXP_WEB_CLIENTS=${EXP_WEB_CLIENTS:-81} bash tests/exp/guest-matrix.sh $res/vm-stock $dur '$cells' $vstock"  || echo "experiment: the stock VM run reported a failure (see $res/vm-stock)"
fi
if [ -n "$vours" ]; then
	echo "experiment: $n cells with thin-sctp:$vours"
	VM_QUIET=1 tests/vm/run --timeout "$to" --out "$res/vm-ours" -- \
		"EXP_TAG=-ours EXP_JITTER=$jitter EXP_RECEIVER=$receiver EXP_ASSOCS=$assocs EXP_WEB_CLIENTS=${EXP_WEB_CLIENTS:-81} bash tests/exp/guest-matrix.sh $res/vm-ours $dur '$cells' $vours"  || echo "experiment: the thin-sctp VM run reported a failure (see $res/vm-ours)"
fi
# The guest writes only into its --out directory: merge both VMs' files
# into the cell directories.
for c in $cells; do
	IFS=: read -r rtt loss ival <<<"$c"
	cell="rtt${rtt}-${loss}-${ival}"
	for vm in vm-stock vm-ours; do
		[ -d "$res/$vm/$cell" ] || continue
		cat "$res/$vm/$cell/variants.txt" >>"$res/$cell/variants.txt" 2>/dev/null || true
		find "$res/$vm/$cell" -maxdepth 1 -type f ! -name variants.txt -exec cp -p {} "$res/$cell/" \;
	done
done
/opt/thin-venv/bin/python3 tools/analyze.py --matrix "$res" || echo "experiment: analysis failed; the data stays in $res"
echo "experiment: results in $res"
