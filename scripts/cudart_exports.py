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
cuemu_cudart_per_thread()). A function the toolkit declares and the shims
lack has no symbol: a program calling it fails to link, and docs/runtime.md
lists it as absent. EXCLUDED below names the shims' functions that are not
exported, with the reason. Usage:

  cudart_exports.py [--toolkit DIR] [--check]

--check writes nothing and exits 1 when the committed file differs from
what would be written (tests/cudart_exports.sh), 2 when the toolkit's
headers are missing.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import runtime_doc  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "emulator", "export", "cuemu_cudart_exports.h")

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
                    if t == "cudaStream_t" else n for t, n in params]
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


def main():
    parser = argparse.ArgumentParser()
    default = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"),
                           "include")
    parser.add_argument("--toolkit", default=default)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    for header in ("cuda_runtime_api.h", "cuda_profiler_api.h"):
        if not os.path.exists(os.path.join(args.toolkit, header)):
            print("cudart_exports.py: %s has no %s" % (args.toolkit, header))
            return 2
    new = generate(args.toolkit)
    old = runtime_doc.read(OUT) if os.path.exists(OUT) else ""
    if args.check:
        if new != old:
            print("cudart_exports.py: %s differs from the code; run "
                  "scripts/cudart_exports.py and commit the result" % OUT)
            return 1
        return 0
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
