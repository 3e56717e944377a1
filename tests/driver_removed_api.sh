#!/bin/sh
# driver_removed_api.sh: a program that uses runtime API that CUDA has
# removed (texture references, removed in CUDA 12; cudaThreadSynchronize,
# removed in CUDA 13, with cudaThreadSetLimit and cudaThreadGetLimit) is refused, as nvcc 13 refuses it, and the errors are
# followed by one note for each removed name saying what replaces it
# (emulator/compile/cuemu_diag_removed.c), so that the refusal does not read
# as a gap of cuemu's. An error quoting a variable that happens to be
# named `surface` gets no note. With nvcc present, it is checked to refuse
# the program too.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
cc=$builddir_abs/cuemu-nvcc
[ -x "$cc" ] || tool_missing driver_removed_api.sh "$cc is not built"

work=$builddir_abs/tests/tmp/driver_removed_api.$$
mkdir -p "$work" || exit 1
failed=0
d=$srcdir/tests/driver/removed_api

if "$cc" -arch=sm_90 -o "$work/old_timer" "$d/old_timer.cu" >"$work/old.log" 2>&1; then
  fail "old_timer.cu compiled (CUDA 13 has neither texture references nor cudaThreadSynchronize)"
else
  for want in "note: 'texture' (texture references) is not in CUDA since CUDA 12" \
    "note: 'cudaBindTexture' is not in CUDA since CUDA 12" \
    "note: 'cudaUnbindTexture' is not in CUDA since CUDA 12" \
    "note: 'cudaThreadSynchronize' is not in CUDA since CUDA 13 (nvcc refuses it too); use cudaDeviceSynchronize instead"; do
    [ "$(grep -cF "$want" "$work/old.log")" = 1 ] ||
      fail "no single note \"$want\""
  done
  grep -q "did not compile" "$work/old.log" || fail "no refusal line"
fi
[ "$failed" -eq 0 ] || sed 's/^/  | /' "$work/old.log" | head -30

# cudaThreadSetLimit and cudaThreadGetLimit went with the other cudaThread*
# calls: the shims must not declare them either.
if "$cc" -arch=sm_90 -o "$work/thread_limit" "$d/thread_limit.cu" >"$work/limit.log" 2>&1; then
  fail "thread_limit.cu compiled (CUDA 13 has no cudaThreadSetLimit or cudaThreadGetLimit)"
else
  for want in "note: 'cudaThreadSetLimit' is not in CUDA since CUDA 13 (nvcc refuses it too); use cudaDeviceSetLimit instead" \
    "note: 'cudaThreadGetLimit' is not in CUDA since CUDA 13 (nvcc refuses it too); use cudaDeviceGetLimit instead"; do
    [ "$(grep -cF "$want" "$work/limit.log")" = 1 ] ||
      { fail "no single note \"$want\""; sed 's/^/  | /' "$work/limit.log" | head -20; }
  done
fi

"$cc" -arch=sm_90 -o "$work/surface" "$d/surface_variable.cu" >"$work/surface.log" 2>&1 &&
  fail "surface_variable.cu compiled"
grep -q "note:" "$work/surface.log" && fail "a note for a variable named surface"

real=$(find_nvcc)
if [ -n "$real" ]; then
  "$real" -arch=sm_90 -o "$work/old_nvcc" "$d/old_timer.cu" >"$work/nvcc.log" 2>&1 &&
    fail "nvcc ($real) compiled old_timer.cu: the notes would be wrong"
  "$real" -arch=sm_90 -o "$work/limit_nvcc" "$d/thread_limit.cu" >"$work/nvcc.log" 2>&1 &&
    fail "nvcc ($real) compiled thread_limit.cu: the notes would be wrong"
fi

[ "$failed" -eq 0 ] && rm -rf "$work" && echo PASS
[ "$failed" -eq 0 ]
