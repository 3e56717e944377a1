#!/bin/sh
# programs.sh [DIR [GROUP...]]: builds every DIR/*.cu (default
# tests/programs) as a whole program with cuemu-nvcc and runs it. Each
# program checks itself and prints PASS; the test fails if any program does
# not build, does not exit 0 or does not print PASS. A line
# `CUEMU_OPTIONS: ...` in a program adds options to its build (as
# `NVCC_OPTIONS: ...` does for nvcc_kernels.sh; each program is built in its
# folder, so paths are relative to it). Each GROUP, the names of programs
# of DIR (without .cu) in one argument, is built as one program
# (combine_programs, tests/test_tools.sh), with the options of all of them
# (each distinct CUEMU_OPTIONS line once), so that the headers they share
# are compiled once; each of its programs still runs in a process of its
# own, by name. A GROUP may start with options of its own build, ended by
# `--` ("-Xcompiler -O0 -- a b").
# Each subfolder of tests/programs has a wrapper tests/programs_NAME.sh, so
# that `make -j2 check` runs the folders side by side. Run by `make check`
# with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
cc=$builddir/cuemu-nvcc

. "$srcdir/tests/test_tools.sh"
[ -x "$cc" ] || tool_missing programs.sh "$cc is not built"

dir=${1:-$srcdir/tests/programs}
[ $# -gt 0 ] && shift
work=$builddir/tests/tmp/programs.$$
mkdir -p "$work" || exit 1
work=$(cd "$work" && pwd)
cc=$(cd "$(dirname "$cc")" && pwd)/$(basename "$cc")

# The options of program $1 (a .cu file): its CUEMU_OPTIONS line.
program_options() {
  sed -n 's/.*CUEMU_OPTIONS:[[:space:]]*\([^*]*\).*/\1/p' "$1" | head -n 1
}

# group_names WORD...: the names of a GROUP's words (those after its
# options' `--`); group_extra WORD...: its options.
group_names() {
  group_words=" $* "
  case $group_words in *" -- "*) group_words=${group_words#* -- } ;; esac
  # shellcheck disable=SC2086 # blanks and new lines become one space
  echo $group_words
}
group_extra() {
  group_words=" $* "
  # shellcheck disable=SC2086 # blanks and new lines become one space
  case $group_words in *" -- "*) echo ${group_words% -- *} ;; esac
}

# group_of NAME GROUP...: prints the index of the GROUP that holds NAME
# (1 for the first); fails when none does.
group_of() {
  group_name=$1
  shift
  group_index=0
  for group_members; do
    group_index=$((group_index + 1))
    # shellcheck disable=SC2086 # the group's words
    case " $(group_names $group_members) " in *" $group_name "*)
      echo "$group_index"
      return 0 ;;
    esac
  done
  return 1
}

# build_group INDEX MEMBERS: builds the programs MEMBERS as one program,
# $work/group_INDEX (its output in $work/group_INDEX.build), from a folder
# that is the same in every run, so that the compile cache knows the
# combined source again; compiled in DIR, where the options' paths are.
combined=$builddir/tests/tmp/programs.$(basename "$dir").combined
build_group() {
  group_sources=
  # shellcheck disable=SC2086 # the group's words
  group_options=$(group_extra $2)
  # shellcheck disable=SC2086 # the group's words
  for member in $(group_names $2); do
    group_sources="$group_sources $dir/$member.cu"
    member_options=$(program_options "$dir/$member.cu")
    case " $group_options " in *" $member_options "*) ;;
      *) group_options="$group_options $member_options" ;;
    esac
  done
  mkdir -p "$combined" || return 1
  group_source=$(cd "$combined" && pwd)/group_$1.cu
  # shellcheck disable=SC2086 # the paths have no blanks
  combine_programs "$group_source" $group_sources
  # shellcheck disable=SC2086 # the options are words
  (cd "$dir" && "$cc" $group_options "$group_source" -o "$work/group_$1") \
    >"$work/group_$1.build" 2>&1
  group_status=$?
  rm -f "$group_source"
  return $group_status
}

count=0
failed=0
for source in "$dir"/*.cu; do
  [ -f "$source" ] || continue
  name=$(basename "$source" .cu)
  count=$((count + 1))
  if index=$(group_of "$name" "$@"); then
    # Built once, with the group's first program.
    [ -e "$work/group_$index.build" ] ||
      build_group "$index" "$(eval echo "\${$index}")" || rm -f "$work/group_$index"
    if [ ! -x "$work/group_$index" ]; then
      echo "FAIL: $name: cuemu-cc failed on its group:"
      cat "$work/group_$index.build"
      failed=$((failed + 1))
      continue
    fi
    run="$work/group_$index $name"
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
    run=$work/$name
  fi
  # shellcheck disable=SC2086 # the program and its name, without blanks
  if $run >"$work/$name.out" 2>&1 && grep -qx PASS "$work/$name.out"
  then
    echo "PASS: $name"
  else
    echo "FAIL: $name: its output:"
    cat "$work/$name.out"
    failed=$((failed + 1))
  fi
done
rm -rf "$work"
rmdir "$combined" 2>/dev/null

if [ "$count" -eq 0 ]; then
  echo "programs.sh: no programs in $dir"
  exit 1
fi
echo "programs.sh: $count programs, $failed failed"
[ "$failed" -eq 0 ]
