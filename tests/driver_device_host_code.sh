#!/bin/sh
# driver_device_host_code.sh: the device pass of g++ and of clang++
# compiles no host code of the user's files that its device code does not
# reach (cuemu_gcc_plugin_host_code.cc, cuemu_llvm_plugin_host_code.cc,
# -ccbin clang++): an object of
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

# both CXX [OPTION...]: the checks, with the compiler that the options
# give (g++, or clang++ with -ccbin clang++).
both() {
  cxx=$1
  shift
  step "dropped-$cxx" "$nvcc" "$@" -std=c++17 -c "$src" -o "dropped-$cxx.o" &&
    step "dropped-$cxx-link" "$nvcc" "$@" "dropped-$cxx.o" -o "dropped-$cxx" &&
    passes "$cxx: host code dropped from the device pass: the program runs right" "./dropped-$cxx"
  if [ -f "$work/dropped-$cxx.o" ] && [ "$(copies "dropped-$cxx.o")" != 1 ]; then
    fail "$cxx: the object holds $(copies "dropped-$cxx.o") copies of summarise(), not the host pass's alone"
  fi
  step "kept-$cxx" env CUEMU_DEVICE_HOST_CODE=1 "$nvcc" "$@" -std=c++17 -c "$src" -o "kept-$cxx.o" &&
    step "kept-$cxx-link" "$nvcc" "$@" "kept-$cxx.o" -o "kept-$cxx" &&
    passes "$cxx: CUEMU_DEVICE_HOST_CODE=1: the program runs right" "./kept-$cxx"
  if [ -f "$work/kept-$cxx.o" ] && [ "$(copies "kept-$cxx.o")" != 2 ]; then
    fail "$cxx: CUEMU_DEVICE_HOST_CODE=1: the object holds $(copies "kept-$cxx.o") copies of summarise(), not both passes'"
  fi
}

both g++
# With clang++, the clang plugin records the host functions and the LLVM
# plugin removes them (cuemu_llvm_plugin_host_code.cc): both are built
# where configure found clang's headers.
libdir=${CUEMU_LIB_DIR:-$builddir_abs/.libs}
if ! command -v clang++ >/dev/null 2>&1; then
  echo "SKIP: clang++: no clang++"
elif [ ! -f "$libdir/cuemu_clang_plugin.so" ] ||
  [ ! -f "$libdir/cuemu_llvm_plugin.so" ]; then
  echo "SKIP: clang++: no cuemu_clang_plugin.so or cuemu_llvm_plugin.so"
else
  both clang++ -ccbin clang++
fi

if [ -n "$(find_nvcc)" ]; then
  (cd "$work" && nvcc_build driver_device_host_code.sh:host_heavy "$(find_nvcc)" \
    -std=c++17 "$src" -o nv_host_heavy) || fail "nvcc: host_heavy.cu"
else
  echo "SKIP: nvcc builds: no nvcc"
fi

[ "$failed" -eq 0 ] && rm -rf "$work"
[ "$failed" -eq 0 ]
