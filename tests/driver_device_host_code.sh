#!/bin/sh
# driver_device_host_code.sh: g++'s device pass compiles no host code of
# the user's files that its device code does not reach
# (cuemu_gcc_plugin_host_code.cc): an object of
# tests/driver/device_host_code/host_heavy.cu holds one copy of a host
# function (the host pass's) where CUEMU_DEVICE_HOST_CODE=1 keeps the device
# pass's too; the device code that only host code names stays
# (a kernel template's instance launched from host code, a kernel launched
# through its address, a __device__ variable template that only host code
# copies to), and the program runs right either way. nvcc builds it.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
src=$srcdir/tests/driver/device_host_code/host_heavy.cu
work=$builddir_abs/tests/tmp/driver_device_host_code.$$
mkdir -p "$work" || exit 1
failed=0

# copies OBJECT: how many definitions of summarise() it holds.
copies() {
  nm -C "$work/$1" | grep -c ' [tTwW] summarise(std::vector<int, std::allocator<int> > const&)$'
}

step dropped "$nvcc" -std=c++17 -c "$src" -o dropped.o &&
  step dropped-link "$nvcc" dropped.o -o dropped &&
  passes "host code dropped from the device pass: the program runs right" ./dropped
if [ -f "$work/dropped.o" ] && [ "$(copies dropped.o)" != 1 ]; then
  fail "the object holds $(copies dropped.o) copies of summarise(), not the host pass's alone"
fi
step kept env CUEMU_DEVICE_HOST_CODE=1 "$nvcc" -std=c++17 -c "$src" -o kept.o &&
  step kept-link "$nvcc" kept.o -o kept &&
  passes "CUEMU_DEVICE_HOST_CODE=1: the program runs right" ./kept
if [ -f "$work/kept.o" ] && [ "$(copies kept.o)" != 2 ]; then
  fail "CUEMU_DEVICE_HOST_CODE=1: the object holds $(copies kept.o) copies of summarise(), not both passes'"
fi

if [ -n "$(find_nvcc)" ]; then
  (cd "$work" && nvcc_build driver_device_host_code.sh:host_heavy "$(find_nvcc)" \
    -std=c++17 "$src" -o nv_host_heavy) || fail "nvcc: host_heavy.cu"
else
  echo "SKIP: nvcc builds: no nvcc"
fi

[ "$failed" -eq 0 ] && rm -rf "$work"
[ "$failed" -eq 0 ]
