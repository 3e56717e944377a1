#!/usr/bin/env python3
"""Renames identifiers of the shim headers to reserved spellings.

Usage: shim_rename_reserved.py NAMES_FILE FILE...

Renames each NAME of NAMES_FILE (white-space separated) to __cuemu_NAME in
each FILE's code, in place: every token of that name outside comments, string
and character literals and #include lines (member accesses included: a member
of a C structure that cuemu's C sources also use must be put back, or renamed
there too). Prints how many tokens it changed in each file. How it was used,
and what was put back by hand: docs/shim-macro-hygiene.md.
"""
import re, sys
names = set(open(sys.argv[1]).read().split())
NOISE = re.compile(r'//[^\n]*|/\*.*?\*/|R"([^(\s]*)\(.*?\)\1"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|^[ \t]*#[ \t]*include[^\n]*', re.S | re.M)
IDENT = re.compile(r'\b[A-Za-z_][A-Za-z0-9_]*\b')
total = 0
for path in sys.argv[2:]:
    src = open(path).read()
    out, pos, n = [], 0, 0
    def code(text):
        global n
        def rep(m):
            global n
            if m.group(0) in names:
                n += 1
                return '__cuemu_' + m.group(0)
            return m.group(0)
        return IDENT.sub(rep, text)
    for m in NOISE.finditer(src):
        out.append(code(src[pos:m.start()]))
        out.append(m.group(0))
        pos = m.end()
    out.append(code(src[pos:]))
    if n:
        open(path, 'w').write(''.join(out))
        print(path, n)
        total += n
print('total', total)
