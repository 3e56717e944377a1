#!/bin/sh
# checkers.sh: every deliberately buggy program of tests/buggy/ is found by
# the checkers with the right class and line. Each file says how:
#   // CHECK: LIST          the checkers to build in (cuemu-cc --check=LIST)
#   // ENV: VAR=VALUE       optional, set while it runs
#   // EXPECT: CLASS WORD... line N [line M]
# CLASS is race, mem, init, sync or api; the report must come from that
# checker (racecheck:, memcheck:, initcheck:; sync reports come from the
# scheduler or synccheck:; api is memcheck's one report of a failing call
# of the runtime API, "API error:"), contain every WORD, and name FILE.cu:N
# (and :M). Programs
# run with CUEMU_WORKERS=1, so that the order of blocks, and so the first
# report, is deterministic. Run by `make check` with AM_TESTS_ENVIRONMENT.
#
# The programs with the same CHECK line are built as one program
# (combine_programs, tests/test_tools.sh), each in a namespace of its own,
# and run one at a time by name: a checked build costs about 4 s of CPU
# however small the program, one of 20 programs about 25 s. A report that
# comes from a kernel must come from one of the program's own kernels (its
# namespace). The programs listed in $alone are built by themselves.
#
# A wrapper may set CHECKERS_OPTIONS, more options of every build
# (checkers_race_clang.sh: -ccbin clang++), and CHECKERS_CHECK, the CHECK
# lines whose programs it runs, separated by blanks (the others are left
# out).

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
cc=$builddir/cuemu-cc
options=${CHECKERS_OPTIONS:-}
only=${CHECKERS_CHECK:-}

. "$srcdir/tests/test_tools.sh"
[ -x "$cc" ] || tool_missing checkers.sh "$cc is not built"

work=$builddir/tests/tmp/checkers.$$
mkdir -p "$work" || exit 1

# Built by themselves: programs that cannot share a build.
# race_thrust_vector_alloc includes Thrust, which cuemu-cc compiles with
# clang++: built with the race group, it would make the whole group a
# clang++ unit, which checkers_race_clang.sh checks. So does
# init_copy_source_thrust_sort.
alone=" race_thrust_vector_alloc init_copy_source_thrust_sort "

# The programs, each with its group: the programs of a group share a build.
count=0
failed=0
: >"$work/programs"
for source in "$srcdir"/tests/buggy/*.cu; do
  [ -f "$source" ] || continue
  name=$(basename "$source" .cu)
  count=$((count + 1))
  checks=$(sed -n 's|^// CHECK: *||p' "$source" | head -n 1)
  expect=$(sed -n 's|^// EXPECT: *||p' "$source" | head -n 1)
  if [ -z "$checks" ] || [ -z "$expect" ]; then
    echo "FAIL: $name: no CHECK or EXPECT line"
    failed=$((failed + 1))
    continue
  fi
  if [ -n "$only" ] && case " $only " in *" $checks "*) false ;; *) true ;; esac; then
    count=$((count - 1))
    continue
  fi
  group=$(echo "$checks" | tr -c 'A-Za-z0-9\n' _)
  case $alone in *" $name "*) group=$name ;; esac
  echo "$source" >>"$work/$group.sources"
  echo "$source $group $checks" >>"$work/programs"
done

# One build a group, from a folder that is the same in every run, so that
# the compile cache knows the combined source again, and that is the
# wrapper's own: make -j2 runs checkers.sh and its wrappers side by side.
combined=$builddir/tests/tmp/checkers.programs
if [ -n "$options$only" ]; then
  combined=$combined.$(printf '%s %s' "$options" "$only" | cksum | cut -d' ' -f1)
fi
mkdir -p "$combined" || exit 1
for list in "$work"/*.sources; do
  [ -f "$list" ] || continue
  group=$(basename "$list" .sources)
  checks=$(sed -n "s|^[^ ]* $group ||p" "$work/programs" | head -n 1)
  # shellcheck disable=SC2046 # the sources' paths have no blanks
  combine_programs "$combined/$group.cu" $(cat "$list")
  # shellcheck disable=SC2086 # CHECKERS_OPTIONS is a list of words
  "$cc" --check="$checks" $options "$combined/$group.cu" -o "$work/$group" \
    >"$work/$group.build" 2>&1 || rm -f "$work/$group"
done
rm -rf "$combined"

while read -r source group checks; do
  name=$(basename "$source" .cu)
  envs=$(sed -n 's|^// ENV: *||p' "$source" | head -n 1)
  expect=$(sed -n 's|^// EXPECT: *||p' "$source" | head -n 1)
  if [ ! -x "$work/$group" ]; then
    echo "FAIL: $name: cuemu-cc --check=$checks failed on its group ($group):"
    cat "$work/$group.build"
    failed=$((failed + 1))
    continue
  fi
  # The reports go to stderr; CUEMU_QUIET from make would hide them.
  env CUEMU_QUIET=0 CUEMU_WORKERS=1 $envs timeout 60 "$work/$group" "$name" </dev/null \
    >"$work/$name.out" 2>&1
  problems=
  set -- $expect
  class=$1
  shift
  case $class in
    race) grep -q "racecheck: " "$work/$name.out" ||
            problems="$problems; no racecheck report" ;;
    mem) grep -q "memcheck: " "$work/$name.out" ||
           problems="$problems; no memcheck report" ;;
    init) grep -q "initcheck: " "$work/$name.out" ||
            problems="$problems; no initcheck report" ;;
    api) [ "$(grep -c "API error: " "$work/$name.out")" = 1 ] ||
           problems="$problems; not one API error report" ;;
    sync) if grep -qE "(racecheck|memcheck|initcheck): " "$work/$name.out"
          then problems="$problems; a report of another class"; fi ;;
    *) problems="$problems; unknown class $class" ;;
  esac
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
  # A kernel's report names the program's own kernel.
  if grep -o 'kernel combined_[A-Za-z0-9_]*::' "$work/$name.out" |
      grep -qv "^kernel $(combined_namespace "$source")::\$"; then
    problems="$problems; a report names another program's kernel"
  fi
  if [ -z "$problems" ]; then
    echo "PASS: $name ($class)"
  else
    echo "FAIL: $name:${problems#;}; its output:"
    cat "$work/$name.out"
    failed=$((failed + 1))
  fi
done <"$work/programs"
rm -rf "$work"

if [ "$count" -lt 25 ]; then
  echo "checkers.sh: only $count buggy programs in $srcdir/tests/buggy"
  exit 1
fi
echo "checkers.sh: $count buggy programs, $failed not found as expected"
[ "$failed" -eq 0 ]
