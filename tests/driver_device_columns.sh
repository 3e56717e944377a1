#!/bin/sh
# driver_device_columns.sh: the columns of the device pass's messages on a
# line that the pass splits after a body's `{` (a kernel written on one
# line, as small examples write them): g++ said 9:14 (the
# kernel's declaration) for the call at 9:53, and 11:189, past the end of
# line 11, where a device-side launch precedes the call at 11:100. Each
# message must give the column of the host call's `(` in the user's line,
# with g++'s caret under it. An undeclared name among printf's or
# assert's arguments (the shims' printf and assert are macros) must
# likewise be reported at its own column, not at the macro's, and so must a
# wrong argument type; a message about the printf call itself stays at
# printf's column.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing driver_device_columns.sh "$nvcc is not built"

work=$(cd "$builddir" && pwd)/tests/tmp/driver_device_columns.$$
mkdir -p "$work" || exit 1
failed=0
d=$srcdir/tests/driver/device_columns
src=$d/one_line_kernels.cu

if (cd "$d" && "$nvcc" -arch=sm_90 -rdc=true -c -o "$work/k.o" \
  one_line_kernels.cu) >"$work/cols.log" 2>&1; then
  fail "one_line_kernels.cu compiles"
fi
for line in 9 11; do
  # The column of `host_step(`'s parenthesis in the user's line.
  want=$(sed -n "${line}p" "$src" |
    awk '{ print index($0, "host_step(") + length("host_step") }')
  if grep -q "one_line_kernels\.cu:$line:$want: error: calling a __host__ function" \
    "$work/cols.log" &&
    grep -A2 "one_line_kernels\.cu:$line:$want: error: " "$work/cols.log" |
    sed -n 3p | grep -q "^ *| .\{$((want - 1))\}^"; then
    echo "PASS: line $line: the message gives the user's column $want"
  else
    fail "line $line: column $want wanted: $(cat "$work/cols.log")"
  fi
done

# An undeclared name in printf's and assert's arguments, in device and host
# code: the message's column is the name's in the user's line, with the
# caret under it.
args=$d/macro_arguments.cu
if (cd "$d" && "$nvcc" -arch=sm_90 -c -o "$work/p.o" macro_arguments.cu) \
  >"$work/printf.log" 2>&1; then
  fail "macro_arguments.cu compiles"
fi
for name in bias_term lowest_loss accuracy_sum epoch_limit; do
  line=$(grep -n "$name" "$args" | tail -n 1 | cut -d: -f1)
  want=$(sed -n "${line}p" "$args" | awk -v n="$name" '{ print index($0, n) }')
  if grep -q "macro_arguments\.cu:$line:$want: error: .$name. was not declared" \
    "$work/printf.log" &&
    grep -A2 "macro_arguments\.cu:$line:$want: error: " "$work/printf.log" |
    sed -n 3p | grep -q "^ *| .\{$((want - 1))\}^"; then
    echo "PASS: macro argument $name: the message gives the user's column $want"
  else
    fail "macro argument $name: column $want wanted: $(cat "$work/printf.log")"
  fi
done
line=$(grep -n 'classify(sample' "$args" | cut -d: -f1)
want=$(sed -n "${line}p" "$args" | awk '{ print index($0, "sample.data") + 7 }')
if grep -q "macro_arguments\.cu:$line:$want: error: cannot convert" "$work/printf.log"; then
  echo "PASS: a double array for a float array in printf's arguments: column $want"
else
  fail "the conversion's column $want wanted: $(cat "$work/printf.log")"
fi
line=$(grep -n 'printf("best' "$args" | cut -d: -f1)
want=$(sed -n "${line}p" "$args" | awk '{ print index($0, "printf") }')
if grep -q "macro_arguments\.cu:$line:$want: *required from here" "$work/printf.log"; then
  echo "PASS: a message about the printf call itself stays at printf's column $want"
else
  fail "the printf call's column $want wanted: $(cat "$work/printf.log")"
fi

real=$(find_nvcc 2>/dev/null)
for f in "$src" "$args"; do
  if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ] &&
    "$real" -arch=sm_90 -rdc=true -c -o "$work/k_nv.o" "$f" >/dev/null 2>&1; then
    fail "nvcc builds $(basename "$f") (the test is wrong)"
  fi
done

rm -rf "$work"
exit "$failed"
