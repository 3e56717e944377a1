#!/bin/sh
# driver_ptxas_kernels.sh: the kernels that -Xptxas -v and --resource-usage
# print, as nvcc's ptxas prints them (tests/driver/ptxas/templates.cu):
# - every kernel of the unit's device code under its mangled name (an
#   extern "C" kernel under its own): the plain kernels, and each instance
#   of a kernel template that the unit launches or explicitly instantiates;
# - with several -gencode (compute_80/sm_80 and compute_90/sm_90), each
#   kernel once for each real architecture, each compiled with its own
#   __CUDA_ARCH__; with -arch=compute_90 (PTX only, no ptxas) none;
# - first, as ptxas, the unit's global and constant memory ("0 bytes
#   gmem", "48 bytes gmem", "0 bytes gmem, 65536 bytes cmem[3]");
# - with -dc, the same kernels (a unit of relocatable device code); also
#   for a unit whose kernels read a __constant__ array and call a __device__
#   function of other files, which the reading module cannot resolve
#   (tests/driver/ptxas/rdc_refs.cu), and with no NAME.localalias, g++'s
#   second symbol of a global kernel at -O3;
# - `--ptxas-options="-O3 -v"` (ptxas's words in one argument, as
#   Makefiles write them) prints the kernels too;
# - a unit whose __constant__ variables need more than the 64 KB of a
#   GPU's constant bank is refused with ptxas's words
#   (tests/driver/ptxas/constant_over.cu, 80 KB, -c), and one of exactly
#   64 KB compiles (constant_fits.cu, -dc);
# - the first line's global memory and constant banks, as ptxas counts them
#   for sm_80 and for sm_90, in a whole program and with -dc (spaces.cu).
# The lists are nvcc 13's (nvcc -Xptxas -v -c ... | sort). The program also
# builds with nvcc. Run by `make check`.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing driver_ptxas_kernels.sh "$nvcc is not built"

work=$builddir_abs/tests/tmp/driver_ptxas_kernels.$$
mkdir -p "$work" || exit 1
failed=0
src=$srcdir/tests/driver/ptxas/templates.cu

# entries LOG: the sorted "'name' for 'sm_XY'" of ptxas's lines in LOG.
entries() {
  sed -n "s/^ptxas info    : Compiling entry function //p" "$1" | sort
}

kernels="'_Z4bumpPi' for 'sm_ARCH'
'_Z6rotateIdLi64EEvPT_S0_' for 'sm_ARCH'
'_Z6rotateIfLi32EEvPT_S0_' for 'sm_ARCH'
'_ZN5fills4fillIdEEvPT_S1_' for 'sm_ARCH'
'bump_c' for 'sm_ARCH'"

expect_90=$(echo "$kernels" | sed 's/ARCH/90/')
expect_both=$( (echo "$kernels" | sed 's/ARCH/80/'; echo "$kernels" | sed 's/ARCH/90/') | sort)

if step one "$nvcc" -arch=sm_90 -Xptxas -v -c -o one.o "$src"; then
  if [ "$(entries "$work/one.log")" = "$expect_90" ] &&
    [ "$(head -n 1 "$work/one.log")" = "ptxas info    : 0 bytes gmem" ]; then
    echo "PASS: -Xptxas -v prints the unit's global memory, then every kernel and template instance, mangled"
  else
    fail "-arch=sm_90 -Xptxas -v printed: $(entries "$work/one.log")"
  fi
  if grep -qx "ptxas info    : Used 32 registers, 512 bytes smem" "$work/one.log" &&
    grep -qx "ptxas info    : Used 32 registers, 128 bytes smem" "$work/one.log"; then
    echo "PASS: each instance has its own shared memory"
  else
    fail "the instances' shared memory: $(grep Used "$work/one.log")"
  fi
fi
if step words "$nvcc" -arch=sm_90 "--ptxas-options=-O3 -v" -c -o words.o "$src" &&
  [ "$(entries "$work/words.log")" = "$expect_90" ]; then
  echo "PASS: --ptxas-options=\"-O3 -v\" prints every kernel"
else
  fail "--ptxas-options=\"-O3 -v\" printed: $(cat "$work/words.log")"
fi
# Relocatable device code (-dc): the same kernels (the reading module's
# kernel templates are hidden there, so that it may record them).
if step rdc "$nvcc" -arch=sm_90 -Xptxas -v -dc -o rdc.o "$src"; then
  if [ "$(entries "$work/rdc.log")" = "$expect_90" ]; then
    echo "PASS: -dc -Xptxas -v prints the same kernels"
  else
    fail "-dc -Xptxas -v printed: $(entries "$work/rdc.log")"
  fi
fi
refs=$srcdir/tests/driver/ptxas/rdc_refs.cu
if step refs "$nvcc" -O3 -arch=sm_80 -Xptxas -v -dc -o refs.o "$refs"; then
  expect_refs="'_Z5claimPyy' for 'sm_80'
