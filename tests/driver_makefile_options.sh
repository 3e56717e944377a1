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
# refused, as nvcc refuses it. The program is
# tests/programs/trialmk/makefile_option_quoting.cu. With nvcc present, it
# is checked to take the same command.
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
  -DESCAPED_COMMA=5,6 -DSPACED_A=7 -DSPACED_B=8 "$src") >"$work/cuda.log" 2>&1 &&
  grep -q "sum_pieces" "$work/makefile_option_quoting.cu.cpp.ii" &&
  ! grep -q "__CUDA_ARCH__" "$work/makefile_option_quoting.cu.cpp.ii"; then
  echo "PASS: -cuda writes the host pass to NAME.cu.cpp.ii"
else
  fail "-cuda: $(cat "$work/cuda.log")"
fi

real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ]; then
  step nvcc-quoting timeout 600 "$real" -std=c++17 -c "$@" &&
    echo "PASS: nvcc takes the same options"
fi

rm -rf "$work"
echo "driver_makefile_options.sh: $failed failed"
[ "$failed" -eq 0 ]
