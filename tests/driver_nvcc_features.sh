#!/bin/sh
# driver_nvcc_features.sh: nvcc 13's feature macros (tests/driver/nvcc_features).
# - __CUDACC_DEVICE_ATOMIC_BUILTINS__ and __NVCC_DIAG_PRAGMA_SUPPORT__ are
#   defined in both passes of a .cu file (builtin_macros.cu: its kernel
#   calls the atomic built-in functions, __nv_atomic_or among them, only
#   under the first; its nv_diag pragmas are silent under -Xcompiler
#   -Wall,-Werror) and for a .cpp file (host_macros.cpp), as nvcc defines
#   them (nvcc -E -Xcompiler -dM; nvcc --dryrun).
# - An atomic built-in that nvcc refuses is refused: __nv_atomic_fetch_add
#   on a signed 8-byte integer; an invalid memory order or thread scope, a
#   load's release order, a store's acquire order (where they are
#   constants, in an optimised build: without -G); an order or a scope
#   that is no integer literal (a variable, a const one too).
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

# refused NAME CALL MESSAGE: a kernel that calls CALL on `p` (a long long *)
# or `q` (an int *) does not compile, with MESSAGE (nvcc's words).
refused() {
  printf '__global__ void k(long long *p, int *q) {\n  %s;\n}\n' "$2" >"$work/$1.cu"
  if (cd "$work" && "$nvcc" -c -o "$1.o" "$1.cu") >"$work/$1.log" 2>&1; then
    fail "$2 compiled (nvcc refuses it)"
  elif grep -q "$3" "$work/$1.log"; then
    echo "PASS: $2 is refused"
  else
    fail "$2: unexpected error: $(head -5 "$work/$1.log")"
  fi
}
refused signed_add '__nv_atomic_fetch_add(p, 1LL, __NV_ATOMIC_RELAXED)' \
  "not valid on signed integer of size 8"
refused bad_order '__nv_atomic_fetch_add(q, 1, 7)' "invalid memory order value"
refused bad_scope '__nv_atomic_or(q, 1, __NV_ATOMIC_RELAXED, 9)' "invalid thread scope value"
refused load_release '__nv_atomic_load_n(q, __NV_ATOMIC_RELEASE)' \
  "atomic load's memory order cannot be release or acq_rel"
refused store_acquire '__nv_atomic_store_n(q, 1, __NV_ATOMIC_ACQUIRE)' \
  "atomic store's memory order cannot be consume, acquire or acq_rel"
# nvcc wants integer literals (or the built-in names, in parentheses or
# not) for the orders and the scope: a variable, even a const one, is
# refused at its line, in any pass of the build.
refused variable_order 'int o = __NV_ATOMIC_RELAXED; __nv_atomic_fetch_add(q, 1, o, __NV_THREAD_SCOPE_DEVICE)' \
  "memory order argument is not an integer literal"
refused const_order 'const int o = 0; __nv_atomic_load_n(q, (o))' \
  "memory order argument is not an integer literal"
refused failure_order 'int e = 0, f = 0; __nv_atomic_compare_exchange_n(q, &e, 1, false, __NV_ATOMIC_RELAXED, f, 1)' \
  "memory order argument is not an integer literal"
refused variable_scope 'int s = 1; __nv_atomic_thread_fence((__NV_ATOMIC_SEQ_CST), s)' \
  "scope argument is not an integer literal"

real=$(find_nvcc)
if [ -n "$real" ]; then
  (cd "$work" && nvcc_build driver_nvcc_features.sh:nvcc-macros \
    "$real" -Xcompiler -Wall,-Werror -c -o nvcc_macros.o "$d/builtin_macros.cu") \
    >/dev/null 2>&1 || fail "nvcc refuses builtin_macros.cu: the test is wrong"
  (cd "$work" && nvcc_build driver_nvcc_features.sh:nvcc-host \
    "$real" -Xcompiler -Wall,-Werror -c -o nvcc_host.o "$d/host_macros.cpp") \
    >/dev/null 2>&1 || fail "nvcc refuses host_macros.cpp: the test is wrong"
  for f in signed_add bad_order bad_scope load_release store_acquire \
    variable_order const_order failure_order variable_scope; do
    if (cd "$work" && "$real" -c -o "nvcc_$f.o" "$f.cu") >/dev/null 2>&1; then
      fail "nvcc compiles $f.cu: the test is wrong"
    fi
  done
fi

rm -rf "$work"
exit "$failed"
