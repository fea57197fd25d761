#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make upstream-series: the top-level items of our C sources, for the
# series map (upstream/series.map, docs/design-upstream-series.md).
#
#   upstream-extract.py list FILE            every item: KIND NAME FIRST LAST
#   upstream-extract.py get FILE KIND NAME   the item's text (with the
#                                            comment block right above it)
#
# Items: func (a function definition), struct, enum (named by its first
# constant), define (one #define, continuation lines included), proto (a
# prototype), include (one #include line, named by its target), other
# (any other top-level text: file comments, guards).  The generator copies
# items verbatim, so the logic in the upstream form is the text of our
# sources; it renames identifiers afterwards (upstream/renames.sed), never
# edits a body by hand.
import re
import sys

FUNC_START = re.compile(r'^(?=[A-Za-z_])(?:.*\W)?([A-Za-z_]\w*)\(')
TYPE_ONLY = re.compile(r'^(static\s+|const\s+|inline\s+)*(struct\s+\w+\s*\*?|'
                       r'unsigned\s+\w+|\w+)\s*\*?\s*$')


def items(lines):
    """Yield (kind, name, first, last) for each top-level item, 0-based,
    first including the comment block directly above the item."""
    i, n = 0, len(lines)
    comment_start = None
    while i < n:
        line = lines[i]
        if line.startswith('/*'):
            if comment_start is None:
                comment_start = i
            while '*/' not in lines[i]:
                i += 1
            i += 1
            continue
        if not line.strip():
            if comment_start is not None:
                yield ('other', 'comment@%d' % (comment_start + 1),
                       comment_start, i - 1)
            comment_start = None
            i += 1
            continue
        first = comment_start if comment_start is not None else i
        comment_start = None
        m_def = re.match(r'^#define\s+(\w+)', line)
        m_inc = re.match(r'^#include\s+[<"]([^>"]+)[>"]', line)
        if m_def:
            j = i
            while lines[j].rstrip().endswith('\\'):
                j += 1
            yield ('define', m_def.group(1), first, j)
            i = j + 1
            continue
        if m_inc:
            yield ('include', m_inc.group(1), first, i)
            i += 1
            continue
        if line.startswith('#') or line.startswith('//'):
            yield ('other', 'line@%d' % (i + 1), first, i)
            i += 1
            continue
        m_struct = re.match(r'^(struct|enum)\s*(\w*)\s*\{', line)
        if m_struct or line.rstrip() == 'enum {':
            j = i
            while not lines[j].startswith('}'):
                j += 1
            kind = m_struct.group(1) if m_struct else 'enum'
            name = m_struct.group(2) if m_struct else ''
            if kind == 'enum' and not name:
                m = re.match(r'\s*(\w+)', lines[i + 1])
                name = m.group(1) if m else 'enum@%d' % (i + 1)
            yield (kind, name, first, j)
            i = j + 1
            continue
        # A declaration or definition: the return type may stand alone on
        # the line above the name.
        j = i
        if TYPE_ONLY.match(line) and i + 1 < n:
            j = i + 1
        m = FUNC_START.match(lines[j])
        if not m:
            # module_param_cb(...); and the like: up to the ';'
            k = i
            while not lines[k].rstrip().endswith(';') and k + 1 < n:
                k += 1
            yield ('other', 'stmt@%d' % (i + 1), first, k)
            i = k + 1
            continue
        name = m.group(1)
        k = j
        while not re.search(r'[;{]\s*$', lines[k]) and not lines[k].rstrip().endswith(')'):
            k += 1
        # the opening brace of a definition is on its own line
        if lines[k].rstrip().endswith(')') and k + 1 < n and lines[k + 1].startswith('{'):
            k += 1
        if lines[k].rstrip().endswith(';'):
            yield ('proto', name, first, k)
            i = k + 1
            continue
        while not lines[k].startswith('}'):
            k += 1
        yield ('func', name, first, k)
        i = k + 1


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__ or 'usage')
    cmd, path = sys.argv[1], sys.argv[2]
    with open(path) as f:
        lines = f.read().split('\n')
    if cmd == 'list':
        for kind, name, first, last in items(lines):
            print(kind, name, first + 1, last + 1)
        return
    if cmd == 'get':
        kind, name = sys.argv[3], sys.argv[4]
        found = [it for it in items(lines) if it[0] == kind and it[1] == name]
        if len(found) != 1:
            sys.exit('upstream-extract: %s: %d items "%s %s"' %
                     (path, len(found), kind, name))
        _, _, first, last = found[0]
        sys.stdout.write('\n'.join(lines[first:last + 1]) + '\n')
        return
    sys.exit('upstream-extract: unknown command ' + cmd)


if __name__ == '__main__':
    main()
