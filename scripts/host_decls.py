#!/usr/bin/env python3
"""host_decls.py: the host pass's declarations of a device-only shim header.

cuemu-cc's host pass reads a lean prelude (CUEMU_HOST_DECLS, see
shims/cuda_builtins/cuemu_host_decls.h): host code may name device-only
functions (in a __device__ lambda, in device code under -isystem) but the
host compile never emits a call of them, so it needs their declarations,
not their bodies, whose parsing costs every host pass. This script makes
those declarations from the header itself, so that they cannot drift from
its definitions. The header holds its definitions of CUDA's functions in the
`#else` branch of an `#ifdef CUEMU_HOST_DECLS` that includes the generated
file, after its helpers, classes and macros, which both passes read. That
branch is preprocessed by the C++ compiler ($CXX, or g++), which expands its
macro-made overload sets, and each function it defines becomes a declaration
with CUEMU_DEVICE_ONLY. Anything else there (a class, a namespace, a helper
cuemu_*, a constexpr function, a function of deduced type, a macro it does
not #undef) is refused: it belongs before the branch.

Usage:
  host_decls.py HEADER OUTPUT           write OUTPUT
  host_decls.py --check HEADER OUTPUT   exit 1 if OUTPUT is not what HEADER
                                        makes (tests/host_decls.sh)
"""
import os
import re
import shlex
import subprocess
import sys


# CUDA's fast intrinsics whose names glibc's <math.h> declares too (as its
# own functions, not exported): clang refuses an `error` attribute on a
# later declaration, so these get CUEMU_DEVICE_ONLY_LIBM
# (cuemu_host_decls.h).
LIBM_NAMES = {"__expf", "__exp10f", "__logf", "__log2f", "__log10f", "__sinf",
              "__cosf", "__tanf", "__tanhf", "__sincosf", "__powf"}


def region(header):
    """The header's lines (1-based, exclusive) of its definitions: between
    the `#else` of its `#ifdef CUEMU_HOST_DECLS` and that block's
    `#endif`."""
    with open(header) as f:
        lines = f.read().split("\n")
    start = end = None
    for n, line in enumerate(lines, 1):
        if start is None and re.match(r"^#\s*ifdef\s+CUEMU_HOST_DECLS\b", line):
            start = 0
        elif start == 0 and re.match(r"^#\s*else\b", line):
            start = n
        elif start and re.match(r"^#\s*endif\s*/\*\s*CUEMU_HOST_DECLS", line):
            end = n
            break
    if not start or not end:
        raise ValueError("no #ifdef CUEMU_HOST_DECLS ... #else ... #endif "
                         "/* CUEMU_HOST_DECLS */ around its definitions")
    return start, end


def preprocess(header):
    """The text of the header's definitions (its region()) after the
    preprocessor, which expands its macro-made overload sets; the #define
    and #undef lines there (-dD) are checked to be local to it."""
    cxx = shlex.split(os.environ.get("CXX") or "g++")
    shims = os.path.dirname(os.path.abspath(header))
    include = os.path.join(os.path.dirname(os.path.dirname(shims)),
                           "emulator", "include")
    cmd = cxx + ["-std=c++17", "-E", "-dD", "-x", "c++", "-I", shims, "-I",
                 include, header]
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE,
                         universal_newlines=True).stdout
    own = os.path.realpath(header)
    start, end = region(header)
    keep, number, lines, defined = False, 0, [], set()
    for line in out.split("\n"):
        m = re.match(r'^# (\d+) "([^"]*)"', line)
        if m:
            keep = os.path.realpath(m.group(2)) == own
            number = int(m.group(1))
            continue
        if keep and start < number < end:
            d = re.match(r"^#(define|undef) (\w+)", line)
            if d and d.group(1) == "define":
                defined.add(d.group(2))
            elif d:
                defined.discard(d.group(2))
            else:
                lines.append(line)
        number += 1
    if defined:
        raise ValueError("macros defined among the definitions and not "
                         "undefined there: %s" % ", ".join(sorted(defined)))
    return "\n".join(lines)


def skip_literal(text, i):
    """The index after the string or character literal starting at i."""
    quote = text[i]
    i += 1
    while i < len(text) and text[i] != quote:
        i += 2 if text[i] == "\\" else 1
    return i + 1


def next_of(text, i, chars):
    """The index of the first of `chars` at or after i, outside string and
    character literals, or len(text)."""
    while i < len(text) and text[i] not in chars:
        i = skip_literal(text, i) if text[i] in "\"'" else i + 1
    return i


def matching(text, i):
    """The index after the brace that closes the one at i."""
    depth = 0
    while True:
        i = next_of(text, i, "{}")
        if i >= len(text):
            raise ValueError("unbalanced braces")
        depth += 1 if text[i] == "{" else -1
        if depth == 0:
            return i + 1
        i += 1


def name_paren(head):
    """The index of the `(` of the function's parameters in the head of
    its definition: the first after a name other than an attribute's."""
    for m in re.finditer(r"(\w+)\s*\(", head):
        if m.group(1) not in ("__attribute__", "alignas", "__declspec",
                              "decltype", "noexcept"):
            return m.end() - 1
    return len(head)


