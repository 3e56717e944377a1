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
# With PROGRAMS_COMBINE=1 (the default folder's run sets it, and the
# wrappers whose programs allow it), the programs that have the same
# options are built as one program (combine_programs, tests/test_tools.sh:
# each in a namespace of its own, its main renamed, run by name in its own
# process): a small program's build costs about 1.5 s of CPU, mostly the
# prelude's, so one build of many costs far less than one each. The
# programs named in PROGRAMS_ALONE (blank-separated names without .cu) are
# built by themselves: those whose point is a form at file scope, or that
# run their own executable again.

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
work=$builddir/tests/tmp/programs.$$
mkdir -p "$work" || exit 1
work=$(cd "$work" && pwd)
cc=$(cd "$(dirname "$cc")" && pwd)/$(basename "$cc")

count=0
failed=0

# options SOURCE: the options of its CUEMU_OPTIONS line.
options() {
  sed -n 's/.*CUEMU_OPTIONS:[[:space:]]*\([^*]*\).*/\1/p' "$1" | head -n 1
}

# build SOURCE OUTPUT OPTIONS...: builds SOURCE in $dir as OUTPUT.
build() {
  build_source=$1
  build_output=$2
  shift 2
  (cd "$dir" && "$cc" "$@" "$build_source" -o "$build_output") \
    >"$build_output.build" 2>&1 || rm -f "$build_output"
}

# Each program's executable and the name it runs by ("" when alone) go to
# $work/NAME.program.
groups=
for source in "$dir"/*.cu; do
  [ -f "$source" ] || continue
  name=$(basename "$source" .cu)
  alone=no
  # shellcheck disable=SC2086 # the names are words
  for one in ${PROGRAMS_ALONE:-}; do
    [ "$one" = "$name" ] && alone=yes
  done
  if [ "${PROGRAMS_COMBINE:-0}" != 1 ] || [ "$alone" = yes ]; then
    # shellcheck disable=SC2046 # the options are words
    build "$(basename "$source")" "$work/$name" $(options "$source")
    echo "$name" >"$work/$name.program"
    continue
  fi
  # The group of the options: its number in the order first seen.
  key=$(options "$source" | tr -s ' \t' '  ')
  group=$(printf '%s\n' "$groups" | grep -nxF -e "$key" | cut -d: -f1 |
    head -n 1)
  if [ -z "$group" ]; then
    groups="$groups${groups:+
}$key"
    group=$(printf '%s\n' "$groups" | wc -l)
    group=$((group + 0))
  fi
  echo "$source" >>"$work/group$group.sources"
  echo "group$group $name" >"$work/$name.program"
done

# Each group built from a folder that is the same in every run, so that the
# compile cache knows the combined source again.
combined=$builddir/tests/tmp/programs.combined.$(basename "$dir")
group=0
printf '%s\n' "$groups" | while IFS= read -r key; do
  group=$((group + 1))
  [ -f "$work/group$group.sources" ] || continue
  mkdir -p "$combined" || exit 1
  # shellcheck disable=SC2046 # the sources' paths have no blanks
  combine_programs "$combined/group$group.cu" $(cat "$work/group$group.sources")
  # shellcheck disable=SC2086 # the options are words
  build "$combined/group$group.cu" "$work/group$group" $key
done
rm -rf "$combined"

for source in "$dir"/*.cu; do
  [ -f "$source" ] || continue
  name=$(basename "$source" .cu)
  count=$((count + 1))
  read -r program run <"$work/$name.program"
  if [ ! -x "$work/$program" ]; then
    echo "FAIL: $name: cuemu-cc failed${run:+ (built with others as $program)}:"
    cat "$work/$program.build"
    failed=$((failed + 1))
    continue
  fi
  # shellcheck disable=SC2086 # $run is empty or one word
  if "$work/$program" $run >"$work/$name.out" 2>&1 &&
    grep -qx PASS "$work/$name.out"
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
