#!/bin/sh
# programs_rdcfix.sh: relocatable device code whose device functions
# another unit's kernel calls (issue 13; docs/nvcc-checks.md, "Relocatable
# device code for several architectures"). tests/programs/rdcfix:
# fix_lib.cu defines a class template's __device__ member outside the
# class (explicitly instantiated), static members, operators, virtual
# members (of an object it builds, and of one that fix_main.cu's kernel
# builds), and the members of a system header's class; fix_main.cu's kernel calls each, which must run its device code of
# the device's architecture (900 on 9.x, 800 on 8.x; -1 is the host
# code's). Built
# - with -dc objects for compute_80 and compute_90, run on a 9.0 and an 8.6
#   device (before: the static members, operators, the system header's
#   members and the virtual members of the kernel's own object ran their
#   host code or the first pass's, a trap for the __device__ operator);
# - for one architecture with clang++ as the host compiler (before: the
#   class template's member trapped, clang++ refused the operator's and the
#   system header's stubs).
# Both units' __device__ and __constant__ variables (one, an array) whose
# initializers hold device functions' addresses: each architecture's
# variable points at that architecture's code (before: the first pass's,
# 900 on 8.6 too); the host's cudaMemcpyFromSymbol, cudaMemcpyToSymbol and
# cudaGetSymbolAddress of them reach the current device's copy (before:
# the first pass's).
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir=$(cd "$builddir" && pwd)
nvcc=$builddir/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing programs_rdcfix.sh "$nvcc is not built"
d=$srcdir/tests/programs/rdcfix
work=$builddir/tests/tmp/programs_rdcfix.$$
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT
failed=0

# runs NAME DEVICES PROGRAM EXPECTED: PROGRAM's output on the devices
# CUEMU_DEVICE=DEVICES is EXPECTED.
runs() {
  out=$(cd "$work" && CUEMU_QUIET=1 CUEMU_DEVICE=$2 "$3" 2>&1)
  if [ "$out" = "$4" ]; then
    echo "PASS: $1"
  else
    fail "$1: its output:"
    printf '%s\n' "$out" | sed 's/^/  | /'
    echo "  expected:"
    printf '%s\n' "$4" | sed 's/^/  | /'
  fi
}

gencode="-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90"
nine="device 0 (9.0):$(printf ' 900%.0s' $(seq 23))"
eight="device 1 (8.6):$(printf ' 800%.0s' $(seq 23))"
# shellcheck disable=SC2086
step dc-lib "$nvcc" $gencode -dc "$d/fix_lib.cu" -o fix_lib.o &&
  step dc-main "$nvcc" $gencode -dc "$d/fix_main.cu" -o fix_main.o &&
  step dc-shape "$nvcc" $gencode -dc "$d/fix_shape.cu" -o fix_shape.o &&
  step dc-hex "$nvcc" $gencode -dc "$d/fix_hex.cu" -o fix_hex.o &&
  step lib-shape "$nvcc" -lib fix_shape.o fix_hex.o -o libshape.a &&
  step link "$nvcc" $gencode fix_lib.o fix_main.o -L. -lshape -o two &&
  runs "-dc objects for compute_80 and compute_90 and a -lib archive, on 9.0 and 8.6" \
    "count=2,sm=90,1:sm=86" ./two "$nine
$eight
shared: 448
host: -1 -1 -1
PASS"

# The same objects, the device link (-dlink) and the archive linked by the
# host compiler with the toolkit's -lcudart: the -dlink object names
# Circle's tables undefined, so the archive's member is linked.
toolkit=$builddir/.libs/cuemu-toolkit
# shellcheck disable=SC2086
if [ -f "$work/two" ] && [ -f "$toolkit/lib64/libcudart.so" ] &&
  step dlink "$nvcc" $gencode -dlink fix_lib.o fix_main.o -L. -lshape \
    -o fix_dlink.o &&
  step link-gxx "${CXX:-g++}" fix_lib.o fix_main.o fix_dlink.o -L. -lshape \
    "-L$toolkit/lib64" -lcudart "-Wl,-rpath,$toolkit/lib64" -o two_gxx; then
  runs "-dlink, linked by the host compiler with -lcudart" \
    "count=2,sm=90,1:sm=86" ./two_gxx "$nine
$eight
shared: 448
host: -1 -1 -1
PASS"
fi

# The archive as a thin one (ar rcT, in a folder of its own: it names its
# members relative to it), linked by cuemu-nvcc: the
# members it names are read for Circle's tables and the shared size, as
# nvcc's device link reads them (before: not read, a null table and
# shared 64).
if [ -f "$work/two" ] && mkdir -p "$work/thin" &&
  (cd "$work/thin" && ar rcT libshapethin.a ../fix_shape.o ../fix_hex.o) &&
  step link-thin "$nvcc" $gencode fix_lib.o fix_main.o -Lthin -lshapethin \
    -o two_thin; then
  runs "a thin archive of -dc objects, linked by cuemu-nvcc" \
    "count=2,sm=90,1:sm=86" ./two_thin "$nine
$eight
shared: 448
host: -1 -1 -1
PASS"
fi

if command -v clang++ >/dev/null 2>&1 &&
  step clang-one-arch "$nvcc" -ccbin clang++ -rdc=true -arch=sm_90 \
    "$d/fix_lib.cu" "$d/fix_main.cu" "$d/fix_shape.cu" "$d/fix_hex.cu" \
    -o one_clang; then
  runs "-rdc=true, one architecture, clang++ as the host compiler" sm=90 \
    ./one_clang "$nine
shared: 448
host: -1 -1 -1
PASS"
fi

[ "$failed" -eq 0 ]
