#!/bin/sh
# programs.sh [DIR]: builds every DIR/*.cu (default tests/programs) as a
# whole program with cuemu-nvcc and runs it. Each program checks itself and
# prints PASS; the test fails if any program does not build, does not exit 0
# or does not print PASS. A line `CUEMU_OPTIONS: ...` in a program adds
# options to its build (as `NVCC_OPTIONS: ...` does for nvcc_kernels.sh;
# each program is built in its folder, so paths are relative to it).
# Each subfolder of tests/programs has a wrapper tests/programs_NAME.sh, so
# that `make -j2 check` runs the folders side by side. Run by `make check`
# with AM_TESTS_ENVIRONMENT.
#
# A wrapper's settings, in the environment:
#   PROGRAMS_COMBINE=1  the programs whose options are the same (in any
#       order) but for their libraries (-l...) are built as one program
#       (combine_programs, tests/test_tools.sh: each in a namespace of its
#       own, its main renamed), linked with all their libraries, and each
#       runs by name in a process of its own: a build costs about 2 s of
#       CPU however small its program, one build of many far less than one
#       each.
#   PROGRAMS_ALONE='NAME...'  the programs (file names without .cu) built
#       by themselves even so: those whose point is a form at file scope, a
#       kernel's name in a report (a namespace changes it), or a process of
#       their own (they run their executable again, or handle signals).
#   PROGRAMS_OPTIONS='...'  options of every build, before each program's
#       (but for a program whose own options already hold them).
#   PROGRAMS_KEEP=FOLDER  FOLDER/NAME runs program NAME after programs.sh
#       has finished (a script that runs its build), for the tests that run
#       a program again.
#   PROGRAMS_TIMES=FILE  appends to FILE the processor seconds (user+system,
#       by /usr/bin/time) of each build and each run, to see where a
#       wrapper's time goes.
# Run without DIR (tests/programs), it combines, but for the programs about
# forms at file scope.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
cc=$builddir/cuemu-nvcc

. "$srcdir/tests/test_tools.sh"
[ -x "$cc" ] || tool_missing programs.sh "$cc is not built"

if [ $# -eq 0 ]; then
  # refused_forms.cu starts with a byte order mark, which must begin the
  # compiled file; the others test forms at file scope (internal linkage,
  # launches and templates in the global namespace, a header's forms).
  PROGRAMS_COMBINE=1
  PROGRAMS_ALONE="refused_forms internal_linkage header_forms launch_forms
    macro_launches"
fi
dir=${1:-$srcdir/tests/programs}
dir=$(cd "$dir" && pwd)
work=$builddir/tests/tmp/programs.$$
mkdir -p "$work" || exit 1
work=$(cd "$work" && pwd)
cc=$(cd "$(dirname "$cc")" && pwd)/$(basename "$cc")
keep=${PROGRAMS_KEEP:-}
# timed LABEL COMMAND...: runs COMMAND, its processor time appended to
# $PROGRAMS_TIMES as "LABEL USER+SYSTEM" where that is set.
timed() {
  timed_label=$1
  shift
  if [ -n "${PROGRAMS_TIMES:-}" ]; then
    /usr/bin/time -a -o "$PROGRAMS_TIMES" -f "$timed_label %U+%S" "$@"
  else
    "$@"
  fi
}
if [ -n "$keep" ]; then
  mkdir -p "$keep" || exit 1
  keep=$(cd "$keep" && pwd)
fi

# program_options SOURCE: its CUEMU_OPTIONS (a line, empty if none).
program_options() {
  # shellcheck disable=SC2005 # a line even when sed prints none
  echo "$(sed -n 's/.*CUEMU_OPTIONS:[[:space:]]*\([^*]*\).*/\1/p' "$1" | head -n 1)"
}

# combined NAME: whether program NAME joins the others of its options.
combined() {
  [ "${PROGRAMS_COMBINE:-}" = 1 ] || return 1
  # shellcheck disable=SC2086 # blanks and new lines become one space
  case " $(echo ${PROGRAMS_ALONE:-}) " in
    *" $1 "*) return 1 ;;
  esac
}

