#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make upstream-series: the top-level items of our C sources, for the
# series map (upstream/series.map, docs/design-upstream-series.md).
#
#   upstream-extract.py list FILE            every item: KIND NAME FIRST LAST
#   upstream-extract.py get FILE KIND NAME   the item's text (with the
#                                            comment block right above it)
#   upstream-extract.py compose MAP TOP N OUTDIR  for each 'file' of the series
#                                            map MAP: SOURCE DEST FIRST, the
#                                            text DEST has after patch N
#                                            (its items of patches <= N, in
#                                            source order) into OUTDIR/DEST;
#                                            fails if an item is unplaced
#   upstream-extract.py unmapped MAP TOP     our thin* sources the map does
#                                            not place yet, with item counts
#   upstream-extract.py sizes MAP TOP        lines of our sources per patch
#                                            (items, their comments, the
#                                            blank lines between), by file
#   upstream-extract.py kunit-export FILE    glue: EXPORT_SYMBOL_IF_KUNIT()
#                                            right after each function of
#                                            FILE that is not static (in
#                                            place), for a KUnit test module
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
            # a comment opened on the define's last line and closed below
            tail = lines[j].rsplit('/*', 1)
            if len(tail) > 1 and '*/' not in tail[1]:
                while j + 1 < n and '*/' not in lines[j]:
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
            yield ('other', 'stmt:' + '_'.join(line.split())[:48], first, k)
            i = k + 1
            continue
        name = m.group(1)
        k = j
        if name.isupper():
            # a macro at top level: TRACE_EVENT(...);, MODULE_*(...);,
            # SCTP_THIN_PROC_SWITCH(x): up to the line that closes it
            depth = 0
            while k < n:
                depth += lines[k].count('(') - lines[k].count(')')
                if depth <= 0:
                    break
                k += 1
            if k + 1 < n and lines[k + 1].strip() == ';':
                k += 1
            ev = re.match(r'^(TRACE_EVENT|DEFINE_EVENT)\((\w+),', lines[j])
            if ev:
                name = ev.group(2)	# the event, not the macro
            yield ('macro', name, first, min(k, n - 1))
            i = k + 1
            continue
        while (k + 1 < n and not re.search(r'[;{]\s*$', lines[k]) and
               not lines[k].rstrip().endswith(')')):
            k += 1
        # the opening brace of a definition is on its own line
        if lines[k].rstrip().endswith(')') and k + 1 < n and lines[k + 1].startswith('{'):
            k += 1
        if lines[k].rstrip().endswith(';'):
            yield ('proto', name, first, k)
            i = k + 1
            continue
        while k + 1 < n and not lines[k].startswith('}'):
            k += 1
        yield ('func', name, first, k)
        i = k + 1


PLACED_KINDS = ('func', 'struct', 'enum', 'define', 'proto', 'macro')


def read_map(path):
    files, place = [], {}
    with open(path) as f:
        for raw in f:
            line = raw.split('#', 1)[0].split()
            if not line:
                continue
            if line[0] == 'file':
                # 'oot': a file of ours that the series leaves out whole
                first = NEVER if line[3] == 'oot' else int(line[3])
                files.append((line[1], line[2], first))
                if len(line) > 4 and line[4] == 'only':
                    ONLY.add(line[1])
            else:
                patch = None if line[0] == 'oot' else int(line[0])
                place[(line[1], line[2], line[3])] = patch
                if len(line) > 4:	# a field's use, where its name is not unique
                    USE[line[3]] = line[4]
    return files, place


# 'file SOURCE DEST oot': no patch of the series has the file (its items
# are all oot); it is mapped so that a new item still has to be placed.
NEVER = 1 << 30

# 'file SOURCE DEST N only': SOURCE gives only the items the map places;
# its other text (comments, #includes) is left out.
ONLY = set()

# field STRUCT.FIELD -> the text of its use (the map's fifth column), for
# a field whose name another struct has too (sctp_thin_conf.guard: the
# core has a guard as well): thin_conf.guard.
USE = {}


