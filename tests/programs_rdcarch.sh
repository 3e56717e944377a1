#!/bin/sh
# programs_rdcarch.sh: relocatable device code built for two virtual
# architectures (issue 13; docs/nvcc-checks.md, "Relocatable device code
# for several architectures"). tests/programs/rdcarch: arch_info.cu's
# device functions and variables, called and read by arch_kernels.cu's
# kernels, each side choosing its code by `#if __CUDA_ARCH__ >= 900`. On
# two emulated devices, 9.0 and 8.6 (CUEMU_DEVICE=count=2,sm=90,1:sm=86),
# the 9.0 device runs compute_90's code and the 8.6 one sm_80's, in the
# kernel and in the device function it calls from the other unit (each
# architecture's code linked apart, as nvlink does); an extern __device__
# variable and a static one of arch_info.cu are one object for the code of
# both architectures: what one device's code posts, the other's reads, and
# cudaMemcpyFromSymbol too. A non-inline __host__ __device__ function (and
# a class's member) of arch_info.cu runs its device code (its architecture's) in
# arch_kernels.cu's kernel, its host code in that unit's host code; and
# arch_kernels.cu's host code calls a function that arch_hd.h declares
# __host__ __device__ and host-only main.cpp defines. The kernel also calls
# arch_info.cu's explicit instantiation and explicit specialization of a
# function template that it sees declared only, and a class's __device__
# member: each device runs its architecture's code (before: the first
# pass's, 900, on 8.6). Built
# - as a Makefile project: -dc objects, a -lib archive of one, -dlink,
#   main.cpp by g++, linked by cuemu-nvcc and by g++ with the toolkit's
#   -lcudart; then its kernels' object linked with arch_info.cu built for
#   sm_90 alone: the link fails, naming the missing compute_80 function;
# - for one architecture, with clang++ as the host compiler;
# - as a CMake project (CUDA_SEPARABLE_COMPILATION, CUDA_ARCHITECTURES
#   "80;90", a static library), also run on a 10.0 device (compute_90's
#   PTX) and an 8.9 one (the sm_80 cubin).
# With nvcc present and CUEMU_TEST_NVCC_PROJECTS=1, the Makefile project
# builds with nvcc too. Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir=$(cd "$builddir" && pwd)
nvcc=$builddir/cuemu-nvcc
toolkit=$builddir/.libs/cuemu-toolkit
cuda=${CUDA_HOME:-/usr/local/cuda}
[ -x "$nvcc" ] || tool_missing programs_rdcarch.sh "$nvcc is not built"
d=$srcdir/tests/programs/rdcarch
work=$builddir/tests/tmp/programs_rdcarch.$$
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT
failed=0
gencode="-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90"
two="device 0 (9.0): caller 900 callee 900 host-device 900 902 host -7 1 templates 900 901 907
device 1 (8.6): caller 800 callee 800 host-device 800 802 host -7 1 templates 800 801 807
device 0 posted, device 1 read: mailbox 1900 symbol 1900 posts 1
device 1 posted, device 0 read: mailbox 2800 symbol 2800 posts 2
device 0 posted, device 1 read: mailbox 3900 symbol 3900 posts 3
device 1 posted, device 0 read: mailbox 4800 symbol 4800 posts 4
PASS"

# runs NAME DEVICES PROGRAM EXPECTED: PROGRAM's output on the devices
# CUEMU_DEVICE=DEVICES is EXPECTED.
runs() {
  out=$(cd "$work" && CUEMU_QUIET=1 CUEMU_DEVICE=$2 "$3" 2>&1)
  if [ "$out" = "$4" ]; then
    echo "PASS: $1"
  else
    fail "$1: its output:"
    printf '%s\n' "$out" | sed 's/^/  | /'
    echo "  expected:"
    printf '%s\n' "$4" | sed 's/^/  | /'
  fi
}

