#!/bin/sh
# cudart_abi.sh: libcuemu_cudart.so (emulator/export/cudart.am) serves
# objects compiled against NVIDIA's own runtime headers, which works only
# where cuemu's types are NVIDIA's byte for byte. Checks that
# - scripts/cudart_exports.py --check: the exports and the probe's list
#   are what the shims and the toolkit's headers give now;
# - tests/programs/cudart_abi/probe.cpp prints the same layouts (size,
#   alignment, every member's offset and size, nested members too) and
#   the same enumerator and flag values compiled against NVIDIA's headers
#   by the host compiler as compiled against cuemu's by cuemu-nvcc (and
#   as built by nvcc, where it is present: the probe makes no CUDA call);
# - the library exports exactly the listed symbols, each one a symbol of
#   NVIDIA's libcudart.so where the toolkit has it.
# Skipped without python3 or the toolkit's headers. Run by `make check`
# with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir=$(cd "$builddir" && pwd)
nvcc=$builddir/cuemu-nvcc
lib=$builddir/.libs/libcuemu_cudart.so
toolkit=${CUDA_HOME:-/usr/local/cuda}
[ -x "$nvcc" ] || tool_missing cudart_abi.sh "$nvcc is not built"
[ -f "$lib" ] || tool_missing cudart_abi.sh "$lib is not built"
command -v python3 >/dev/null 2>&1 ||
  tool_missing cudart_abi.sh "python3 is missing"
[ -f "$toolkit/include/cuda_runtime_api.h" ] ||
  tool_missing cudart_abi.sh "the CUDA toolkit's headers are missing ($toolkit/include)"

work=$builddir/tests/tmp/cudart_abi.$$
mkdir -p "$work" || exit 1
d=$srcdir/tests/programs/cudart_abi
failed=0

if python3 "$srcdir/scripts/cudart_exports.py" --toolkit "$toolkit/include" \
  --check; then
  echo "PASS: the generated exports and probe list are up to date"
else
  fail "scripts/cudart_exports.py --check"
fi

step nvidia "${CXX:-g++}" -std=c++17 "-I$toolkit/include" -o probe_nvidia \
  "$d/probe.cpp" &&
  step cuemu "$nvcc" -o probe_cuemu "$d/probe.cpp" &&
  step run-nvidia ./probe_nvidia &&
  step run-cuemu ./probe_cuemu &&
  if [ "$(wc -l <"$work/run-nvidia.log")" -lt 1000 ]; then
    fail "the probe printed only $(wc -l <"$work/run-nvidia.log") lines"
  elif cmp -s "$work/run-nvidia.log" "$work/run-cuemu.log"; then
    echo "PASS: $(grep -c ' align ' "$work/run-nvidia.log") types," \
      "$(grep -c ' offset ' "$work/run-nvidia.log") members and" \
      "$(grep -vc ' align \| offset ' "$work/run-nvidia.log") constants" \
      "agree with NVIDIA's headers"
  else
    fail "cuemu's types differ from NVIDIA's (< NVIDIA, > cuemu):"
    diff "$work/run-nvidia.log" "$work/run-cuemu.log" | head -20 |
      sed 's/^/  | /'
  fi

real_nvcc=$(find_nvcc)
if [ -n "$real_nvcc" ] && [ -f "$work/run-nvidia.log" ]; then
  step nvcc "$real_nvcc" -arch=sm_90 -o probe_nvcc "$d/probe.cpp" &&
    step run-nvcc ./probe_nvcc &&
    if cmp -s "$work/run-nvidia.log" "$work/run-nvcc.log"; then
      echo "PASS: the probe built by nvcc prints the same"
    else
      fail "the probe built by nvcc prints other values"
    fi
else
  echo "cudart_abi.sh: no nvcc: its build of the probe is left out"
fi

# The exported names: the generated list, the hand-written
# __cudaRegisterFatBinary (cuemu_cudart.cc) and nothing else, each one a
# name of NVIDIA's libcudart (the version node's own symbol, type A, and the
# @@libcudart.so.13 of each name are left out).
{
  sed -n 's/^CUEMU_CUDART_EXPORT(\([A-Za-z0-9_]*\),.*/\1/p' \
    "$srcdir/emulator/export/cuemu_cudart_exports.h"
  echo __cudaRegisterFatBinary
} | sort -u >"$work/listed"
nm -D --defined-only "$lib" | awk '$2 != "A" {print $3}' | sed 's/@.*//' |
  sort -u >"$work/exported"
if [ "$(wc -l <"$work/listed")" -gt 300 ] &&
  cmp -s "$work/listed" "$work/exported"; then
  echo "PASS: libcuemu_cudart.so exports the $(wc -l <"$work/listed") listed names"
else
  fail "libcuemu_cudart.so's exports differ from the list:"
  diff "$work/listed" "$work/exported" | head -10 | sed 's/^/  | /'
fi
real=$toolkit/lib64/libcudart.so
if [ -f "$real" ]; then
  nm -D --defined-only "$real" | awk '{print $3}' | sed 's/@.*//' |
    sort -u >"$work/nvidia"
  if [ -z "$(comm -23 "$work/exported" "$work/nvidia")" ]; then
    echo "PASS: every name is one of NVIDIA's libcudart ($real)"
  else
    fail "names NVIDIA's libcudart does not have:"
    comm -23 "$work/exported" "$work/nvidia" | head -10 | sed 's/^/  | /'
  fi
fi

[ "$failed" -eq 0 ] && rm -rf "$work"
exit "$failed"
