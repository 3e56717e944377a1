#!/bin/sh
# driver_nvcc_features.sh: nvcc 13's feature macros (tests/driver/nvcc_features).
# - __CUDACC_DEVICE_ATOMIC_BUILTINS__ and __NVCC_DIAG_PRAGMA_SUPPORT__ are
#   defined in both passes of a .cu file (builtin_macros.cu: its kernel
#   calls the atomic built-in functions, __nv_atomic_or among them, only
#   under the first; its nv_diag pragmas are silent under -Xcompiler
#   -Wall,-Werror) and for a .cpp file (host_macros.cpp), as nvcc defines
#   them (nvcc -E -Xcompiler -dM; nvcc --dryrun).
# - An atomic built-in that nvcc refuses is refused: __nv_atomic_fetch_add
#   on a signed 8-byte integer.
# Every program also builds with nvcc. Run by `make check`.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing driver_nvcc_features.sh "$nvcc is not built"

work=$builddir_abs/tests/tmp/driver_nvcc_features.$$
mkdir -p "$work" || exit 1
failed=0
d=$srcdir/tests/driver/nvcc_features

if step macros "$nvcc" -Xcompiler -Wall,-Werror -o macros "$d/builtin_macros.cu"; then
  if [ -s "$work/macros.log" ]; then
    fail "builtin_macros.cu compiled with messages: $(head -5 "$work/macros.log")"
  else
    passes "both passes see the feature macros; nv_diag pragmas are silent" ./macros
  fi
fi
if step host "$nvcc" -Xcompiler -Wall,-Werror -c -o host_macros.o "$d/host_macros.cpp"; then
  echo "PASS: a .cpp file sees the feature macros"
fi

printf '__global__ void k(long long *p) {\n  __nv_atomic_fetch_add(p, 1LL, __NV_ATOMIC_RELAXED);\n}\n' \
  >"$work/signed_add.cu"
if (cd "$work" && "$nvcc" -c -o signed_add.o signed_add.cu) >"$work/signed_add.log" 2>&1; then
  fail "__nv_atomic_fetch_add on a signed 8-byte integer compiled (nvcc refuses it)"
elif grep -q "not valid on signed integer of size 8" "$work/signed_add.log"; then
  echo "PASS: __nv_atomic_fetch_add on a signed 8-byte integer is refused"
else
  fail "unexpected error: $(head -5 "$work/signed_add.log")"
fi

real=$(find_nvcc)
if [ -n "$real" ]; then
  (cd "$work" && nvcc_build driver_nvcc_features.sh:nvcc-macros \
    "$real" -Xcompiler -Wall,-Werror -c -o nvcc_macros.o "$d/builtin_macros.cu") \
    >/dev/null 2>&1 || fail "nvcc refuses builtin_macros.cu: the test is wrong"
  (cd "$work" && nvcc_build driver_nvcc_features.sh:nvcc-host \
    "$real" -Xcompiler -Wall,-Werror -c -o nvcc_host.o "$d/host_macros.cpp") \
    >/dev/null 2>&1 || fail "nvcc refuses host_macros.cpp: the test is wrong"
  if (cd "$work" && "$real" -c -o nvcc_signed.o signed_add.cu) >/dev/null 2>&1; then
    fail "nvcc compiles signed_add.cu: the test is wrong"
  fi
fi

rm -rf "$work"
exit "$failed"
