#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Packet trace of one thin-gen association from an experiment cell.

  tools/sctp-trace.py CELL PORT ASSOC FIRST_SEQ LAST_SEQ [snd|rcv]

CELL is a tools/experiment.sh cell directory (captures snd-ours.pcap,
rcv-ours.pcap), PORT the variant's port (variants.txt), ASSOC thin-gen's
association index.  Prints every packet of that association from the one
carrying message FIRST_SEQ to the one carrying LAST_SEQ, in ms from the
first: DATA as D<tsn>/s<seq> (I: the I-bit), SACKs with their cumulative
ack, gap blocks and duplicate TSNs.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import analyze as A  # noqa: E402

NAMES = {1: "INIT", 3: "SACK", 4: "HB", 5: "HBACK", 6: "ABORT", 7: "SHUTDOWN"}


def main(argv):
    if len(argv) < 6:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    cell, port, aidx = argv[1], int(argv[2]), int(argv[3])
    seq0, seq1 = int(argv[4]), int(argv[5])
    side = argv[6] if len(argv) > 6 else "snd"
    pk = A.packets(os.path.join(cell, "%s-ours.pcap" % side))
    cport = None
    for _t, _s, _d, sp, dp, _l, raw in pk:
        if dp != port:
            continue
        for ct, f, v in A.chunks(raw):
            if ct == 0 and len(v) >= 28 and f & 2:
                if struct.unpack_from("<HHI", v, 12)[1] == aidx:
                    cport = sp
        if cport:
            break
    if cport is None:
        print("association %d not found on port %d" % (aidx, port), file=sys.stderr)
        return 1
    print("client port", cport)
    t0, on = None, False
    for t, _s, _d, sp, dp, _l, raw in pk:
        if (sp, dp) not in ((cport, port), (port, cport)):
            continue
        desc = []
        for ct, f, v in A.chunks(raw):
            if ct == 0 and len(v) >= 12:
                tsn = struct.unpack_from("!I", v, 0)[0]
                sq = struct.unpack_from("<HHI", v, 12)[2] if len(v) >= 28 else -1
                desc.append("D%d/s%d%s" % (tsn, sq, "I" if f & 8 else ""))
                if sq == seq0:
                    on = True
                if sq == seq1 and on:
                    on = "last"
            elif ct == 3 and len(v) >= 12:
                cum, gaps, nd = A.parse_sack(v)
                off = 12 + 4 * len(gaps)
                dups = [struct.unpack_from("!I", v, off + 4 * i)[0]
                        for i in range(nd) if off + 4 * i + 4 <= len(v)]
                desc.append("SACK cum=%d gaps=%s dups=%s" % (cum, gaps, dups))
            else:
                desc.append(NAMES.get(ct, "c%d" % ct))
        if on:
            if t0 is None:
                t0 = t
            print("%8.1f %s %s" % ((t - t0) / 1e6, ">" if dp == port else "<", " ".join(desc)))
        if on == "last":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
