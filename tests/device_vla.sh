#!/bin/sh
# device_vla.sh: variable-length arrays in device code are refused, as nvcc
# refuses them ("expression must have a constant value"), at the user's
# line: in a kernel, a __device__ function template's instance, a
# __host__ __device__ function, a lambda in a kernel, a __device__ member
# function, an extended lambda of host code and one of a function
# template's instance (tests/driver/vla/vla.cu, eleven lines), by g++ with
# cuemu's GCC plugin and by clang++ with cuemu's clang plugin; a constant
# bound (`const int m`, `sizeof`) is no such
# array, and host code keeps its own, as g++ allows (-DFIXED builds and
# runs, with g++ and with clang++ where it is installed). With nvcc
# present, it is checked to refuse the same eleven lines and to accept
# -DFIXED.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing device_vla.sh "$nvcc is not built"

work=$builddir_abs/tests/tmp/device_vla.$$
mkdir -p "$work" || exit 1
failed=0
src=$srcdir/tests/driver/vla/vla.cu
lines="15 25 38 42 51 67 78 100 108 113 127"

# The lines of vla.cu that a log names in an error, sorted, once each.
error_lines() {
  sed -n 's/.*vla\.cu[:(]\([0-9]*\)[):].*error.*/\1/p' "$1" | sort -n -u |
    tr '\n' ' ' | sed 's/ $//'
}

refused() {
  label=$1
  shift
  if (cd "$work" && "$nvcc" --extended-lambda "$@" -c -o vla.o "$src") >"$work/$label.log" 2>&1; then
    fail "$label: device code with variable-length arrays compiles"
  elif [ "$(error_lines "$work/$label.log")" = "$lines" ]; then
    echo "PASS: $label: variable-length arrays refused at lines $lines"
  else
    fail "$label: errors at lines '$(error_lines "$work/$label.log")', not '$lines':"
    sed 's/^/  | /' "$work/$label.log" | head -40
  fi
}

# Constant bounds, and the host function's own array, build and run.
fixed() {
  label=$1
  shift
  step "$label-fixed" "$nvcc" --extended-lambda "$@" -DFIXED -o "fixed-$label" "$src" &&
    passes "$label: constant bounds, and a host function's own array, build and run" \
      "./fixed-$label"
}

# The plugin is built where configure found GCC's plugin headers.
if [ -f "${CUEMU_LIB_DIR:-$builddir_abs/.libs}/cuemu_gcc_plugin.so" ]; then
  refused g++
  grep -q "expression must have a constant value: .idx. is a variable-length array" \
    "$work/g++.log" || fail "g++: the message is not nvcc's: $(head -3 "$work/g++.log")"
else
  echo "device_vla.sh: no cuemu_gcc_plugin.so (configure found no GCC plugin headers): refusal not tested"
fi
fixed g++
# With clang++, cuemu's clang plugin refuses them, where configure found
# clang's headers; the marks that the device pass adds must not break what
# it compiles.
if command -v clang++ >/dev/null 2>&1; then
  if [ -f "${CUEMU_LIB_DIR:-$builddir_abs/.libs}/cuemu_clang_plugin.so" ]; then
    refused clang++ -ccbin clang++
    grep -q "expression must have a constant value: .idx. is a variable-length array" \
      "$work/clang++.log" || fail "clang++: the message is not nvcc's: $(head -3 "$work/clang++.log")"
  else
    echo "device_vla.sh: no cuemu_clang_plugin.so (configure found no clang headers): clang++'s refusal not tested"
  fi
  fixed clang++ -ccbin clang++
fi

real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ]; then
  (cd "$work" && "$real" -std=c++17 -arch=sm_90 --extended-lambda -c -o nv.o "$src") >"$work/nvcc.log" 2>&1
  [ "$(error_lines "$work/nvcc.log")" = "$lines" ] ||
    fail "nvcc refuses other lines ('$(error_lines "$work/nvcc.log")'): the test is wrong"
  (cd "$work" && "$real" -std=c++17 -arch=sm_90 --extended-lambda -DFIXED -c -o nv.o "$src") >/dev/null 2>&1 ||
    fail "nvcc refuses vla.cu -DFIXED: the test is wrong"
fi

rm -rf "$work"
exit "$failed"
