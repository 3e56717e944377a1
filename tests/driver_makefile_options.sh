#!/bin/sh
# driver_makefile_options.sh: nvcc's options as Makefiles write them
# (branch trialmk). -cuda, which old Makefiles (Rodinia's nn) run before
# the build, writes a .cu file's host pass, preprocessed, to
# NAME.cu.cpp.ii. nvcc takes a -gencode keyword's list in double quotes
# (code="sm_90,compute_90", which a recipe line writes
# code=\"sm_90,compute_90\"); it splits an -Xcompiler or -Xlinker value at
# the commas that are not in double quotes nor escaped ("\,"), and the
# shell that runs the host compiler splits each piece at white space and
# removes its quotes, so -Xcompiler "-O2 -Wall" is two options. A quote
# left open is an error that names the value; a quoted -code value is
# refused, as nvcc refuses it. A C file that includes <cuda_runtime.h>
# compiles as C; -x applies to every input, wherever it stands, as
# nvcc's does: -x c++ and -x c make a .cu file host code (a CPU back
# end), and -x cu reads CUDA source from "-", the standard input.
# --list-gpu-arch
# and --list-gpu-code print CUDA 13's architectures (the two together in
# -gencode's form), as nvcc does; NVCC_PREPEND_FLAGS,
# NVCC_APPEND_FLAGS and NVCC_CCBIN are read as nvcc reads them; more of
# nvcc's options are accepted (-pg and -arbin do what nvcc's do). The
# program is
# tests/programs/trialmk/makefile_option_quoting.cu. -Xcompiler -flto
# builds (tests/driver/lto) link with the .cpp's LTO object. -O4 builds
# a unit that includes Thrust without clang++'s warning
# (tests/driver/optimize/o4_cccl.cu). With nvcc present, it is checked to
# take the same commands.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
nvcc=$(cd "$builddir" && pwd)/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing driver_makefile_options.sh "$nvcc is not built"

work=$(cd "$builddir" && pwd)/tests/tmp/driver_makefile_options.$$
mkdir -p "$work" || exit 1
failed=0
src=$srcdir/tests/programs/trialmk/makefile_option_quoting.cu

# The options exactly as nvcc receives them from a Makefile's recipe.
set -- -gencode 'arch=compute_90,code="sm_90,compute_90"' \
  -Xcompiler '"-DQUOTED_PIECE=3,4",-DESCAPED_COMMA=5\,6' \
  --compiler-options '-DSPACED_A=7 -DSPACED_B=8' \
  -Xlinker '-rpath,/trialmk-option-quoting' -o quoting "$src"
step quoting "$nvcc" "$@" &&
  passes "quoted and spaced -gencode, -Xcompiler and -Xlinker values" ./quoting
if command -v readelf >/dev/null 2>&1 && [ -f "$work/quoting" ]; then
  if readelf -d "$work/quoting" | grep -q "/trialmk-option-quoting"; then
    echo "PASS: -Xlinker -rpath,DIR reaches the linker"
  else
    fail "-Xlinker -rpath,DIR is not in the program's run path"
  fi
fi

if (cd "$work" && "$nvcc" -Xcompiler '"-DQUOTED_PIECE=3' -c -o open.o \
  "$src") >"$work/open.log" 2>&1; then
  fail "an open quote in an -Xcompiler value is accepted"
elif grep -q "Unterminated \" quote in -Xcompiler value" "$work/open.log"; then
  echo "PASS: an open quote is an error that names the value"
else
  fail "an open quote: $(cat "$work/open.log")"
fi

if (cd "$work" && "$nvcc" -arch=compute_90 -code='"sm_90"' -c -o code.o \
  "$src") >"$work/code.log" 2>&1; then
  fail "a quoted -code value is accepted (nvcc refuses it)"
else
  echo "PASS: a quoted -code value is refused, as nvcc refuses it"
fi

