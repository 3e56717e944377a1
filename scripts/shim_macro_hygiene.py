#!/usr/bin/env python3
"""Find the identifiers of cuemu's shim headers that a user's macro can break.

A Makefile's -DN=1024 or -Dblock_size=256 is a macro the compiler applies to
every header a unit reads. nvcc's own headers survive most such macros because
they spell their parameters, locals and template parameters with reserved names
(__x, _Tp); wherever a shim header spells one with a plain name (`size_t n`,
`template <int N>`), a unit that nvcc builds stops inside the shim.

What a user's macro can reach is every identifier token of the headers that a
unit reads: the shim headers and cuemu's own C headers that they include. This
script takes those files from cuemu-nvcc -M for two units, a .cu file that
includes nothing (cuda_runtime.h is included for it, as nvcc does) and one that
includes every public shim header, reads their tokens (outside comments,
strings, #include lines, `defined(...)` operands and a function-like macro's
own parameters) and leaves out:

- reserved names (a leading underscore and a capital or a second underscore,
  or a double underscore anywhere), which a user may not define;
- names with `cuemu` in them (the project's own prefix), and CUDA's own
  prefixes (`cuda`, `cu` and a capital, `CU_`, `CU` and a lower-case letter
  or a capitalised word (the driver API's types), `CUDA`, `PFN_`, `nvrtc`,
  `NVRTC`, `nvJitLink`, `curand`, `CURAND`): a macro of that name is the API's;
- names that the C and C++ standard library headers of the same unit use
  (every token of those headers): such a macro breaks <cstdio> as well;
- names that nvcc's headers expose in the same unit: listed in
  tests/shim_macro_hygiene.allow, which `--regenerate` writes from nvcc's
  preprocessed units (`nvcc --keep`: its device and host passes) and its
  macros (`-Xcompiler -dM`), so that the check needs no nvcc to run.

- names in the allow file's `pending:` line: known to be exposed and not yet
  renamed (members of cuemu's C structures that its C sources use, among
  others); `--pending` writes what is left there.

Whatever is left is a name that breaks cuemu and not nvcc: the script prints
each one with the first file and line that uses it, and exits 1. A new header
that spells a parameter `n` or `grid` fails here; rename the name to
__cuemu_NAME (scripts: docs/shim-macro-hygiene.md).

Usage: shim_macro_hygiene.py [--regenerate | --pending] [--nvcc NVCC] [--list]
  (environment as tests/ sets it: cuemu-nvcc on PATH, CUEMU_SHIMS_DIR,
  CUEMU_INCLUDE_DIR, CUEMU_SRCDIR).
"""

import os
import re
import subprocess
import sys
import tempfile

SRCDIR = os.environ.get("CUEMU_SRCDIR") or os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))
SHIMS = os.path.realpath(os.environ.get("CUEMU_SHIMS_DIR") or
                         os.path.join(SRCDIR, "shims", "cuda_builtins"))
INCLUDE = os.path.realpath(os.environ.get("CUEMU_INCLUDE_DIR") or
                           os.path.join(SRCDIR, "emulator", "include"))
ALLOW = os.path.join(SRCDIR, "tests", "shim_macro_hygiene.allow")

IDENT = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")
# Comments, raw strings, strings and character literals; what they hold is no
# token of the program.
NOISE = re.compile(
    r"//[^\n]*|/\*.*?\*/|R\"([^(\s]*)\(.*?\)\1\"|\"(?:\\.|[^\"\\\n])*\""
    r"|'(?:\\.|[^'\\\n])*'", re.S)
DEFINED = re.compile(r"\bdefined\s*(\(\s*\w+\s*\)|\w+)")
HAS_INCLUDE = re.compile(r"__has_include(_next)?\s*\(\s*[<\"][^>\"]*[>\"]\s*\)")


# CUDA's prefixes. The driver API's types are CU and a lower-case letter
# (CUstream, CUoutput_mode of cudaProfiler.h) or CU and a capitalised word
# (CUGPUDirectRDMAWritesOrdering); an all-capital CUSTOM is the user's.
CUDA_PREFIX = re.compile(r"^(cuda|cu[A-Z]|CU_|CU[a-z]|CU[A-Z]+[a-z]|CUDA|PFN_|"
                         r"nvrtc|NVRTC|nvJitLink|NVJITLINK|curand|CURAND)")
