#!/bin/sh
# driver_cmake_c.sh: a CMake project of C and CUDA languages
# (tests/driver/cmake_c) whose C file includes <cuda_runtime.h> through
# CUDA::cudart's include folder, as NVIDIA's header allows. cuemu's runtime
# headers are C++: where NVIDIA's toolkit is installed at /usr/local/cuda,
# the C file compiles against NVIDIA's header (cuemu_nvidia_c_headers.h) and
# the project builds and its test passes; without it (or with
# -DCUEMU_NVIDIA_C_HEADERS=0, which this test uses to see that path) the C
# file is refused with one message that names the fix (compile it as C++;
# in CMake, set_source_files_properties(... LANGUAGE CXX)), never a cascade
# of errors from inside the shims; with that fix (-DHOST_AS_CXX=ON) the
# project builds and its test passes. With nvcc present, the project builds
# with it as it is (the C file compiled as C).
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
command -v cmake >/dev/null 2>&1 ||
  tool_missing driver_cmake_c.sh "cmake is not installed (scripts/setup.sh installs it)"
nvcc=$builddir_abs/cuemu-nvcc
p=$srcdir/tests/driver/cmake_c
work=$builddir_abs/tests/tmp/driver_cmake_c.$$
mkdir -p "$work" || exit 1
failed=0

if [ -f /usr/local/cuda/include/cuda_runtime_api.h ] &&
  [ -f /usr/local/cuda/include/crt/host_config.h ]; then
  step configure-nv cmake -S "$p" -B as_c_nv -DCMAKE_CUDA_COMPILER="$nvcc" &&
    step build-nv cmake --build as_c_nv &&
    step ctest-nv ctest --test-dir as_c_nv --output-on-failure &&
    echo "PASS: the C file compiles as C against NVIDIA's header; the project runs"
  no_nvidia=-DCUEMU_NVIDIA_C_HEADERS=0
else
  no_nvidia=
fi
if step configure-c cmake -S "$p" -B as_c -DCMAKE_CUDA_COMPILER="$nvcc" \
  ${no_nvidia:+"-DCMAKE_C_FLAGS=$no_nvidia"}; then
  if (cd "$work" && cmake --build as_c) >"$work/build-c.log" 2>&1; then
    fail "the C file that includes cuda_runtime.h built as C"
  else
    errors=$(grep -c 'error' "$work/build-c.log")
    if grep -q 'host.c' "$work/build-c.log" &&
      grep -q 'compile this C file as C++' "$work/build-c.log" &&
      grep -q 'set_source_files_properties(FILE.c PROPERTIES LANGUAGE CXX)' \
        "$work/build-c.log" && [ "$errors" -le 3 ] &&
      ! grep -q 'host\.c:[0-9]*:[0-9]*: error' "$work/build-c.log"; then
      echo "PASS: a C file including cuda_runtime.h: one error naming the fix"
    else
      fail "the C file's messages ($errors lines with 'error'):"
      sed 's/^/  | /' "$work/build-c.log" | head -30
    fi
  fi
fi

step configure-cxx cmake -S "$p" -B as_cxx -DCMAKE_CUDA_COMPILER="$nvcc" \
  -DHOST_AS_CXX=ON &&
  step build-cxx cmake --build as_cxx &&
  step ctest-cxx ctest --test-dir as_cxx --output-on-failure &&
  echo "PASS: with set_source_files_properties(host.c PROPERTIES LANGUAGE CXX), it builds and runs"

real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ]; then
  step nvcc-configure cmake -S "$p" -B with_nvcc -DCMAKE_CUDA_COMPILER="$real" &&
    step nvcc-build cmake --build with_nvcc &&
    echo "PASS: nvcc builds it with host.c as C"
fi

rm -rf "$work"
exit $failed
