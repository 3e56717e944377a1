#!/usr/bin/env python3
"""cudart_exports.py: writes the C symbols of cuemu's CUDA runtime library.

cuemu's CUDA runtime API is inline C++ in the shims (cuda_runtime_api.h and
the cuemu_*_api.h headers it includes), which an object compiled against
NVIDIA's own headers (gcc -I/usr/local/cuda/include, a C file) cannot call:
it asks for C symbols named as libcudart's (cudaMalloc, cudaMemcpy_ptds).
emulator/export/cuemu_cudart.cc defines each of them as a call of the
shims' inline function (emulator/export/cudart.am builds it into
libcuemu_cudart.so, which the toolkit's lib64/libcudart.so and every
cuemu-nvcc link name). This script writes their list,
emulator/export/cuemu_cudart_exports.h:

  CUEMU_CUDART_EXPORT(symbol, function, return type, (parameters),
                      (arguments))

for every function that the CUDA toolkit's cuda_runtime_api.h (and
cuda_profiler_api.h) declares with C linkage and the shims define (the
statuses of scripts/runtime_doc.py other than absent: its shim_functions()
is the one reading of the shims), with NVIDIA's parameter list, so that the
symbol has libcudart's ABI and the compile of the export checks that the
shims' function takes those arguments; and one for each per-thread spelling
that cuda_runtime_api.h maps a name to under
CUDA_API_PER_THREAD_DEFAULT_STREAM (cudaMemcpy_ptds, cudaMemcpyAsync_ptsz),
whose cudaStream_t argument 0 becomes cudaStreamPerThread (wrapped in
cuemu_cudart_per_thread(), as is a launch configuration's or graph
instantiation's stream field: PER_THREAD_TYPES). A function the toolkit declares and the shims
lack has no symbol: a program calling it fails to link, and docs/runtime.md
lists it as absent. EXCLUDED below names the shims' functions that are not
exported, with the reason. Usage:

  cudart_exports.py [--toolkit DIR] [--check]

It also writes shims/cuda_builtins/cuemu_runtime_c_decls.h, the C view of
cuemu's cuda_runtime_api.h: a prototype of each of those symbols with
NVIDIA's parameters (no default arguments, no overloads), and, under
CUDA_API_PER_THREAD_DEFAULT_STREAM, the macros that turn a name into its
per-thread spelling, as NVIDIA's header has them, so that a C file
compiled against cuemu's headers calls libcuemu_cudart.so's symbols
(tests/driver_c_runtime.sh).

--check writes nothing and exits 1 when a committed file differs from
what would be written (tests/cudart_exports.sh), 2 when the toolkit's
headers are missing.
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import runtime_doc  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "emulator", "export", "cuemu_cudart_exports.h")

# The parameter types that carry a stream, which a per-thread spelling
# passes through cuemu_cudart_per_thread() (emulator/export/cuemu_cudart.cc):
# a stream itself, and the structures whose stream field a _ptsz call
# means as the per-thread default stream when it is 0 (cudaLaunchKernelExC's
# config->stream, cudaGraphInstantiateWithParams' uploadStream).
PER_THREAD_TYPES = ("cudaStream_t", "const cudaLaunchConfig_t *",
                    "cudaGraphInstantiateParams *")

# Functions of the shims that get no C symbol, and why.
EXCLUDED = {
}


def declarations(include):
    """Maps each C function of the toolkit's runtime headers to its return
    type and its parameters [(type text, name)], in the header's order."""
    found = {}
    for header in ("cuda_runtime_api.h", "cuda_profiler_api.h"):
        text = runtime_doc.strip_comments(
            runtime_doc.read(os.path.join(include, header)))
        for m in re.finditer(
                r"extern\s+([^;{}#]*?)\bCUDARTAPI\s+(cuda\w+)\s*\(([^;]*?)\)"
                r"\s*;", text, flags=re.S):
            name = m.group(2)
            if name in found:
                continue
            ret = re.sub(r"\b(__host__|__device__|__cudart_builtin__|"
                         r"__CUDA_DEPRECATED|CUDART_DEVICE)\b", "",
                         m.group(1))
            ret = " ".join(ret.split())
            params = []
            body = " ".join(m.group(3).split())
            if body and body != "void":
                for i, p in enumerate(body.split(",")):
                    p = re.sub(r"__dv\([^)]*\)|=.*$", "", p).strip()
                    pm = re.match(r"(.*?)(\w+)\s*(\[\s*\])?$", p)
                    if not pm or not pm.group(1).strip() or \
                            pm.group(1).strip() in ("struct", "enum"):
                        raise SystemExit(
                            "cudart_exports.py: cannot read parameter %r "
                            "of %s" % (p, name))
                    ptype = pm.group(1).strip()
                    if pm.group(3):
                        ptype += " *"
                    params.append((ptype, pm.group(2)))
            found[name] = (ret, params)
    return found


