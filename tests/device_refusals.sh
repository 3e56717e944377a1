#!/bin/sh
# device_refusals.sh: device code that nvcc refuses is refused by
# cuemu-nvcc too, at the user's line and in nvcc's words
# (tests/driver/devref/device_refusals.cu, one form per -DCASE=N, each
# line marked `// case N: MESSAGE`): GCC's built-in functions that nvcc
# takes for host functions (__builtin_trap, __builtin_add_overflow, ...);
# without -rdc, an extern __device__ or __constant__ variable and its
# definition in one file (nvcc makes the extern one a definition too).
# Without CASE, the near misses that nvcc accepts (__trap(),
# __builtin_clz, checked arithmetic in host code and in a __host__
# __device__ function) build and run. With nvcc present, it is checked to
# refuse each case with the same message at the same line, and to accept
# the rest.
# With DEVREF_SOURCE=space_refusals.cu (tests/device_space_refusals.sh),
# the same for that file's cases, refused by cuemu's GCC plugin, with
# --expt-relaxed-constexpr, and the near misses built with clang++ too.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing device_refusals.sh "$nvcc is not built"

source=${DEVREF_SOURCE:-device_refusals.cu}
work=$builddir_abs/tests/tmp/${source%.cu}.$$
mkdir -p "$work" || exit 1
failed=0
src=$srcdir/tests/driver/devref/$source
real=$(find_nvcc 2>/dev/null)
options=
cases=$(sed -n 's|.*// case \([0-9]*\): .*|\1|p' "$src")
if [ "$source" = space_refusals.cu ]; then
  options=--expt-relaxed-constexpr
  # Refused by cuemu's GCC plugin, built where configure found GCC's
  # plugin headers (clang++ has none: it accepts them).
  if [ ! -f "${CUEMU_LIB_DIR:-$builddir_abs/.libs}/cuemu_gcc_plugin.so" ]; then
    echo "device_refusals.sh: no cuemu_gcc_plugin.so: $source's refusals not tested"
    cases=
  fi
fi

# The cases that the file's `// strict cases: N...` line names compile
# without those options.
strict=" $(sed -n 's|.*// strict cases: ||p' "$src") "
for n in $cases; do
  line=$(grep -n "// case $n: " "$src" | cut -d: -f1)
  message=$(sed -n "s|.*// case $n: ||p" "$src")
  copts=$options
  case $strict in *" $n "*) copts= ;; esac
  if (cd "$work" && "$nvcc" $copts -DCASE="$n" -c -o x.o "$src") >"$work/case$n.log" 2>&1; then
    fail "case $n compiles: $message"
  elif grep -qF "$source:$line: $message" "$work/case$n.log" ||
    grep "$source:$line:[0-9]*: error: " "$work/case$n.log" |
      grep -qF "error: $message"; then
    echo "PASS: case $n refused at line $line: $message"
  else
    fail "case $n: not refused at line $line with '$message':"
    sed 's/^/  | /' "$work/case$n.log" | head -10
  fi
  if [ -n "$real" ]; then
    (cd "$work" && "$real" -std=c++17 -arch=sm_90 $copts -DCASE="$n" -c -o nv.o "$src") \
      >"$work/nvcc$n.log" 2>&1
    grep -qF "$source($line): error: $message" "$work/nvcc$n.log" ||
      grep -qF "$source:$line:" "$work/nvcc$n.log" ||
      fail "nvcc does not refuse case $n so (the test is wrong): $(head -3 "$work/nvcc$n.log")"
  fi
done

# With relocatable device code, case 7's declaration and definition are
# one variable's.
if [ "$source" != device_refusals.cu ]; then
  : # device_refusals.cu's case 7 only
elif (cd "$work" && "$nvcc" -rdc=true -DCASE=7 -c -o rdc.o "$src") >"$work/rdc.log" 2>&1; then
  echo "PASS: with -rdc=true, an extern __constant__ and its definition build"
else
  fail "case 7 with -rdc=true: $(head -5 "$work/rdc.log")"
fi
if [ -n "$real" ] && [ "$source" = device_refusals.cu ]; then
  (cd "$work" && "$real" -std=c++17 -arch=sm_90 -rdc=true -DCASE=7 -c -o nv.o "$src") \
    >"$work/nvcc-rdc.log" 2>&1 ||
    fail "nvcc refuses case 7 with -rdc=true (the test is wrong): $(head -3 "$work/nvcc-rdc.log")"
fi

step fixed "$nvcc" $options -o fixed "$src" &&
  passes "the near misses that nvcc accepts build and run" ./fixed
# clang++ has no plugin, but the device pass's marks must not break what it
# compiles.
if [ -n "$options" ] && command -v clang++ >/dev/null 2>&1; then
  step fixed-clang "$nvcc" -ccbin clang++ $options -o fixed-clang "$src" &&
    passes "the near misses build and run with clang++" ./fixed-clang
fi
if [ -n "$real" ]; then
  (cd "$work" && "$real" -std=c++17 -arch=sm_90 $options -o nv "$src") >"$work/nvcc.log" 2>&1 ||
    fail "nvcc refuses the near misses (the test is wrong): $(head -5 "$work/nvcc.log")"
fi

rm -rf "$work"
exit "$failed"
