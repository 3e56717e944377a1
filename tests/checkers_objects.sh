#!/bin/sh
# checkers_objects.sh: checked objects keep their checkers' entry points.
# A checked build's units only declare the ThreadSanitizer entry points
# (shims/cuda_builtins/cuemu_check_entry.h); cuemu-cc links one object
# that defines them (compiled once per compiler and checker set, from the
# compile cache) into every checked output, the objects of -c and -lib too.
# So an object built with --check=race -c (and -dc) and a library built
# with --check=mem -lib, linked into programs by a plain `cuemu-nvcc` link
# without --check, still report their race and their out-of-bounds write
# with the right lines, with clang++ units too and in a program that mixes
# both compilers' units (tests/buggy/objects: each .cu's EXPECT line, as in
# tests/checkers.sh); the entry points are hidden in the object and local
# in the program; host code is not instrumented at all. Run by `make check`
# with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
nvcc=$builddir/cuemu-nvcc

. "$srcdir/tests/test_tools.sh"
[ -x "$nvcc" ] || tool_missing checkers_objects.sh "$nvcc is not built"

work=$builddir/tests/tmp/checkers_objects.$$
mkdir -p "$work" || exit 1
src=$srcdir/tests/buggy/objects
failed=0

step race_object "$nvcc" --check=race -c "$src/race_object.cu" -o race.o
step race_rdc "$nvcc" --check=race -dc "$src/race_object.cu" -o race_rdc.o
step oob_library "$nvcc" --check=mem -lib "$src/oob_object.cu" -o liboob.a
step main "$nvcc" -c "$src/objects_main.cpp" -o main.o
step link_race "$nvcc" race.o main.o -o race_object
step link_oob "$nvcc" main.o liboob.a -o oob_object
step link_rdc "$nvcc" -rdc=true race_rdc.o main.o -o race_rdc
# A clang++ unit's object (the entry points compiled by clang++), alone and
# in a program with a g++ unit's checked object (its kernel unused there).
programs="race_object oob_object race_rdc"
if command -v "${CLANGXX:-clang++}" >/dev/null 2>&1; then
  step race_clang "$nvcc" -ccbin "${CLANGXX:-clang++}" --check=race -c \
    "$src/race_object.cu" -o race_clang.o &&
    step oob_gxx "$nvcc" --check=mem -Drun_kernel=unused_kernel -c \
      "$src/oob_object.cu" -o oob_gxx.o &&
    step link_clang "$nvcc" race_clang.o main.o -o race_clang &&
    step link_mixed "$nvcc" race_clang.o oob_gxx.o main.o -o race_mixed &&
    programs="$programs race_clang race_mixed"
fi

# The object's entry points are weak and hidden; the program's are local.
if [ -f "$work/race.o" ] &&
    ! readelf -sW "$work/race.o" | grep -q ' WEAK  *HIDDEN .* __tsan_read4$'; then
  fail "race.o has no weak hidden __tsan_read4:"
  readelf -sW "$work/race.o" | grep __tsan_read4
fi
# Host code is not instrumented (its accesses have nothing to check): the
# object's host function run_kernel calls no entry point. objdump names
# every section it passes, the entry points' own (.text.__tsan_read1) too:
# only the function's lines count.
if [ -f "$work/race.o" ] &&
    objdump -dr --disassemble=_Z10run_kernelv "$work/race.o" |
    grep -v '^Disassembly of section' | grep -q __tsan; then
  fail "race.o's host function run_kernel is instrumented:"
  objdump -dr --disassemble=_Z10run_kernelv "$work/race.o" |
    grep -v '^Disassembly of section' | grep __tsan
fi
if [ -x "$work/race_object" ] &&
    ! nm "$work/race_object" | grep -q ' t __tsan_read4$'; then
  fail "the program's __tsan_read4 is not local:"
  nm "$work/race_object" | grep __tsan_read4
fi

for program in $programs; do
  [ -x "$work/$program" ] || continue
  name=$program
  case $program in race_*) name=race_object ;; esac
  env CUEMU_QUIET=0 CUEMU_WORKERS=1 timeout 60 "$work/$program" </dev/null \
    >"$work/$name.out" 2>&1
  expect=$(sed -n 's|^// EXPECT: *||p' "$src/$name.cu" | head -n 1)
  problems=
  # shellcheck disable=SC2086 # the words of the EXPECT line
  set -- $expect
  case $1 in
    race) grep -q "racecheck: " "$work/$name.out" ||
            problems="$problems; no racecheck report" ;;
    mem) grep -q "memcheck: " "$work/$name.out" ||
           problems="$problems; no memcheck report" ;;
    *) problems="$problems; unknown class $1" ;;
  esac
  shift
  while [ $# -gt 0 ]; do
    if [ "$1" = line ] && [ $# -ge 2 ]; then
      grep -qF "$name.cu:$2" "$work/$name.out" ||
        problems="$problems; line $2 not named"
      shift 2
      continue
    fi
    grep -qF -- "$1" "$work/$name.out" || problems="$problems; no '$1'"
    shift
  done
  if [ -z "$problems" ]; then
    echo "PASS: $program"
  else
    fail "$program:${problems#;}; its output:"
    sed 's/^/  | /' "$work/$name.out" | head -20
  fi
done
rm -rf "$work"
echo "checkers_objects.sh: $failed failure(s)"
[ "$failed" -eq 0 ]
