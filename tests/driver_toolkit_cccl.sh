#!/bin/sh
# driver_toolkit_cccl.sh: a Makefile project written for a toolkit at
# CUDA_HOME (tests/driver/toolkit_cccl: -rdc=true, CUB's BlockReduce, a
# __device__ function declared in a header and defined in another file, a
# final link by g++ with -lcudart), built as the README says, with
# CUDA_HOME=<libcuemu's folder>/cuemu-toolkit. That folder has the shims
# and no CCCL, so cuemu-nvcc looks for CCCL past it (on PATH's nvcc, then
# /usr/local/cuda), as it does past a cuemu-nvcc installed as nvcc. The
# unit with CUB is compiled by clang++, which accepts GCC's `error`
# attribute (the host pass's refusal of calls to __device__ functions)
# only on a function's first declaration, so the prototype has it too.
# Both were found building a solver of branch trialapps. With nvcc
# present, the project is checked to build with it too.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
libdir=${CUEMU_LIB_DIR:-$builddir_abs/.libs}
toolkit=$libdir/cuemu-toolkit
[ -x "$toolkit/bin/nvcc" ] ||
  tool_missing driver_toolkit_cccl.sh "$toolkit/bin/nvcc is not built"
command -v make >/dev/null 2>&1 ||
  tool_missing driver_toolkit_cccl.sh "make is not installed"
real=$(find_nvcc 2>/dev/null)
cccl=
for d in "${real:+$(dirname "$(dirname "$real")")}" /usr/local/cuda; do
  if [ -n "$d" ] && [ -d "$d/include/cccl/cub" ]; then
    cccl=$d
    break
  fi
done
[ -n "$cccl" ] ||
  tool_missing driver_toolkit_cccl.sh "no CUDA toolkit with include/cccl"

work=$(cd "$builddir" && pwd)/tests/tmp/driver_toolkit_cccl.$$
mkdir -p "$work" || exit 1
failed=0
cp "$srcdir"/tests/driver/toolkit_cccl/* "$work/" || exit 1

# CUDA_HOME and CUDA_PATH both name cuemu's toolkit, as a user who points
# a Makefile at it has them.
if step build env -u LD_LIBRARY_PATH CUDA_PATH="$toolkit" \
  make CUDA_HOME="$toolkit" dot_app; then
  passes "-rdc project with CUB, CUDA_HOME=cuemu-toolkit, linked by g++" \
    env -u LD_LIBRARY_PATH ./dot_app
fi

# A real toolkit in a folder whose path holds "cuemu" (a CI's
# /opt/cuemu-ci/cuda) is still CUDA_HOME's CCCL (its bin/nvcc is a file of
# its own; only a cuemu-nvcc, by its file's name, is skipped): its
# include/cccl, CCCL's folders plus a header of its own, is the one that
# the compile and -MD use (-MD of a unit with CUB failed: no CCCL).
fake=$work/cuemu-ci/cuda
mkdir -p "$fake/bin" "$fake/include/cccl" &&
  printf '#!/bin/sh\nexit 1\n' >"$fake/bin/nvcc" && chmod +x "$fake/bin/nvcc" &&
  for part in cub thrust cuda nv; do
    ln -s "$cccl/include/cccl/$part" "$fake/include/cccl/$part"
  done &&
  echo '#define CI_TOOLKIT_MARK 42' >"$fake/include/cccl/ci_toolkit_mark.h" &&
  printf '%s\n' '#include <cub/block/block_reduce.cuh>' \
    '#include <ci_toolkit_mark.h>' \
    '__global__ void k(int *o) { *o = CI_TOOLKIT_MARK; }' >"$work/mark.cu"
if step ci-toolkit env CUDA_HOME="$fake" "$builddir_abs/cuemu-nvcc" -c -MD \
  -MF mark.d -o mark.o mark.cu; then
  if grep -q "ci_toolkit_mark.h" "$work/mark.d"; then
    echo "PASS: CUDA_HOME=.../cuemu-ci/cuda (a real toolkit) gives CCCL, -MD too"
  else
    fail "mark.d names no ci_toolkit_mark.h: $(cat "$work/mark.d")"
  fi
fi

if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ]; then
  # The project's folder is a word of the recorded step, whose key then
  # holds its files (scripts/nvcc_verified.py).
  mkdir -p "$work/nvcc"
  step nvcc-build nvcc_build driver_toolkit_cccl.sh:project sh -c \
    'cp "$1"/* nvcc/ && make -C nvcc NVCC="$2" CUDA_HOME="$3" dot_app' sh \
    "$srcdir/tests/driver/toolkit_cccl" "$real" \
    "$(dirname "$(dirname "$real")")" &&
    echo "PASS: the project builds with nvcc ($real)"
fi

# A .cpp file that includes libcu++ (host code only): nvcc puts the
# toolkit's include/cccl on a .cpp compile's path too (-isystem, nvcc
# -dryrun), so `#include <cuda/std/array>` in a C++ file of a project
# compiled by nvcc builds; cuemu-nvcc gave "cuda/std/array: No such file"
# (trialcoll). Built alone (compile and link) and with -c then a link.
printf '%s\n' '#include <cuda/std/array>' '#include <cuda/std/span>' \
  '#include <cstdio>' \
  'int main() {' \
  '  cuda::std::array<int, 4> a{1, 2, 3, 4};' \
  '  cuda::std::span<int> s(a.data(), 3);' \
  '  int sum = 0;' \
  '  for (int v : s) sum += v;' \
  '  std::puts(sum == 6 && a.size() == 4 ? "PASS" : "FAIL");' \
  '  return sum == 6 ? 0 : 1;' \
  '}' >"$work/host_cccl.cpp"
if step cpp-cccl "$builddir_abs/cuemu-nvcc" host_cccl.cpp -o host_cccl &&
  step cpp-cccl-c "$builddir_abs/cuemu-nvcc" -c host_cccl.cpp -o host_cccl.o &&
  step cpp-cccl-link "$builddir_abs/cuemu-nvcc" host_cccl.o -o host_cccl2; then
  passes "a .cpp file with libcu++ array and span" ./host_cccl
  passes "the same compiled with -c and linked" ./host_cccl2
fi

rm -rf "$work"
[ "$failed" -eq 0 ]