def per_thread(include):
    """Maps each name cuda_runtime_api.h gives a per-thread spelling to the
    suffix (_ptds or _ptsz)."""
    text = runtime_doc.read(os.path.join(include, "cuda_runtime_api.h"))
    return {m.group(1): "_" + m.group(2).lower() for m in re.finditer(
        r"#\s*define\s+(cuda\w+)\s+__CUDART_API_(PTDS|PTSZ)\(\1\)", text)}


def line(symbol, function, ret, params, args):
    return "CUEMU_CUDART_EXPORT(%s, %s, %s, (%s), (%s))" % (
        symbol, function, ret,
        ", ".join("%s %s" % p for p in params), ", ".join(args))


def generate(include):
    shims = runtime_doc.shim_functions()
    decls = declarations(include)
    spelled = per_thread(include)
    lines = []
    for name in sorted(decls):
        if shims.get(name, "absent") == "absent" or name in EXCLUDED:
            continue
        ret, params = decls[name]
        args = [p[1] for p in params]
        lines.append(line(name, name, ret, params, args))
        if name in spelled:
            args = ["cuemu_cudart_per_thread(%s)" % n
                    if t in PER_THREAD_TYPES else n for t, n in params]
            lines.append(line(name + spelled[name], name, ret, params, args))
    absent = sorted(n for n in decls
                    if shims.get(n, "absent") == "absent")
    head = [
        "/* Generated by scripts/cudart_exports.py from the shims and the "
        "CUDA",
        " * toolkit's cuda_runtime_api.h: do not edit. */",
        "/* The includer defines CUEMU_CUDART_EXPORT(symbol, function, "
        "return type,",
        " * (parameters), (arguments)): libcudart's symbol, the shims' "
        "function it",
        " * calls, NVIDIA's parameters and the arguments passed on. */",
        "/* %d symbols. Declared by the toolkit, not in the shims (no "
        "symbol):" % len(lines)]
    words = " * "
    for n in absent:
        if len(words) + len(n) + 1 > 78:
            head.append(words.rstrip())
            words = " * "
        words += n + " "
    head.append(words.rstrip())
    head.append(" */")
    for n, why in sorted(EXCLUDED.items()):
        head.append("/* Not exported: %s (%s). */" % (n, why))
    return "\n".join(head + lines) + "\n"


C_DECLS = os.path.join(ROOT, "shims", "cuda_builtins",
                       "cuemu_runtime_c_decls.h")


def c_prototype(name, ret, params):
    """One C prototype, wrapped at 80 columns."""
    head = "extern %s CUDARTAPI %s(" % (ret, name)
    parts = ["%s %s" % p for p in params] or ["void"]
    parts = [re.sub(r"\s+\*", " *", p).replace("* ", "*") for p in parts]
    lines, cur = [], head
    for i, p in enumerate(parts):
        piece = p + (");" if i == len(parts) - 1 else ",")
        if len(cur) + len(piece) + (0 if cur.endswith("(") else 1) > 80 \
                and cur.strip():
            lines.append(cur.rstrip())
            cur = "    " + piece
        else:
            cur += ("" if cur.endswith("(") else " ") + piece
    lines.append(cur)
    return "\n".join(lines)


