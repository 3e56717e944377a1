#!/bin/sh
# checkers_clean.sh: every correct program of the test suite
# (tests/programs/*.cu) and of the examples (examples/programs/*/*.cu) runs
# under cuemu-cc --check=all with zero checker reports and still passes
# its own checks; so do the kernels of the parity examples (examples/*/,
# through cuemu-parity --check=all, which registers their buffers), when
# cuemu-parity is built. A checker that reports a bug in a correct kernel is a bug
# of ours. Run by `make check` with AM_TESTS_ENVIRONMENT.
#
# cuemu-parity --one-module builds the parity examples' kernels as one
# module (a group for each set of options: matmul_tile32's -DTILE=32 alone),
# 10 s of CPU instead of 56 s for 18 modules; each case still runs alone
# and passes or fails alone. The script requires that the module was built,
# so that a source that stops compiling with the others is seen.
#
# A report in host code that is true is allowed where the program makes it
# on purpose: tests/programs/rt_memory.cu frees a pointer twice to test
# cudaFree's error code, and memcheck says so ("double free");
# tests/programs/use_after_free.cu uses freed memory on purpose.
#
# The example programs run a second time with --check=mem,init, the
# build in which the checks' common case is decided inline.
#
# The programs of one check set are built as one program (combine_programs,
# tests/test_tools.sh), each in a namespace of its own, and run one at a
# time by name: a checked build costs about 5 s of CPU however small the
# program, the 45 programs in one about 45 s. The programs listed in
# $alone (none now) are built by themselves.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
cc=$builddir/cuemu-cc

. "$srcdir/tests/test_tools.sh"
[ -x "$cc" ] || tool_missing checkers_clean.sh "$cc is not built"

work=$builddir/tests/tmp/checkers_clean.$$
mkdir -p "$work" || exit 1

count=0
failed=0

alone=" "

# build_clean GROUP CHECKS SOURCE...: builds the programs SOURCE... with
# cuemu-cc --check=CHECKS, as one program $work/GROUP (its output in
# $work/GROUP.build), and each one of $alone by itself, as $work/NAME;
# writes the program that runs each SOURCE in $work/NAME.program.
# From a folder that is the same in every run, so that the compile cache
# knows the combined source again.
build_clean() {
  group=$1
  checks=$2
  shift 2
  combined=$builddir/tests/tmp/checkers_clean.programs
  mkdir -p "$combined" || exit 1
  together=
  for source; do
    name=$(basename "$source" .cu)
    case $alone in
      *" $name "*)
        "$cc" --check="$checks" "$source" -o "$work/$name" \
          >"$work/$name.build" 2>&1 || rm -f "$work/$name"
        echo "$name" >"$work/$name.program" ;;
      *)
        together="$together $source"
        echo "$group" >"$work/$name.program" ;;
    esac
  done
  if [ -n "$together" ]; then
    # shellcheck disable=SC2086 # the sources' paths have no blanks
    combine_programs "$combined/$group.cu" $together
    # The libraries the programs' CUEMU_OPTIONS lines link (-lcuda for
    # the driver API, as with nvcc), once each.
    # shellcheck disable=SC2086 # the sources' paths have no blanks
    libraries=$(grep -h "CUEMU_OPTIONS:" $together |
      grep -oE -- "-l[A-Za-z0-9_]+" | sort -u)
    # shellcheck disable=SC2086 # the libraries are words
    "$cc" --check="$checks" "$combined/$group.cu" -o "$work/$group" \
      $libraries >"$work/$group.build" 2>&1 || rm -f "$work/$group"
  fi
  rm -rf "$combined"
}

