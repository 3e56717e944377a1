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
# With PROGRAMS_COMBINE=1 (a wrapper's choice), the programs whose
# CUEMU_OPTIONS are the same are built as one program (combine_programs,
# tests/test_tools.sh: each in a namespace of its own, run by name in a
# process of its own), since a build costs mostly what every build costs;
# but those that PROGRAMS_ALONE names (their names without .cu, blank
# separated), whose checks need what a namespace changes (a kernel's name
# in a report), are built alone.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
cc=$builddir/cuemu-nvcc

. "$srcdir/tests/test_tools.sh"
[ -x "$cc" ] || tool_missing programs.sh "$cc is not built"

dir=${1:-$srcdir/tests/programs}
work=$builddir/tests/tmp/programs.$$
mkdir -p "$work" || exit 1
work=$(cd "$work" && pwd)
cc=$(cd "$(dirname "$cc")" && pwd)/$(basename "$cc")

count=0
failed=0

# program_options SOURCE: its CUEMU_OPTIONS (a line, empty if none).
program_options() {
  # shellcheck disable=SC2005 # a line even when sed prints none
  echo "$(sed -n 's/.*CUEMU_OPTIONS:[[:space:]]*\([^*]*\).*/\1/p' "$1" | head -n 1)"
}

# combined SOURCE: whether SOURCE joins the others of its options, with
# PROGRAMS_COMBINE=1, unless PROGRAMS_ALONE names it.
combined() {
  [ "${PROGRAMS_COMBINE:-}" = 1 ] || return 1
  case " ${PROGRAMS_ALONE:-} " in
    *" $(basename "$1" .cu) "*) return 1 ;;
  esac
}

# With PROGRAMS_COMBINE=1, $work/NAME.program names the combined program
# that runs SOURCE NAME (by its name), built from the folder where the
# others of its options are; a program alone in its options is built
# alone. The combined source is written in a folder that is the same in
# every run, so that the compile cache knows it again.
if [ "${PROGRAMS_COMBINE:-}" = 1 ]; then
  combined=$builddir/tests/tmp/programs_combined.$(basename "$dir")
  mkdir -p "$combined" || exit 1
  combined=$(cd "$combined" && pwd)
  for source in "$dir"/*.cu; do
    [ -f "$source" ] && combined "$source" && program_options "$source"
  done | sort -u >"$work/option_sets"
  group=0
  while IFS= read -r options; do
    group=$((group + 1))
    members=
    for source in "$dir"/*.cu; do
      combined "$source" && [ "$(program_options "$source")" = "$options" ] &&
        members="$members $source"
    done
    # shellcheck disable=SC2086 # the sources' paths have no blanks
    set -- $members
    [ $# -gt 1 ] || continue
    combine_programs "$combined/group$group.cu" "$@"
    for source; do
      echo "group$group" >"$work/$(basename "$source" .cu).program"
    done
    # shellcheck disable=SC2086 # the options are words
    (cd "$dir" && "$cc" $options "$combined/group$group.cu" -o "$work/group$group") \
      >"$work/group$group.build" 2>&1 || rm -f "$work/group$group"
  done <"$work/option_sets"
fi

for source in "$dir"/*.cu; do
  [ -f "$source" ] || continue
  name=$(basename "$source" .cu)
  count=$((count + 1))
  if [ -f "$work/$name.program" ]; then
    program=$(cat "$work/$name.program")
    if [ ! -x "$work/$program" ]; then
      echo "FAIL: $name: cuemu-cc failed ($program, built with others):"
      cat "$work/$program.build"
      failed=$((failed + 1))
      continue
    fi
    set -- "$work/$program" "$name"
  else
    options=$(program_options "$source")
    # shellcheck disable=SC2086 # the options are words
    if ! (cd "$(dirname "$source")" && "$cc" $options "$(basename "$source")" \
      -o "$work/$name") >"$work/$name.build" 2>&1
    then
      echo "FAIL: $name: cuemu-cc failed:"
      cat "$work/$name.build"
      failed=$((failed + 1))
      continue
    fi
    set -- "$work/$name"
  fi
  if "$@" >"$work/$name.out" 2>&1 && grep -qx PASS "$work/$name.out"
  then
    echo "PASS: $name"
  else
    echo "FAIL: $name: its output:"
    cat "$work/$name.out"
    failed=$((failed + 1))
  fi
done
rm -rf "$work"

if [ "$count" -eq 0 ]; then
  echo "programs.sh: no programs in $dir"
  exit 1
fi
echo "programs.sh: $count programs, $failed failed"
[ "$failed" -eq 0 ]
