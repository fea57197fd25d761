import sys, struct
sys.path.insert(0, "/work/main/tools")
import analyze as A
port = int(sys.argv[1])
snd = A.packets("snd*.pcap")
view, arrival = A.sctp_view(".", [port], 10 * 10**6)
spur = {}
for x in view[port]["rtx"]:
    if x["cause"] == "TO" and x["spurious"] and x["n"] == 1:
        spur[(x["assoc"], x["tsn"], x["t"])] = 1
st = {}  # assoc -> dict
hist = {"delayed": 0, "short": 0}
before = []
sent = {}
for t, _s, _d, sport, dport, _l, raw in snd:
    if dport == port:
        a = (sport, dport)
        s = st.setdefault(a, {"timed": None, "srtt": None, "var": None, "samples": [], "sent": {}})
        for ctype, f, v in A.chunks(raw):
            if ctype == 0 and len(v) >= 12:
                tsn = struct.unpack_from("!I", v, 0)[0]
                if tsn in s["sent"]:
                    s["sent"][tsn] = None  # resent: Karn
                    if s["timed"] and s["timed"][0] == tsn:
                        s["timed"] = None
                    if (a, tsn, t) in spur:
                        before.append((s["srtt"], s["var"], s["samples"][-6:], len(s["samples"])))
                else:
                    s["sent"][tsn] = t
                    if s["timed"] is None:
                        s["timed"] = (tsn, t)
    elif sport == port:
        a = (dport, sport)
        s = st.get(a)
        if not s:
            continue
        for ctype, f, v in A.chunks(raw):
            if ctype == 3 and len(v) >= 12:
                cum = struct.unpack_from("!I", v, 0)[0]
                if s["timed"] and (cum - s["timed"][0]) % 2**32 < 2**31:
                    r = (t - s["timed"][1]) / 1e6
                    s["timed"] = None
                    s["samples"].append(round(r))
                    if s["srtt"] is None:
                        s["srtt"], s["var"] = r, r / 2
                    else:
                        s["var"] = 0.75 * s["var"] + 0.25 * abs(s["srtt"] - r)
                        s["srtt"] = 0.875 * s["srtt"] + 0.125 * r
                    hist["delayed" if r > 200 else "short"] += 1
print("samples:", hist)
import statistics
rtos = [sr + 4 * va for sr, va, _, _n in before if sr]
print("spurious first TOs:", len(before), "modelled RTO before them: median %.0f, p10 %.0f p90 %.0f" % (statistics.median(rtos), sorted(rtos)[len(rtos)//10], sorted(rtos)[9*len(rtos)//10]))
for b in []:
    print("srtt %.0f var %.0f last samples %s" % (b[0], b[1], b[2]))
ns = sorted(b[3] for b in before)
print("samples taken before each spurious TO: p10 %d p50 %d p90 %d max %d" % (ns[len(ns)//10], ns[len(ns)//2], ns[9*len(ns)//10], ns[-1]))
late = [b for b in before if b[3] > 20]
print("after 20 samples:", len(late))
for b in late[:10]:
    print("srtt %.0f var %.0f rto %.0f last samples %s n %d" % (b[0], b[1], b[0]+4*b[1], b[2], b[3]))
