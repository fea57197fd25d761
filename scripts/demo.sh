#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make demo: the paper's lab workload, stock lksctp vs thin-sctp, in the VM.
# Debian's stock module runs in one VM; our module (stock + rto_min 200,
# every thin mechanism, and TCP on the same kernel) in a second one.
# Prints the latency table and writes results/<date>-demo/ with the plots.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP"
DUR=${DEMO_SECONDS:-60}
RES=$TOP/results/$(date +%Y%m%d-%H%M%S)-demo
echo "demo: [1/5] dependencies"; scripts/deps.sh >/dev/null
echo "demo: [2/5] build"
mkdir -p "$TOP/build"
make -s modules tests >"$TOP/build/demo-build.log" 2>&1 || { tail -n 20 "$TOP/build/demo-build.log"; exit 1; }
mkdir -p "$RES"
export DEMO_SECONDS=$DUR
echo "demo: [3/5] stock lksctp (Debian's module), ${DUR} s"
VM_QUIET=1 tests/vm/run --stock --out "$RES" -- "DEMO_SECONDS=$DUR tests/demo/guest-demo.sh stock"
echo "demo: [4/5] thin-sctp module: rto_min 200, all thin, TCP, TCP thin; $((4 * DUR)) s"
mkdir -p "$RES/ours"
VM_QUIET=1 tests/vm/run --out "$RES/ours" -- "DEMO_SECONDS=$DUR tests/demo/guest-demo.sh rto200 thin tcp tcp-thin"
for v in rto200 thin tcp tcp-thin; do
	mv "$RES/ours/$v.txt" "$RES/ours/$v.lat" "$RES/ours/$v.send" "$RES/"
done
{
	echo "kernel: $(cd "$RES" && grep -h 'guest:' console.txt ours/console.txt 2>/dev/null | sort -u | tr '\n' ' ')"
	echo "thin-sctp: $(git describe --always --dirty --tags)"
	echo "workload: RTT 100 ms, 5% uniform loss (data direction), 20 associations, 100 B every 250 ms, ${DUR} s"
} >"$RES/params.txt"
echo "demo: [5/5] report"
/opt/thin-venv/bin/python3 tools/report.py "$RES"
echo "demo: results in $RES"