# The programs, each with its group ("NAME GROUP" lines in $work/programs):
# the programs of a group share a build. A group's compile options are in
# GROUP.options, its libraries in GROUP.libraries, its sources in
# GROUP.sources; a program alone is its own group.
count=0
failed=0
: >"$work/programs"
for source in "$dir"/*.cu; do
  [ -f "$source" ] || continue
  name=$(basename "$source" .cu)
  count=$((count + 1))
  own=$(program_options "$source")
  # A wrapper's options that the program's own options already hold (the
  # same words in the same order) are not given twice: a program whose own
  # line repeats --extended-lambda of programs_thrust.sh then joins the
  # others of its options instead of making a second build of CCCL's
  # headers (about 30 s of CPU).
  # shellcheck disable=SC2086 # blanks and new lines become one space
  case " $(echo $own) " in
    *" $(echo ${PROGRAMS_OPTIONS:-}) "*) options=" $own" ;;
    *) options="${PROGRAMS_OPTIONS:-} $own" ;;
  esac
  group=$name
  if combined "$name"; then
    compile=
    libraries=
    for option in $options; do
      case $option in
        -l*) libraries="$libraries $option" ;;
        *) compile="$compile $option" ;;
      esac
    done
    # The group of the options' words, in any order.
    # shellcheck disable=SC2086 # the options are words
    group=combined_$(printf '%s\n' $compile | sort | cksum | cut -d ' ' -f 1)
    [ -f "$work/$group.options" ] || echo "$compile" >"$work/$group.options"
    for library in $libraries; do
      grep -qx -e "$library" "$work/$group.libraries" 2>/dev/null ||
        echo "$library" >>"$work/$group.libraries"
    done
  else
    echo "$options" >"$work/$group.options"
  fi
  echo "$name $group" >>"$work/programs"
  echo "$source" >>"$work/$group.sources"
done

# One build a group. A group of several programs builds from a folder that
# is the same in every run, so that the compile cache knows its source
# again, and is its wrapper's own: two wrappers of one folder with other
# options (programs_warpvol.sh and programs_warpvol_clang.sh, which make
# -j2 runs side by side) removed each other's sources.
combined=$(cd "$builddir" && pwd)/tests/tmp/programs_combined.$(basename "$dir")
if [ -n "${PROGRAMS_OPTIONS:-}" ]; then
  combined=$combined.$(printf '%s' "$PROGRAMS_OPTIONS" | cksum | cut -d' ' -f1)
fi
for list in "$work"/*.sources; do
  [ -f "$list" ] || continue
  group=$(basename "$list" .sources)
  if [ "$(wc -l <"$list")" -eq 1 ]; then
    # One program: built as it is, run without a name.
    source=$(basename "$(cat "$list")")
    : >"$work/$group.alone"
  else
    mkdir -p "$combined" || exit 1
    source=$combined/$group.cu
    # shellcheck disable=SC2046 # the sources' paths have no blanks
    combine_programs "$source" $(cat "$list")
  fi
  # shellcheck disable=SC2046 # the options are words
  (cd "$dir" && timed "build $group" "$cc" $(cat "$work/$group.options") \
    "$source" -o "$work/$group" $(cat "$work/$group.libraries" 2>/dev/null)) \
    >"$work/$group.build" 2>&1 || rm -f "$work/$group"
done
rm -rf "$combined"

while read -r name group; do
  if [ ! -x "$work/$group" ]; then
    echo "FAIL: $name: cuemu-cc failed:"
    cat "$work/$group.build"
    failed=$((failed + 1))
    continue
  fi
  # A program of a combined build runs by its name.
  set --
  [ -f "$work/$group.alone" ] || set -- "$name"
  if timed "run $name" "$work/$group" "$@" >"$work/$name.out" 2>&1 &&
    grep -qx PASS "$work/$name.out"
  then
    echo "PASS: $name"
  else
    echo "FAIL: $name: its output:"
    cat "$work/$name.out"
    failed=$((failed + 1))
  fi
  if [ -n "$keep" ]; then
    [ -f "$keep/$group.bin" ] || cp "$work/$group" "$keep/$group.bin"
    printf '#!/bin/sh\nexec "%s" %s "$@"\n' "$keep/$group.bin" "$*" \
      >"$keep/$name"
    chmod +x "$keep/$name"
  fi
done <"$work/programs"
rm -rf "$work"

if [ "$count" -eq 0 ]; then
  echo "programs.sh: no programs in $dir"
  exit 1
fi
echo "programs.sh: $count programs, $failed failed"
[ "$failed" -eq 0 ]
