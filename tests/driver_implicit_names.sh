#!/bin/sh
# driver_implicit_names.sh: the names that a .cu file sees without an
# #include, with cuemu-nvcc as with nvcc 13 (docs/nvcc-checks.md, "Names a
# .cu file sees without an #include"). tests/driver/implicit/names.txt
# lists about 330 names (the C library's printf, malloc, memcpy, sqrt,
# INT_MAX, FLT_MAX, uint32_t...; the C++ library's std::min, std::vector,
# std::numeric_limits...; CUDA's float2, dim3, __half, cudaStream_t,
# cooperative_groups...), each used in host, kernel and __host__ __device__
# code, with nvcc's verdict and cuemu-nvcc's: the same, or, where cuemu's
# shims cannot hide a name that they need, accepted with cuemu-nvcc's
# warning that nvcc refuses it (W), or accepted (a leak the table records
# and the document explains). probe_verdicts.py compiles them all in one
# unit (again without the refused lines until it builds) and compares each
# verdict with the table's, for cuemu-nvcc with g++ here and with
# -ccbin clang++ in driver_implicit_names_clang.sh
# (IMPLICIT_CXX=clang++). With nvcc present, nvcc's verdicts are checked
# too (recorded in tests/nvcc_builds.txt, so not again from the same
# bytes). Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
cxx=${IMPLICIT_CXX:-g++}
test_name=driver_implicit_names.sh
[ "$cxx" = g++ ] || test_name=driver_implicit_names_clang.sh
[ -x "$nvcc" ] || tool_missing "$test_name" "$nvcc is not built"
if [ "$cxx" = clang++ ]; then
  command -v "${CLANGXX:-clang++}" >/dev/null 2>&1 ||
    tool_missing "$test_name" "clang++ is missing"
  # clang++ stops at 20 errors, which would take a compile per 20 refused
  # lines.
  ccbin="-ccbin ${CLANGXX:-clang++} -Xcompiler -ferror-limit=0"
else
  ccbin=
fi

d=$srcdir/tests/driver/implicit
work=$builddir_abs/tests/tmp/driver_implicit_names.$cxx.$$
mkdir -p "$work" || exit 1
failed=0

# The cache is not used: a hit compiles nothing, and warns about nothing.
# The host compiler's -O0 halves the compiles' time (the probes' calls are
# not dead code, so the refusals of device-only functions in host code, at
# the calls that code generation keeps, are the same as with -O2).
# shellcheck disable=SC2086
CUEMU_NO_CACHE=1 "${PYTHON:-python3}" "$d/probe_verdicts.py" check "$cxx" \
  "$d/names.txt" "$work" -- "$nvcc" $ccbin -Xcompiler -O0 -c -o probe.o ||
  failed=1

# nvcc's verdicts, where it is present (with g++ only: nvcc's column is
# nvcc's with its default host compiler).
real=$(find_nvcc)
if [ -n "$real" ] && [ "$cxx" = g++ ]; then
  mkdir -p "$work/nvcc"
  (cd "$work" && nvcc_build driver_implicit_names.sh:nvcc \
    "${PYTHON:-python3}" "$d/probe_verdicts.py" check nvcc "$d/names.txt" \
    "$work/nvcc" -- "$real" -c -o probe.o) ||
    fail "nvcc's verdicts are not the table's: the table is wrong"
fi

[ "$failed" = 0 ] && rm -rf "$work"
exit "$failed"
