#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""An application's first SCTP socket, in a guest where sctp is not loaded.

socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP) makes the kernel load sctp on
demand (request_module("net-pf-2-proto-132")).  Prints as JSON: whether
sctp was loaded before, the module's version, that first socket's
SCTP_THIN settings (the socket defaults it copied from net.sctp.thin_* when
it was created), the same for its association with a listener on
127.0.0.1, /proc/sys/net/sctp/thin_* read afterwards, /proc/net/sctp/thin
and thin-stat while the association is up.
"""
import glob
import json
import os
import socket
import struct
import subprocess

IPPROTO_SCTP, SCTP_THIN = 132, 180


def params(s):
    """getsockopt(SCTP_THIN), stp_assoc_id 0: the socket's own, or on a
    connected one-to-one socket its association's."""
    try:
        b = s.getsockopt(IPPROTO_SCTP, SCTP_THIN, 24)
    except OSError as e:
        return {"error": e.strerror}
    _aid, flags, rto_min, lt_max, _rb, _rp = struct.unpack("=iIIIII", b[:24])
    return {"flags": "0x%02x" % flags, "rto_min": rto_min,
            "linear_timeouts_max": lt_max}


def read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


res = {"sctp_loaded_before": os.path.isdir("/sys/module/sctp")}
first = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_SCTP)
res["module_version"] = read("/sys/module/sctp/version")
res["module_file"] = subprocess.run(["modinfo", "-n", "sctp"], capture_output=True,
                                    text=True).stdout.strip()
res["first_socket"] = params(first)
lst = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_SCTP)
lst.bind(("127.0.0.1", 0))
lst.listen(1)
first.connect(lst.getsockname())
conn, _ = lst.accept()
first.send(b"x" * 100)
conn.recv(100)
res["first_socket_association"] = params(first)
res["sysctl_after"] = {os.path.basename(p): read(p)
                       for p in sorted(glob.glob("/proc/sys/net/sctp/thin_*"))}
res["proc_net_sctp_thin"] = read("/proc/net/sctp/thin")
for name, args in (("thin_stat", ["thin-stat"]),
                   ("thin_stat_json", ["thin-stat", "--json"])):
    try:
        r = subprocess.run(args, capture_output=True, text=True)
        res[name] = r.stdout + r.stderr
    except OSError as e:  # thin-stat removed with the package
        res[name] = str(e)
print(json.dumps(res, indent=1))