def c_decls(include):
    """The C view's declarations (shims/cuda_builtins/cuemu_runtime_c_decls.h)."""
    shims = runtime_doc.shim_functions()
    decls = declarations(include)
    spelled = per_thread(include)
    names = [n for n in sorted(decls)
             if shims.get(n, "absent") != "absent" and n not in EXCLUDED]
    out = [
        "/* Generated by scripts/cudart_exports.py from the shims and the CUDA",
        " * toolkit's cuda_runtime_api.h: do not edit. */",
        "/*",
        " * cuemu_runtime_c_decls.h: the CUDA runtime API as a C file sees it",
        " * (cuda_runtime_api.h without __cplusplus): a prototype of each",
        " * function that libcuemu_cudart.so exports, with NVIDIA's parameters,",
        " * %d in all. The C++ view's inline functions, overloads and default" %
        len(names),
        " * arguments are not here; its types are (the headers that",
        " * cuda_runtime_api.h includes are C and C++). In C++ it is empty.",
        " */",
        "#ifndef CUEMU_RUNTIME_C_DECLS_H",
        "#define CUEMU_RUNTIME_C_DECLS_H",
        "#ifndef __cplusplus",
        "",
        "/* The types (the C view reads this header at its end). */",
        "#include \"cuda_runtime_api.h\"",
        "",
        "#ifndef CUDARTAPI",
        "#define CUDARTAPI",
        "#endif",
        "",
        "/* A file compiled with CUDA_API_PER_THREAD_DEFAULT_STREAM calls the",
        " * per-thread spellings, whose stream 0 is the per-thread default",
        " * stream. */",
        "#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)"]
    for n in names:
        if n in spelled:
            out.append("#define %s %s%s" % (n, n, spelled[n]))
    out += ["#endif", ""]
    for n in names:
        ret, params = decls[n]
        out.append(c_prototype(n, ret, params))
    out += ["", "#endif /* __cplusplus */", "#endif /* CUEMU_RUNTIME_C_DECLS_H */"]
    return "\n".join(out) + "\n"


ABI = os.path.join(ROOT, "tests", "programs", "cudart_abi", "abi_list.h")
# The toolkit's headers whose types and constants the exports pass.
ABI_HEADERS = ("driver_types.h", "texture_types.h", "surface_types.h",
               "vector_types.h", "library_types.h", "cuda_runtime_api.h")


