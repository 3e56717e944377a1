#!/bin/sh
# driver_option_quoting.sh: how cuemu-nvcc reads quotes and backslashes
# (issue 13), as nvcc 13.0 does, tried folder by folder (docs/nvcc-checks.md):
# an -I value keeps a backslash before an ordinary character (-I 'a\b'
# searches a\b; `\\`, `\,` and `\"` are one character); an options file
# splits at white space, groups with "...", takes a backslash anywhere as
# keeping the next character (dropped), and single quotes are characters;
# NVCC_PREPEND_FLAGS and NVCC_APPEND_FLAGS group with "..." only. Each
# spelling's -I finds which_dir.h in the expected folder (-E of a .cpp
# file); a .cu program built with -I 'a\b' (tests/driver/cc13c/
# which_dir.cu) prints a\b in host and device code. With nvcc present, it
# finds the same folder for each spelling where nvcc's own result does not
# come from its shell (nvcc writes -I"VALUE" into a shell command, so that
# a single quote in a folder's name becomes \').
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
cuemu=$builddir_abs/cuemu-nvcc
d=$srcdir/tests/driver/cc13c
work=$(mktemp -d)
failed=0
real=$(find_nvcc)

mkdir "$work/inc"
for dir in 'a b' 'a\b' 'ab' "a'b'c" 'a\ b' 'a\\b' "'ab'"; do
  mkdir -p "$work/inc/$dir"
  printf '#define WHICH_DIR "%s"\n#define WHICH_LENGTH %d\n' \
    "$(printf '%s' "$dir" | sed 's/\\/\\\\/g')" "${#dir}" \
    >"$work/inc/$dir/which_dir.h"
done
printf '#include "which_dir.h"\nWHICH_DIR\n' >"$work/which.cpp"

# found HOW SPELLING [COMPILER]: the folder that -I SPELLING (HOW: `args`,
# the command line, split by this shell; `optf`, an options file; `env`,
# NVCC_APPEND_FLAGS) finds, or "error".
found() {
  how=$1
  spelling=$2
  compiler=${3:-$cuemu}
  case $how in
  optf)
    printf '%s\n' "$spelling" >"$work/opts.txt"
    set -- -optf ../opts.txt ;;
  env) set -- ;;
  args) eval "set -- $spelling" ;;
  esac
  if [ "$how" = env ]; then
    out=$(cd "$work/inc" && NVCC_APPEND_FLAGS=$spelling "$compiler" -E \
      ../which.cpp 2>/dev/null)
  else
    out=$(cd "$work/inc" && "$compiler" "$@" -E ../which.cpp 2>/dev/null)
  fi
  line=$(printf '%s\n' "$out" | grep '^"' | tail -1)
  [ -n "$line" ] && printf '%s\n' "$line" | sed 's/^"//; s/"$//; s/\\\\/\\/g' ||
    echo error
}

# expect HOW SPELLING FOLDER [nvcc]: with `nvcc`, nvcc is checked to agree.
expect() {
  got=$(found "$1" "$2")
  if [ "$got" != "$3" ]; then
    fail "$1 $2: found '$got', expected '$3'"
    return
  fi
  printf 'PASS: %s %s: %s\n' "$1" "$2" "$3"
  if [ "${4:-}" = nvcc ] && [ -n "$real" ]; then
    theirs=$(found "$1" "$2" "$real")
    [ "$theirs" = "$got" ] || fail "$1 $2: nvcc finds '$theirs', cuemu '$got'"
  fi
}

expect args "-I 'a\\b'" 'a\b' nvcc
expect args "-I 'a\\\\b'" 'a\b' nvcc
expect args "-I '\"a\\b\"'" 'a\b' nvcc
expect args "-I 'a\\ b'" 'a\ b' nvcc
expect args "-I 'x,a\\b'" 'a\b' nvcc
expect optf '-I "a b"' 'a b' nvcc
expect optf '-I a\b' 'ab' nvcc
expect optf '-I a\ b' 'a b' nvcc
expect optf '-I a\\b' 'a\b' nvcc
expect optf '-I "a\\b"' 'a\b' nvcc
expect optf '-I "a\b"' 'ab' nvcc
expect optf '-I "a\"b"' 'ab' nvcc
expect optf '-I "a\\\\b"' 'a\b' nvcc
expect optf '-I "a"" b"' 'a b' nvcc
expect optf "-I 'a b'" error nvcc
expect optf "-I a'b'c" "a'b'c"
expect env '-I "a b"' 'a b' nvcc
expect env '-I a\b' 'a\b' nvcc
expect env '-I a\\b' 'a\b' nvcc
expect env '-I "a\b"' 'a\b' nvcc
expect env '-I "a\\\\b"' 'a\\b' nvcc
expect env "-I 'ab'" "'ab'"

# A whole program with a backslash in its -I: both passes read the header.
if step which "$cuemu" -I "$work/inc/a\\b" -o which "$d/which_dir.cu"; then
  out=$("$work/which" 2>&1)
  [ "$out" = '[a\b] 3' ] && printf '%s\n' "PASS: -I 'DIR/a\b' builds and runs" ||
    fail "-I DIR/a(backslash)b: $out"
fi

rm -rf "$work"
exit $failed