def refused(head):
    """Why a definition cannot be among those replaced by declarations, or
    None: classes, namespaces and the header's helpers (cuemu_*) belong
    before them, constexpr functions and deduced return types (whose
    bodies host code may need) out of them."""
    if re.match(r"^(template\s*<.*>\s*)?(class|struct|union|enum|typedef|"
                r"namespace|inline\s+namespace)\b", head):
        return "a class or namespace"
    if re.search(r"\b(constexpr|consteval)\b", head):
        return "a constexpr function"
    if re.search(r"(^|\s)auto\s", head) and "->" not in head:
        return "a function of deduced type"
    if ")" not in head:
        return "not a function"
    names = re.findall(r"\w+", re.sub(r"<[^<>]*>\s*$", "",
                                      head[:name_paren(head)]))
    if names and names[-1].startswith("cuemu"):
        return "a helper"
    return None


def declarations(text):
    """The declarations of the functions that the text defines (at
    namespace scope, or in extern "C" blocks)."""
    out = []
    start = 0
    while True:
        i = next_of(text, start, ";{")
        if i >= len(text):
            break
        if text[i] == ";":
            chunk = " ".join(text[start:i].split())
            raise ValueError("not a function definition: %s;" % chunk)
        head = " ".join(text[start:i].split())
        end = matching(text, i)
        why = refused(head)
        if re.match(r"^extern\s*\"C(\+\+)?\"$", head):
            out.append(head + " {")
            out.extend(declarations(text[i + 1:end - 1]))
            out.append("}")
        elif why:
            raise ValueError("%s among the definitions: %s {" % (why, head))
        else:
            name_at = name_paren(head)
            # A definition's own specifiers (always_inline: the shims'
            # atomics, CUEMU_ATOMIC_INLINE) are no declaration's business.
            head = (re.sub(r"\b(static|inline)\s+|__attribute__\s*\(\(\s*"
                           r"always_inline\s*\)\)\s*", "", head[:name_at]) +
                    head[name_at:])
            name = re.findall(r"(\w+)\s*$", head[:name_paren(head)])
            out.append("%s %s;" % (head, "CUEMU_DEVICE_ONLY_LIBM"
                                   if name and name[0] in LIBM_NAMES
                                   else "CUEMU_DEVICE_ONLY"))
        start = end
    if text[start:].strip():
        raise ValueError("text after the last definition: %s" %
                         text[start:].strip()[:80])
    return out


def generate(header):
    name = os.path.basename(header)
    guard = re.sub(r"\W", "_", name.replace(".h", "_decls_h")).upper()
    with open(header) as f:
        parent = re.search(r"^#ifndef (\w+)", f.read(), re.M).group(1)
    out = [
        "/*",
        " * %s: the host pass's declarations of %s's functions." %
        (name.replace(".h", "_decls.h"), name),
        " * Generated by scripts/host_decls.py from %s (make host-decls);" %
        name,
        " * tests/host_decls.sh checks that it is in step. Do not edit.",
        " */",
        "#ifndef %s" % guard,
        "#define %s" % guard,
        "",
        "#ifndef %s" % parent,
        "/* Included alone: the header, which includes this file in the host",
        " * pass's lean prelude. */",
        '#include "%s"' % name,
        "#else",
        '#include "cuemu_host_decls.h"',
        "",
    ]
    out.extend(declarations(preprocess(header)))
    out += ["#endif", "", "#endif /* %s */" % guard, ""]
    return "\n".join(out)


def name_table(comment, array, names):
    """A generated C header: the comment's lines in a block comment, then
    `static const char *const ARRAY[]` of the names, one a line."""
    lines = ["/*"] + [(" * " + line).rstrip() for line in comment] + [" */"]
    lines.append("static const char *const %s[] = {" % array)
    lines += ['    "%s",' % n for n in names]
    lines += ["};", ""]
    return "\n".join(lines)


def generated_main(argv, generate, name, doc, target="host-decls"):
    """The command line of a script that makes a generated file from one
    input: `SCRIPT INPUT OUTPUT` writes OUTPUT, `SCRIPT --check INPUT
    OUTPUT` exits 1 when OUTPUT is not what generate(INPUT) makes (`make
    TARGET` makes it again)."""
    check = argv[1:2] == ["--check"]
    args = argv[2:] if check else argv[1:]
    if len(args) != 2:
        sys.stderr.write(doc)
        return 2
    source, output = args
    try:
        text = generate(source)
    except (ValueError, subprocess.CalledProcessError) as e:
        sys.stderr.write("%s: %s: %s\n" % (name, source, e))
        return 1
    if check:
        try:
            with open(output) as f:
                if f.read() == text:
                    return 0
        except OSError:
            pass
        sys.stderr.write("%s: %s is not what %s makes; run "
                         "`make %s`\n" % (name, output, source, target))
        return 1
    with open(output, "w") as f:
        f.write(text)
    return 0


def main(argv):
    return generated_main(argv, generate, "host_decls.py", __doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
