#!/bin/sh
# shim_macro_hygiene.sh: a user's macro of a common name (-Dgrid=...,
# -Dblock=..., -DN=1024, -Dblock_size=256, as real Makefiles pass them)
# does not break the shim headers where it does not break nvcc's.
#
# 1. Statically (scripts/shim_macro_hygiene.py): every identifier of the shim
#    headers and of cuemu's C headers that they include, for a unit that
#    includes nothing and one that includes every public header, is a
#    reserved name, a name with cuemu or a CUDA prefix in it, a name of the
#    standard headers of the unit, a name that nvcc's headers use in the same
#    unit, or a name of the allow file's `pending:` list; so a new header that
#    spells a parameter `grid` or `n` fails here, with its file and line.
# 2. Dynamically: tests/programs/macro_hygiene/plain_names.cu, built with a
#    -D of each of the names below at once (0hygiene: a token that no
#    declaration or expression takes), runs and prints its sum; where nvcc
#    is present, it builds the same program with the same macros too.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
cuemu=$builddir_abs/cuemu-nvcc
python=${PYTHON:-python3}
work=$(mktemp -d)
failed=0
real=$(find_nvcc)

if ! command -v "$python" >/dev/null 2>&1; then
  echo "shim_macro_hygiene.sh: no $python; skipped"
  exit 77
fi

if PATH=$builddir_abs:$PATH "$python" "$srcdir/scripts/shim_macro_hygiene.py" \
  >"$work/static.log" 2>&1; then
  echo "PASS: no name of the shim headers that a user's macro breaks (beyond the pending list)"
else
  cat "$work/static.log"
  fail "shim headers use names that a user's macro breaks (above)"
fi

# Names that Makefiles and users define and that neither nvcc's headers nor
# cuemu's use in a unit that includes only cuda_runtime.h. (nvcc's headers
# break on -Dn, -Dsize, -Dptr, -Dx, -Dvalue, -Dcount, -Ddim, -Dwidth, and
# on -Dmode, -Dh, -Dp, -De, -Df, -Dgamma, -Ddelta, -Dmax_iter: those are not
# checked.)
names="grid block self warp tile N M K S block_size blocks num_threads threads
nthreads nblocks grid_size tile_size lane lane_id warp_size tid idx j k acc
bit bits dtype out output pos shared shmem sum BLOCK_SIZE TILE_WIDTH WIDTH
NUM_THREADS DEBUG SUCCESS READ WRITE
m g o q r nx ny nz num step steps iters niter radius block_dim grid_dim bx by
tx ty last done found now check expected order list stride scale alpha eps
seed batch cols nrows ncols"
defines=
for n in $names; do
  defines="$defines -D$n=0hygiene"
done
p=$srcdir/tests/programs/macro_hygiene/plain_names.cu
# shellcheck disable=SC2086
if step cuemu "$cuemu" $defines -o plain_names "$p"; then
  out=$("$work/plain_names" 2>&1)
  if [ "$out" = "sum 192" ]; then
    echo "PASS: built with -D of $(echo $names | wc -w) common names, runs: $out"
  else
    fail "plain_names with the macros: '$out'"
  fi
fi
if [ -n "$real" ]; then
  # shellcheck disable=SC2086
  step nvcc "$real" -arch=sm_90 $defines -c -o plain_names_nvcc.o "$p" &&
    echo "PASS: nvcc builds it with the same macros"
fi

rm -rf "$work"
exit $failed