'_Z6expandPji' for 'sm_80'"
  if [ "$(entries "$work/refs.log")" = "$expect_refs" ] &&
    ! grep -q "warning" "$work/refs.log" &&
    [ "$(head -n 1 "$work/refs.log")" = "ptxas info    : 48 bytes gmem" ]; then
    echo "PASS: -dc -Xptxas -v prints the kernels of a unit with references to other files"
  else
    fail "-dc -Xptxas -v of rdc_refs.cu printed: $(cat "$work/refs.log")"
  fi
fi
if (cd "$work" && "$nvcc" -arch=sm_80 -c -o over.o \
  "$srcdir/tests/driver/ptxas/constant_over.cu") >"$work/over.log" 2>&1; then
  fail "80 KB of __constant__ data compiled"
elif grep -q "constant_over.cu: File uses too much global constant data (0x14000 bytes, 0x10000 max)" \
  "$work/over.log"; then
  echo "PASS: 80 KB of __constant__ data is refused as ptxas refuses it"
else
  fail "80 KB of __constant__ data: $(cat "$work/over.log")"
fi
if step fits "$nvcc" -arch=sm_80 -Xptxas -v -dc -o fits.o "$srcdir/tests/driver/ptxas/constant_fits.cu"; then
  if grep -qx "ptxas info    : 0 bytes gmem, 65536 bytes cmem\[3\]" "$work/fits.log"; then
    echo "PASS: -dc compiles exactly 64 KB of __constant__ data, and -Xptxas -v says so"
  else
    fail "-Xptxas -v of 64 KB of __constant__ data: $(cat "$work/fits.log")"
  fi
fi
# The first line's state spaces as nvcc 13's ptxas counts them
# (tests/driver/ptxas/spaces.cu): global memory packed (21 bytes, where the
# definitions' order with padding would need 28); before sm_90 the constant
# bank 3 in the definitions' order with padding in a whole program (16) and
# packed in relocatable device code (11), and in a whole program bank 4, 8
# bytes per global variable; from sm_90 on the global memory alone.
spaces=$srcdir/tests/driver/ptxas/spaces.cu
# spaces_line ARCH MODE FIRST: -Xptxas -v of spaces.cu begins with FIRST.
spaces_line() {
  if step "spaces$1$2" "$nvcc" -arch=sm_$1 -Xptxas -v "$2" -o "spaces$1.o" "$spaces"; then
    if [ "$(head -n 1 "$work/spaces$1$2.log")" = "ptxas info    : $3" ]; then
      echo "PASS: sm_$1 $2: -Xptxas -v begins with \"$3\""
    else
      fail "sm_$1 $2: -Xptxas -v began with: $(head -n 1 "$work/spaces$1$2.log")"
    fi
  fi
}
spaces_line 80 -c "21 bytes gmem, 16 bytes cmem[3], 24 bytes cmem[4]"
spaces_line 80 -dc "21 bytes gmem, 11 bytes cmem[3]"
spaces_line 90 -c "21 bytes gmem"
if step both "$nvcc" --resource-usage -o both \
  -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 "$src"; then
  if [ "$(entries "$work/both.log")" = "$expect_both" ]; then
    echo "PASS: several -gencode print each kernel for each architecture"
  else
    fail "two -gencode printed: $(entries "$work/both.log")"
  fi
  passes "the program of two architectures runs" ./both
fi
if step ptx "$nvcc" -arch=compute_90 -Xptxas -v -c -o ptx.o "$src"; then
  if [ -z "$(entries "$work/ptx.log")" ]; then
    echo "PASS: PTX alone (-arch=compute_90) prints no kernel"
  else
    fail "-arch=compute_90 printed: $(entries "$work/ptx.log")"
  fi
fi

real=$(find_nvcc)
if [ -n "$real" ]; then
  (cd "$work" && nvcc_build driver_ptxas_kernels.sh:nvcc-templates \
    "$real" -Xptxas -v -c -o nvcc_templates.o \
    -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 "$src") \
    >/dev/null 2>&1 || fail "nvcc refuses templates.cu: the test is wrong"
  (cd "$work" && nvcc_build driver_ptxas_kernels.sh:nvcc-rdc-refs \
    "$real" -O3 -arch=sm_80 -Xptxas -v -dc -o nvcc_refs.o "$refs") \
    >/dev/null 2>&1 || fail "nvcc refuses rdc_refs.cu: the test is wrong"
  (cd "$work" && nvcc_build driver_ptxas_kernels.sh:nvcc-constant-fits \
    "$real" -arch=sm_80 -c -o nvcc_fits.o "$srcdir/tests/driver/ptxas/constant_fits.cu") \
    >/dev/null 2>&1 || fail "nvcc refuses constant_fits.cu: the test is wrong"
  (cd "$work" && nvcc_build driver_ptxas_kernels.sh:nvcc-spaces \
    "$real" -arch=sm_80 -Xptxas -v -c -o nvcc_spaces.o "$spaces") \
    >/dev/null 2>&1 || fail "nvcc refuses spaces.cu: the test is wrong"
  # (nvcc 13 refuses constant_over.cu with the same words.)

fi

rm -rf "$work"
exit "$failed"
