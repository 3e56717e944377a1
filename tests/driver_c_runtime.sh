#!/bin/sh
# driver_c_runtime.sh: cuemu's runtime API headers compile as C, as
# NVIDIA's do (cuda_runtime_api.h's C view: the types of the C and C++
# headers, the prototypes of cuemu_runtime_c_decls.h, no C++). A C
# program (tests/programs/trialopts/c_runtime/main.c: devices, properties,
# memory, streams, events, cudaLaunchKernel with a dim3, cudaLaunchHostFunc,
# symbols, function attributes, managed memory, errors) that
# includes <cuda_runtime.h> from cuemu-toolkit's include folder, as a
# CMake C target linked to CUDA::cudart does:
# - compiles with gcc -std=c99 and -std=c11 -pedantic (-Wall -Wextra
#   -Werror -Wstrict-prototypes), and with clang where present; so does
#   each runtime header alone;
# - links with kernels.cu built by cuemu-nvcc and prints PASS; so does the
#   whole program built by cuemu-nvcc, and one compiled with
#   -DCUDA_API_PER_THREAD_DEFAULT_STREAM, whose calls are the _ptsz and
#   _ptds symbols;
# - abi_probe.c prints the same sizes, alignments, offsets and constants
#   compiled as C against cuemu's headers and against NVIDIA's (where the
#   toolkit is present); nvcc builds the program.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir=$(cd "$builddir" && pwd)
nvcc=$builddir/cuemu-nvcc
toolkit=$builddir/.libs/cuemu-toolkit
[ -x "$nvcc" ] || tool_missing driver_c_runtime.sh "$nvcc is not built"
[ -f "$toolkit/include/cuda_runtime.h" ] ||
  tool_missing driver_c_runtime.sh "$toolkit is not built"
d=$srcdir/tests/programs/trialopts/c_runtime
work=$builddir/tests/tmp/driver_c_runtime.$$
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT
failed=0
cc=${CC:-gcc}
warn="-Wall -Wextra -Werror -Wstrict-prototypes"

for std in "c99" "c99 -pedantic" "c11 -pedantic"; do
  # shellcheck disable=SC2086
  step "main-$(echo $std | tr -d ' ')" "$cc" -std=$std $warn \
    "-I$toolkit/include" -c "$d/main.c" -o main.o &&
    echo "PASS: main.c compiles with $cc -std=$std -Werror"
done
if command -v clang >/dev/null 2>&1; then
  # shellcheck disable=SC2086
  step main-clang clang -std=c99 -pedantic $warn "-I$toolkit/include" \
    -c "$d/main.c" -o main_clang.o &&
    echo "PASS: main.c compiles with clang -std=c99 -pedantic -Werror"
fi

headers="cuda_runtime.h cuda_runtime_api.h driver_types.h driver_functions.h
vector_types.h vector_functions.h builtin_types.h library_types.h
texture_types.h surface_types.h cuda_profiler_api.h"
bad=
for h in $headers; do
  printf '#include <%s>\nint cuemu_unit_is_not_empty;\n' "$h" >"$work/alone.c"
  # shellcheck disable=SC2086
  (cd "$work" && "$cc" -std=c99 -pedantic $warn "-I$toolkit/include" \
    -fsyntax-only alone.c) >"$work/alone.log" 2>&1 || {
    bad="$bad $h"
    sed 's/^/  | /' "$work/alone.log" | head -10
  }
done
if [ -z "$bad" ]; then
  echo "PASS: each runtime header compiles alone as C99 (-pedantic -Werror)"
else
  fail "runtime headers that do not compile alone as C:$bad"
fi

# A C++ construct in a C file's view would be refused here; so would a
# default argument (the C call must pass every argument).
cat >"$work/default_arg.c" <<'EOF_C'
#include <cuda_runtime.h>
int f(void *d, const void *h) { return cudaMemcpyAsync(d, h, 4, cudaMemcpyDefault); }
EOF_C
if (cd "$work" && "$cc" -std=c11 "-I$toolkit/include" -fsyntax-only \
  default_arg.c) >"$work/default_arg.log" 2>&1; then
  fail "a C call without cudaMemcpyAsync's stream compiled (a default argument in C?)"
elif grep -q 'too few arguments' "$work/default_arg.log"; then
  echo "PASS: C has no default arguments (cudaMemcpyAsync without its stream is refused)"
else
  fail "cudaMemcpyAsync without a stream in C: $(head -3 "$work/default_arg.log")"
fi

step kernels "$nvcc" -c "$d/kernels.cu" -o kernels.o &&
  step link "$nvcc" -o app main.o kernels.o &&
  passes "a C program (gcc, cuemu-toolkit's cuda_runtime.h) linked with a .cu file" ./app
step nvcc-all "$nvcc" -o app_all "$d/main.c" "$d/kernels.cu" &&
  passes "the program built by cuemu-nvcc alone" ./app_all

step ptds "$cc" -std=c99 -DCUDA_API_PER_THREAD_DEFAULT_STREAM=1 \
  "-I$toolkit/include" -c "$d/main.c" -o main_ptds.o &&
  if nm "$work/main_ptds.o" | grep -q ' U cudaMemcpyAsync_ptsz$' &&
    nm "$work/main_ptds.o" | grep -q ' U cudaMemcpy_ptds$' &&
    ! nm "$work/main_ptds.o" | grep -q ' U cudaMemcpy$'; then
    step link-ptds "$nvcc" -o app_ptds main_ptds.o kernels.o &&
      passes "CUDA_API_PER_THREAD_DEFAULT_STREAM (the _ptds and _ptsz symbols)" ./app_ptds
  else
    fail "CUDA_API_PER_THREAD_DEFAULT_STREAM: main.o's symbols:"
    nm "$work/main_ptds.o" | grep ' U cuda' | head -10 | sed 's/^/  | /'
  fi

step probe-cuemu "$cc" -std=c11 -pedantic $warn "-I$toolkit/include" \
  -o probe_cuemu "$d/abi_probe.c" &&
  step probe-cuemu-run ./probe_cuemu
nv_include=${CUDA_HOME:-/usr/local/cuda}/include
if [ -f "$nv_include/crt/host_config.h" ]; then
  step probe-nvidia "$cc" -std=c11 "-I$nv_include" -o probe_nvidia \
    "$d/abi_probe.c" &&
    step probe-nvidia-run ./probe_nvidia &&
    if cmp -s "$work/probe-nvidia-run.log" "$work/probe-cuemu-run.log" &&
      [ "$(wc -l <"$work/probe-cuemu-run.log")" -gt 60 ]; then
      echo "PASS: $(wc -l <"$work/probe-cuemu-run.log") layouts and constants agree with NVIDIA's C headers"
    else
      fail "the C view's layouts differ from NVIDIA's (< NVIDIA, > cuemu):"
      diff "$work/probe-nvidia-run.log" "$work/probe-cuemu-run.log" |
        head -10 | sed 's/^/  | /'
    fi
fi

real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ]; then
  step real-nvcc nvcc_build driver_c_runtime.sh:app "$real" -arch=sm_90 \
    -o app_nvcc "$d/main.c" "$d/kernels.cu" &&
    echo "PASS: nvcc builds the program"
fi

exit $failed
