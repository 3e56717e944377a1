#!/bin/sh
# driver_launch_errors.sh: a launch with arguments that do not fit its
# kernel is an error at the launch's line in the user's file, as nvcc
# reports it at that line: too few or too many arguments in nvcc's words
# (cuemu-cc counts them where the kernel's parameters are plain to count);
# an argument of another type (also a template-id's launch) the host
# compiler's error about the call of the kernel (cuemu-cc checks the
# arguments as a call of the kernel where the launch is written,
# __cuemu_launch_checked in cuemu_kernel_thunks.h). A launch of a __device__ or
# __host__ __device__ function is refused (nvcc: "a __device__ function
# call cannot be configured"), and one of a host function is the host
# compiler's "incomplete type" error naming
# __cuemu_a_host_function_call_cannot_be_configured; a pointer to a kernel
# launches. Nothing comes from inside cuemu's headers,
# and there are no more than two errors.
# tests/driver/launch_errors/launch_errors.cu, one case per -DCASE=N, each
# line marked `// case N: MESSAGE`; without CASE it builds and runs. With
# nvcc present, nvcc is checked to refuse each case at its line and to
# build the rest. Run by `make check`.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing driver_launch_errors.sh "$nvcc is not built"

work=$builddir_abs/tests/tmp/driver_launch_errors.$$
mkdir -p "$work" || exit 1
failed=0
src=$srcdir/tests/driver/launch_errors/launch_errors.cu
real=$(find_nvcc)

for n in $(sed -n 's|.*// case \([0-9]*\): .*|\1|p' "$src"); do
  line=$(grep -n "// case $n: " "$src" | cut -d: -f1)
  message=$(sed -n "s|.*// case $n: ||p" "$src")
  log=$work/case$n.log
  if (cd "$work" && "$nvcc" -DCASE="$n" -c -o x.o "$src") >"$log" 2>&1; then
    fail "case $n compiled"
    continue
  fi
  first=$(grep -m 1 -E ": error: |fatal   : .*launch_errors.cu:" "$log")
  errors=$(grep -c ": error: " "$log")
  case $first in
  *"launch_errors.cu:$line:"*"error: "*"$message"* | *"launch_errors.cu:$line: $message") 
    if grep -q "cuda_builtins" "$log"; then
      fail "case $n: a message names cuemu's headers: $(grep cuda_builtins "$log" | head -2)"
    elif [ "$errors" -gt 2 ]; then
      fail "case $n: $errors errors: $(grep ': error: ' "$log" | head -5)"
    else
      echo "PASS: case $n: $first"
    fi
    ;;
  *) fail "case $n: the first error is not at line $line ($message): $(head -5 "$log")" ;;
  esac
  if [ -n "$real" ] &&
    (cd "$work" && "$real" -DCASE="$n" -c -o nv.o "$src") >"$work/nv$n.log" 2>&1; then
    fail "nvcc compiles case $n: the test is wrong"
  elif [ -n "$real" ] && ! grep -q "launch_errors.cu($line): error" "$work/nv$n.log"; then
    fail "nvcc refuses case $n elsewhere: $(head -3 "$work/nv$n.log")"
  fi
done

if step build "$nvcc" -o launches "$src"; then
  passes "the correct launches" ./launches
fi
if [ -n "$real" ]; then
  (cd "$work" && nvcc_build driver_launch_errors.sh:build "$real" -c -o nv.o "$src") \
    >"$work/nv.log" 2>&1 || fail "nvcc refuses the correct launches: $(head -3 "$work/nv.log")"
fi

rm -rf "$work"
exit "$failed"
