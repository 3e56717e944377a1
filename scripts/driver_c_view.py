#!/usr/bin/env python3
"""driver_c_view.py: writes the C view of cuemu's driver API header, cuda.h.

cuemu's cuda.h is C++ (inline functions over libcuemu), whereas NVIDIA's
compiles as C too: C programs of the driver API (matrixMulDrv-style
programs, C programs that JIT with NVRTC and cuModuleLoadData, Python C
extensions) include it and call libcuda's C symbols. cuemu's libcuda.so.1
(emulator/export/cuemu_libcuda.cc) exports those symbols, listed in
emulator/export/cuemu_libcuda_exports.h by scripts/driver_entry_points.py.
This script writes shims/cuda_builtins/cuemu_driver_c_decls.h, what a C
file sees of cuda.h:

- the driver's types, constants and macros: an #include of each of the
  driver's type headers (cuemu_driver_*types.h, which are C and C++ and
  which cuda.h's C++ view reads too), in the order cuda.h reads them, and
  a copy of whatever typedef, struct, union, enum or CUDA macro the other
  driver headers (cuda.h and the cuemu_driver_*.h it reads) declare at
  file scope, as the host C++ compiler preprocesses them, without the
  inline functions, templates and namespaces (today only cuda.h's own
  include guard and CUDA_VERSION; the runtime's types come from
  cuda_runtime_api.h's C view);
- cuemu_driver_names.h, CUDA's names of each function's newest ABI
  version (#define cuMemAlloc cuMemAlloc_v2);
- a prototype of each symbol of libcuda.so.1 that is the newest version of
  a function or its per-thread spelling (the older ABI versions, which
  NVIDIA's cuda.h declares only for its own use, are not declared), with
  the parameters of cuemu_libcuda_exports.h, which the compile of the
  library checks against the shims; under CUDA_API_PER_THREAD_DEFAULT_STREAM
  the functions are named by their per-thread spellings, as in CUDA's.

It also writes shims/cuda_builtins/cuemu_nvrtc_c_decls.h, nvrtc.h's C view:
the prototypes of NVRTC's C functions, which libcuemu_cudart.so exports
(emulator/export/cuemu_nvrtc_exports.cc), over nvrtc.h's own types. Usage:

  driver_c_view.py [--check]

--check writes nothing and exits 1 when a committed file differs from what
would be written (tests/driver_c_view.sh).
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHIMS = os.path.join(ROOT, "shims", "cuda_builtins")
OUT = os.path.join(SHIMS, "cuemu_driver_c_decls.h")
EXPORTS = os.path.join(ROOT, "emulator", "export", "cuemu_libcuda_exports.h")

# The headers whose file-scope types make the driver's C view.
DRIVER_FILE = re.compile(r"(^|/)(cuda\.h|cuemu_driver_(?!names|entry)\w+\.h)$")
# The driver's type headers, which C reads as they are (cuda.h's C++ view
# reads the same files): the C view includes each where cuda.h first reads
# it, and copies only what the other headers declare.
TYPES_FILE = re.compile(r"(^|/)cuemu_driver_\w*types\.h$")
# Macros of those headers that are cuemu's own, not CUDA's.
OWN_MACRO = re.compile(r"^(CUEMU|cuemu|__cuemu|__CUEMU)")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def preprocessed():
    """cuda.h as the host C++ compiler reads it: [(file, line text)]."""
    out = subprocess.run(
        [os.environ.get("CXX", "g++"), "-E", "-dD", "-std=c++17",
         "-I" + SHIMS, "-I" + os.path.join(ROOT, "emulator", "include"),
         "-x", "c++", "-"],
        input="#include <cuda.h>\n", capture_output=True, text=True,
        check=True).stdout
    lines, current = [], ""
    for text in out.split("\n"):
        m = re.match(r'# \d+ "([^"]*)"', text)
        if m:
            current = m.group(1)
            continue
        lines.append((current, text))
    return lines


def statements(text):
    """The file-scope declarations of a driver header's text that C can
    read: typedefs, structs, unions and enums (function bodies, templates,
    namespaces and extern "C++" blocks are dropped)."""
    out, i, start, depth = [], 0, 0, 0
    while i < len(text):
        c = text[i]
        if c == "{":
            head = text[start:i].strip()
            kind = head.split()[0] if head else ""
            if kind in ("typedef", "struct", "union", "enum"):
                depth = 1
                i += 1
                while depth and i < len(text):
                    depth += {"{": 1, "}": -1}.get(text[i], 0)
                    i += 1
                continue
            # A function body, a namespace, a template or extern "C++".
            depth = 1
            i += 1
            while depth and i < len(text):
                depth += {"{": 1, "}": -1}.get(text[i], 0)
                i += 1
            if re.match(r"(namespace|extern)\b", head) or "(" in head:
                j = i
                while j < len(text) and text[j] in " \t\n":
                    j += 1
                if j < len(text) and text[j] == ";":
                    i = j + 1
                start = i
            continue
        if c == ";":
            stmt = " ".join(text[start:i + 1].split())
            if re.match(r"(typedef|struct|union|enum)\b", stmt) and \
                    "static_cast" not in stmt and \
                    not re.match(r"(struct|union|enum)\s+\w+\s*;$", stmt):
                out.append(stmt)
            elif re.match(r"(struct|union)\s+\w+\s*;$", stmt):
                out.append(stmt)
            start = i + 1
        i += 1
    return out


def types():
    """The driver's C types and macros, in the order cuda.h defines them:
    an #include of each type header, and the declarations and macros of
    the other driver headers that no type header has."""
    out, macros, chunk, typed = [], [], [], []

    def flush():
        if chunk:
            out.extend(statements("\n".join(chunk)))
            del chunk[:]
    for path, text in preprocessed():
        if TYPES_FILE.search(path):
            flush()
            include = "#include \"%s\"" % os.path.basename(path)
            if include not in out:
                out.append(include)
            if not text.startswith("#"):
                typed.append(text)
            continue
        if not DRIVER_FILE.search(path):
            flush()
            continue
        m = re.match(r"#define\s+(\w+)", text)
        if m:
            if not OWN_MACRO.match(m.group(1)) and "static_cast" not in text \
                    and not re.match(r"cu[A-Z]\w+$", m.group(1)):
                macros.append(text.rstrip())
            continue
        if text.startswith("#"):
            continue
        chunk.append(text)
    flush()
    seen, unique = set(statements("\n".join(typed))), []
    for s in out + macros:
        if s not in seen:
            seen.add(s)
            unique.append(s)
    return unique


# libcuda.so.1's own cuGetProcAddress, which emulator/export/cuemu_libcuda.cc
# defines (not the shims), under its newest version's name as CUDA's
# cuda.h has it. (Its cuGetExportTable, CUDA's private tables, is not
# declared: docs/runtime.md lists it as absent.)
OWN_FUNCTIONS = [
    "#define cuGetProcAddress cuGetProcAddress_v2",
    "CUresult CUDAAPI cuGetProcAddress_v2(const char *symbol, void **pfn,\n"
    "    int cudaVersion, cuuint64_t flags,\n"
    "    CUdriverProcAddressQueryResult *symbolStatus);"]


def layout(stmt):
    """A declaration laid out as a person writes it: a member or an
    enumerator a line, indented by depth."""
    if "{" not in stmt:
        return stmt
    out, depth, parens, enum, line = [], 0, 0, [], ""
    i = 0
    while i < len(stmt):
        c = stmt[i]
        line += c
        if c == "(":
            parens += 1
        elif c == ")":
            parens -= 1
        elif c == "{":
            enum.append(bool(re.search(r"\benum\b[^{;]*\{$", line)))
            out.append("  " * depth + line.strip())
            depth, line = depth + 1, ""
        elif c == "}":
            if line[:-1].strip():
                out.append("  " * depth + line[:-1].strip())
            depth -= 1
            enum.pop()
            line = "}"
        elif parens == 0 and (c == ";" and depth or
                              c == "," and enum and enum[-1]):
            out.append("  " * depth + line.strip())
            line = ""
        i += 1
    if line.strip():
        out.append("  " * depth + line.strip())
    return "\n".join(out)


def prototypes():
    """A C prototype of each newest-version symbol of libcuda.so.1."""
    out = list(OWN_FUNCTIONS)
    for m in re.finditer(r"^CUEMU_LIBCUDA_EXPORT\((\w+), (\w+), \((.*)\), "
                         r"\((.*)\)\)$", read(EXPORTS), flags=re.M):
        symbol, function, params = m.group(1), m.group(2), m.group(3)
        if re.search(r"_v\d{4,}$", function):
            continue
        out.append(wrap("CUresult CUDAAPI %s(%s);" %
                        (symbol, params or "void")))
    return out


def per_thread():
    """Under CUDA_API_PER_THREAD_DEFAULT_STREAM, as in CUDA's cuda.h, each
    function with a per-thread spelling is named by it (cuMemcpyHtoD is
    cuMemcpyHtoD_v2_ptds)."""
    out = ["/* A file compiled with CUDA_API_PER_THREAD_DEFAULT_STREAM calls the",
           " * per-thread spellings, whose stream 0 is the per-thread default",
           " * stream. */",
           "#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)"]
    for m in re.finditer(r"^CUEMU_LIBCUDA_EXPORT\((\w+_pt(?:sz|ds)), (\w+),",
                         read(EXPORTS), flags=re.M):
        if not re.search(r"_v\d{4,}$", m.group(2)):
            out += ["#undef %s" % m.group(2),
                    "#define %s %s" % (m.group(2), m.group(1))]
    return out + ["#endif"]


def wrap(line):
    """A line broken at commas to fit 80 columns."""
    lines, cur = [], ""
    for piece in re.split(r"(?<=,) ", line):
        if cur and len(cur) + 1 + len(piece) > 80:
            lines.append(cur)
            cur = "    " + piece
        else:
            cur = cur + (" " if cur else "") + piece
    lines.append(cur)
    return "\n".join(lines)


def c_view():
    return "\n".join([
        "/* Generated by scripts/driver_c_view.py from cuemu's driver headers",
        " * and emulator/export/cuemu_libcuda_exports.h: do not edit. */",
        "/*",
        " * cuemu_driver_c_decls.h: CUDA's driver API as a C file sees it",
        " * (cuda.h without __cplusplus): cuemu's driver types, constants and",
        " * macros, CUDA's names of each function's newest ABI version, and a",
        " * prototype of each symbol of cuemu's libcuda.so.1 that is one.",
        " */",
        "#ifndef CUEMU_DRIVER_C_DECLS_H",
        "#define CUEMU_DRIVER_C_DECLS_H",
        "#ifndef __cplusplus",
        "",
        "#include <stddef.h>",
        "#include <stdint.h>",
        "#include <time.h>",
        "",
        "#include \"cuda_runtime_api.h\"",
        "#include <cuemu/cuemu_driver_errors.h>",
        "",
        "#ifndef CUDAAPI",
        "#define CUDAAPI",
        "#endif",
        ""] + [layout(t) for t in types()] + [
        "",
        "#include \"cuemu_driver_names.h\"",
        ""] + per_thread() + [""] + prototypes() + [
        "",
        "#endif /* __cplusplus */",
        "#endif /* CUEMU_DRIVER_C_DECLS_H */"]) + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    status = 0
    for path, new in ((OUT, c_view()),):
        old = read(path) if os.path.exists(path) else ""
        if args.check:
            if new != old:
                print("driver_c_view.py: %s differs from the code; run "
                      "scripts/driver_c_view.py and commit the result" % path)
                status = 1
            continue
        with open(path, "w", encoding="utf-8") as f:
            f.write(new)
    return status


if __name__ == "__main__":
    sys.exit(main())
