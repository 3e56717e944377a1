#!/usr/bin/env python3
"""driver_entry_points.py: writes the driver's entry-point list and cudaTypedefs.h.

Every driver function the shims define (`inline CUresult cuName(` in
shims/cuda_builtins/*.h) is listed in shims/cuda_builtins/cuemu_driver_entry_points.h
as CUEMU_DRV_ENTRY(cuName, VERSION, function), once for each ABI version of it
that the CUDA toolkit's cudaTypedefs.h (and cudaProfilerTypedefs.h) names
(PFN_cuName_vVERSION) and cuemu has: the newest with as many parameters
as cuemu's cuName is cuName; another whose parameter types are that one's (the ABI did not change, as
cuCtxDestroy_v2000 and _v4000) is cuName too; an older one with other types
is cuemu's only where the shims define it as cuName_vVERSION (CUDA 12.8's
cuMemcpyBatchAsync_v12080, cuemu_driver_old_abi_api.h), or define such a
function for another version of the same types (cuCtxCreate_v3020 serves
2000 too), and is left out otherwise. cuda.h makes a table of the list,
which libcuda.so.1 registers as it loads, for cuGetProcAddress and
cudaGetDriverEntryPoint, which give the newest entry not newer than the
version asked for. The same list gives
shims/cuda_builtins/cudaTypedefs.h, whose PFN_cuName_vVERSION (and the
toolkit's _ptsz and _ptds spellings of it) is the type of the entry's
function, shims/cuda_builtins/cuemu_driver_entry_guards.h the include
guards of the headers that define driver functions, and
emulator/export/cuemu_libcuda_exports.h the symbols of libcuda.so.1
(emulator/export/libcuda.am): each entry under the name CUDA's libcuda
exports it by. CUDA names the first ABI version of cuName cuName, the next
cuName_v2, and so on (CUDA Programming Guide, "Driver Entry Point Access");
a per-thread-stream spelling (PFN_cuName_vW_ptsz or _ptds) is the symbol of
the newest version not newer than W with the same parameter types, with
that suffix (cuMemcpyHtoD_v2_ptds). As CUDA's cuda.h does, cuemu's names
each function by the symbol of its newest ABI version
(shims/cuda_builtins/cuemu_driver_names.h: #define cuMemAlloc cuMemAlloc_v2),
so that code that stringifies a macro-expanded name for dlsym (jitify)
asks for the symbol libcuda.so.1 has. Usage:

  driver_entry_points.py [--toolkit DIR] [--check]

--check writes nothing and exits 1 when a committed file differs from what
would be written (tests/driver_entry_points.sh), 2 when the toolkit's headers
are missing.
"""
import argparse
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHIMS = os.path.join(ROOT, "shims", "cuda_builtins")
LIST = os.path.join(SHIMS, "cuemu_driver_entry_points.h")
TYPEDEFS = os.path.join(SHIMS, "cudaTypedefs.h")
GUARDS = os.path.join(SHIMS, "cuemu_driver_entry_guards.h")
EXPORTS = os.path.join(ROOT, "emulator", "export", "cuemu_libcuda_exports.h")
NAMES = os.path.join(SHIMS, "cuemu_driver_names.h")


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def arity(params):
    """The number of parameters of a parameter list's text."""
    params = params.strip()
    if params in ("", "void"):
        return 0
    depth, count = 0, 1
    for c in params:
        depth += c in "(<[" and 1 or 0
        depth -= c in ")>]" and 1 or 0
        count += c == "," and depth == 0
    return count


ARITY = {}  # the shims' functions: {name: number of parameters}
PARAMS = {}  # the shims' functions: {name: parameter list's text}