# -cuda: NAME.cu.cpp.ii (or -o), the host pass (no __CUDA_ARCH__).
if (cd "$work" && "$nvcc" -cuda -Xcompiler '"-DQUOTED_PIECE=3,4"' \
  '-DESCAPED_COMMA=5\,6' -DSPACED_A=7 -DSPACED_B=8 "$src") >"$work/cuda.log" 2>&1 &&
  grep -q "sum_pieces" "$work/makefile_option_quoting.cu.cpp.ii" &&
  ! grep -q "__CUDA_ARCH__" "$work/makefile_option_quoting.cu.cpp.ii"; then
  echo "PASS: -cuda writes the host pass to NAME.cu.cpp.ii"
else
  fail "-cuda: $(cat "$work/cuda.log")"
fi

# A C file that includes <cuda_runtime.h> compiles as C, against NVIDIA's
# header where a toolkit has it, as nvcc's C compiles do, else against
# cuemu's C view of it (tests/driver_c_runtime.sh), and links with
# libcuemu_cudart.so's C symbols (tests/cudart_project.sh tests more).
# Compiled with -x c++ (alone: -x is for every input), it builds and runs
# against a kernel of a .cu file.
cat >"$work/host_c.c" <<'EOF_C'
#include <cuda_runtime.h>
#include <stdio.h>
#ifdef __cplusplus
extern "C"
#endif
void launch_fill(int *d, int n);
int main(void) {
  int *d = NULL, h[32], ok = 1;
  if (cudaMalloc((void **)&d, sizeof h) != cudaSuccess)
    return 1;
  launch_fill(d, 32);
  ok = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess;
  for (int i = 0; i < 32; ++i)
    ok = ok && h[i] == 3 * i;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
EOF_C
cat >"$work/fill.cu" <<'EOF_CU'
__global__ void fill(int *d) { d[threadIdx.x] = 3 * (int)threadIdx.x; }
extern "C" void launch_fill(int *d, int n) { fill<<<1, n>>>(d); cudaDeviceSynchronize(); }
EOF_CU
step c-as-c "$nvcc" -o c_as_c host_c.c fill.cu &&
  passes "a C file that includes <cuda_runtime.h> compiles as C" ./c_as_c
step c-as-cxx sh -c '"$1" -x c++ -c host_c.c -o host_c_cxx.o &&
  "$1" -o c_as_cxx host_c_cxx.o fill.cu' sh "$nvcc" &&
  passes "the C file compiled with -x c++" ./c_as_cxx

# nvcc's -x is one setting for all the inputs, wherever it stands: a .cpp
# file with a kernel before `-x cu` is CUDA (cuemu once took -x as gcc
# does, for the files after it); the last of two counts, with nvcc's
# warning; `-x none`, gcc's, is refused as nvcc refuses it.
cat >"$work/x_after.cpp" <<'EOF_X'
#include <cstdio>
__global__ void twice(int *d) { d[threadIdx.x] = 2 * (int)threadIdx.x; }
int main() {
  int *d, h[32];
  cudaMalloc(&d, sizeof h);
  twice<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int ok = h[31] == 62;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
EOF_X
step x-after "$nvcc" -o x_after x_after.cpp -x cu &&
  passes "-x cu after the .cpp file it applies to" ./x_after
if step x-twice "$nvcc" -o x_twice -x c++ x_after.cpp -x cu; then
  if grep -q "incompatible redefinition for option 'x', the last value of this option was used" \
    "$work/x-twice.log"; then
    passes "the last of two -x counts, with nvcc's warning" ./x_twice
  else
    fail "no warning for two -x: $(cat "$work/x-twice.log")"
  fi
fi
if (cd "$work" && "$nvcc" -c -x none x_after.cpp) >"$work/x-none.log" 2>&1; then
  fail "-x none accepted (nvcc refuses it)"
elif grep -q "Value 'none' is not defined for option 'x'" "$work/x-none.log"; then
  echo "PASS: -x none is refused with nvcc's message"
else
  fail "-x none: $(cat "$work/x-none.log")"
fi

# CUDA source on the standard input ("-", with -x cu), as configure
# scripts pipe a probe into nvcc: nvcc copies it to a file of its own and
# compiles that; cuemu-nvcc once tried to read a file named "-".
step x-cu-stdin sh -c '"$1" -x cu -o x_cu_stdin - <x_after.cpp' sh "$nvcc" &&
  passes "CUDA source read from the standard input with -x cu" ./x_cu_stdin

# A .cu file that holds a CUDA back end and a CPU back end (the CPU one
# under #ifndef __CUDACC__), which a Makefile's CPU build compiles with
# -x c++ or -x c: the file is host C++ (or C) with __NVCC__ and without
# __CUDACC__, as nvcc compiles it, also for -MD. cuemu once gave the .cu
# file to the host compiler without the language, which took it for a
# linker input ("linker input file unused"), and the link failed.
cat >"$work/backends.cu" <<'EOF_B'
#include <stdio.h>
#ifdef __CUDACC__
__global__ void twice(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = 2 * i;
}
#else
static void twice(int *d, int n) {
  for (int i = 0; i < n; ++i)
    d[i] = 2 * i;
}
#endif
int main(void) {
  int h[32];
#ifdef __CUDACC__
  int *d;
  cudaMalloc(&d, sizeof h);
  twice<<<1, 32>>>(d, 32);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
#else
  twice(h, 32);
#endif
  int ok = h[31] == 62;
#if defined(__CUDACC__) || !defined(__NVCC__)
  ok = 0; /* the CPU back end, compiled by nvcc */
#endif
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
EOF_B
step x-cxx-cu "$nvcc" -x c++ -o x_cxx_cu backends.cu &&
  passes "a .cu file compiled with -x c++ is its CPU back end" ./x_cxx_cu
if step x-c-cu sh -c '"$1" -x c -MD -c backends.cu -o backends_c.o &&
  "$1" -o x_c_cu backends_c.o' sh "$nvcc"; then
  if grep -q "backends_c.o:.*backends.cu" "$work/backends_c.d"; then
    passes "a .cu file compiled with -x c and -MD is its CPU back end" ./x_c_cu
  else
    fail "-x c -MD of a .cu file: $(cat "$work/backends_c.d")"
  fi
fi

# NVCC_PREPEND_FLAGS and NVCC_APPEND_FLAGS, which nvcc reads before and
# after its command line (conda's nvcc sets NVCC_PREPEND_FLAGS), shown by
# -v; NVCC_CCBIN names the host compiler unless -ccbin does.
if (cd "$work" && NVCC_PREPEND_FLAGS='-DQUOTED_PIECE=3\,4 -DESCAPED_COMMA=5\,6' \
  NVCC_APPEND_FLAGS='-DSPACED_A=7 -DSPACED_B=8' "$nvcc" -v -o env_flags \
  "$src") >"$work/env.log" 2>&1 &&
  grep -q '^#\$ NVCC_APPEND_FLAGS="-DSPACED_A=7 -DSPACED_B=8"' "$work/env.log"; then
  passes "NVCC_PREPEND_FLAGS and NVCC_APPEND_FLAGS" ./env_flags
else
  fail "NVCC_PREPEND_FLAGS and NVCC_APPEND_FLAGS: $(cat "$work/env.log")"
fi
if (cd "$work" && NVCC_CCBIN=/nonexistent-trialmk/g++ "$nvcc" --no-cache -c \
  -o ccbin.o "$src" -Xcompiler -DQUOTED_PIECE=1,-DESCAPED_COMMA=2 \
  -DSPACED_A=3 -DSPACED_B=4) >"$work/ccbin.log" 2>&1; then
  fail "NVCC_CCBIN=/nonexistent-trialmk/g++ is not used"
elif grep -q "nonexistent-trialmk" "$work/ccbin.log" &&
  (cd "$work" && NVCC_CCBIN=/nonexistent-trialmk/g++ "$nvcc" --no-cache \
    -ccbin c++ -c -o ccbin.o "$src" -Xcompiler -DQUOTED_PIECE=1,-DESCAPED_COMMA=2 \
    -DSPACED_A=3 -DSPACED_B=4) >"$work/ccbin2.log" 2>&1; then
  echo "PASS: NVCC_CCBIN names the host compiler; -ccbin overrides it"
else
  fail "NVCC_CCBIN: $(cat "$work/ccbin.log" "$work/ccbin2.log")"
fi

# More of nvcc 13's options that builds pass: accepted (device code
# generation changes nothing here); -pg profiles the host code with gprof;
# -arbin is the archiver of -lib.
step more-options "$nvcc" -Xfatbin -compress-all -ldir /tmp -jtd 50 \
  --entries sum_pieces -noprof --use-local-env -forward-unknown-opts -pg \
  -o more_options "$src" -Xcompiler -DQUOTED_PIECE=3,-DESCAPED_COMMA=5 \
  -DSPACED_A=7 -DSPACED_B=8 && {
  (cd "$work" && rm -f gmon.out && ./more_options >more.out 2>&1)
  if [ -f "$work/gmon.out" ] && grep -q "note: -Xfatbin -compress-all is accepted" \
    "$work/more-options.log"; then
    echo "PASS: -Xfatbin, -ldir, -jtd, --entries, -noprof, --use-local-env, -forward-unknown-opts, -pg"
  else
    fail "more options: $(cat "$work/more-options.log" "$work/more.out")"
  fi
}
if (cd "$work" && "$nvcc" -lib -arbin /nonexistent-trialmk-ar -o libq.a \
  "$src" -DQUOTED_PIECE=3 -DESCAPED_COMMA=5 -DSPACED_A=7 -DSPACED_B=8) \
  >"$work/arbin.log" 2>&1; then
  fail "-arbin /nonexistent-trialmk-ar is not used"
elif grep -q "nonexistent-trialmk-ar" "$work/arbin.log"; then
  echo "PASS: -arbin names the archiver of -lib"
else
  fail "-arbin: $(cat "$work/arbin.log")"
fi

# --list-gpu-arch and --list-gpu-code (-arch-ls, -code-ls), which
# Makefiles read to choose their architectures: CUDA 13's, one a line.
"$nvcc" --list-gpu-arch >"$work/arch.list" 2>&1
"$nvcc" -code-ls >"$work/code.list" 2>&1
"$nvcc" --list-gpu-arch --list-gpu-code >"$work/both.list" 2>&1
if grep -qx compute_90 "$work/arch.list" && grep -qx sm_121 "$work/code.list" &&
  [ "$(grep -c . "$work/arch.list")" -eq 12 ] &&
  ! grep -q "sm_\|[0-9][af]$" "$work/arch.list" &&
  [ "$(grep -c '^arch=compute_\([0-9]*\),code=sm_\1$' "$work/both.list")" -eq 12 ] &&
  [ "$(sed 's/,code=.*//; s/arch=//' "$work/both.list")" = "$(cat "$work/arch.list")" ]; then
  echo "PASS: --list-gpu-arch and --list-gpu-code"
else
  fail "--list-gpu-arch: $(cat "$work/arch.list" "$work/code.list")"
fi

# A Makefile that builds with the host compiler's link-time optimisation
# (-Xcompiler -flto on every unit and on the link, as CMake's
# INTERPROCEDURAL_OPTIMIZATION gives its C++ files): the .cu unit's object
# is machine code, which the LTO link takes with the .cpp's LTO object.
lto=$srcdir/tests/driver/lto
step lto-cu "$nvcc" -Xcompiler -flto -O2 -c "$lto/lto_scale.cu" -o lto_scale.o &&
  step lto-cpp "$nvcc" -Xcompiler -flto -O2 -c "$lto/lto_main.cpp" -o lto_main.o &&
  step lto-link "$nvcc" -Xcompiler -flto -O2 lto_scale.o lto_main.o -o lto_program &&
  passes "-Xcompiler -flto on a .cu unit, a .cpp unit and the link" ./lto_program

# -O4 (an FFT convolution program's Makefile): nvcc takes it silently,
# and so does cuemu-nvcc, also where clang++ compiles a unit that includes
# Thrust (it gets -O3, the level g++ and clang++ take -O4 for).
o4=$srcdir/tests/driver/optimize/o4_cccl.cu
if step o4 env CUEMU_NO_CACHE=1 "$nvcc" -O4 -o o4 "$o4"; then
  if grep -q "warning" "$work/o4.log"; then
    fail "-O4: a warning: $(cat "$work/o4.log")"
  else
    echo "PASS: -O4 builds a unit that includes Thrust without a warning"
  fi
  passes "the -O4 build runs" ./o4
fi

real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ]; then
  step nvcc-quoting nvcc_build driver_makefile_options.sh:quoting timeout 600 \
    "$real" -std=c++17 -c "$@" &&
    echo "PASS: nvcc takes the same options"
  "$real" --list-gpu-arch >"$work/arch.nvcc" 2>&1
  "$real" --list-gpu-code >"$work/code.nvcc" 2>&1
  "$real" --list-gpu-arch --list-gpu-code >"$work/both.nvcc" 2>&1
  if cmp -s "$work/arch.list" "$work/arch.nvcc" &&
    cmp -s "$work/code.list" "$work/code.nvcc" &&
    cmp -s "$work/both.list" "$work/both.nvcc"; then
    echo "PASS: nvcc lists the same architectures"
  else
    fail "nvcc lists other architectures: $(cat "$work/arch.nvcc" "$work/code.nvcc" "$work/both.nvcc")"
  fi
  step nvcc-lto nvcc_build driver_makefile_options.sh:lto "$real" -std=c++17 \
    -Xcompiler -flto -O2 -c "$lto/lto_scale.cu" -o nvcc_lto.o &&
    echo "PASS: nvcc compiles lto_scale.cu with -Xcompiler -flto"
  step nvcc-o4 nvcc_build driver_makefile_options.sh:o4 "$real" -O4 -c \
    "$o4" -o nvcc_o4.o && ! grep -q warning "$work/nvcc-o4.log" &&
    echo "PASS: nvcc compiles o4_cccl.cu with -O4 without a warning"
  step nvcc-x-after nvcc_build driver_makefile_options.sh:x-after \
    "$real" -std=c++17 -c x_after.cpp -x cu -o x_after.o &&
    echo "PASS: nvcc compiles x_after.cpp with -x cu after it"
  step nvcc-x-cu-stdin nvcc_build driver_makefile_options.sh:x-cu-stdin \
    sh -c '"$1" -std=c++17 -x cu -c -o nvcc_stdin.o - <x_after.cpp' sh "$real" &&
    echo "PASS: nvcc compiles x_after.cpp read from the standard input with -x cu"
  step nvcc-x-cxx-cu nvcc_build driver_makefile_options.sh:x-cxx-cu \
    "$real" -x c++ -c backends.cu -o nvcc_backends.o &&
    echo "PASS: nvcc compiles backends.cu with -x c++"
  step nvcc-x-c-cu nvcc_build driver_makefile_options.sh:x-c-cu \
    "$real" -x c -MD -c backends.cu -o nvcc_backends_c.o &&
    echo "PASS: nvcc compiles backends.cu with -x c and -MD"
fi

rm -rf "$work"
echo "driver_makefile_options.sh: $failed failed"
[ "$failed" -eq 0 ]
