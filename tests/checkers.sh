#!/bin/sh
# checkers.sh: every deliberately buggy program of tests/buggy/ is found by
# the checkers with the right class and line. Each file says how:
#   // CHECK: LIST          the checkers to build in (cuemu-cc --check=LIST)
#   // ENV: VAR=VALUE       optional, set while it runs
#   // EXPECT: CLASS WORD... line N [line M]
# CLASS is race, mem, init or sync; the report must come from that checker
# (racecheck:, memcheck:, initcheck:; sync reports come from the scheduler
# or synccheck:), contain every WORD, and name FILE.cu:N (and :M). Programs
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
# The correct programs of tests/programs/checkers are built here too, each
# with the checkers its line `CUEMU_OPTIONS: --check=LIST` names, in the
# group of the buggy programs with the same list where there is one (race
# and mem): they must exit 0 and print PASS, as tests/programs.sh asked of
# them when a wrapper of their own (programs_checkers.sh, 29 s of CPU for 5
# builds) ran them. They run as that script ran them: with the suite's
# CUEMU_WORKERS (racecheck_two_streams.cu needs two workers) and its
# CUEMU_QUIET, and without a check of their output for reports
# (racecheck_two_streams.cu makes races on purpose in child processes).
# The correct programs listed in $plain are built by themselves, outside
# any namespace: racecheck_two_streams.cu looks for its kernel's name in
# the reports of its child processes.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
cc=$builddir/cuemu-cc

. "$srcdir/tests/test_tools.sh"
[ -x "$cc" ] || tool_missing checkers.sh "$cc is not built"

work=$builddir/tests/tmp/checkers.$$
mkdir -p "$work" || exit 1

# Built by themselves (none now): programs that cannot share a build.
alone=" "

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
  group=$(echo "$checks" | tr -c 'A-Za-z0-9\n' _)
  case $alone in *" $name "*) group=$name ;; esac
  echo "$source" >>"$work/$group.sources"
  echo "$source $group $checks" >>"$work/programs"
done

# The correct programs, each with its group.
plain=" racecheck_two_streams "
clean_count=0
: >"$work/clean"
for source in "$srcdir"/tests/programs/checkers/*.cu; do
  [ -f "$source" ] || continue
  name=$(basename "$source" .cu)
  clean_count=$((clean_count + 1))
  options=$(sed -n 's/.*CUEMU_OPTIONS:[[:space:]]*\([^*]*\).*/\1/p' "$source" |
    head -n 1 | sed 's/[[:space:]]*$//')
  checks=${options#--check=}
  case $options in --check=?*) ;; *) checks=- ;; esac
  case $checks in
    *[!a-z,]*)
      echo "FAIL: $name: CUEMU_OPTIONS must be --check=LIST alone, not '$options'"
      failed=$((failed + 1))
      continue ;;
  esac
  group=$(echo "$checks" | tr -c 'A-Za-z0-9\n' _)
  case $plain in
    *" $name "*) group=$name; : >"$work/$group.plain" ;;
  esac
  echo "$source" >>"$work/$group.sources"
  echo "$source $group $checks" >>"$work/clean"
done

# One build a group, from a folder that is the same in every run, so that
# the compile cache knows the combined source again.
combined=$builddir/tests/tmp/checkers.programs
mkdir -p "$combined" || exit 1
for list in "$work"/*.sources; do
  [ -f "$list" ] || continue
  group=$(basename "$list" .sources)
  checks=$(sed -n "s|^[^ ]* $group ||p" "$work/programs" "$work/clean" |
    head -n 1)
  if [ -f "$work/$group.plain" ]; then
    source=$(cat "$list")
  else
    source=$combined/$group.cu
    # shellcheck disable=SC2046 # the sources' paths have no blanks
    combine_programs "$source" $(cat "$list")
  fi
  "$cc" --check="$checks" "$source" -o "$work/$group" \
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

# The correct programs: exit 0 and PASS.
while read -r source group checks; do
  name=$(basename "$source" .cu)
  if [ ! -x "$work/$group" ]; then
    echo "FAIL: $name: cuemu-cc --check=$checks failed on its group ($group):"
    cat "$work/$group.build"
    failed=$((failed + 1))
    continue
  fi
  set -- "$name"
  [ -f "$work/$group.plain" ] && set --
  if timeout 300 "$work/$group" "$@" </dev/null >"$work/$name.out" 2>&1 &&
     grep -qx PASS "$work/$name.out"; then
    echo "PASS: $name (correct, --check=$checks)"
  else
    echo "FAIL: $name: a correct program failed under --check=$checks; its output:"
    cat "$work/$name.out"
    failed=$((failed + 1))
  fi
done <"$work/clean"
rm -rf "$work"

if [ "$count" -lt 25 ]; then
  echo "checkers.sh: only $count buggy programs in $srcdir/tests/buggy"
  exit 1
fi
if [ "$clean_count" -lt 6 ]; then
  echo "checkers.sh: only $clean_count correct programs in $srcdir/tests/programs/checkers"
  exit 1
fi
echo "checkers.sh: $count buggy programs and $clean_count correct ones, $failed not as expected"
[ "$failed" -eq 0 ]