# C++'s keywords and alternative tokens that no standard header spells
# (typeid: in clang++'s kernel names, cuemu_kernel_thunks.h).
KEYWORDS = set("alignas alignof and and_eq asm bitand bitor compl concept "
               "consteval constinit co_await co_return co_yield goto not "
               "not_eq or or_eq requires typeid xor xor_eq".split())


def reserved(name):
    return (name.startswith("__") or "__" in name or
            (name[0] == "_" and len(name) > 1 and name[1].isupper()) or
            bool(CUDA_PREFIX.match(name)) or name in KEYWORDS)


def tokens(path):
    """Yields (name, line) for each identifier a macro could replace."""
    try:
        with open(path, errors="replace") as f:
            src = f.read()
    except OSError:
        return
    src = NOISE.sub(lambda m: "\n" * m.group(0).count("\n") + " ", src)
    lines = src.split("\n")
    i = 0
    while i < len(lines):
        first = i + 1
        text = lines[i]
        # A directive goes on after a backslash at the end of its line.
        while text.endswith("\\") and i + 1 < len(lines):
            i += 1
            text = text[:-1] + " " + lines[i]
        i += 1
        params = ()
        stripped = text.strip()
        if stripped.startswith("#"):
            m = re.match(r"#\s*(\w*)(.*)", stripped)
            kind, rest = m.group(1), m.group(2)
            if kind in ("if", "elif"):
                text = HAS_INCLUDE.sub(" ", DEFINED.sub(" ", rest))
            elif kind == "define":
                d = re.match(r"\s*(\w+)(\(([^)]*)\))?(.*)", rest)
                if not d:
                    continue
                if d.group(2):
                    params = set(re.findall(r"\w+", d.group(3)))
                text = d.group(1) + " " + d.group(4)
            else:
                # #include, #ifdef, #undef, #pragma, #error: no expansion
                # that a user's macro could break (a #pragma's words are
                # the compiler's own).
                continue
        for name in IDENT.findall(text):
            if name not in params:
                yield name, first


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, **kw)


def public_headers():
    """The headers a user includes: every shim header but cuemu's own."""
    names = []
    for root, dirs, files in os.walk(SHIMS):
        dirs[:] = [d for d in dirs if d not in ("details", "toolkit")]
        for f in files:
            rel = os.path.relpath(os.path.join(root, f), SHIMS)
            if f.startswith("cuemu_") or f.endswith((".am", ".in")):
                continue
            if "/" in rel and rel.split("/")[0] == "cuda" and \
                    rel != "cuda/barrier":
                continue
            names.append(rel)
    return sorted(names)


UNITS = {
    "base": "__global__ void hygiene_k(float *p) { p[threadIdx.x] = 1; }\n",
}


def unit_text(unit):
    if unit == "base":
        return UNITS["base"]
    return "".join("#include <%s>\n" % h for h in public_headers()) + \
        UNITS["base"]


def closure(unit, tmp):
    """The files cuemu-nvcc reads for UNIT, from its -M."""
    src = os.path.join(tmp, unit + ".cu")
    with open(src, "w") as f:
        f.write(unit_text(unit))
    env = dict(os.environ, CUEMU_NO_CACHE="1")
    r = run(["cuemu-nvcc", "-std=c++17", "-arch=sm_90", "-M", src], env=env)
    if r.returncode != 0:
        sys.exit("shim_macro_hygiene: cuemu-nvcc -M failed:\n" + r.stderr)
    words = r.stdout.replace("\\\n", " ").split()
    files = [os.path.realpath(w) for w in words[1:]
             if not w.endswith(":") and w != src and os.path.isfile(w)]
    ours = [f for f in files if f.startswith((SHIMS + os.sep,
                                              INCLUDE + os.sep))]
    system = [f for f in files if f not in ours]
    return ours, system


