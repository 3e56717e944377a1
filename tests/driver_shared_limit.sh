#!/bin/sh
# driver_shared_limit.sh: nvcc's limit of 48 KiB on a kernel's static
# shared memory is a build error with cuemu-nvcc, as with nvcc, counted as
# ptxas and nvlink count it (tests/driver/shared_limit/):
# - shared_limit.cu, one kernel past the limit per -DCASE=N, each refused
#   with ptxas's words on the line `// case N: MESSAGE`: a kernel's own
#   variable and that of a __device__ function it calls; two closed inner
#   blocks (their variables do not overlap); one instance of a kernel
#   template; a static kernel through two levels of calls (named as nvcc
#   names it). Before, each compiled and its launch failed with "invalid
#   argument". Without CASE, kernels of exactly 48 KiB (a callee called
#   twice counts once) build and run, with sharedSizeBytes 49152;
# - rdc_kernel.cu and rdc_helper.cu, relocatable device code whose kernel
#   calls the other file's function: 48 KiB in all runs; 56 KiB
#   (-DBIG_HELPER) is refused at the link, in one command and from -dc
#   objects, with nvlink's words.
# With nvcc present, each refusal is checked to be nvcc's too, and the
# programs that run to build with it (recorded: tests/nvcc_builds.txt).
# Run by `make check`.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing driver_shared_limit.sh "$nvcc is not built"

work=$builddir_abs/tests/tmp/driver_shared_limit.$$
mkdir -p "$work" || exit 1
failed=0
dir=$srcdir/tests/driver/shared_limit
src=$dir/shared_limit.cu
real=$(find_nvcc 2>/dev/null)

# refused NAME MESSAGE COMMAND...: COMMAND fails, with MESSAGE in its log.
refused() {
  name=$1
  expected=$2
  shift 2
  if (cd "$work" && "$@") >"$work/$name.log" 2>&1; then
    fail "$name: built"
  elif grep -qF "$expected" "$work/$name.log"; then
    echo "PASS: $name: $expected"
  else
    fail "$name: its messages:"
    sed 's/^/  | /' "$work/$name.log" | head -10
  fi
}

# nvcc_refuses LABEL MESSAGE NVCC_ARGUMENTS...: nvcc refuses them with
# MESSAGE (recorded once it did, as nvcc_build records a build).
nvcc_refuses() {
  label=$1
  MESSAGE=$2
  export MESSAGE
  shift 2
  [ -n "$real" ] || return 0
  if nvcc_build "$label" sh -c '"$0" "$@" -o /dev/null 2>&1 | grep -qF "$MESSAGE"' \
    "$real" "$@" >"$work/$label.nvcc.log" 2>&1; then
    echo "PASS: nvcc refuses it too ($label)"
  else
    fail "$label: nvcc did not refuse it with: $MESSAGE"
  fi
}

for n in $(sed -n 's|.*// case \([0-9]*\): .*|\1|p' "$src"); do
  message=$(sed -n "s|.*// case $n: ||p" "$src")
  refused "case$n" "$message, as ptxas refuses it" \
    "$nvcc" -arch=sm_90 -DCASE="$n" -c -o case$n.o "$src"
  nvcc_refuses "shared_limit_case$n" "ptxas error   : $message" \
    -arch=sm_90 -DCASE="$n" -c "$src"
done
if step near "$nvcc" -arch=sm_90 -o near "$src"; then
  passes near ./near
fi
if [ -n "$real" ]; then
  nvcc_build shared_limit_near "$real" -arch=sm_90 -o "$work/near_nv" "$src" \
    >"$work/near_nv.log" 2>&1 || fail "nvcc did not build $src"
fi

far="Entry function '_Z10far_callerPf' uses too much shared data (0xe000 bytes, 0xc000 max)"
if step rdc "$nvcc" -arch=sm_90 -rdc=true -o rdc "$dir/rdc_kernel.cu" \
  "$dir/rdc_helper.cu"; then
  passes rdc ./rdc
fi
refused rdc_big "$far, as nvlink refuses it" "$nvcc" -arch=sm_90 -rdc=true \
  -DBIG_HELPER -o rdc_big "$dir/rdc_kernel.cu" "$dir/rdc_helper.cu"
if step rdc_dc "$nvcc" -arch=sm_90 -dc -DBIG_HELPER "$dir/rdc_kernel.cu" \
  "$dir/rdc_helper.cu"; then
  refused rdc_dc_link "$far, as nvlink refuses it" "$nvcc" -arch=sm_90 \
    -o rdc_dc rdc_kernel.o rdc_helper.o
fi
nvcc_refuses shared_limit_rdc_big "nvlink error   : $far" \
  -arch=sm_90 -rdc=true -DBIG_HELPER "$dir/rdc_kernel.cu" "$dir/rdc_helper.cu"
if [ -n "$real" ]; then
  nvcc_build shared_limit_rdc "$real" -arch=sm_90 -rdc=true \
    -o "$work/rdc_nv" "$dir/rdc_kernel.cu" "$dir/rdc_helper.cu" \
    >"$work/rdc_nv.log" 2>&1 || fail "nvcc did not build the rdc program"
fi

if [ "$failed" -eq 0 ]; then
  rm -rf "$work"
  exit 0
fi
exit 1
