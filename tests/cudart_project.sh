#!/bin/sh
# cudart_project.sh: a plain Makefile project (tests/programs/cudart_project)
# whose host files are compiled by the host compilers against NVIDIA's
# own headers (-I/usr/local/cuda/include: main.c in C, util.cpp in C++
# with CUDA_API_PER_THREAD_DEFAULT_STREAM, so the _ptsz symbols) and call
# the runtime API by libcudart's C symbols, which libcuemu_cudart.so has
# (issue 13). Its kernels are in kernels.cu. Built
# - with cuemu-nvcc for kernels.cu, linked by cuemu-nvcc;
# - the same objects linked by g++ with -L<cuemu-toolkit>/lib64 -lcudart;
# - every file by cuemu-nvcc (main.c compiled as C against NVIDIA's
#   headers, as nvcc compiles it; CC and CXX in the environment naming
#   cuemu-nvcc do not make it call itself);
# each program runs and prints PASS (main.c checks what the CUDA calls
# return, the device's properties against what kernels.cu's call
# reports, and the kernel's results); with nvcc present, the project
# also builds with nvcc. Skipped without the toolkit's headers or make.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir=$(cd "$builddir" && pwd)
nvcc=$builddir/cuemu-nvcc
toolkit=$builddir/.libs/cuemu-toolkit
cuda=${CUDA_HOME:-/usr/local/cuda}
[ -x "$nvcc" ] || tool_missing cudart_project.sh "$nvcc is not built"
[ -f "$toolkit/lib64/libcudart.so" ] ||
  tool_missing cudart_project.sh "$toolkit is not built"
[ -f "$cuda/include/cuda_runtime_api.h" ] ||
  tool_missing cudart_project.sh "the CUDA toolkit's headers are missing ($cuda/include)"
command -v make >/dev/null 2>&1 || tool_missing cudart_project.sh "make is missing"

work=$builddir/tests/tmp/cudart_project.$$
mkdir -p "$work" || exit 1
d=$srcdir/tests/programs/cudart_project
failed=0

# build NAME MAKE-VARIABLES...: the project in $work/NAME.
build() {
  name=$1
  shift
  mkdir -p "$work/$name" &&
    step "$name" make -C "$name" -f "$d/Makefile" "SRC=$d" "CUDA_DIR=$cuda" "$@"
}

build linked-by-cuemu-nvcc "NVCC=$nvcc" &&
  passes "host objects of NVIDIA's headers, linked by cuemu-nvcc" \
    env CUEMU_QUIET=1 ./linked-by-cuemu-nvcc/app &&
  if readelf -d "$work/linked-by-cuemu-nvcc/app" | grep -q libcuemu_cudart.so
  then
    echo "PASS: the program needs libcuemu_cudart.so"
  else
    fail "the program does not name libcuemu_cudart.so"
  fi
build linked-by-gxx "NVCC=$nvcc" "LINK=${CXX:-g++}" \
  "LDLIBS=-L$toolkit/lib64 -lcudart" &&
  passes "the same objects linked by the host compiler with -lcudart" \
    env CUEMU_QUIET=1 ./linked-by-gxx/app
build all-by-cuemu-nvcc "NVCC=$nvcc" "CC=$nvcc" "CXX=$nvcc" CPPFLAGS= &&
  passes "every file compiled by cuemu-nvcc (main.c as C)" \
    env CUEMU_QUIET=1 ./all-by-cuemu-nvcc/app

# exit() and abort() of host code that the host compiler links with the
# toolkit's lib64/libcudart.so are the C library's: a program that checks a
# CUDA call and exits with a status (as most projects' check macros do)
# ends with that status and its buffered output, and abort() raises SIGABRT.
# They ended with SIGILL: libcuemu's exit() went on to the next definition,
# the filter library's stub, which the dynamic linker finds before libc's.
printf '%s\n' '#include <cstdio>' '#include <cstdlib>' \
  '__global__ void k(int *o) { *o = 7; }' \
  'int main(int argc, char **) {' \
  '  int *o, h = 0;' \
  '  cudaMalloc(&o, sizeof(int));' \
  '  k<<<1, 1>>>(o);' \
  '  cudaMemcpy(&h, o, sizeof(int), cudaMemcpyDeviceToHost);' \
  '  std::printf("kernel wrote %d\n", h);' \
  '  if (argc > 1) std::abort();' \
  '  std::exit(h == 7 ? 3 : 1);' \
  '}' >"$work/exits.cu"
if step exits-compile "$nvcc" -c exits.cu -o exits.o &&
  step exits-link "${CXX:-g++}" exits.o -o exits -L"$toolkit/lib64" -lcudart
then
  (cd "$work" && CUEMU_QUIET=1 ./exits >exits.out 2>&1)
  status=$?
  if [ "$status" -eq 3 ] && grep -qx 'kernel wrote 7' "$work/exits.out"; then
    echo "PASS: exit(3) of a program linked by the host compiler with -lcudart"
  else
    fail "exit(3) of a program linked with -lcudart: status $status, output:"
    sed 's/^/  | /' "$work/exits.out" | head -5
  fi
  (cd "$work" && CUEMU_QUIET=1 ./exits abort >exits-abort.out 2>&1)
  status=$?
  if [ "$status" -eq 134 ]; then
    echo "PASS: abort() of a program linked with -lcudart raises SIGABRT"
  else
    fail "abort() of a program linked with -lcudart: status $status (134 expected)"
  fi
fi

# A program that calls none of the C symbols does not need the library.
printf '%s\n' '#include <cstdio>' \
  '__global__ void k() {}' \
  'int main() { k<<<1, 1>>>(); std::printf("%d\n", (int)cudaDeviceSynchronize()); }' \
  >"$work/plain.cu"
step plain "$nvcc" -o plain plain.cu &&
  if readelf -d "$work/plain" | grep -q libcuemu_cudart.so; then
    fail "a program with no C runtime calls names libcuemu_cudart.so"
  else
    echo "PASS: a program with no C runtime calls does not need it"
  fi

real_nvcc=$(find_nvcc)
if [ -n "$real_nvcc" ]; then
  mkdir -p "$work/nvcc" &&
    step nvcc nvcc_build cudart_project.sh:project make -C nvcc \
      -f "$d/Makefile" "SRC=$d" "CUDA_DIR=$cuda" "NVCC=$real_nvcc" &&
    echo "PASS: the project builds with nvcc"
else
  echo "cudart_project.sh: no nvcc: its build is left out"
fi

[ "$failed" -eq 0 ] && rm -rf "$work"
exit "$failed"