def nvcc_names(unit, nvcc, tmp):
    """Every identifier of nvcc's two passes of UNIT and of its macros."""
    work = os.path.join(tmp, "nvcc_" + unit)
    os.mkdir(work)
    src = os.path.join(work, unit + ".cu")
    with open(src, "w") as f:
        f.write(unit_text(unit))
    r = run([nvcc, "-std=c++17", "-arch=sm_90", "-c", src, "--keep",
             "-o", os.path.join(work, unit + ".o")], cwd=work)
    if r.returncode != 0:
        sys.exit("shim_macro_hygiene: nvcc failed:\n" + r.stderr)
    names = set()
    for f in os.listdir(work):
        if f.endswith(".ii"):
            with open(os.path.join(work, f), errors="replace") as h:
                for line in h:
                    if not line.startswith("#"):
                        names.update(IDENT.findall(line))
    for extra in ([], ["--cuda-device-only"]):
        r = run([nvcc, "-std=c++17", "-arch=sm_90", "-E", "-Xcompiler",
                 "-dM", src] + extra, cwd=work)
        for line in r.stdout.splitlines():
            m = re.match(r"#define\s+(\w+)", line)
            if m:
                names.add(m.group(1))
    return names


def read_allow():
    allow = {}
    try:
        with open(ALLOW) as f:
            for line in f:
                line = line.split("#", 1)[0].split()
                if len(line) >= 1 and line[0].endswith(":"):
                    allow.setdefault(line[0][:-1], set()).update(line[1:])
    except OSError:
        pass
    return allow


def exposed(unit, tmp):
    """Names of UNIT's shim files that no standard header of it uses."""
    ours, system = closure(unit, tmp)
    std = set()
    for f in system:
        std.update(n for n, _ in tokens(f))
    found = {}
    for f in ours:
        for name, line in tokens(f):
            if reserved(name) or "cuemu" in name.lower() or name in std:
                continue
            found.setdefault(name, "%s:%d" % (os.path.relpath(f, SRCDIR),
                                              line))
    return found


def main():
    args = sys.argv[1:]
    regenerate = "--regenerate" in args
    pending = "--pending" in args
    nvcc = os.environ.get("NVCC") or "/usr/local/cuda/bin/nvcc"
    if "--nvcc" in args:
        nvcc = args[args.index("--nvcc") + 1]
    allow = read_allow()
    bad = 0
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for unit in ("base", "all"):
            found = exposed(unit, tmp)
            if regenerate:
                theirs = nvcc_names(unit, nvcc, tmp)
                out[unit] = sorted(n for n in found if n in theirs)
                continue
            ok = allow.get(unit, set()) | allow.get("pending", set())
            if pending:
                out[unit] = sorted(n for n in found
                                   if n not in allow.get(unit, set()))
                continue
            for name in sorted(found):
                if name not in ok:
                    bad += 1
                    print("%s: '%s' (%s unit): a -D%s=... of the user's "
                          "breaks it; nvcc's headers do not use the name"
                          % (found[name], name, unit, name))
            if "--list" in args:
                print("%s: %d names, %d also nvcc's" %
                      (unit, len(found), len(ok & set(found))))
    if regenerate or pending:
        lines = dict((u, " ".join(sorted(allow.get(u, ()))))
                     for u in ("base", "all", "pending"))
        if regenerate:
            for unit in ("base", "all"):
                lines[unit] = " ".join(out[unit])
        else:
            lines["pending"] = " ".join(sorted(set(out["base"]) |
                                               set(out["all"])))
        with open(ALLOW, "w") as f:
            f.write("# base, all: names of the shim headers that nvcc's "
                    "headers also use in the\n# same unit (a user's macro "
                    "of that name breaks nvcc too), from\n# scripts/"
                    "shim_macro_hygiene.py --regenerate. pending: names that "
                    "break\n# cuemu alone, not yet renamed, from --pending "
                    "(to shrink, never to grow).\n")
            for unit in ("base", "all", "pending"):
                f.write("%s: %s\n" % (unit, lines[unit]))
        return 0
    if bad:
        print("shim_macro_hygiene: %d names (rename each to a reserved one, "
              "__cuemu_NAME, or add it to the API if CUDA has it)" % bad)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
