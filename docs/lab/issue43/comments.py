#!/usr/bin/env python3
"""Kernel comments of thin-sctp that carry commit hashes, issue numbers,
test names or measurements; and time comparisons by casts or raw
subtraction.  Usage: comments.py [TOP]"""
import glob, os, re, sys
TOP = sys.argv[1] if len(sys.argv) > 1 else '/work/dev'
FILES = sorted(glob.glob(TOP + '/net/sctp/thin*.c')) + \
    [TOP + '/net/sctp/thin_glue.h', TOP + '/net/sctp/thin_trace.h'] + \
    sorted(glob.glob(TOP + '/include/net/sctp/thin*.h')) + \
    [TOP + '/include/uapi/linux/sctp_thin.h']
RULES = [
    ('hash', re.compile(r'\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b')),
    ('issue', re.compile(r'\b[Ii]ssues? \d+|#\d+\b|\bfinding \d+')),
    ('test', re.compile(r'tests?/|\.sh\b|\bt_\w+|\bdemo\b|\bresults?:|iperf|'
                        r'\bmake (check|w1|style)|fairness|interval sweep|mutant')),
    ('measure', re.compile(r'[Mm]easured|\b\d+(\.\d+)? ?%|\b\d+ (of|in) \d+\b|'
                           r'\b\d+(\.\d+)? ?(ms|s|µs|Mbit/s) (later|before|after|outage|instead)|'
                           r'\bin a busy guest|\bp99\b|\bsamples in\b')),
]
hits = []
for f in FILES:
    if not os.path.exists(f):
        continue
    text = open(f).read().split('\n')
    inc = False
    for n, line in enumerate(text, 1):
        parts = []
        s = line
        while s:
            if inc:
                j = s.find('*/')
                parts.append(s if j < 0 else s[:j])
                if j < 0:
                    break
                s, inc = s[j + 2:], False
            else:
                j = s.find('/*')
                k = s.find('//')
                if k >= 0 and (j < 0 or k < j):
                    parts.append(s[k + 2:]); break
                if j < 0:
                    break
                s, inc = s[j + 2:], True
        c = ' '.join(parts)
        if not c.strip():
            continue
        kinds = [k for k, r in RULES if r.search(c)]
        if kinds:
            hits.append((os.path.relpath(f, TOP), n, ','.join(kinds), c.strip()))
for h in hits:
    print('%s:%d [%s] %s' % h)
print('comment lines flagged: %d' % len(hits))
