#!/bin/sh
# driver_dlink_undefined.sh: nvcc's device link refuses a device function
# that no input defines ("nvlink error   : Undefined reference to
# '_Z6scaledi' in 'main.o'"), as a Makefile whose `-dlink` step misses an
# object of relocatable device code learns from nvcc. A build for two
# architectures (-gencode 80 and 90, as CMake's "80;90") names its further
# pass's device functions apart (NAME.cuemu_arch_800), so cuemu-nvcc's
# -dlink finds the ones that no input, and no archive member that the link
# pulls, defines. Programs of tests/driver/dlink_undefined:
#   1. -dlink of main.o alone fails with nvlink's message;
#   2. -dlink of main.o and lib.o, then the link by the host compiler
#      with cuemu's libcudart, runs;
#   3. -dlink of main.o with lib.o in an archive (-lib, -L -l) passes;
#   4. nvcc builds the files with -dc;
#   5. a one-command -rdc=true build of main.cu alone (one architecture)
#      fails at its device link, with nvlink's message.
# With one architecture, whose device code is named as its host code, the
# units' summaries of what their device functions reference (section
# cuemu_shared_reach) tell the device link which references are device
# code's. Programs refs.cu and defs.cu:
#   6. -dlink of refs.o alone gives nvlink 13's four lines, in its order
#      (the functions that the kernel reaches, then the variable), and not
#      the function that only an unused device function calls, nor printf,
#      malloc or sinf;
#   7. -dlink of refs.o and defs.o passes, and the program runs.
# Program exported.cu, whose host function has default visibility (a
# Python extension's PyInit_NAME) and uses the host program's variable and
# function, which the device pass's object keeps as references:
#   8. -dlink of exported.o alone passes, also -shared with -fPIC (CMake's
#      device link of a pybind11 module), as nvcc's, which sees device
#      code alone;
#   9. the program of exported.o and exported_main.cpp runs.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
case $builddir in /*) ;; *) builddir=$(cd "$builddir" && pwd) ;; esac
cc=$builddir/cuemu-nvcc
[ -x "$cc" ] || tool_missing driver_dlink_undefined.sh "$cc is not built"

work=$builddir/tests/tmp/driver_dlink_undefined.$$
rm -rf "$work"
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT
p=$srcdir/tests/driver/dlink_undefined
failed=0
arch="-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90"

# shellcheck disable=SC2086 # the architectures are words
step main "$cc" $arch -dc "$p/main.cu" -o main.o &&
  step lib "$cc" $arch -dc "$p/lib.cu" -o lib.o || exit 1

# shellcheck disable=SC2086
if (cd "$work" && "$cc" $arch -dlink main.o -o alone_dlink.o) >"$work/alone.log" 2>&1; then
  fail "1. -dlink of main.o alone succeeded"
elif grep -q "nvlink error   : Undefined reference to '_Z6scaledi' in 'main.o' (target: sm_80)" "$work/alone.log"; then
  echo "PASS: 1. -dlink without lib.o: nvlink's message"
else
  fail "1. the message: $(cat "$work/alone.log")"
fi

# shellcheck disable=SC2086
step dlink "$cc" $arch -dlink main.o lib.o -o dlink.o &&
  step link "$cc" $arch main.o lib.o dlink.o -o prog &&
  passes "2. -dlink of both objects" ./prog

# shellcheck disable=SC2086
step archive "$cc" $arch -lib lib.o -o libscale.a &&
  step dlink_archive "$cc" $arch -dlink main.o -L. -lscale -o archive_dlink.o &&
  echo "PASS: 3. -dlink with an archive that defines it"

# A one-command -rdc=true build of one architecture whose device code
# calls a function no file defines fails at its device link, with
# nvlink's line (the object is a temporary file, as nvcc's is).
if (cd "$work" && "$cc" -rdc=true -arch=sm_80 "$p/main.cu" -o one) \
    >"$work/one.log" 2>&1; then
  fail "5. -rdc=true of main.cu alone succeeded"
elif grep -q "^nvlink error   : Undefined reference to '_Z6scaledi' in '.*main.o'$" \
    "$work/one.log" &&
  grep -q "the device link has 1 undefined reference" "$work/one.log"; then
  echo "PASS: 5. -rdc=true without lib.cu: nvlink's message"
else
  fail "5. the message: $(cat "$work/one.log")"
fi

step refs "$cc" -arch=sm_90 -dc "$p/refs.cu" -o refs.o &&
  step defs "$cc" -arch=sm_90 -dc "$p/defs.cu" -o defs.o || exit 1
if (cd "$work" && "$cc" -arch=sm_90 -dlink refs.o -o refs_dlink.o) \
    >"$work/refs_alone.log" 2>&1; then
  fail "6. -dlink of refs.o alone succeeded"
elif [ "$(grep '^nvlink' "$work/refs_alone.log")" = "\
nvlink error   : Undefined reference to '_Z6offseti' in 'refs.o'
nvlink error   : Undefined reference to '_ZN3geo4areaEf' in 'refs.o'
nvlink error   : Undefined reference to '_Z7doubledIfET_S0_' in 'refs.o'
nvlink error   : Undefined reference to 'bias' in 'refs.o'" ]; then
  echo "PASS: 6. -dlink of refs.o alone: nvlink's lines"
else
  fail "6. the messages: $(cat "$work/refs_alone.log")"
fi
step refs_dlink "$cc" -arch=sm_90 -dlink refs.o defs.o -o refs_dlink.o &&
  step refs_link "$cc" -arch=sm_90 refs.o defs.o refs_dlink.o -o refs &&
  passes "7. -dlink of refs.o and defs.o" ./refs

step exported "$cc" -arch=sm_90 -dc -Xcompiler=-fPIC "$p/exported.cu" \
  -o exported.o || exit 1
if (cd "$work" && "$cc" -arch=sm_90 -dlink exported.o -o exported_dlink.o &&
    "$cc" -arch=sm_90 -Xcompiler=-fPIC -shared -dlink exported.o \
      -o exported_shared_dlink.o) >"$work/exported.log" 2>&1; then
  echo "PASS: 8. -dlink of exported.o alone (and -shared)"
else
  fail "8. -dlink of exported.o: $(cat "$work/exported.log")"
fi
step exported_link "$cc" -arch=sm_90 exported.o exported_dlink.o \
  "$p/exported_main.cpp" -o exported &&
  passes "9. the program of exported.o" ./exported

real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ]; then
  for f in main lib refs defs exported; do
    # shellcheck disable=SC2086
    step "nvcc_$f" nvcc_build "driver_dlink_undefined.sh:$f" timeout 600 "$real" \
      -std=c++17 $arch -dc "$p/$f.cu" -o /dev/null || break
  done && echo "PASS: 4. nvcc builds the files"
fi

[ "$failed" -eq 0 ] || exit 1
exit 0
