#!/bin/sh
# cudart_launch.sh: libcuemu_cudart.so as libcudart for programs whose host
# code the host compilers build against NVIDIA's own headers:
# - launch.cpp (g++, CUDA_API_PER_THREAD_DEFAULT_STREAM) launches
#   kernels.cu's kernel (built by cuemu-nvcc) by its address through
#   cudaLaunchKernel_ptsz and cudaLaunchKernelExC_ptsz, and captures and
#   instantiates a graph on stream 0: stream 0 is the per-thread stream,
#   in a launch configuration and graph instantiation parameters too;
#   linked by g++ with the cuemu toolkit's -lcudart; prints PASS;
# - the library's symbols carry NVIDIA's version node (libcudart.so.13),
#   and plain.c, linked by gcc with NVIDIA's libcudart.so, runs on cuemu
#   with the cuemu toolkit's lib64 first in LD_LIBRARY_PATH, with no
#   "no version information" warning of ld.so;
# - with nvcc: the same files build with it, and a program nvcc built with
#   the shared libcudart ends with cuemu's message (exit 1), not a crash,
#   when cuemu's libcudart.so.13 is the one loaded.
# Skipped without the toolkit's headers. Run by `make check` with
# AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir=$(cd "$builddir" && pwd)
nvcc=$builddir/cuemu-nvcc
toolkit=$builddir/.libs/cuemu-toolkit
cuda=${CUDA_HOME:-/usr/local/cuda}
[ -x "$nvcc" ] || tool_missing cudart_launch.sh "$nvcc is not built"
[ -f "$toolkit/lib64/libcudart.so" ] ||
  tool_missing cudart_launch.sh "$toolkit is not built"
[ -f "$cuda/include/cuda_runtime_api.h" ] ||
  tool_missing cudart_launch.sh "the CUDA toolkit's headers are missing ($cuda/include)"

work=$builddir/tests/tmp/cudart_launch.$$
mkdir -p "$work" || exit 1
d=$srcdir/tests/programs/cudart_launch
cxx=${CXX:-g++}
cc=${CC:-gcc}
case $cc in *cuemu*) cc=gcc ;; esac
case $cxx in *cuemu*) cxx=g++ ;; esac
failed=0

step kernels "$nvcc" -arch=sm_90 -I"$d" -c "$d/kernels.cu" -o kernels.o &&
  step launch.o "$cxx" -I"$cuda/include" -I"$d" \
    -DCUDA_API_PER_THREAD_DEFAULT_STREAM -c "$d/launch.cpp" -o launch.o &&
  step launch "$cxx" -o launch launch.o kernels.o -L"$toolkit/lib64" -lcudart &&
  passes "launches by address, stream 0 per-thread (g++ against NVIDIA's headers)" \
    env CUEMU_QUIET=1 ./launch

# The version node: NVIDIA's, where its library is here.
ours=$(objdump -T "$builddir/.libs/libcuemu_cudart.so" |
  awk '$NF == "cudaMalloc" { print $(NF-1) }')
if [ -f "$cuda/lib64/libcudart.so" ]; then
  theirs=$(objdump -T "$cuda/lib64/libcudart.so" |
    awk '$NF == "cudaMalloc" { print $(NF-1) }')
else
  theirs=libcudart.so.13
fi
if [ -n "$ours" ] && [ "$ours" = "$theirs" ]; then
  echo "PASS: cudaMalloc has libcudart's version ($ours)"
else
  fail "cudaMalloc's version is '$ours', NVIDIA's '$theirs'"
fi

if [ -f "$cuda/lib64/libcudart.so" ]; then
  step plain "$cc" -I"$cuda/include" "$d/plain.c" -o plain \
    -L"$cuda/lib64" -lcudart &&
    if readelf -d "$work/plain" | grep -q 'libcudart\.so\.13'; then
      passes "a program linked with NVIDIA's libcudart runs on cuemu's" \
        env CUEMU_QUIET=1 LD_LIBRARY_PATH="$toolkit/lib64" ./plain &&
        if grep -q "version information" "$work/"*".out"; then
          fail "ld.so warns of missing version information"
          cat "$work/"*".out"
        fi
    else
      echo "cudart_launch.sh: NVIDIA's libcudart is not libcudart.so.13; left out"
    fi
else
  echo "cudart_launch.sh: no $cuda/lib64/libcudart.so: its program is left out"
fi

real_nvcc=$(find_nvcc)
if [ -n "$real_nvcc" ]; then
  step nvcc-kernels "$real_nvcc" -arch=sm_90 -I"$d" -c "$d/kernels.cu" \
    -o nv_kernels.o &&
    step nvcc-launch "$real_nvcc" -arch=sm_90 -o nv_launch launch.o \
      nv_kernels.o &&
    echo "PASS: launch.cpp and kernels.cu build with nvcc"
  if step nvcc-shared "$real_nvcc" -arch=sm_90 -cudart shared \
    "$d/nvcc_kernel.cu" -o nv_shared; then
    (cd "$work" && LD_LIBRARY_PATH="$toolkit/lib64" ./nv_shared) \
      >"$work/nv_shared.out" 2>&1
    rc=$?
    if [ "$rc" -eq 1 ] &&
      grep -q "compiled by NVIDIA's nvcc" "$work/nv_shared.out"; then
      echo "PASS: an nvcc-built program on cuemu's libcudart.so.13 ends with a message"
    else
      fail "an nvcc-built program on cuemu's libcudart.so.13: exit $rc"
      sed 's/^/  | /' "$work/nv_shared.out" | head
    fi
  fi
else
  echo "cudart_launch.sh: no nvcc: its builds are left out"
fi

[ "$failed" -eq 0 ] && rm -rf "$work"
exit "$failed"
