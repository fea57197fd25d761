#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Where a bulk-cost difference goes: guest instructions per byte, per
function, for two variants of tests/bench/overhead.sh run under
tools/qemu/thin-insn.so with prof= (BENCH_PROF=1 in the guest saves
/proc/kallsyms beside overhead.txt).

  insn-profile.py PROF KALLSYMS OVERHEAD_TXT BASE VARIANT [TOP]

Run k of overhead.txt is the profile dumped at mark 2k+1.  The first run
of a boot is a warm-up (its cost is about 3 % above the rest) and is left
out.  Prints, per function, the median over runs of instructions per
byte for BASE and VARIANT and their difference, largest first, and the
total of each (the whole guest: user space, kernel, modules).
"""
import bisect
import statistics
import sys


def load_syms(path):
    syms = []
    for line in open(path):
        f = line.split()
        if len(f) < 3 or f[1] not in "tTwW":
            continue
        a = int(f[0], 16)
        if a:
            syms.append((a, f[2] + (" " + f[3] if len(f) > 3 else "")))
    syms.sort()
    return [a for a, _ in syms], [n for _, n in syms]


def main(argv):
    if len(argv) < 6:
        sys.exit(__doc__)
    prof, ksyms, ovh, base, var = argv[1:6]
    top = int(argv[6]) if len(argv) > 6 else 25
    addrs, names = load_syms(ksyms)
    runs = [l.split() for l in open(ovh) if l.strip()]
    per = {}    # mark -> {symbol: insns}
    for line in open(prof):
        m, va, n = line.split()
        m, va, n = int(m), int(va, 16), int(n)
        if m % 2 == 0:
            continue
        if va < (1 << 47):
            sym = "[user]"
        else:
            i = bisect.bisect_right(addrs, va) - 1
            sym = names[i] if i >= 0 else "[unknown]"
        d = per.setdefault(m, {})
        d[sym] = d.get(sym, 0) + n
    cost = {}   # variant -> list of {symbol: insns/byte}
    for k, f in enumerate(runs):
        if k == 0:
            continue
        d = per.get(2 * k + 1, {})
        b = int(f[2])
        cost.setdefault(f[0], []).append({s: n / b for s, n in d.items()})
    if base not in cost or var not in cost:
        sys.exit("no runs of %s or %s (after the warm-up)" % (base, var))
    syms = set()
    for v in (base, var):
        for d in cost[v]:
            syms |= set(d)

    def med(v, s):
        return statistics.median(d.get(s, 0.0) for d in cost[v])

    rows = sorted(((med(var, s) - med(base, s), s) for s in syms), reverse=True)
    tb = statistics.median(sum(d.values()) for d in cost[base])
    tv = statistics.median(sum(d.values()) for d in cost[var])
    print("runs: %s %d, %s %d (warm-up left out); instructions per byte: %.3f -> %.3f (%+.2f %%)"
          % (base, len(cost[base]), var, len(cost[var]), tb, tv, (tv / tb - 1) * 100))
    print("%-44s %9s %9s %9s" % ("function", base, var, "diff"))
    for dlt, s in rows[:top]:
        print("%-44s %9.4f %9.4f %+9.4f" % (s[:44], med(base, s), med(var, s), dlt))
    print("...")
    for dlt, s in rows[-5:]:
        print("%-44s %9.4f %9.4f %+9.4f" % (s[:44], med(base, s), med(var, s), dlt))


if __name__ == "__main__":
    main(sys.argv)
