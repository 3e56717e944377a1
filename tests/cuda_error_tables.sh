#!/bin/sh
# cuda_error_tables.sh: libcuemu's tables of CUDA's error codes
# (emulator/include/cuemu/cuemu_rt_errors.h for cudaError_t,
# cuemu_driver_errors.h for CUresult, which the status table maps to) agree
# with the CUDA toolkit's headers: every code of the tables has the
# toolkit's name and value (a C file that includes both must compile), and
# every code of the toolkit's two enums is in the tables. Without the
# toolkit: skipped (77), or failed where CI=true (see test_tools.sh).

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
include=${CUEMU_INCLUDE_DIR:-$srcdir/emulator/include}

nvcc=$(find_nvcc)
cuda_include=
if [ -n "$nvcc" ]; then
  cuda_include=$(cd "$(dirname "$nvcc")/../include" 2>/dev/null && pwd)
fi
[ -n "$cuda_include" ] && [ -f "$cuda_include/cuda.h" ] &&
  [ -f "$cuda_include/driver_types.h" ] ||
  tool_missing cuda_error_tables.sh "the CUDA toolkit's headers not found"

work=$builddir/tests/tmp/cuda_error_tables.$$
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT
failed=0

cat >"$work/tables.c" <<'C'
#include <cuda.h>
#include <driver_types.h>

#include <cuemu/cuemu_driver_errors.h>
#include <cuemu/cuemu_rt_errors.h>

#define SAME_(name, value, text) _Static_assert(name == value, #name);
CUEMU_DRIVER_ERROR_MAP(SAME_)
CUEMU_RT_ERROR_MAP(SAME_)
C
if ! ${CC:-cc} -std=c11 -fsyntax-only -I"$cuda_include" -I"$include" \
  "$work/tables.c" >"$work/cc.log" 2>&1; then
  echo "FAIL: a code of the tables is not the toolkit's ($cuda_include):"
  cat "$work/cc.log"
  failed=1
fi

# enumerators FILE FIRST LAST: the names of the enumerators between the
# lines matching FIRST and LAST.
enumerators() {
  sed -n "/$2/,/$3/p" "$1" |
    sed -n 's/^[[:space:]]*\([A-Za-z_][A-Za-z0-9_]*\)[[:space:]]*=.*/\1/p'
}
enumerators "$cuda_include/driver_types.h" '^enum __device_builtin__ cudaError' \
  '^};' >"$work/runtime.names"
enumerators "$cuda_include/cuda.h" '^typedef enum cudaError_enum' \
  '^} CUresult;' >"$work/driver.names"
for kind in runtime driver; do
  case $kind in
  runtime) table=$include/cuemu/cuemu_rt_errors.h ;;
  driver) table=$include/cuemu/cuemu_driver_errors.h ;;
  esac
  count=$(wc -l <"$work/$kind.names")
  if [ "$count" -lt 50 ]; then
    echo "FAIL: only $count $kind error codes read from the toolkit"
    failed=1
  fi
  while read -r name; do
    grep -q "XX($name," "$table" || {
      echo "FAIL: $name (toolkit) is not in $table"
      failed=1
    }
  done <"$work/$kind.names"
  echo "cuda_error_tables.sh: $count $kind codes of the toolkit checked"
done
exit $failed
