#!/bin/sh
# driver_fmad.sh: nvcc's -fmad (issue 13). tests/driver/cc13c/fma_contract.cu
# computes a*b+c in a kernel for values whose result is 2^-24 when fused
# (one rounding, PTX fma.rn.f32: nvcc's default -fmad=true) and 0 when the
# product is rounded first (-fmad=false), and the same in double (2^-54).
# cuemu-nvcc: -fmad=false and the default give 0 (the default is not
# nvcc's: docs/nvcc-checks.md says why); -fmad=true and --use_fast_math
# give 2^-24 on an x86-64 CPU with FMA (the device pass is compiled with
# -ffp-contract=fast -mfma, and the program holds the check that its CPU
# has FMA); --use_fast_math -fmad=false gives 0, as nvcc; fmaf() is fused
# and __fadd_rn(__fmul_rn()) is not, in every mode; a value other than
# true or false is nvcc's error. With nvcc present, its PTX is checked to
# fuse exactly where the expected results say: three fma.rn with the
# default, one (fmaf) with -fmad=false. tests/driver/cc13d/fma_parity.cu:
# the default gives the host's reference, -fmad=true nvcc's results on a dot
# product and a stencil (the numbers of the default's decision).
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
cuemu=$builddir_abs/cuemu-nvcc
src=$srcdir/tests/driver/cc13c/fma_contract.cu
work=$(mktemp -d)
failed=0
real=$(find_nvcc)

fused="contracted 0x1p-24 fmaf 0x1p-24 rn 0x0p+0 double 0x1p-54 double_rn 0x0p+0"
rounded="contracted 0x0p+0 fmaf 0x1p-24 rn 0x0p+0 double 0x0p+0 double_rn 0x0p+0"
if grep -qw fma /proc/cpuinfo 2>/dev/null && [ "$(uname -m)" = x86_64 ]; then
  with_fma=1
else
  with_fma=0
  echo "note: this CPU has no FMA (or is not x86-64): -fmad=true is checked to build and run"
fi

# result NAME EXPECTED OPTIONS...
result() {
  name=$1
  expected=$2
  shift 2
  if step "$name" "$cuemu" "$@" -o "$name" "$src"; then
    out=$("$work/$name" 2>&1)
    if [ "$out" = "$expected" ]; then
      echo "PASS: ${*:-the default}: $out"
    else
      fail "${*:-the default}: '$out', expected '$expected'"
    fi
  fi
}
result default "$rounded"
result fmad_false "$rounded" -fmad=false
if [ $with_fma = 1 ]; then
  result fmad_true "$fused" -fmad=true
  result fast_math "$fused" --use_fast_math
  if nm -C "$work/fmad_true" | grep -q cuemu_fma_check; then
    echo "PASS: the -fmad=true program checks its CPU for FMA"
  else
    fail "no cuemu_fma_check in the -fmad=true program"
  fi
else
  result fmad_true "$rounded" -fmad=true
fi
result fast_math_false "$rounded" --use_fast_math -fmad=false

# The patterns of the default's decision (tests/driver/cc13d/fma_parity.cu,
# docs/nvcc-checks.md): the default matches the host's reference in all
# four; -fmad=true matches the GPU's (nvcc's PTX) in a*b+c, the dot product
# and the stencil, and neither in a*b + c*d.
parity=$srcdir/tests/driver/cc13d/fma_parity.cu
if step parity_default "$cuemu" -o parity_default "$parity"; then
  out=$("$work/parity_default" 2>&1)
  case $out in
  "a*b+c: host "*"a*b+c*d: both "*"ulps from host 0,"*"differ from host 0 (max 0 ulp)"*)
    echo "PASS: the default gives the host's reference in four patterns" ;;
  *) fail "parity, the default: $out" ;;
  esac
fi
if [ $with_fma = 1 ] &&
  step parity_fmad "$cuemu" -fmad=true -o parity_fmad "$parity"; then
  out=$("$work/parity_fmad" 2>&1)
  case $out in
  "a*b+c: gpu "*"a*b+c*d: neither "*"from gpu 0"*"from gpu 0 (max 0 ulp)"*)
    echo "PASS: -fmad=true gives nvcc's results for a*b+c, a dot product and a stencil" ;;
  *) fail "parity, -fmad=true: $out" ;;
  esac
fi

if "$cuemu" -fmad=maybe -c -o "$work/x.o" "$src" >"$work/maybe.log" 2>&1; then
  fail "-fmad=maybe is accepted"
elif grep -q "'maybe': expected true or false" "$work/maybe.log"; then
  echo "PASS: -fmad=maybe is nvcc's error"
else
  fail "-fmad=maybe: $(cat "$work/maybe.log")"
fi

# nvcc's PTX: a*b+c, fmaf and the double a*b+c fused by default; only
# fmaf with -fmad=false; the _rn intrinsics never.
if [ -n "$real" ]; then
  for fmad in true false; do
    if step "ptx_$fmad" "$real" -arch=sm_90 -fmad=$fmad -ptx -o "fma_$fmad.ptx" "$src"; then
      n=$(grep -c 'fma\.rn\.f' "$work/fma_$fmad.ptx")
      want=3
      [ $fmad = false ] && want=1
      [ "$n" = "$want" ] && echo "PASS: nvcc -fmad=$fmad: $n fma.rn in the PTX" ||
        fail "nvcc -fmad=$fmad: $n fma.rn in the PTX, expected $want"
    fi
  done
fi

rm -rf "$work"
exit $failed
