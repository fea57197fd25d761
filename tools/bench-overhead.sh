#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make bench-overhead: bulk throughput and CPU per byte, our module with
# every switch off vs every switch on (interleaved in one VM run, so the
# ratio compares like with like), and Debian's stock module (a second VM
# boot: only one sctp.ko can be loaded at a time).  Writes
# results/<date>-overhead/ (raw lines, summary.md, summary.json).
#   BENCH_MB (default 40), BENCH_REPS (default 6), BENCH_BOOTS (default 2)
#   BENCH_VARIANTS (default "off on"; also detect, on-noi: see
#   tests/bench/overhead.sh)
#   BENCH_INSN=1: also count the guest's instructions per transfer with
#   a QEMU TCG plugin (tools/qemu/thin-insn.so, one vCPU), a cost measure
#   that does not depend on the emulator's speed: instructions per byte,
#   sender and receiver together, for each run.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP"
res=$TOP/results/$(date +%Y%m%d-%H%M%S)-overhead
mkdir -p "$res"
scripts/deps.sh >/dev/null
make -s modules tests >"$res/build.log" 2>&1 || { tail -n 20 "$res/build.log"; exit 1; }
export BENCH_MB=${BENCH_MB:-40} BENCH_REPS=${BENCH_REPS:-6}
{
	echo "thin-sctp=$(git describe --always --dirty --tags)"
	echo "bench: one association, ${BENCH_MB} MB in 1400-byte messages, veth, no delay, no loss, ${BENCH_REPS} runs per variant per boot, ${BENCH_BOOTS:-2} boots of each module"
	echo "date=$(date -Is)"
} >"$res/params.txt"
# Boots alternate (ours, stock, ours, stock, ...: BENCH_BOOTS pairs), so
# that boot-to-boot variance of the emulator shows up in the spread.
# $1: the boot's name, rest: tests/vm/run's arguments.
vm() {
	local name=$1

	shift
	if [ "${BENCH_INSN:-0}" = 1 ]; then
		VM_CPUS=1 VM_QEMU_OPTS="-plugin $TOP/build/tools/thin-insn.so,out=$res/$name.insn" \
			VM_QUIET=1 tests/vm/run --out "$res/$name" "$@"
	else
		VM_QUIET=1 tests/vm/run --out "$res/$name" "$@"
	fi
}
for b in $(seq 1 "${BENCH_BOOTS:-2}"); do
	vm "ours$b" -- "BENCH_MB=$BENCH_MB BENCH_REPS=$BENCH_REPS bash tests/bench/overhead.sh ${BENCH_VARIANTS:-off on}"
	vm "stock$b" --stock -- "BENCH_MB=$BENCH_MB BENCH_REPS=$BENCH_REPS bash tests/bench/overhead.sh stock"
done
cat "$res"/ours*/overhead.txt "$res"/stock*/overhead.txt >"$res/overhead.txt"
cat "$res"/ours*/overhead.txt >"$res/ours-overhead.txt"
/opt/thin-venv/bin/python3 - "$res" <<'PY'
import json, os, sys
import numpy as np
res = sys.argv[1]
runs = {}
for line in open(res + "/overhead.txt"):
    f = line.split()
    if len(f) < 6 or f[-1] != "unacked=0":
        continue
    runs.setdefault(f[0], []).append((float(f[4]), float(f[5])))
out, rows = {}, []
for v, r in runs.items():
    a = np.array(r)
    out[v] = {"runs": len(r),
              "mbit_s": {"median": float(np.median(a[:, 0])), "min": float(a[:, 0].min()), "max": float(a[:, 0].max())},
              "cpu_ns_per_byte": {"median": float(np.median(a[:, 1])), "min": float(a[:, 1].min()), "max": float(a[:, 1].max())}}
for v in ("stock", "off", "on"):
    if v in out:
        o = out[v]
        rows.append("| %s | %d | %.1f (%.1f-%.1f) | %.1f (%.1f-%.1f) |" % (
            v, o["runs"], o["mbit_s"]["median"], o["mbit_s"]["min"], o["mbit_s"]["max"],
            o["cpu_ns_per_byte"]["median"], o["cpu_ns_per_byte"]["min"], o["cpu_ns_per_byte"]["max"]))
def ratio(a, b, k):
    return out[a][k]["median"] / out[b][k]["median"] if a in out and b in out else None