def shim_functions():
    names, guards = set(), set()
    for path in glob.glob(os.path.join(SHIMS, "*.h")):
        text = read(path)
        # CUEMU_AT_CALLER: always inlined (<cuemu/cuemu_device.h>).
        found = re.findall(r"^(?:CUEMU_AT_CALLER\s+)?inline CUresult\s+"
                           r"(cu\w+)\(", text, re.M)
        for name, params in re.findall(
                r"^(?:CUEMU_AT_CALLER\s+)?inline CUresult\s+(cu\w+)\((.*?)\)"
                r"\s*\{", text,
                re.M | re.S):
            ARITY[name] = arity(params)
            PARAMS[name] = " ".join(params.split())
        names.update(found)
        guard = re.search(r"^#ifndef (\w+)\n#define \1$", text, re.M)
        if found and guard and os.path.basename(path) != "cuda.h":
            guards.add(guard.group(1))
    return sorted(names), sorted(guards)


def toolkit_typedefs(toolkit):
    """{name: {version: [parameter types, [suffixes]]}} of the toolkit's
    PFNs, the suffix "" for the plain name."""
    found = {}
    for name in ("cudaTypedefs.h", "cudaProfilerTypedefs.h"):
        path = os.path.join(toolkit, name)
        if not os.path.exists(path):
            continue
        for fn, v, suffix, params in re.findall(
                r"\*PFN_(cu\w+?)_v(\d+)(_ptsz|_ptds)?\)\s*\((.*?)\);",
                read(path), re.S):
            types = tuple(re.sub(r"\s*\b\w+\s*$", "", p.strip())
                          .replace(" ", "")
                          for p in params.split(","))
            entry = found.setdefault(fn, {}).setdefault(int(v), [types, []])
            entry[1].append(suffix)
    return found


def parameters(function):
    """A shim function's parameter list without default values, and the
    names of its parameters."""
    text = PARAMS[function]
    if text in ("", "void"):
        return text, ""
    params, names, depth, start = [], [], 0, 0
    for i, c in enumerate(text + ","):
        depth += c in "(<[" and 1 or 0
        depth -= c in ")>]" and 1 or 0
        if c == "," and depth == 0:
            params.append(re.sub(r"\s*=.*$", "", text[start:i].strip()))
            start = i + 1
    for p in params:
        m = re.search(r"(\w+)\s*(\[[^]]*\])?$", p)
        if not m or not re.search(r"[\w*&>]\s*[*&\s]\s*\w+\s*(\[[^]]*\])?$", p):
            sys.exit("driver_entry_points.py: a parameter of %s has no name: %s"
                     % (function, p))
        names.append(m.group(1))
    return ", ".join(params), ", ".join(names)


def libcuda_exports(typedefs, entries, renamed, threads):
    """[(symbol, function, parameters, arguments)] of libcuda.so.1: each
    entry under CUDA's name of its ABI version (see the top). Fills
    `renamed` with {cuName: symbol} for each function of the shims named
    cuName whose newest ABI version has another symbol, and `threads` with
    (cuName, from, until, symbol) for each per-thread spelling: the
    symbol that cuGetProcAddress with CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM
    gives for versions from `from` up to `until` (a newer ABI, 0 for
    none)."""
    out = {}
    for n, v, function, suffixes in entries:
        versions = typedefs[n]
        plain = sorted(w for w in versions if "" in versions[w][1])

        def symbol(w):
            i = plain.index(w)
            return n if i == 0 else "%s_v%d" % (n, i + 1)
        for x in suffixes:
            if x == "":
                base = v
                if function == n and symbol(v) != n:
                    renamed[n] = symbol(v)
            else:
                same = [w for w in plain
                        if w <= v and versions[w][0] == versions[v][0]]
                if not same:
                    continue
                base = same[-1]
                newer = [w for w in sorted(versions)
                         if w > v and versions[w][0] != versions[v][0]]
                threads.append((n, v, newer[0] if newer else 0,
                                symbol(base) + x))
            out.setdefault(symbol(base) + x, function)
    return [(s, f) + per_thread(s, *parameters(f))
            for s, f in sorted(out.items())]


