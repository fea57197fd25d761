#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A real application through the lab (issue 30, item 4): Osmocom's STP
# (osmo-stp 1.6.0, Debian 12's package) with M3UA ASPs (tools/m3ua-asp.py)
# that each send a BEAT every 250 ms; BEAT to BEAT ACK is the
# request-to-answer latency.  RTT 100 ms and 10 ms, uniform loss on each
# direction (default 5 %), default receivers, stock (Debian's module)
# against thin (our module, the preset in the ASPs' and the STP's
# namespaces).  A report, not a test: not in make check.
#
#   tools/app-m3ua.sh [--out DIR] [--rtt "100 10"] [--loss 5] [--seconds 60]
#                     [--assocs 10]
#
# Setup: installs osmo-stp and strace from Debian if they are missing
# (apt-get; the experiment's own needs, not make check's), builds the
# module.  Two VM boots (Debian's module, then ours), one after the other.
# Writes DIR (default results/<date>-m3ua): params.txt, vm-stock/strace.txt
# (what osmo-stp sets on its sockets), vm-<variant>/<variant>-rtt<R>/ per
# cell (tests/exp/guest-m3ua.sh) and summary.md (tools/m3ua-asp.py report).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP"
out="" rtts="100 10" loss=5 secs=60 assocs=10
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2; shift 2 ;;
	--rtt) rtts=$2; shift 2 ;;
	--loss) loss=$2; shift 2 ;;
	--seconds) secs=$2; shift 2 ;;
	--assocs) assocs=$2; shift 2 ;;
	*) echo "usage: $0 [--out DIR] [--rtt \"100 10\"] [--loss 5] [--seconds 60] [--assocs 10]" >&2; exit 2 ;;
	esac
done
out=${out:-results/$(date +%Y-%m-%d)-m3ua}
mkdir -p "$out"
out=$(cd "$out" && pwd)

missing=""
for p in osmo-stp strace; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "app-m3ua: installing:$missing"
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
fi
make -s modules tests >/dev/null

{
	echo "date=$(date -u +%Y-%m-%dT%H:%MZ)"
	echo "thin-sctp=$(git describe --always --dirty --tags)"
	echo "kernel=$(make -s --no-print-directory print-kver)"
	echo "osmo-stp=$(dpkg-query -W -f='${Version}' osmo-stp)"
	echo "libosmo-sigtran7=$(dpkg-query -W -f='${Version}' libosmo-sigtran7)"
	echo "rtts=$rtts loss_each_way=$loss% seconds=$secs assocs=$assocs interval=250ms"
	echo "qemu=$(qemu-system-x86_64 --version | head -n 1)"
} >"$out/params.txt"

to=$(( (secs + 60) * 4 + 300 ))
cells() {
	local v=$1 r c=""
	for r in $rtts; do
		c="$c M3UA_ASSOCS=$assocs tests/exp/guest-m3ua.sh \$THIN_OUT/$v-rtt$r $r $loss $secs $v;"
	done
	echo "$c"
}
echo "app-m3ua: Debian's module (stock) ..."
VM_QUIET=1 tests/vm/run --stock --timeout "$to" --out "$out/vm-stock" -- \
	"tests/exp/guest-m3ua.sh \$THIN_OUT/strace strace > \$THIN_OUT/strace.txt; $(cells stock)" || true
echo "app-m3ua: our module, the preset (thin) ..."
VM_QUIET=1 tests/vm/run --timeout "$to" --out "$out/vm-thin" -- "$(cells thin)" || true

logs=""
for r in $rtts; do
	for v in stock thin; do
		logs="$logs $out/vm-$v/$v-rtt$r/asp.log"
	done
done
# shellcheck disable=SC2086
python3 tools/m3ua-asp.py report $logs | sed "s#$out/vm-[a-z]*/##g; s#/asp.log##g" >"$out/summary.md"
cat "$out/summary.md"
