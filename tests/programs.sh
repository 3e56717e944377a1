#!/bin/sh
# programs.sh [--combine] [--alone 'NAME...'] [--keep KEEP] [DIR]: builds
# every DIR/*.cu (default tests/programs) as a whole program with
# cuemu-nvcc and runs it. Each program checks itself and prints PASS; the
# test fails if any program does not build, does not exit 0 or does not
# print PASS. A line `CUEMU_OPTIONS: ...` in a program adds options to its
# build (as `NVCC_OPTIONS: ...` does for nvcc_kernels.sh; each program is
# built in its folder, so paths are relative to it).
# With --combine, the programs whose options are the same but for their
# libraries (-l...) are built as one program (combine_programs,
# tests/test_tools.sh), linked with all their libraries, and each runs by
# name in a process of its own: a build costs about 2.5 s of CPU however
# small the program. The programs named by --alone (their file names
# without .cu), which cannot share a build, are built by themselves.
# With --keep, KEEP/NAME runs program NAME after programs.sh has finished
# (a script that runs its build), for the tests that run a program again.
# Each subfolder of tests/programs has a wrapper tests/programs_NAME.sh, so
# that `make -j2 check` runs the folders side by side. Run by `make check`
# with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
cc=$builddir/cuemu-nvcc

. "$srcdir/tests/test_tools.sh"
[ -x "$cc" ] || tool_missing programs.sh "$cc is not built"

combine=0
alone=" "
keep=
while :; do
  case ${1:-} in
    --combine) combine=1; shift ;;
    --alone) alone=" $2 "; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    *) break ;;
  esac
done
dir=${1:-$srcdir/tests/programs}
work=$builddir/tests/tmp/programs.$$
mkdir -p "$work" || exit 1
work=$(cd "$work" && pwd)
cc=$(cd "$(dirname "$cc")" && pwd)/$(basename "$cc")
dir=$(cd "$dir" && pwd)
if [ -n "$keep" ]; then
  mkdir -p "$keep" || exit 1
  keep=$(cd "$keep" && pwd)
fi

# The programs, each with its group ("NAME GROUP" lines in $work/programs):
# the programs of a group share a build. A group's compile options are in
# GROUP.options, its libraries in GROUP.libraries, its sources in
# GROUP.sources.
count=0
failed=0
: >"$work/programs"
for source in "$dir"/*.cu; do
  [ -f "$source" ] || continue
  name=$(basename "$source" .cu)
  count=$((count + 1))
  options=$(sed -n 's/.*CUEMU_OPTIONS:[[:space:]]*\([^*]*\).*/\1/p' "$source" |
    head -n 1)
  compile=
  libraries=
  for option in $options; do
    case $option in
      -l*) libraries="$libraries $option" ;;
      *) compile="$compile $option" ;;
    esac
  done
  group=$name
  if [ "$combine" -eq 1 ]; then
    case $alone in
      *" $name "*) ;;
      *) group=combined$(echo "$compile" | tr -c 'A-Za-z0-9\n' _) ;;
    esac
  fi
  echo "$name $group" >>"$work/programs"
  echo "$source" >>"$work/$group.sources"
  # A program built by itself keeps its options in their order.
  if [ "$group" = "$name" ]; then
    echo "$options" >"$work/$group.options"
    continue
  fi
  echo "$compile" >"$work/$group.options"
  for library in $libraries; do
    grep -qx -e "$library" "$work/$group.libraries" 2>/dev/null ||
      echo "$library" >>"$work/$group.libraries"
  done
done

# One build a group. A group of many programs builds from a folder that is
# the same in every run, so that the compile cache knows its source again.
combined=$(cd "$builddir" && pwd)/tests/tmp/programs.combined.$(basename "$dir")
for list in "$work"/*.sources; do
  [ -f "$list" ] || continue
  group=$(basename "$list" .sources)
  if [ "$(wc -l <"$list")" -eq 1 ]; then
    source=$(basename "$(cat "$list")")
  else
    mkdir -p "$combined" || exit 1
    source=$combined/$group.cu
    # shellcheck disable=SC2046 # the sources' paths have no blanks
    combine_programs "$source" $(cat "$list")
  fi
  # shellcheck disable=SC2046 # the options are words
  (cd "$dir" && "$cc" $(cat "$work/$group.options") "$source" \
    -o "$work/$group" $(cat "$work/$group.libraries" 2>/dev/null)) \
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
  [ "$group" = "$name" ] || set -- "$name"
  if "$work/$group" "$@" >"$work/$name.out" 2>&1 &&
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