def per_thread(symbol, params, names):
    """The parameters and arguments of the export `symbol`: in a _ptsz or
    _ptds spelling, stream 0 of a CUstream parameter is the per-thread
    default stream (cuemu_libcuda_per_thread, emulator/export/cuemu_libcuda.cc),
    as CUDA's per-thread spellings take it."""
    if not re.search(r"_pt(sz|ds)$", symbol) or not params:
        return params, names
    streams = set(re.findall(r"(?:^|,\s*)(?:const\s+)?CUstream\s+(\w+)"
                             r"(?=\s*(?:,|$))", params))
    return params, ", ".join("cuemu_libcuda_per_thread(%s)" % a
                             if a in streams else a
                             for a in names.split(", "))


def generate(toolkit):
    typedefs = toolkit_typedefs(toolkit)
    # cuGetProcAddress is a template (cuemu_driver_ids_api.h lists it).
    names, guards = shim_functions()
    defined = set(names)
    entries = []  # (name, version, function, suffixes)
    for n in names:
        if n not in typedefs or n == "cuGetProcAddress":
            continue
        versions = typedefs[n]
        # cuemu's cuName has the newest ABI of its number of parameters
        # (cuCtxGetDevice is CUDA 2.0's, as cuda.h's; 13000's is _v2).
        # When none has (cuGraphInstantiate, whose every ABI version has
        # five parameters, is cuda.h's macro for cuGraphInstantiateWithFlags),
        # cuName serves no version: only cuName_vW forwarders do.
        newest = max(v for v in versions
                      if len(versions[v][0]) == ARITY.get(n) or
                      versions[v][0] == ("",) and ARITY.get(n) == 0) \
            if any(len(versions[v][0]) == ARITY.get(n) or
                   versions[v][0] == ("",) and ARITY.get(n) == 0
                   for v in versions) else None
        for v in sorted(versions):
            types, suffixes = versions[v]
            if newest is not None and (v == newest or
                                       types == versions[newest][0]):
                entries.append((n, v, n, suffixes))
                continue
            # cuemu's cuName_vW for this version or one of the same types.
            same = [w for w in sorted(versions)
                    if versions[w][0] == types and "%s_v%d" % (n, w) in defined]
            if same:
                entries.append((n, v, "%s_v%d" % (n, same[0]), suffixes))
    renamed = {}
    threads = []
    exports = libcuda_exports(typedefs, entries, renamed, threads)
    params_of = {e[1]: e[2] for e in exports}
    head = ("/* Generated by scripts/driver_entry_points.py from the shims and the\n"
            " * CUDA toolkit's cudaTypedefs.h: do not edit. */\n")
    lst = (head + "/* The includer defines CUEMU_DRV_ENTRY(name, version). */\n"
           "#ifdef CUEMU_DRV_ENTRY\n" +
           "".join("CUEMU_DRV_ENTRY(%s, %d, %s)\n" % e[:3] for e in entries) +
           "#endif\n")
    td = ("/*\n * cudaTypedefs.h: PFN_cuName_vVERSION, the type of each driver function\n"
          " * cuemu has, at each ABI version it has (cuGetProcAddress,\n"
          " * cudaGetDriverEntryPoint). An older ABI version whose parameter types\n"
          " * differ from the newest's is only provided where cuemu has it.\n"
          " * Generated by scripts/driver_entry_points.py from the shims and the\n"
          " * CUDA toolkit's cudaTypedefs.h: do not edit.\n */\n"
          "#ifndef CUEMU_CUDA_TYPEDEFS_H\n#define CUEMU_CUDA_TYPEDEFS_H\n\n"
          "#include \"cuda.h\"\n\n"
          "#ifdef __cplusplus\n"
          "/* The types of the deprecated functions too (cuLaunchGrid, ...),\n"
          " * which CUDA's header spells out. */\n"
          "#pragma GCC diagnostic push\n"
          "#pragma GCC diagnostic ignored \"-Wdeprecated-declarations\"\n" +
          "".join("typedef decltype(&::%s) PFN_%s_v%d%s;\n" % (f, n, v, x)
                  for n, v, f, xs in entries for x in sorted(set(xs))) +
          "#pragma GCC diagnostic pop\n"
          "#else\n"
          "/* C (cuda.h's C view): the same types, with the parameters of\n"
          " * cuemu_libcuda_exports.h. */\n" +
          "".join("typedef CUresult (CUDAAPI *PFN_%s_v%d%s)(%s);\n" %
                  (n, v, x, params_of[f] or "void")
                  for n, v, f, xs in entries for x in sorted(set(xs))) +
          "#endif\n"
          "\n#endif /* CUEMU_CUDA_TYPEDEFS_H */\n")
    gd = ("/*\n * cuemu_driver_entry_guards.h: read by cuda.h when it is first read;\n"
          " * defines CUEMU_DRV_ENTRY_TABLE_NESTED when a header of the driver's\n"
          " * functions was read before it (and so is not complete at cuda.h's end,\n"
          " * where the entry-point table is made: cuemu_driver_ids_api.h).\n"
          " * Generated by scripts/driver_entry_points.py: do not edit.\n */\n"
          "#if " + " || \\\n    ".join("defined(%s)" % g for g in guards) +
          "\n#define CUEMU_DRV_ENTRY_TABLE_NESTED 1\n#endif\n")
    ex = (head + "/* The includer defines CUEMU_LIBCUDA_EXPORT(symbol, function,\n"
          " * (parameters), (arguments)): libcuda's symbol, the shims' function\n"
          " * it is, and that function's parameters and their names. */\n"
          "#ifdef CUEMU_LIBCUDA_EXPORT\n" +
          "".join("CUEMU_LIBCUDA_EXPORT(%s, %s, (%s), (%s))\n" % e
                  for e in exports) +
          "#endif\n"
          "/* The includer defines CUEMU_LIBCUDA_PER_THREAD(name, from, until,\n"
          " * symbol): the per-thread spelling of `name` for the versions from\n"
          " * `from` up to `until` (0: every newer one). */\n"
          "#ifdef CUEMU_LIBCUDA_PER_THREAD\n" +
          "".join("CUEMU_LIBCUDA_PER_THREAD(%s, %d, %d, %s)\n" % t
                  for t in sorted(set(threads))) +
          "#endif\n")
    nm = ("/*\n * cuemu_driver_names.h: the name of each driver function of cuemu's\n"
          " * cuda.h that CUDA's cuda.h defines as the symbol of its newest ABI\n"
          " * version, defined alike, so that the functions are those symbols\n"
          " * and code that stringifies a macro-expanded name for dlsym (jitify)\n"
          " * asks libcuda.so.1 for the symbol it exports. Read first by cuda.h.\n"
          " * Generated by scripts/driver_entry_points.py: do not edit.\n */\n"
          "#ifndef CUEMU_DRIVER_NAMES_H\n#define CUEMU_DRIVER_NAMES_H\n\n" +
          "".join("#define %s %s\n" % (n, renamed[n]) for n in sorted(renamed)) +
          "\n#endif /* CUEMU_DRIVER_NAMES_H */\n")
    return {LIST: lst, TYPEDEFS: td, GUARDS: gd, EXPORTS: ex, NAMES: nm}


def main():
    p = argparse.ArgumentParser()
    default = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "include")
    p.add_argument("--toolkit", default=default)
    p.add_argument("--check", action="store_true")
    a = p.parse_args()
    if not os.path.exists(os.path.join(a.toolkit, "cudaTypedefs.h")):
        print("driver_entry_points.py: no cudaTypedefs.h in %s" % a.toolkit)
        return 2
    files = generate(a.toolkit)
    stale = [path for path, text in files.items()
             if not os.path.exists(path) or read(path) != text]
    if a.check:
        for path in stale:
            print("FAIL: %s is stale: run scripts/driver_entry_points.py"
                  % os.path.relpath(path, ROOT))
        return 1 if stale else 0
    for path in stale:
        with open(path, "w", encoding="utf-8") as f:
            f.write(files[path])
    return 0


if __name__ == "__main__":
    sys.exit(main())