def braced(text, start):
    """The index just past the brace that closes the one at `start`."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i + 1
    raise SystemExit("cudart_exports.py: unbalanced braces")


def members(body, prefix=""):
    """The member designators of a struct or union body: each named member,
    and the members of a named member of a nested struct or union
    (res.array.array); bit-fields and unnamed members have none."""
    out = []
    i = 0
    while i < len(body):
        j = i
        while j < len(body) and body[j] not in ";{":
            j += 1
        if j >= len(body):
            break
        if body[j] == "{" and "(" in body[i:j]:
            # A member function's body (dim3's constructors).
            i = braced(body, j)
            continue
        if body[j] == "{":
            end = braced(body, j)
            stop = body.index(";", end)
            name = body[end:stop].strip()
            m = re.match(r"(\w+)\s*(\[[^\]]*\])?$", name)
            if m:
                out.append(prefix + m.group(1))
                if not m.group(2):
                    out += members(body[j + 1:end - 1],
                                   prefix + m.group(1) + ".")
            i = stop + 1
            continue
        decl = " ".join(body[i:j].split())
        i = j + 1
        if not decl or re.search(r"[^:]:[^:]", decl):
            continue
        for part in decl.split(","):
            m = re.search(r"(\w+)\s*(\[[^\]]*\]\s*)*$", part.strip())
            if m and re.search(r"\w", part[:m.start(1)] if part is decl
                               else decl):
                out.append(prefix + m.group(1))
    return out


def abi_list(include):
    """The probe list of tests/cudart_abi.sh: every struct and union of
    the toolkit's runtime headers (by its typedef name where it has one)
    with its member designators, every enumerator, and every numeric
    macro named cuda*."""
    structs, enums, macros = [], [], []
    for header in ABI_HEADERS:
        text = runtime_doc.strip_comments(
            runtime_doc.read(os.path.join(include, header)))
        text = re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", "", text,
                      flags=re.M)
        for m in re.finditer(
                r"\b(struct|union)\s+((?:__\w+__(?:\(\d+\))?\s*|__align__\(\d+\)\s*|"
                r"CUDART_\w+\s*)*)(\w+)\s*\{", text):
            end = braced(text, m.end() - 1)
            # Only a type at file scope: a nested one is a member.
            if text[:m.start()].count("{") != text[:m.start()].count("}"):
                continue
            after = re.match(r"\s*(\w+)\s*;", text[end:])
            name = m.group(3)
            if re.match(r"\s*typedef\b", text[max(0, m.start() - 40):
                                                m.start()].split(";")[-1]
                        .split("}")[-1]) and after:
                name = after.group(1)
            if name not in [s for s, _ in structs]:
                structs.append((name, members(text[m.end():end - 1])))
        for m in re.finditer(r"\benum\s+(?:__\w+__\s+)*(\w*)\s*"
                             r"(?::\s*\w+\s*)?\{", text):
            end = braced(text, m.end() - 1)
            for e in text[m.end():end - 1].split(","):
                e = re.match(r"\s*(\w+)", e)
                if e and e.group(1) not in enums:
                    enums.append(e.group(1))
        raw = runtime_doc.strip_comments(
            runtime_doc.read(os.path.join(include, header)))
        for m in re.finditer(r"^[ \t]*#\s*define\s+(cuda\w+)[ \t]+"
                             r"([0-9xXa-fA-FuUlL()<>| \t]+)$", raw,
                             flags=re.M):
            if re.search(r"\d", m.group(2)) and m.group(1) not in macros:
                macros.append(m.group(1))
    known = cuemu_names()
    lines = ["/* Generated by scripts/cudart_exports.py from the CUDA "
             "toolkit's runtime",
             " * headers: do not edit. The includer defines "
             "CUEMU_ABI_STRUCT(type),",
             " * CUEMU_ABI_MEMBER(type, designator) and "
             "CUEMU_ABI_CONSTANT(name).",
             " * The names in the comments at the end are NVIDIA's that "
             "cuemu's headers",
             " * do not have (no exported function takes them). */"]
    absent = []
    for name, fields in structs:
        if name not in known:
            absent.append(name)
            continue
        lines.append("CUEMU_ABI_STRUCT(%s)" % name)
        for f in fields:
            lines.append("CUEMU_ABI_MEMBER(%s, %s)" % (name, f))
    for e in enums + macros:
        if e not in known:
            absent.append(e)
            continue
        lines.append("CUEMU_ABI_CONSTANT(%s)" % e)
    words = "/*"
    for n in absent:
        if len(words) + len(n) + 1 > 78:
            lines.append(words)
            words = " *"
        words += " " + n
    lines.append(words + " */")
    return "\n".join(lines) + "\n"


def cuemu_names():
    """Every identifier of cuemu's cuda_runtime.h as the host compiler
    preprocesses it (so that names made by macros, as the vector types
    are, count), with every macro it defines."""
    out = subprocess.run(
        [os.environ.get("CXX", "g++"), "-E", "-dD", "-P", "-std=c++17",
         "-I" + runtime_doc.SHIMS,
         "-I" + os.path.join(ROOT, "emulator", "include"), "-x", "c++", "-"],
        input="#include <cuda_runtime.h>\n", capture_output=True, text=True,
        check=True).stdout
    return set(re.findall(r"\w+", out))


def main():
    parser = argparse.ArgumentParser()
    default = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"),
                           "include")
    parser.add_argument("--toolkit", default=default)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    for header in ABI_HEADERS + ("cuda_profiler_api.h",):
        if not os.path.exists(os.path.join(args.toolkit, header)):
            print("cudart_exports.py: %s has no %s" % (args.toolkit, header))
            return 2
    status = 0
    for path, new in ((OUT, generate(args.toolkit)),
                      (ABI, abi_list(args.toolkit)),
                      (C_DECLS, c_decls(args.toolkit))):
        old = runtime_doc.read(path) if os.path.exists(path) else ""
        if args.check:
            if new != old:
                print("cudart_exports.py: %s differs from the code; run "
                      "scripts/cudart_exports.py and commit the result" %
                      path)
                status = 1
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(new)
    return status


if __name__ == "__main__":
    sys.exit(main())