def later_names(files, place, top, upto):
    """Names of later patches, or oot: (KIND, NAME) -> patch (None for
    oot).  KIND is 'call' (a function: matched as NAME followed by '('),
    'ident' (a define, a macro, a variable: 'name' lines of the map;
    matched as the identifier) or 'field' (a struct field: 'field'
    lines, STRUCT.FIELD; matched after '->' or '.').  A name that some
    patch <= upto places as well (a static twin) is not later, nor one
    that a 'kept' line keeps from patch <= upto (N SOURCE kept NAME: an
    out-of-tree function whose calls stay, renamed by rewrite.pl to what
    upstream has: sctp_thin_inc_stats() is SCTP_INC_STATS())."""
    later = {}
    for (src, kind, name), patch in place.items():
        if patch is not None and patch <= upto:
            continue
        if kind == 'func':
            later[('call', name)] = patch
        elif kind in ('define', 'macro', 'name'):
            later[('ident', name)] = patch
        elif kind == 'field' and name in USE:
            later[('use', USE[name])] = patch
        elif kind == 'field':
            later[('field', name.split('.', 1)[1])] = patch
    for (src, kind, name), patch in place.items():
        if patch is None or patch > upto:
            continue
        if kind in ('func', 'kept'):
            later.pop(('call', name), None)
        elif kind in ('define', 'macro', 'name'):
            later.pop(('ident', name), None)
    return later


def stub_for(top, name, upto):
    """upstream/series/stubs/NAME: one or more sections, each a line
    'until N' and then the text that stands for the item in patches
    before N; the first section whose N is above UPTO applies, none from
    the last N on (the item itself then)."""
    import os
    path = os.path.join(top, 'upstream', 'series', 'stubs', name)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        lines = f.read().rstrip('\n').split('\n')
    sections, cur = [], None
    for line in lines:
        m = re.match(r'^until (\d+)$', line)
        if m:
            cur = (int(m.group(1)), [])
            sections.append(cur)
        elif cur is not None:
            cur[1].append(line)
    for until, text in sections:
        if upto < until:
            return text
    return None


def later_uses(code, later, own=None):
    """The later names that CODE (comments removed) uses."""
    found = []
    for (kind, name), patch in later.items():
        if name == own:
            continue
        if kind == 'call':
            pat = r'\b%s\s*\(' % name
        elif kind == 'ident':
            pat = r'\b%s\b' % name
        elif kind == 'use':
            pat = r'%s\b' % re.escape(name)
        else:
            pat = r'(->|\.)\s*%s\b' % name
        if re.search(pat, code):
            found.append((name, patch))
    return found


def strip_comments(lines):
    """Each line without its comments (block comments may span lines)."""
    out, in_comment = [], False
    for line in lines:
        code, i = '', 0
        while i < len(line):
            if in_comment:
                j = line.find('*/', i)
                if j < 0:
                    i = len(line)
                else:
                    in_comment = False
                    i = j + 2
            else:
                j = line.find('/*', i)
                if j < 0:
                    code += line[i:]
                    i = len(line)
                else:
                    code += line[i:j]
                    in_comment = True
                    i = j + 2
        out.append(code)
    return out


# An expression statement: a call, or an assignment / increment of an
# lvalue (a name, then ->x, .x, [i]).
EXPR_STMT = re.compile(r'^\s+\(?\*?[A-Za-z_]\w*(\s*(->|\.)\s*\w+|\[[^]]*\])*\)?\s*'
                       r'(\(|=[^=]|\+\+|--|[-+|&^]=|<<=|>>=)')
CONTROL = re.compile(r'^\s*(if|for|while|switch|return|else|case|default|do)\b')


def split_conjuncts(cond):
    """The top-level terms of an if's condition joined by '&&' (the text
    between 'if (' and its ')'), or None if it has a top-level '||' or
    '?'."""
    a = cond.index('(', cond.index('if')) + 1
    depth, terms, cur = 0, [], ''
    k = a
    while k < len(cond):
        ch = cond[k]
        if ch == '(':
            depth += 1
        elif ch == ')':
            if depth == 0:
                break
            depth -= 1
        if depth == 0 and cond.startswith('&&', k):
            terms.append(cur)
            cur = ''
            k += 2
            continue
        if depth == 0 and (cond.startswith('||', k) or ch == '?'):
            return None
        cur += ch
        k += 1
    terms.append(cur)
    return [t.strip() for t in terms]