# same-run ratio: per repetition, on/off, then the median of the ratios
pair = {}
import glob
for i, fn in enumerate(sorted(glob.glob(res + "/ours*/overhead.txt"))):
    for line in open(fn):
        f = line.split()
        if len(f) >= 6 and f[-1] == "unacked=0":
            pair.setdefault((i, int(f[1])), {})[f[0]] = (float(f[4]), float(f[5]))
pr = [(p["on"][0] / p["off"][0], p["on"][1] / p["off"][1]) for p in pair.values() if "on" in p and "off" in p]
out["ratios"] = {
    "on_vs_off_throughput_median_of_pairs": float(np.median([x[0] for x in pr])) if pr else None,
    "on_vs_off_cpu_per_byte_median_of_pairs": float(np.median([x[1] for x in pr])) if pr else None,
    "on_vs_off_throughput_pairs": [x[0] for x in pr],
    "off_vs_stock_throughput": ratio("off", "stock", "mbit_s"),
    "off_vs_stock_cpu_per_byte": ratio("off", "stock", "cpu_ns_per_byte"),
    "on_vs_stock_throughput": ratio("on", "stock", "mbit_s"),
}
json.dump(out, open(res + "/summary.json", "w"), indent=1)
md = ["| variant | runs | throughput Mbit/s, median (min-max) | CPU ns/byte, median (min-max) |",
      "|---|---|---|---|"] + rows + [""]
r = out["ratios"]
fmt = lambda x: "n/a" if x is None else "%.3f" % x
md.append("Same VM run, paired by repetition: on/off throughput %s, CPU per byte %s (pairs: %s)." % (
    fmt(r["on_vs_off_throughput_median_of_pairs"]), fmt(r["on_vs_off_cpu_per_byte_median_of_pairs"]),
    ", ".join("%.3f" % x for x in r["on_vs_off_throughput_pairs"])))
md.append("Across VM boots (medians): off/stock throughput %s, CPU per byte %s; on/stock throughput %s." % (
    fmt(r["off_vs_stock_throughput"]), fmt(r["off_vs_stock_cpu_per_byte"]), fmt(r["on_vs_stock_throughput"])))
# Instructions (BENCH_INSN=1): marks come in pairs, one pair per line of
# the boot's overhead.txt, in order.
ipb = {}
ipair = {}
for fn in sorted(glob.glob(res + "/*.insn")):
    boot = os.path.basename(fn)[:-5]
    marks = [int(l.split()[2]) for l in open(fn) if l.startswith("mark ")]
    lines = [l.split() for l in open(res + "/" + boot + "/overhead.txt") if l.strip()]
    if len(marks) != 2 * len(lines):
        md.append("Instructions: %s has %d marks for %d runs; not used." % (boot, len(marks), len(lines)))
        continue
    for k, f in enumerate(lines):
        v = (marks[2 * k + 1] - marks[2 * k]) / int(f[2])
        ipb.setdefault(f[0], []).append(v)
        ipair.setdefault((boot, int(f[1])), {})[f[0]] = v
if ipb:
    out["instructions_per_byte"] = {v: sorted(x) for v, x in ipb.items()}
    med = {v: float(np.median(x)) for v, x in ipb.items()}
    md.append("")
    md.append("| variant | runs | guest instructions per byte, median (min-max) |")
    md.append("|---|---|---|")
    for v in ("stock", "off", "on"):
        if v in ipb:
            md.append("| %s | %d | %.2f (%.2f-%.2f) |" % (v, len(ipb[v]), med[v], min(ipb[v]), max(ipb[v])))
    ip = [p["on"] / p["off"] for p in ipair.values() if "on" in p and "off" in p]
    r = out["ratios"]
    r["insn_on_vs_off_median_of_pairs"] = float(np.median(ip)) if ip else None
    r["insn_on_vs_off_pairs"] = ip
    r["insn_off_vs_stock"] = med["off"] / med["stock"] if "off" in med and "stock" in med else None
    r["insn_on_vs_stock"] = med["on"] / med["stock"] if "on" in med and "stock" in med else None
    md.append("")
    md.append("Instructions per byte: on/off %s (median of pairs: %s), off/stock %s, on/stock %s (medians across boots)." % (
        fmt(r["insn_on_vs_off_median_of_pairs"]), ", ".join("%.3f" % x for x in ip),
        fmt(r["insn_off_vs_stock"]), fmt(r["insn_on_vs_stock"])))
    json.dump(out, open(res + "/summary.json", "w"), indent=1)
open(res + "/summary.md", "w").write("\n".join(md) + "\n")
print("\n".join(md))
PY
echo "bench-overhead: results in $res"
