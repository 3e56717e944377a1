#!/bin/sh
# cuda_arch_passes.sh: one device pass per virtual architecture of a build,
# as nvcc compiles them (issue 13; docs/nvcc-checks.md, "One device pass
# per virtual architecture"). tests/driver/cc13d/arch_passes.cu, built with
# -gencode for compute_80/sm_80 and compute_90/sm_90, reports the
# __CUDA_ARCH__ of the code that its kernel ran (plus a __constant__ bias
# of 5 set by cudaMemcpyToSymbol) and a __device__ counter of its two
# launches: the driver's choice gives 805 on emulated 8.0 and 8.6 devices,
# 905 on 9.0, and no kernel image on 10.0 (not quiet, printed once with
# CUEMU_DEVICE's name). Built as CMake builds for
# CUDA_ARCHITECTURES "80;90" (--generate-code with PTX and cubin, compiled
# with -c and linked), a 10.0 device runs compute_90's PTX (905) and 8.9
# the sm_80 cubin. A kernel template launched with deduced arguments of
# several types (which_pass_plus) runs the picked pass's code too (+11).
# One architecture (-arch=sm_80: its cubin and PTX) runs
# 805 on 8.6 and, through the PTX, on 9.0. Each line also gives the
# kernel's ptxVersion and binaryVersion, from cudaFuncGetAttributes and
# cuFuncGetAttribute: the picked image's (a PTX's binary is the device's).
# With nvcc present, the program builds with it too.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
cuemu=$builddir_abs/cuemu-nvcc
src=$srcdir/tests/driver/cc13d/arch_passes.cu
work=$(mktemp -d)
failed=0
real=$(find_nvcc)
gencode="-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90"

# runs SM EXPECTED: the program on an emulated device of compute
# capability SM.
runs() {
  out=$(CUEMU_DEVICE=sm=$1 "$work/arch_passes" 2>&1)
  if [ "$out" = "$2" ]; then
    echo "PASS: sm=$1: $out"
  else
    fail "sm=$1: '$out', expected '$2'"
  fi
}
# shellcheck disable=SC2086
if step build "$cuemu" $gencode -o arch_passes "$src" -lcuda; then
  runs 80 "device 8.0 host 0 kernel 805 template 800/811 launches 2 (cudaSuccess) ptx 80/80 binary 80/80"
  runs 86 "device 8.6 host 0 kernel 805 template 800/811 launches 2 (cudaSuccess) ptx 80/80 binary 80/80"
  runs 90 "device 9.0 host 0 kernel 905 template 900/911 launches 2 (cudaSuccess) ptx 90/90 binary 90/90"
  runs 100 "device 10.0 host 0 kernel -1 template -1/-1 launches 0 (cudaErrorNoKernelImageForDevice) ptx -1/-1 binary -1/-1"
  # Not quiet, the first refusal is printed once, naming the images and
  # CUEMU_DEVICE (the program's own message does not tell them).
  told=$(CUEMU_QUIET=0 CUEMU_DEVICE=sm=100 "$work/arch_passes" 2>&1 >/dev/null |
    grep -c "no kernel image for the emulated device (compute capability 10.0) among its build's .*sm_80.*CUEMU_DEVICE sets the device")
  if [ "$told" = 1 ]; then
    echo "PASS: sm=100, not quiet: the refusal is printed once"
  else
    fail "sm=100, not quiet: the refusal was printed $told times, expected once"
  fi
fi
if step cmake-form "$cuemu" "--generate-code=arch=compute_80,code=[compute_80,sm_80]" \
  "--generate-code=arch=compute_90,code=[compute_90,sm_90]" -c -o arch_passes.o "$src" &&
  step cmake-link "$cuemu" -o arch_passes arch_passes.o -lcuda; then
  runs 89 "device 8.9 host 0 kernel 805 template 800/811 launches 2 (cudaSuccess) ptx 80/80 binary 80/80"
  runs 100 "device 10.0 host 0 kernel 905 template 900/911 launches 2 (cudaSuccess) ptx 90/90 binary 100/100"
fi
if step one-arch "$cuemu" -arch=sm_80 -o arch_passes "$src" -lcuda; then
  runs 86 "device 8.6 host 0 kernel 805 template 800/811 launches 2 (cudaSuccess) ptx 80/80 binary 80/80"
  runs 90 "device 9.0 host 0 kernel 805 template 800/811 launches 2 (cudaSuccess) ptx 80/80 binary 90/90"
fi
# Two devices of different compute capabilities in one program
# (CUEMU_DEVICE's N:sm=): each runs its own pick, through its own stream.
devices=$srcdir/tests/driver/cc13d/arch_passes_devices.cu
# shellcheck disable=SC2086
if step devices "$cuemu" $gencode -o arch_passes_devices "$devices"; then
  out=$(CUEMU_DEVICE=count=2,sm=90,1:sm=86 "$work/arch_passes_devices" 2>&1)
  want="device 0 (9.0): 900 900 900 900 ptx 90 binary 90
device 1 (8.6): 800 800 800 800 ptx 80 binary 80"
  if [ "$out" = "$want" ]; then
    echo "PASS: two devices, 9.0 and 8.6, each its own pass"
  else
    fail "two devices: '$out', expected '$want'"
  fi
fi
# Several instances of one kernel template, built with clang++ (whose
# names of instances carry no template arguments): each runs its own code
# of the picked pass; kernels whose __launch_bounds__ differ by pass have
# the picked pass's.
instances=$srcdir/tests/driver/cc13d/arch_pass_instances.cu
if command -v clang++ >/dev/null 2>&1; then
  # shellcheck disable=SC2086
  if step instances "$cuemu" -ccbin clang++ $gencode -o arch_pass_instances "$instances"; then
    for sm in 80 90; do
      out=$(CUEMU_DEVICE=sm=$sm "$work/arch_pass_instances" 2>&1)
      a=$((sm * 10 + 11))
      b=$((sm * 10 + 12))
      bound=128
      verdict=run
      [ "$sm" = 90 ] && bound=64 && verdict=refused
      want="cudaSuccess int $a $b float $a.5 $b.5 double $a.25 $b.25
bounds $bound $bound launches of 128 threads $verdict $verdict"
      if [ "$out" = "$want" ]; then
        echo "PASS: sm=$sm: each instance of a kernel template runs its own code, with its own bounds"
      else
        fail "instances on sm=$sm: '$out', expected '$want'"
      fi
    done
  fi
fi
if [ -n "$real" ]; then
  # shellcheck disable=SC2086
  step nvcc "$real" $gencode -o arch_passes_nvcc "$src" -lcuda &&
    echo "PASS: nvcc builds it"
  # shellcheck disable=SC2086
  step nvcc-devices "$real" $gencode -o arch_passes_devices_nvcc "$devices" &&
    echo "PASS: nvcc builds arch_passes_devices.cu"
  # shellcheck disable=SC2086
  step nvcc-instances nvcc_build cuda_arch_passes.sh:instances \
    "$real" $gencode -o arch_pass_instances_nvcc "$instances" &&
    echo "PASS: nvcc builds arch_pass_instances.cu"
fi

rm -rf "$work"
exit $failed