def false_without(cond, later, own):
    """Is the condition false without the later names?  Yes if one of its
    '&&' terms uses a later name and is not negated and holds no '||'
    (a switch bit of a later patch, a field of a later patch: zero)."""
    terms = split_conjuncts(cond)
    if terms is None:
        return False
    for t in terms:
        if later_uses(t, later, own) and not t.startswith('!') and \
                '||' not in t and '?' not in t:
            return True
    return False


def block_end(code, i, c):
    """The line of the '}' (or '} else') that closes the block opened at
    the end of line c, by an if at line i."""
    ind = re.match(r'^(\s*)', code[i]).group(1)
    e = c + 1
    while e < len(code) and not code[e].startswith(ind + '}'):
        e += 1
    return e


def drop_comment_above(out):
    """A comment block (lines of comment only) right above a statement the
    filter left out goes with it."""
    code = strip_comments(out)
    if not out or code[-1].strip() or not out[-1].strip().endswith('*/'):
        return
    k = len(out) - 1
    while k > 0 and not out[k].strip().startswith('/*'):
        if code[k].strip():
            return
        k -= 1
    if out[k].strip().startswith('/*') and not code[k].strip():
        del out[k:]


# A declaration of one local variable, with or without an initialiser.
DECL = re.compile(r'^\s+(?:const\s+)?(?:struct\s+|unsigned\s+)?\w+[\s*]+'
                  r'(\w+)(\s*=[^;]*)?;\s*$')


def filter_calls(body, later, where, errors, own=None):
    """The call-drop rule, for calls and for names (R1, R1b): leave out
    each expression statement (a call, an assignment) that uses a later
    patch's function, field or identifier, and a one-line if whose whole
    body it is; a declaration of one later variable; an if (one statement
    or a block, no else) whose condition uses a later name, where that is
    safe: the body would be left out anyway, or the condition is false
    without the later names (false_without()).  A comment block right
    above what is left out goes too.  Any other use of a later name is an
    error."""
    code = strip_comments(body)
    out, i = [], 0
    while i < len(body):
        if re.match(r'^\s+if \(', code[i]):
            c, depth = i, 0
            while c < len(body):
                depth += code[c].count('(') - code[c].count(')')
                if depth <= 0:
                    break
                c += 1
            cond = ' '.join(code[i:c + 1])
            uses = later_uses(cond, later, own)
            if uses and c + 1 < len(body):
                if cond.rstrip().endswith('{'):
                    b = block_end(code, i, c)
                else:
                    b = c + 1
                    while b < len(body) and not code[b].rstrip().endswith(';'):
                        b += 1
                # the body as the rule leaves it: nothing left?
                rest = strip_comments(filter_calls(body[c + 1:b + 1], later,
                                                   where, [], own))
                body_later = not any(ln.strip() and ln.strip() != '}'
                                     for ln in rest)
                nxt = code[b + 1].strip() if b + 1 < len(body) else ''
                if nxt.startswith('else') or code[b].strip().startswith('} else'):
                    errors.append('%s: an if/else on %s (patch %s): "%s"' %
                                  (where, uses[0][0], uses[0][1],
                                   body[i].strip()))
                elif body_later or false_without(cond, later, own):
                    drop_comment_above(out)
                    i = b + 1
                    continue
                else:
                    errors.append('%s: an if on %s (patch %s) that may hold '
                                  'without it: "%s"' % (where, uses[0][0],
                                                        uses[0][1],
                                                        body[i].strip()))
        m = DECL.match(code[i])
        if m and not CONTROL.match(code[i]) and \
                later_uses(m.group(1), later, own) and \
                not later_uses(code[i].replace(m.group(1), '', 1), later, own):
            drop_comment_above(out)
            i += 1
            continue
        if code[i].strip() and EXPR_STMT.match(code[i]) and \
                not CONTROL.match(code[i]):
            j = i
            while j < len(body) and not code[j].rstrip().endswith(';'):
                j += 1
            stmt = ' '.join(code[i:j + 1])
            uses = later_uses(stmt, later, own)
            if uses:
                prev = out[-1].strip() if out else ''
                pcode = strip_comments([prev])[0].strip()
                nxt = code[j + 1].strip() if j + 1 < len(body) else ''
                if pcode.startswith('if (') and pcode.endswith(')') and \
                        pcode.count('(') == pcode.count(')') and \
                        not nxt.startswith('else'):
                    out.pop()	# a one-line if whose body is the statement
                elif pcode and not pcode.endswith((';', '{', '}')):
                    errors.append('%s: a guarded use of %s (patch %s) in "%s"' %
                                  (where, uses[0][0], uses[0][1],
                                   body[i].strip()))
                drop_comment_above(out)
                i = j + 1
                continue
        for name, patch in later_uses(code[i], later, own):
            errors.append('%s: %s (patch %s) used in "%s"' %
                          (where, name, patch, body[i].strip()))
        out.append(body[i])
        i += 1
    return out


