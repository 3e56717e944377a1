#!/bin/sh
# trialshoc_project.sh: the trial project of SHOC-like benchmarks
# (tests/programs/trialshoc, trimmed from the trial), built as its users
# build it, `make NVCC=cuemu-nvcc`, in a copy of its tree: a top-level
# Makefile that runs $(MAKE) -C in each folder, CUDA flags from
# config/common.mk (several -gencode, -Xcompiler -Wall; -Xptxas -v for
# Sort), a common library of host code made with ar whose main() (built by
# nvcc from main.cpp) calls each benchmark's RunBenchmark(), linked into one
# executable per benchmark. Each benchmark checks itself against the host
# and prints NAME: PASS (the trial's other twelve, Reduction among them,
# passed too; two are kept for the test's time):
# - Sort: radix sort with a three-phase scan from another folder's header
#   (#include "../Scan/scan_kernel.h"), stable ranks from __match_any_sync,
#   compared with std::stable_sort;
# - S3D: many __device__ functions over exp/log/pow/__expf/__fdividef,
#   __constant__ arrays set by cudaMemcpyToSymbol, --use_fast_math.
# The build prints ptxas's resource lines for Sort's kernels (-Xptxas -v,
# which cuemu-nvcc only noted before trialshoc; Sort.cu calls functions of
# the common library, which the module read for them lacks). Skipped
# without make. About 20 s of CPU with a cold cache (the compiles: Sort's
# 6.5 s with its -Xptxas -v, S3D's 4.5 s, the common library's 4.5 s).
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir=$(cd "$builddir" && pwd)
nvcc=$builddir/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing trialshoc_project.sh "$nvcc is not built"
command -v make >/dev/null 2>&1 ||
  tool_missing trialshoc_project.sh "make is missing"

work=$builddir/tests/tmp/trialshoc_project.$$
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT
cp -R "$srcdir/tests/programs/trialshoc" "$work/shoc" && chmod -R u+w "$work/shoc" ||
  exit 1
failed=0

# CUDA_HOME is cuemu's toolkit folder, whose include/ the host compiler
# reads for the common library, as on a machine without CUDA. -Xcompiler
# -O0 (which reaches cuemu-nvcc's device passes, where nvcc's -O is the
# host code's level alone) keeps
# the compiles cheap; the project's other flags are kept (NVCCFLAGS ?= and
# CXXFLAGS ?= in config/common.mk).
gencode="-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=[sm_90,compute_90]"
if ! make -s -C "$work/shoc" NVCC="$nvcc" CUDA_HOME="$builddir/.libs/cuemu-toolkit" \
  CXXFLAGS="-O0 -std=c++17 -Wall" \
  NVCCFLAGS="-Xcompiler -O0 -std=c++17 $gencode -Xcompiler -Wall" \
  all >"$work/build.log" 2>&1; then
  echo "FAIL: the project does not build:"
  cat "$work/build.log"
  exit 1
fi
echo "PASS: the project builds with make NVCC=cuemu-nvcc"
if grep -q "^ptxas info    : Compiling entry function '_Z12radixScatter" \
  "$work/build.log" && grep -q "^ptxas info    : Used 32 registers, 512 bytes smem" \
  "$work/build.log" && ! grep -q "Xptxas -v is accepted" "$work/build.log"; then
  echo "PASS: -Xptxas -v prints the kernels' resources"
else
  echo "FAIL: -Xptxas -v printed:"
  grep -i ptxas "$work/build.log" | head -8
  failed=$((failed + 1))
fi
if ar t "$work/shoc/lib/libSHOCCommon.a" | grep -qx main.o; then
  echo "PASS: main.o is in the common archive"
else
  echo "FAIL: the archive holds: $(ar t "$work/shoc/lib/libSHOCCommon.a")"
  failed=$((failed + 1))
fi

# run NAME [ARGS...]: runs bin/NAME, which must print NAME: PASS.
run() {
  name=$1
  shift
  if (cd "$work/shoc" && "./bin/$name" "$@") >"$work/$name.out" 2>&1 &&
    grep -q "^$name: PASS$" "$work/$name.out"; then
    echo "PASS: $name${1:+ $*}"
  else
    echo "FAIL: $name${1:+ $*}:"
    cat "$work/$name.out"
    failed=$((failed + 1))
  fi
}

run Sort --passes 1 --keybits 20 --quiet
run S3D -n 1 -p

exit $failed