# check_clean SOURCE CHECKS: runs the program SOURCE, built by build_clean
# with cuemu-cc --check=CHECKS; it must pass its own checks with no checker
# report.
check_clean() {
  source=$1
  checks=$2
  name=$(basename "$source" .cu)
  program=$(cat "$work/$name.program")
  count=$((count + 1))
  if [ ! -x "$work/$program" ]; then
    echo "FAIL: $name: cuemu-cc --check=$checks failed ($program):"
    cat "$work/$program.build"
    failed=$((failed + 1))
    return
  fi
  run=$name
  [ "$program" = "$name" ] && run=
  # Reports go to stderr; CUEMU_QUIET from make would hide them.
  # shellcheck disable=SC2086 # $run is empty or one word
  # use_after_free expects its memcheck reports, which count for the exit
  # status: it keeps its own.
  status_var=CUEMU_CHECK_EXIT_STATUS=${CUEMU_CHECK_EXIT_STATUS:-1}
  [ "$name" = use_after_free ] && status_var=CUEMU_CHECK_EXIT_STATUS=0
  if ! (cd "$work" && env CUEMU_QUIET=0 "$status_var" timeout 300 \
        "./$program" $run </dev/null) >"$work/$name.out" 2>&1; then
    echo "FAIL: $name: exit status $? under --check=$checks; its output:"
    cat "$work/$name.out"
    failed=$((failed + 1))
    return
  fi
  allowed='^$'
  [ "$name" = rt_memory ] && allowed='memcheck: double free'
  [ "$name" = use_after_free ] && allowed='memcheck: use after cudaFree'
  reports=$(grep -E "(racecheck|memcheck|initcheck|synccheck): " \
              "$work/$name.out" | grep -v -e "$allowed")
  if [ -n "$reports" ]; then
    echo "FAIL: $name: checker reports on a correct program (--check=$checks):"
    echo "$reports"
    failed=$((failed + 1))
  elif grep -qx PASS "$work/$name.out" ||
       grep -q "^RESULT $name PASS" "$work/$name.out"; then
    echo "PASS: $name (--check=$checks)"
  else
    echo "FAIL: $name: it did not pass its own checks under --check=$checks; its output:"
    cat "$work/$name.out"
    failed=$((failed + 1))
  fi
}

programs=$(ls "$srcdir"/tests/programs/*.cu "$srcdir"/examples/programs/*/*.cu \
  2>/dev/null)
examples=$(ls "$srcdir"/examples/programs/*/*.cu 2>/dev/null)
# part_cpu NAME: logs the processor seconds since the last call (the part
# NAME of this script), so that the log shows where the time goes.
children_cpu "$work/times" >"$work/cpu.before"
part_cpu() {
  children_cpu "$work/times" >"$work/cpu.after"
  echo "checkers_clean.sh: $1: cpu $(($(cat "$work/cpu.after") - $(cat "$work/cpu.before"))) s"
  mv "$work/cpu.after" "$work/cpu.before"
}

# shellcheck disable=SC2086 # the sources' paths have no blanks
build_clean programs_all all $programs
for source in $programs
do
  check_clean "$source" all
done
part_cpu "the programs under --check=all"

# Without racecheck, memcheck and initcheck decide most accesses inline, in
# the kernel's code (emulator/compile/cuemu_gcc_plugin_check.cc), a path that
# --check=all never takes: the example programs run that way too.
# shellcheck disable=SC2086 # the sources' paths have no blanks
build_clean examples_mem_init mem,init $examples
for source in $examples
do
  check_clean "$source" mem,init
done
part_cpu "the example programs under --check=mem,init"

# The parity examples: every case passes with every checker built in.
parity=$builddir/cuemu-parity
if [ -x "$parity" ] && ls "$srcdir"/examples/*/*.parity.yaml >/dev/null 2>&1
then
  count=$((count + 1))
  if (cd "$srcdir" && env CUEMU_QUIET=0 timeout 600 "$parity" --no-gpu \
        --one-module --check=all examples/*/) >"$work/parity.out" 2>&1 &&
     ! grep -qE "(racecheck|memcheck|initcheck|synccheck): " \
        "$work/parity.out" &&
     grep -q "^cuemu-parity: one module for " "$work/parity.out"; then
    echo "PASS: parity examples ($(tail -n 1 "$work/parity.out"))"
  else
    echo "FAIL: cuemu-parity --check=all on the parity examples:"
    cat "$work/parity.out"
    failed=$((failed + 1))
  fi
elif [ "${CI:-}" = true ]; then
  echo "FAIL: checkers_clean.sh: cuemu-parity is not built (CI=true)"
  failed=$((failed + 1))
else
  echo "checkers_clean.sh: cuemu-parity is not built; parity examples skipped"
fi
part_cpu "the parity examples"
rm -rf "$work"

if [ "$count" -eq 0 ]; then
  echo "checkers_clean.sh: no programs found"
  exit 1
fi
echo "checkers_clean.sh: $count correct programs, $failed with reports or failures"
[ "$failed" -eq 0 ]