def tidy_blocks(body):
    """After the call-drop rule: an 'if (...) {' block (no else) left
    empty is left out; one left with a single statement loses its braces
    (kernel style; checkpatch's BRACES).  Only a condition on one line."""
    code = strip_comments(body)
    i = 0
    while i < len(body):
        c = code[i].rstrip()
        m = re.match(r'^(\t+)if \(.*\) \{$', c)
        if not m or c.count('(') != c.count(')'):
            i += 1
            continue
        ind = m.group(1)
        j = i + 1
        while j < len(body) and not code[j].startswith(ind + '}'):
            j += 1
        if j >= len(body) or code[j].rstrip() != ind + '}':
            i += 1
            continue	# '} else', or not found: left alone
        inner = [k for k in range(i + 1, j) if code[k].strip()]
        if not inner:
            del body[i:j + 1]
            del code[i:j + 1]
            continue
        first = inner[0]
        one = (code[first].startswith(ind + '\t') and
               not code[first].startswith(ind + '\t\t') and
               not CONTROL.match(code[first]) and
               all(code[k].startswith(ind + '\t\t') or
                   not code[k].strip() for k in range(first + 1, j)) and
               code[inner[-1]].rstrip().endswith(';') and
               '{' not in ''.join(code[first:j]) and
               all(code[k].rstrip().endswith(';') is False
                   for k in inner[:-1]))
        if one:
            body[i] = body[i].rstrip()[:-2]
            code[i] = code[i].rstrip()[:-2]
            del body[j]
            del code[j]
        i += 1
    return body


FIELD_DECL = re.compile(r'^\s+[^(]*?\b(\w+)\s*(\[[^]]*\])?\s*;')


def filter_fields(text, struct, place, src, upto):
    """A struct item without the fields that the map places in a later
    patch (field lines: N SOURCE field STRUCT.FIELD), each with the
    comment that continues on the lines below it."""
    out, i = [], 0
    while i < len(text):
        line = text[i]
        m = FIELD_DECL.match(strip_comments([line])[0])
        key = (src, 'field', '%s.%s' % (struct, m.group(1))) if m else None
        if key in place and (place[key] is None or place[key] > upto):
            # a comment on the lines right above the field (lines of
            # comment only) goes with it
            if out and out[-1].strip().endswith('*/') and \
                    not strip_comments(out)[-1].strip():
                code = strip_comments(out)
                k = len(out) - 1
                while k > 0 and not code[k].strip() and \
                        not out[k].strip().startswith('/*'):
                    k -= 1
                if out[k].strip().startswith('/*') and not code[k].strip():
                    del out[k:]
            if '/*' in line and '*/' not in line.split('/*', 1)[1]:
                while '*/' not in text[i]:
                    i += 1
            i += 1
            continue
        out.append(line)
        i += 1
    return out


