#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Endpoints for tests/kernel/lifecycle.sh (one SCTP association each).

  lc.py sink PORT ACTION      accept one association, then on SIGUSR1:
                              ACTION abort (SO_LINGER 0 close) or close
  lc.py send ADDR PORT        connect with SCTP_THIN 0x1f (LC_THIN_FLAGS
                              sets others; a stock socket with
                              LC_NO_THIN=1), send 3 messages,
                              print "up", then for each line on stdin:
                              "send N" (N more messages), "abort"
                              (SO_LINGER 0 close), "close" (graceful),
                              "wait" (block in recv until the association
                              ends; prints "ended <errno name> <seconds
                              since the last "send" began> <CLOCK_MONOTONIC
                              seconds at the end>", the same clock in
                              every process of the machine)
"""
import errno
import os
import signal
import socket
import struct
import sys
import time

IPPROTO_SCTP = 132
SCTP_NODELAY = 3
SCTP_THIN = 180
SCTP_THIN_ALL = 0x1f


def linger0(s):
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


def sink(port, action):
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_SCTP)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("0.0.0.0", port))
    ls.listen(1)
    print("listening", flush=True)
    c, _ = ls.accept()
    go = []
    signal.signal(signal.SIGUSR1, lambda *a: go.append(1))
    c.setblocking(False)
    while not go:
        try:
            if c.recv(65536) == b"":
                break
        except BlockingIOError:
            time.sleep(0.05)
    if action == "abort":
        linger0(c)
    c.close()
    print("done", flush=True)
    time.sleep(1)


def send(addr, port):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_SCTP)
    s.setsockopt(IPPROTO_SCTP, SCTP_NODELAY, 1)
    if not os.environ.get("LC_NO_THIN"):
        flags = int(os.environ.get("LC_THIN_FLAGS") or "0", 0) or SCTP_THIN_ALL
        s.setsockopt(IPPROTO_SCTP, SCTP_THIN,
                     struct.pack("iIII", 0, flags, 0, 0))
    s.connect((addr, port))
    for _ in range(3):
        s.send(b"x" * 100)
    last = time.monotonic()
    print("up", flush=True)
    for line in sys.stdin:
        cmd = line.split()
        if not cmd:
            continue
        if cmd[0] == "send":
            last = time.monotonic()
            for _ in range(int(cmd[1])):
                s.send(b"y" * 100)
            print("sent", flush=True)
        elif cmd[0] == "abort":
            linger0(s)
            s.close()
            print("closed", flush=True)
            return
        elif cmd[0] == "close":
            s.close()
            print("closed", flush=True)
            return
        elif cmd[0] == "wait":
            err = 0
            try:
                while s.recv(65536) != b"":
                    pass
            except OSError as e:
                err = e.errno
            end = time.monotonic()
            print("ended %s %.3f %.3f" % (errno.errorcode.get(err, "EOF"),
                                          end - last, end), flush=True)
            return


if __name__ == "__main__":
    if sys.argv[1] == "sink":
        sink(int(sys.argv[2]), sys.argv[3])
    else:
        send(sys.argv[2], int(sys.argv[3]))
    os._exit(0)
