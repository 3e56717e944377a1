#!/bin/sh
# driver_template_context.sh: the instantiation context of an error in a
# kernel template names the user's code only, as nvcc's "detected during
# instantiation of ... at line N" does (cuemu_diag_context.c). A kernel
# template launched with deduced arguments is reached through cuemu's
# launch; g++'s context named cuemu's picker and launcher and the shims'
# headers, and columns past the end of the user's lines, and clang++'s a
# note in a shim header. For each program of tests/driver/template_context,
# with g++ and with clang++: the compile fails, no message line names cuemu
# (but cuemu-nvcc's own last line) or the shims, every place in the user's
# files has a column within its line, and the chain of the user's functions
# is there, ending at the launch's line; clang++'s "1 error generated.",
# which each pass prints, is printed once. With nvcc present, it is checked to
# refuse both programs too.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing driver_template_context.sh "$nvcc is not built"
d=$srcdir/tests/driver/template_context
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
fail() {
  echo "FAIL: $*"
  failed=1
}

# compile NAME CXX: compiles NAME.cu with cuemu-nvcc -ccbin CXX into
# $work/NAME.CXX.log; fails the test if it compiles.
compile() {
  if (cd "$d" && "$nvcc" -ccbin "$2" "$1.cu" -o "$work/$1") \
    >"$work/$1.$2.log" 2>&1; then
    fail "$1.cu compiles with $2"
  fi
}

# clean LOG: no line names cuemu but cuemu-nvcc's own, and each place of
# the folder's files has a column within its line.
clean() {
  if grep -v '^cuemu-nvcc fatal' "$work/$1" | grep -q 'cuemu\|cuda_builtins'; then
    fail "$1 names cuemu's translation: $(grep -v '^cuemu-nvcc fatal' "$work/$1" |
      grep 'cuemu\|cuda_builtins' | head -3)"
  fi
  # The places of the folder's files, spelled as the command line spells
  # them (relative to the folder) or whole.
  sed -n 's|^\([^ :]*\.cuh*\):\([0-9]*\):\([0-9]*\):.*|\1 \2 \3|p' "$work/$1" |
    sed "s|^$d/||" |
    while read -r file line column; do
      len=$(sed -n "${line}p" "$d/$file" | awk '{ print length($0) }')
      [ "$column" -le $((len + 1)) ] ||
        echo "$file:$line:$column (the line has $len characters)"
    done >"$work/$1.past"
  [ -s "$work/$1.past" ] && fail "$1: columns past the line's end: $(cat "$work/$1.past")"
  return 0
}

# has LOG TEXT: LOG has a line with the fixed string TEXT.
has() {
  grep -qF "$2" "$work/$1" || fail "$1 has no line with '$2': $(cat "$work/$1")"
}

compile deduced_launch g++ && clean deduced_launch.g++.log
has deduced_launch.g++.log "deduced_launch.cu: In instantiation of"
has deduced_launch.g++.log "deduced_launch.cu:15:3:   required from here"
compile header_chain g++ && clean header_chain.g++.log
has header_chain.g++.log "apply.cuh:8:26:   required from ‘void apply(T*, int) [with T = int]’"
has header_chain.g++.log "apply.cuh:10:1:   required from ‘void run(T*, int) [with T = int]’"
has header_chain.g++.log "header_chain.cu:7:6:   required from here"

if command -v clang++ >/dev/null 2>&1; then
  compile deduced_launch clang++ && clean deduced_launch.clang++.log
  has deduced_launch.clang++.log "deduced_launch.cu:15:3: note: in instantiation of function template specialization 'scale<float>' requested here"
  compile header_chain clang++ && clean header_chain.clang++.log
  has header_chain.clang++.log "apply.cuh:10:1: note: in instantiation of function template specialization 'apply<int>' requested here"
  has header_chain.clang++.log "header_chain.cu:7:3: note: in instantiation of function template specialization 'run<int>' requested here"
  # clang++'s closing line, which each pass prints, once for both.
  for f in deduced_launch header_chain; do
    n=$(grep -c "generated\.$" "$work/$f.clang++.log")
    [ "$n" = 1 ] && grep -qx "1 error generated." "$work/$f.clang++.log" ||
      fail "$f.clang++.log: $n closing lines, expected one '1 error generated.'"
  done
else
  echo "SKIP: clang++ not found"
fi

real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ]; then
  for f in deduced_launch header_chain; do
    if (cd "$d" && timeout 600 "$real" -c "$f.cu" -o /dev/null) >"$work/nvcc.$f.log" 2>&1; then
      fail "nvcc compiles $f.cu"
    elif grep -q "detected during" "$work/nvcc.$f.log"; then
      echo "PASS: nvcc refuses $f.cu too"
    else
      fail "nvcc's messages for $f.cu: $(head -5 "$work/nvcc.$f.log")"
    fi
  done
fi

[ "$failed" -eq 0 ] || exit 1
echo "PASS: driver_template_context.sh"
exit 0