if command -v make >/dev/null 2>&1 && [ -f "$cuda/include/cuda_runtime_api.h" ]; then
  mkdir -p "$work/make" "$work/make_gxx"
  step make make -C make -f "$d/Makefile" "SRC=$d" "CUDA_DIR=$cuda" \
    "NVCC=$nvcc" LDLIBS= &&
    runs "Makefile project (-lib archive, -dlink), linked by cuemu-nvcc" \
      "count=2,sm=90,1:sm=86" ./make/app "$two"
  if [ -f "$toolkit/lib64/libcudart.so" ]; then
    cp "$work"/make/*.o "$work"/make/*.a "$work/make_gxx/" 2>/dev/null
    rm -f "$work/make_gxx/main.o"
    step make-gxx make -C make_gxx -f "$d/Makefile" "SRC=$d" \
      "CUDA_DIR=$cuda" "NVCC=$nvcc" "LINK=${CXX:-g++}" \
      "LDLIBS=-L$toolkit/lib64 -lcudart" &&
      runs "the same objects linked by the host compiler with -lcudart" \
        "count=2,sm=90,1:sm=86" ./make_gxx/app "$two"
  fi
  # nvcc builds the project too (`make` in its folder: 3.8 s of CPU, left
  # out of the test for its time; tests/nvcc_kernels.sh compiles each .cu).
  real=$(find_nvcc)
  if [ -n "$real" ] && [ "${CUEMU_TEST_NVCC_PROJECTS:-0}" = 1 ]; then
    mkdir -p "$work/make_nvcc"
    step make-nvcc make -C make_nvcc -f "$d/Makefile" "SRC=$d" \
      "CUDA_DIR=$cuda" "NVCC=$real" &&
      echo "PASS: the Makefile project builds with nvcc"
  fi
else
  echo "make or the CUDA toolkit's headers are missing: the Makefile project is skipped"
fi

# A unit built for one architecture, linked with units of two: the other
# units' compute_80 code calls functions that it has no code of, an error
# of the program's device link, in nvlink's words ("Undefined reference to
# '_Z9pass_archv' in 'arch_kernels.o' (target: sm_80)").
if [ -f "$work/make/arch_kernels.o" ] &&
  step dc-info-90 "$nvcc" -arch=sm_90 -dc "$d/arch_info.cu" -o arch_info_90.o; then
  # shellcheck disable=SC2086
  if (cd "$work" && "$nvcc" $gencode arch_info_90.o make/arch_kernels.o \
    "$d/main.cpp" -o mixed) >"$work/mixed.log" 2>&1; then
    fail "a unit of one architecture linked with units of two"
  elif grep -q "^nvlink error   : Undefined reference to '_Z9pass_archv' in 'make/arch_kernels.o' (target: sm_80)$" \
    "$work/mixed.log"; then
    echo "PASS: a unit of one architecture among units of two: the link names the missing compute_80 function"
  else
    fail "a unit of one architecture linked with units of two: $(head -5 "$work/mixed.log")"
  fi
fi

# One architecture, clang++ as the host compiler: the kernel still runs the
# device code of the other unit's __host__ __device__ function (before,
# its host code: -1), and the host code that the device pass also compiles
# links its call of main.cpp's host-only function.
if command -v clang++ >/dev/null 2>&1 &&
  step clang-one-arch "$nvcc" -ccbin clang++ -rdc=true -arch=sm_90 \
    "$d/arch_info.cu" "$d/arch_kernels.cu" "$d/main.cpp" -o one_arch; then
  runs "-rdc=true, one architecture, clang++ as the host compiler" sm=90 \
    ./one_arch "device 0 (9.0): caller 900 callee 900 host-device 900 902 host -7 1 templates 900 901 907
device 0 posted, device 0 read: mailbox 1900 symbol 1900 posts 1
device 0 posted, device 0 read: mailbox 2900 symbol 2900 posts 2
PASS"
fi

if command -v cmake >/dev/null 2>&1; then
  gen="Unix Makefiles"
  command -v ninja >/dev/null 2>&1 && gen=Ninja
  step cmake-configure cmake -S "$d" -B cmake -G "$gen" \
    -DCMAKE_CUDA_COMPILER="$nvcc" &&
    step cmake-build cmake --build cmake &&
    runs "CMake, CUDA_SEPARABLE_COMPILATION, CUDA_ARCHITECTURES \"80;90\" ($gen)" \
      "count=2,sm=90,1:sm=86" ./cmake/rdcarch "$two" &&
    runs "CMake build on 10.0 (compute_90's PTX) and 8.9 (the sm_80 cubin)" \
      "count=2,sm=100,1:sm=89" ./cmake/rdcarch "device 0 (10.0): caller 900 callee 900 host-device 900 902 host -7 1 templates 900 901 907
device 1 (8.9): caller 800 callee 800 host-device 800 802 host -7 1 templates 800 801 807
device 0 posted, device 1 read: mailbox 1900 symbol 1900 posts 1
device 1 posted, device 0 read: mailbox 2800 symbol 2800 posts 2
device 0 posted, device 1 read: mailbox 3900 symbol 3900 posts 3
device 1 posted, device 0 read: mailbox 4800 symbol 4800 posts 4
PASS"
else
  echo "cmake is not installed: the CMake project is skipped"
fi

[ "$failed" -eq 0 ]
