#!/usr/bin/env python3
"""device_libc_names.py: the C library functions that CUDA gives device code,
for the check of calls in device code (cuemu_space_rules.h).

nvcc refuses a call of a C library function from a __global__ or __device__
function ("calling a __host__ function("strcmp") from a __global__
function("k") is not allowed") unless the CUDA headers declare it
__device__ too: printf, malloc, free, memcpy, memset, clock, the math API
(sqrt, sinf, abs, ...), the assert's __assert_fail. This script
preprocesses CUDA's headers with nvcc (-E, as its device pass sees them),
collects the names of the functions declared with the device attribute,
keeps those that the C library's headers declare too (g++ -E of the
standard C headers), and writes them, sorted, as a C table. The table is
committed, so that building cuemu needs no CUDA toolkit.

Usage:
  device_libc_names.py NVCC OUTPUT           write OUTPUT
  device_libc_names.py --check NVCC OUTPUT   exit 1 if OUTPUT is not what
                                             NVCC's headers make
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

CUDA_HEADERS = ["cuda_runtime.h", "cmath", "cstdlib", "cstdio", "cstring",
                "ctime", "cassert"]
C_HEADERS = ["assert.h", "ctype.h", "math.h", "stdio.h", "stdlib.h",
             "string.h", "strings.h", "time.h", "wchar.h", "wctype.h",
             "inttypes.h", "unistd.h"]

# An attribute with its arguments: __attribute__((device_builtin)),
# __attribute__((__nothrow__, __leaf__)), __attribute__((alias("x"))).
ATTRIBUTE = r"__attribute__\(\((?:[^()]|\([^()]*\))*\)\)"
# The name of a function declared with the device attribute: the first
# name followed by `(` after it, past other attributes and the type.
DEVICE_FUNCTION = re.compile(
    r"__attribute__\(\(device\)\)((?:\s*" + ATTRIBUTE + r"|[^;{}()])*?)"
    r"\b([A-Za-z_]\w*)\s*\(")
# A name followed by `(`: what the C headers may declare as a function.
CALLED = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


def preprocess(command, headers, suffix):
    with tempfile.NamedTemporaryFile("w", suffix=suffix, delete=False) as f:
        for h in headers:
            f.write("#include <%s>\n" % h)
        unit = f.name
    try:
        text = subprocess.run(command + [unit], check=True,
                              capture_output=True, text=True).stdout
    finally:
        os.unlink(unit)
    return re.sub(r"\s+", " ", re.sub(r"^#.*$", "", text, flags=re.M))


def names(nvcc):
    cuda = preprocess([nvcc, "-E", "-x", "cu"], CUDA_HEADERS, ".cu")
    device = set(m.group(2) for m in DEVICE_FUNCTION.finditer(cuda))
    cxx = shlex.split(os.environ.get("CXX") or "g++")
    libc = preprocess(cxx + ["-E", "-x", "c++"], C_HEADERS, ".cc")
    declared = set(CALLED.findall(libc))
    return sorted((device & declared) - {"__attribute__"})


def table(found):
    lines = ["/*",
             " * cuemu_device_libc_names.h: the C library's functions that "
             "CUDA declares",
             " * for device code too, sorted (cuemu_space_rules.h). Generated "
             "by",
             " * scripts/device_libc_names.py from nvcc 13's headers (make "
             "device-libc-names).",
             " * Do not edit.",
             " */",
             "static const char *const cuemu_device_libc_names[] = {"]
    lines += ['    "%s",' % n for n in found]
    lines += ["};", ""]
    return "\n".join(lines)


def main(argv):
    check = len(argv) > 1 and argv[1] == "--check"
    args = argv[2:] if check else argv[1:]
    if len(args) != 2:
        sys.stderr.write(__doc__)
        return 2
    nvcc, output = args
    text = table(names(nvcc))
    if check:
        with open(output) as f:
            if f.read() != text:
                sys.stderr.write("device_libc_names.py: %s is not what %s's "
                                 "headers make (make device-libc-names)\n"
                                 % (output, nvcc))
                return 1
        return 0
    with open(output, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
