#!/usr/bin/env python3
"""host_decls.py: the host pass's declarations of a device-only shim header.

cuemu-cc's host pass reads a lean prelude (CUEMU_HOST_DECLS, see
shims/cuda_builtins/cuemu_host_decls.h): host code may name device-only
functions (in a __device__ lambda, in device code under -isystem) but the
host compile never emits a call of them, so it needs their declarations,
not their bodies, whose parsing costs every host pass. This script makes
those declarations from the header itself, so that they cannot drift from
its definitions: the header is preprocessed by the C++ compiler ($CXX, or
g++) as the prelude reads it (its own macro-made overload sets expanded),
and every function it defines at namespace scope, outside namespaces, becomes
a declaration with CUEMU_DEVICE_ONLY. What the header includes is left out
(the header includes the declarations after its own #include lines); its
#define and #undef lines, namespaces (its helpers), classes, declarations,
constexpr functions, functions of deduced type and its cuemu_* helpers stay
as they are.

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


def preprocess(header):
    """The header's own text after the preprocessor (what it includes left
    out), with its #define and #undef lines (-dD)."""
    cxx = shlex.split(os.environ.get("CXX") or "g++")
    shims = os.path.dirname(os.path.abspath(header))
    include = os.path.join(os.path.dirname(os.path.dirname(shims)),
                           "emulator", "include")
    cmd = cxx + ["-std=c++17", "-E", "-dD", "-x", "c++", "-I", shims, "-I",
                 include, header]
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE,
                         universal_newlines=True).stdout
    own = os.path.realpath(header)
    keep, lines, directives = False, [], []
    for line in out.split("\n"):
        m = re.match(r'^# \d+ "([^"]*)"', line)
        if m:
            keep = os.path.realpath(m.group(1)) == own
            continue
        if not keep:
            continue
        if line.startswith("#"):
            directives.append(len(lines))
        lines.append(line)
    return lines, directives


def skip_literal(text, i):
    """The index after the string or character literal starting at i."""
    quote = text[i]
    i += 1
    while i < len(text) and text[i] != quote:
        i += 2 if text[i] == "\\" else 1
    return i + 1


def matching(text, i):
    """The index after the brace that closes the one at i."""
    depth = 0
    while i < len(text):
        c = text[i]
        if c in "\"'":
            i = skip_literal(text, i)
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unbalanced braces")


def name_paren(head):
    """The index of the `(` of the function's parameters in the head of
    its definition: the first after a name other than an attribute's."""
    for m in re.finditer(r"(\w+)\s*\(", head):
        if m.group(1) not in ("__attribute__", "alignas", "__declspec",
                              "decltype", "noexcept"):
            return m.end() - 1
    return len(head)


def kept_verbatim(head):
    """Whether a definition stays whole: classes and enums, constexpr
    functions and deduced return types (host code may need their bodies),
    and the header's own helpers (cuemu_*, which other shims call)."""
    if re.match(r"^(template\s*<.*>\s*)?(class|struct|union|enum|typedef)\b",
                head):
        return True
    if re.search(r"\b(constexpr|consteval)\b", head):
        return True
    if re.search(r"(^|\s)auto\s", head) and "->" not in head:
        return True
    return "cuemu" in head[:name_paren(head)]


def declarations(text):
    """The text with the bodies of the functions defined at namespace scope
    (outside namespaces, which hold the header's helpers and stay whole)
    replaced by declarations."""
    out = []
    i, start = 0, 0
    while i < len(text):
        c = text[i]
        if c in "\"'":
            i = skip_literal(text, i)
            continue
        if c == ";":
            out.append(" ".join(text[start:i + 1].split()))
            i = start = i + 1
            continue
        if c != "{":
            i += 1
            continue
        head = " ".join(text[start:i].split())
        end = matching(text, i)
        if re.match(r"^extern\s*\"C(\+\+)?\"$", head):
            out.append(head + " {")
            out.extend(declarations(text[i + 1:end - 1]))
            out.append("}")
        elif (re.match(r"^(inline\s+)?namespace\b", head) or
              kept_verbatim(head) or ")" not in head):
            tail = end
            while tail < len(text) and text[tail] in " \t\n":
                tail += 1
            if tail < len(text) and text[tail] == ";":
                end = tail + 1  # a class's `;`
            out.append(text[start:end].strip())
        else:
            name_at = name_paren(head)
            head = (re.sub(r"\b(static|inline)\s+", "", head[:name_at]) +
                    head[name_at:])
            out.append("%s CUEMU_DEVICE_ONLY;" % head)
        i = start = end
    if text[start:].strip():
        raise ValueError("text after the last definition: %s" %
                         text[start:].strip()[:80])
    return out


def generate(header):
    name = os.path.basename(header)
    guard = re.sub(r"\W", "_", name.replace(".h", "_decls_h")).upper()
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
        '#include "cuemu_host_decls.h"',
    ]
    # What the header includes, so that its declarations compile alone too
    # (tests/headers_alone.sh); the header's guards make these free.
    with open(header) as f:
        out += [l.rstrip() for l in f
                if re.match(r"^#\s*include\s", l) and "_decls.h" not in l]
    out.append("")
    lines, directives = preprocess(header)
    code, first = [], 0
    for k in directives + [len(lines)]:
        chunk = "\n".join(lines[first:k])
        if chunk.strip():
            code.extend(declarations(chunk))
        if k < len(lines):
            code.append(lines[k])
        first = k + 1
    out.extend(code)
    out += ["", "#endif /* %s */" % guard, ""]
    return "\n".join(out)


def main(argv):
    check = argv[1:2] == ["--check"]
    args = argv[2:] if check else argv[1:]
    if len(args) != 2:
        sys.stderr.write(__doc__)
        return 2
    header, output = args
    try:
        text = generate(header)
    except (ValueError, subprocess.CalledProcessError) as e:
        sys.stderr.write("host_decls.py: %s: %s\n" % (header, e))
        return 1
    if check:
        try:
            with open(output) as f:
                if f.read() == text:
                    return 0
        except OSError:
            pass
        sys.stderr.write("host_decls.py: %s is not what %s makes; run "
                         "`make host-decls`\n" % (output, header))
        return 1
    with open(output, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
