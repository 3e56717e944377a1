#!/bin/sh
# driver_file_macro.sh: __FILE__ as nvcc gives it. nvcc hands the host
# compiler the source as its command line spells it, so that __FILE__ (and
# assert's message, and a project's CHECK macro) names "apps/main.cu", not
# the file's absolute path, and a header included with quotes beside it
# "apps/local.cuh". Programs of tests/driver/file_macro, compiled:
#   1. from the project's folder, `-Iinclude apps/main.cu`: relative names,
#      in host code and in a kernel;
#   2. from apps/, `-I../include main.cu`, with the same cache: its own
#      names, not those of the first build's entry;
#   3. by absolute paths: absolute names;
#   4. with -c, then linked: as 1;
#   5. by nvcc.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
case $builddir in /*) ;; *) builddir=$(cd "$builddir" && pwd) ;; esac
cc=$builddir/cuemu-nvcc
[ -x "$cc" ] || tool_missing driver_file_macro.sh "$cc is not built"

work=$builddir/tests/tmp/driver_file_macro.$$
rm -rf "$work"
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT
cp -R "$srcdir/tests/driver/file_macro" "$work/proj" || exit 1
chmod -R u+w "$work/proj"
failed=0

# expect NAME PROGRAM HOST DEVICE: PROGRAM prints the two lines.
expect() {
  out=$("$2" 2>&1)
  if [ "$out" = "$(printf '%s\n%s' "$3" "$4")" ]; then
    echo "PASS: $1"
  else
    fail "$1: wanted \"$3\" and \"$4\", got: $out"
  fi
}

step relative sh -c "cd proj && '$cc' -Iinclude apps/main.cu -o ../relative" &&
  expect "1. relative names" "$work/relative" \
    "host apps/main.cu apps/local.cuh include/fm/lib.cuh" \
    "device apps/main.cu apps/local.cuh"

step inner sh -c "cd proj/apps && '$cc' -I../include main.cu -o ../../inner" &&
  expect "2. the names of another folder's build" "$work/inner" \
    "host main.cu local.cuh ../include/fm/lib.cuh" "device main.cu local.cuh"

p=$work/proj
step absolute "$cc" -I"$p/include" "$p/apps/main.cu" -o absolute &&
  expect "3. absolute names" "$work/absolute" \
    "host $p/apps/main.cu $p/apps/local.cuh $p/include/fm/lib.cuh" \
    "device $p/apps/main.cu $p/apps/local.cuh"

step objects sh -c "cd proj && '$cc' -Iinclude -c apps/main.cu -o ../main.o && '$cc' ../main.o -o ../objects" &&
  expect "4. an object's names" "$work/objects" \
    "host apps/main.cu apps/local.cuh include/fm/lib.cuh" \
    "device apps/main.cu apps/local.cuh"

real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ]; then
  src=$srcdir/tests/driver/file_macro
  step nvcc nvcc_build driver_file_macro.sh:main timeout 600 "$real" \
    -std=c++17 -arch=sm_90 -I"$src/include" -c "$src/apps/main.cu" -o /dev/null &&
    echo "PASS: 5. nvcc builds the program"
fi

[ "$failed" -eq 0 ] || exit 1
exit 0
