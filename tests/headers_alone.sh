#!/bin/sh
# headers_alone.sh: every header compiles on its own. Each shim header
# (shims/cuda_builtins/*.h and *.hpp) is compiled alone as C++17 with g++
# and with clang++, and each public C header (emulator/include/cuemu/*.h)
# alone as C11 with gcc and with clang, all with warnings as errors. Each
# header is the only thing a two-line translation unit includes, by the name
# users write (<cuda_fp16.h>, <cuemu/cuemu.h>): compiled as the primary file
# or by absolute path, the #include_next of the shims' assert.h would warn.
# The unit first defines __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__, as the
# toolkit's own headers do, so that CUDA's internal headers do not give the
# warning nvcc gives a program that includes them itself.
# Stops at the first failure and shows it. A missing compiler is skipped
# with a message (with none at all the test is skipped, 77); where CI=true,
# where set-up has installed all four, a missing one fails (test_tools.sh).
# A header recorded in tests/headers_alone.txt as compiled alone by that
# compiler from the same bytes (its own and those of the headers it
# includes) is not compiled again.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
shims=${CUEMU_SHIMS_DIR:-$srcdir/shims/cuda_builtins}
include=${CUEMU_INCLUDE_DIR:-$srcdir/emulator/include}
. "$srcdir/tests/test_tools.sh"

have() { [ -n "$1" ] && command -v "$1" >/dev/null 2>&1; }

gxx=${GXX:-g++}
clangxx=${CLANGXX:-}
# The C compilers that go with the C++ ones: gcc next to g++, clang next to
# clang++.
gcc=$(printf '%s\n' "$gxx" | sed 's/g++\([^/]*\)$/gcc\1/')
clang=$(printf '%s\n' "$clangxx" | sed 's/clang++\([^/]*\)$/clang\1/')

log=$(mktemp "${TMPDIR:-/tmp}/headers_alone.XXXXXX") || exit 1
trap 'rm -f "$log"' EXIT

compilers=0
checked=0

# The headers that compiled alone before, with this compiler, from exactly
# these bytes, are not compiled again: tests/headers_alone.txt records them
# (scripts/headers_verified.py), except where CI=true.
PYTHON=${PYTHON:-python3}
verified="$PYTHON $srcdir/scripts/headers_verified.py --srcdir $srcdir --dir $shims --dir $include"
list=$(mktemp "${TMPDIR:-/tmp}/headers_alone.list.XXXXXX") || exit 1
pending=$(mktemp "${TMPDIR:-/tmp}/headers_alone.pending.XXXXXX") || exit 1
trap 'rm -f "$log" "$list" "$pending"' EXIT
flags="-fsyntax-only -Wall -Wextra -Werror"

# check COMPILER LANGUAGE-OPTIONS... -- PREFIX HEADER...: includes each
# HEADER as <PREFIX + its file name>.
check() {
  cc=$1
  shift
  opts=
  while [ "$1" != -- ]; do
    opts="$opts $1"
    shift
  done
  shift
  prefix=$1
  shift
  : >"$list"
  for hdr in "$@"; do
    [ -f "$hdr" ] && echo "$prefix$(basename "$hdr") $hdr" >>"$list"
  done
  # $verified is split into words on purpose.
  # shellcheck disable=SC2086
  $verified pending "$cc" "$opts $flags" "$list" >"$pending" || exit 1
  n=0
  while read -r name hdr; do
    # shellcheck disable=SC2086
    # Each header is included as CUDA's own headers include theirs: the
    # internal ones (device_functions.h, math_functions.h, ...) warn, as
    # nvcc's do, only when a program includes them itself
    # (tests/driver_internal_headers.sh).
    if ! printf '#define __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__\n#include <%s>\n' "$name" |
      "$cc" $opts $flags -I"$shims" -I"$include" - >"$log" 2>&1; then
      echo "FAIL: $cc$opts: #include <$name> ($hdr)"
      cat "$log"
      exit 1
    fi
    n=$((n + 1))
  done <"$pending"
  if [ "${CI:-}" != true ] && [ "$n" -gt 0 ]; then
    # shellcheck disable=SC2086
    $verified record "$cc" "$opts $flags" "$pending" || exit 1
  fi
  total=$(grep -c . "$list")
  checked=$((checked + total))
  echo "ok: $cc: $total headers ($n compiled now, $((total - n)) recorded before)"
}

for cxx in "$gxx" "$clangxx"; do
  if have "$cxx"; then
    compilers=$((compilers + 1))
    check "$cxx" -std=c++17 -x c++ -- "" "$shims"/*.h "$shims"/*.hpp
    check "$cxx" -std=c++17 -x c++ -- cooperative_groups/ \
      "$shims"/cooperative_groups/*.h
    check "$cxx" -std=c++17 -x c++ -- cooperative_groups/details/ \
      "$shims"/cooperative_groups/details/*.h
    check "$cxx" -std=c++17 -x c++ -- cuda/ "$shims"/cuda/*
    check "$cxx" -std=c++17 -x c++ -- crt/ "$shims"/crt/*.h
  elif [ "${CI:-}" = true ]; then
    tool_missing headers_alone.sh "C++ compiler '${cxx}' not found (GXX or" \
      "CLANGXX empty or wrong)"
  else
    echo "headers_alone.sh: C++ compiler '${cxx}' not found (GXX or CLANGXX" \
      "empty or wrong); its part is skipped"
  fi
done

for c in "$gcc" "$clang"; do
  if have "$c"; then
    compilers=$((compilers + 1))
    check "$c" -std=c11 -x c -- cuemu/ "$include"/cuemu/*.h
  elif [ "${CI:-}" = true ]; then
    tool_missing headers_alone.sh "C compiler '${c}' not found (derived from" \
      "GXX or CLANGXX)"
  else
    echo "headers_alone.sh: C compiler '${c}' not found (derived from GXX or" \
      "CLANGXX); its part is skipped"
  fi
done

[ "$compilers" -ne 0 ] || tool_missing headers_alone.sh "no compiler found"
echo "headers_alone.sh: $checked compiles passed"
