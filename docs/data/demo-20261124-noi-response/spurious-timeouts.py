import sys, struct, collections
sys.path.insert(0, "/work/main/tools")
import analyze as A
port = int(sys.argv[1])
view, arrival = A.sctp_view(".", [port], 10 * 10**6)
first = {}
for t, _s, _d, sport, dport, _l, raw in A.packets("snd*.pcap"):
    if dport == port:
        first.setdefault((sport, dport), t)
per = collections.Counter(); ts = []
for x in view[port]["rtx"]:
    if x["cause"] == "TO" and x["spurious"]:
        per[x["assoc"]] += 1; ts.append((x["t"] - first[x["assoc"]]) / 1e9)
ts.sort()
print("spurious TOs (any n):", len(ts), "assocs:", len(per), "per assoc min/max:", min(per.values()), max(per.values()))
print("seconds after the assoc's first DATA: p50 %.1f p90 %.1f max %.1f; within 10 s: %d" % (ts[len(ts)//2], ts[9*len(ts)//10], ts[-1], sum(1 for x in ts if x < 10)))
