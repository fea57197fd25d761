#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Call graph between the thin-sctp files (issue 43).

    callgraph.py [TOP]        TOP: the repository (default /work/dev)

Files: net/sctp/thin*.c, net/sctp/thin_glue.h, net/sctp/thin_trace.h,
include/net/sctp/thin*.h.  Definitions are the top-level items of kind
func of scripts/upstream-extract.py (the parser make upstream-series
uses), plus the trace_<event>() functions that TRACE_EVENT(<event>) of
thin_trace.h defines.  In every function body and every top-level
initialiser (comments and strings removed), each identifier that names a
function defined in ANOTHER of our files is an edge:
    call  NAME(          a direct call
    ref   NAME           a function pointer taken (an ops table, a timer)
Function pointers called through a struct (c->mem->alloc) are listed
under "indirect" from the ops tables that install them.

Output: per file, its edges to other files with the function names,
C -> C edges first (the ones the layering is about), then edges into
headers (static inlines, trace events), then the cycles among the C
files (elementary cycles of the C -> C graph, direct calls and refs
alike) and the strongly connected components.
"""
import collections
import glob
import importlib.util
import os
import re
import sys

TOP = sys.argv[1] if len(sys.argv) > 1 else '/work/dev'

spec = importlib.util.spec_from_file_location(
    'ux', os.path.join(TOP, 'scripts', 'upstream-extract.py'))
ux = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ux)

FILES = sorted(glob.glob(os.path.join(TOP, 'net/sctp/thin*.c'))) + \
    [os.path.join(TOP, 'net/sctp/thin_glue.h'),
     os.path.join(TOP, 'net/sctp/thin_trace.h')] + \
    sorted(glob.glob(os.path.join(TOP, 'include/net/sctp/thin*.h')))


def rel(p):
    return os.path.relpath(p, TOP)


def short(p):
    return os.path.basename(p)


def code_only(lines):
    """Lines without comments, string and char literals, // comments."""
    out = []
    for ln in ux.strip_comments(lines):
        ln = re.sub(r'"(\\.|[^"\\])*"', '""', ln)
        ln = re.sub(r"'(\\.|[^'\\])*'", "''", ln)
        ln = re.sub(r'//.*', '', ln)
        out.append(ln)
    return out


defs = {}          # function name -> file
own = collections.defaultdict(set)   # file -> functions it defines
items_of = {}      # file -> [(kind, name, first, last)]
text_of = {}
for f in FILES:
    with open(f) as fh:
        lines = fh.read().split('\n')
    text_of[f] = lines
    its = list(ux.items(lines))
    items_of[f] = its
    for kind, name, first, last in its:
        if kind == 'func':
            if name in defs and defs[name] != f:
                print('note: %s defined in %s and %s' %
                      (name, short(defs[name]), short(f)), file=sys.stderr)
            defs.setdefault(name, f)
            own[f].add(name)
        if kind == 'macro' and f.endswith('thin_trace.h'):
            defs['trace_' + name] = f      # TRACE_EVENT(name) -> trace_name()

# An identifier, unless it is a member (after -> or .) or a tag (after
# struct/enum/union: struct sctp_thin_path is not sctp_thin_path()).
IDENT = re.compile(r'(?<![\w.>])(?<!struct )(?<!enum )(?<!union )'
                   r'([A-Za-z_]\w*)\b(\s*\()?')

# edges[(src, dst)][name] = set of kinds ('call'/'ref') and callers
edges = collections.defaultdict(lambda: collections.defaultdict(set))
callers = collections.defaultdict(lambda: collections.defaultdict(set))
for f in FILES:
    lines = text_of[f]
    for kind, name, first, last in items_of[f]:
        if kind not in ('func', 'other', 'struct', 'macro'):
            continue
        if kind == 'macro' and f.endswith('thin_trace.h'):
            continue
        body = code_only(lines[first:last + 1])
        for ln in body:
            for m in IDENT.finditer(ln):
                ident, paren = m.group(1), m.group(2)
                if ident == name and kind == 'func':
                    continue
                if ident in own[f]:
                    continue	# its own (a static twin, or a prototype)
                dst = defs.get(ident)
                if not dst or dst == f:
                    continue
                edges[(f, dst)][ident].add('call' if paren else 'ref')
                callers[(f, dst)][ident].add(name if kind == 'func' else kind)

# Indirect calls: a struct of function pointers our code fills (the core's
# allocator) and calls through.
INDIRECT = []
core = os.path.join(TOP, 'net/sctp/thin_core.c')
for f in FILES:
    for ln in text_of[f]:
        m = re.match(r'\s*\.(alloc|free)\s*=\s*(\w+),', ln)
        if m and m.group(2) in defs:
            INDIRECT.append((core, defs[m.group(2)], 'c->mem->%s() = %s()' %
                             (m.group(1), m.group(2))))


def is_c(p):
    return p.endswith('.c')


out = []
w = out.append
w('# Call graph of thin-sctp (%s), computed by callgraph.py' % TOP)
w('# edge: SRC -> DST: functions of DST that SRC uses (call, or ref = '
  'function pointer)')
w('')
w('## C file -> C file (direct)')
cc = collections.defaultdict(set)
for (s, d), names in sorted(edges.items()):
    if not (is_c(s) and is_c(d)):
        continue
    cc[s].add(d)
    parts = []
    for n in sorted(names):
        k = '/'.join(sorted(names[n]))
        who = ','.join(sorted(callers[(s, d)][n]))
        parts.append('%s%s [in %s]' % (n, '' if k == 'call' else ' (' + k + ')',
                                       who))
    w('%s -> %s: %d' % (short(s), short(d), len(names)))
    for p in parts:
        w('    %s' % p)
w('')
w('## indirect (through a function pointer the caller installed)')
for s, d, how in INDIRECT:
    w('%s -> %s: %s' % (short(s), short(d), how))
w('')
w('## into headers (static inlines, trace events)')
for (s, d), names in sorted(edges.items()):
    if is_c(d):
        continue
    w('%s -> %s: %s' % (short(s), short(d), ', '.join(sorted(names))))
w('')
w('## header -> C file (the hooks and inlines calling out-of-line code)')
for (s, d), names in sorted(edges.items()):
    if is_c(s) or not is_c(d):
        continue
    w('%s -> %s: %s' % (short(s), short(d), ', '.join(sorted(names))))
w('')

# Elementary cycles (Johnson-lite: the graph is tiny), C files only.
nodes = sorted({n for n in cc} | {d for s in cc for d in cc[s]})
cycles = set()


def dfs(start, node, path, seen):
    for nxt in sorted(cc.get(node, ())):
        if nxt == start:
            cyc = path[:]
            k = cyc.index(min(cyc))
            cycles.add(tuple(cyc[k:] + cyc[:k]))
        elif nxt not in seen and nxt > start:
            seen.add(nxt)
            dfs(start, nxt, path + [nxt], seen)
            seen.discard(nxt)


for n in nodes:
    dfs(n, n, [n], {n})
w('## cycles among the C files (%d)' % len(cycles))
for c in sorted(cycles, key=lambda c: (len(c), c)):
    w(' -> '.join(short(x) for x in c + (c[0],)))
w('')

# Strongly connected components (Tarjan).
index, low, stack, on, sccs = {}, {}, [], set(), []


def strong(v):
    index[v] = low[v] = len(index)
    stack.append(v)
    on.add(v)
    for u in cc.get(v, ()):
        if u not in index:
            strong(u)
            low[v] = min(low[v], low[u])
        elif u in on:
            low[v] = min(low[v], index[u])
    if low[v] == index[v]:
        comp = []
        while True:
            u = stack.pop()
            on.discard(u)
            comp.append(u)
            if u == v:
                break
        sccs.append(sorted(comp))


for n in nodes:
    if n not in index:
        strong(n)
w('## strongly connected components with more than one file')
for comp in sccs:
    if len(comp) > 1:
        w(' '.join(short(x) for x in comp))
print('\n'.join(out))