def compose(map_path, top, upto):
    import os
    files, place = read_map(map_path)
    later = later_names(files, place, top, upto)
    for key in list(later):
        if key[0] == 'call' and stub_for(top, key[1], upto) is not None:
            del later[key]	# its stub stands in
    bad, blocked = [], []
    written = set()
    for src, dest, first_patch in files:
        with open(os.path.join(top, src)) as f:
            lines = f.read().split('\n')
        out = []
        gap = False	# a left-out item had a blank line above it
        for kind, name, first, last in items(lines):
            blank = first > 0 and not lines[first - 1].strip()
            if (src, kind, name) in place:
                patch = place[(src, kind, name)]
            elif kind in PLACED_KINDS:
                bad.append('%s: %s %s' % (src, kind, name))
                continue
            elif src in ONLY:
                continue
            else:
                patch = first_patch
            text = lines[first:last + 1]
            stub = stub_for(top, name, upto) if patch is not None else None
            if stub is not None:
                text = stub	# the item as it stands before patch 'until'
            elif patch is None or patch > upto:
                gap = gap or blank
                continue
            if kind == 'struct':
                text = filter_fields(text, name, place, src, upto)
            if kind == 'func' and first_patch <= upto:
                text = tidy_blocks(filter_calls(text, later,
                                    '%s:%d %s()' % (src, first + 1, name),
                                    blocked, name))
            if out and (blank or gap):
                out.append('')
            gap = False
            out.extend(text)
        if first_patch > upto:
            continue
        dest_path = os.path.join(sys.argv[5] if len(sys.argv) > 5 else top, dest)
        os.makedirs(os.path.dirname(dest_path), exist_ok=True)
        # Several sources may make one file: appended in map order.
        mode = 'a' if dest in written else 'w'
        if mode == 'a' and out and out[0].strip():
            out.insert(0, '')
        written.add(dest)
        with open(dest_path, mode) as f:
            f.write('\n'.join(out) + '\n')
    if bad:
        sys.exit('upstream-extract: items the series map does not place '
                 '(upstream/series.map):\n  ' + '\n  '.join(bad))
    if blocked:
        sys.exit('upstream-extract: patch %d: uses of later patches\' '
                 'names the call-drop rule cannot leave out (R1, R1b):\n  '
                 % upto + '\n  '.join(blocked))


def unmapped(map_path, top):
    import glob
    import os
    files, _ = read_map(map_path)
    mapped = {src for src, _, _ in files}
    pats = ('net/sctp/thin*.[ch]', 'include/net/sctp/thin*.h',
            'include/uapi/linux/sctp_thin.h')
    for pat in pats:
        for path in sorted(glob.glob(os.path.join(top, pat))):
            src = os.path.relpath(path, top)
            if src in mapped:
                continue
            with open(path) as f:
                n = sum(1 for it in items(f.read().split('\n'))
                        if it[0] in PLACED_KINDS)
            print(src, n)


def sizes(map_path, top):
    import os
    files, place = read_map(map_path)
    per = {}
    for src, _, first_patch in files:
        with open(os.path.join(top, src)) as f:
            lines = f.read().split('\n')
        for kind, name, first, last in items(lines):
            patch = place.get((src, kind, name),
                              None if kind in PLACED_KINDS else first_patch)
            key = 'oot' if patch is None or patch == NEVER else patch
            n = last - first + 1
            if first > 0 and not lines[first - 1].strip():
                n += 1
            per.setdefault(key, {}).setdefault(src, 0)
            per[key][src] += n
    for key in sorted(per, key=lambda k: (k == 'oot', k if k != 'oot' else 0)):
        total = sum(per[key].values())
        detail = ', '.join('%s %d' % (os.path.basename(f), n)
                           for f, n in sorted(per[key].items()))
        print('%s %d (%s)' % (key, total, detail))


def kunit_export(path):
    with open(path) as f:
        lines = f.read().split('\n')
    after = {}
    for kind, name, first, last in items(lines):
        if kind != 'func':
            continue
        k = first
        while lines[k].startswith('/*') or lines[k].startswith(' *'):
            k += 1
        if not lines[k].startswith('static'):
            after[last] = name
    out = []
    for i, line in enumerate(lines):
        out.append(line)
        if i in after:
            out.append('EXPORT_SYMBOL_IF_KUNIT(%s);' % after[i])
    with open(path, 'w') as f:
        f.write('\n'.join(out))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__ or 'usage')
    cmd, path = sys.argv[1], sys.argv[2]
    if cmd == 'compose':
        compose(path, sys.argv[3], int(sys.argv[4]))
        return
    if cmd == 'sizes':
        sizes(path, sys.argv[3])
        return
    if cmd == 'kunit-export':
        kunit_export(path)
        return
    if cmd == 'unmapped':
        unmapped(path, sys.argv[3])
        return
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
