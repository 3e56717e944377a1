#!/bin/sh
# driver_nvcc_undeclared.sh: names that nvcc leaves undeclared where
# cuemu's shims declare them (docs/nvcc-checks.md, "Names nvcc refuses").
# tests/driver/undeclared/bare.cu uses uint32_t, uintptr_t and printf
# without <cstdint> and <cstdio>, which nvcc 13.0 refuses; cuemu-nvcc
# builds it with one warning for each, naming the file and line of its
# first use; included.cu (the headers included) and via_cuda_h.cu (cuda.h
# brings the types) build without a warning; std_bare.cu (C++ library
# headers that bring printf but not uint64_t) gets one warning and
# std_brings.cu (<memory> brings the types) none; curand_parts.cu
# (curand_normal.h, one of the headers curand_kernel.h includes) gets one
# for fprintf and one for printf; stdio_more.cu one for each of sscanf,
# fwrite and fputc; late_include.cu, whose header calls printf in a
# template before the .cu file includes <iostream>, one for printf at the
# header's line; own_typedef.cu, which declares uint8_t and uint16_t
# itself (typedef, using), none; bom_first_line.cu, saved with a UTF-8
# byte-order mark and CRLF line ends and including <cstdio> on its first
# line, none (the mark hid the #include from cuemu's own scan). With nvcc
# present, it is checked to refuse bare.cu, std_bare.cu, curand_parts.cu,
# stdio_more.cu and late_include.cu and to build the others.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing driver_nvcc_undeclared.sh "$nvcc is not built"

work=$builddir_abs/tests/tmp/driver_nvcc_undeclared.$$
mkdir -p "$work" || exit 1
failed=0
d=$srcdir/tests/driver/undeclared

# Each warning once, at the first use (the cache is not used: a hit
# compiles nothing, and says nothing).
# warned NAME EXPECTED...: each EXPECTED warning, once, in NAME's build.
warned() {
  log=$work/$1.log
  shift
  for expected in "$@"; do
    if [ "$(grep -c "warning : .*$expected" "$log")" = 1 ]; then
      echo "PASS: warned once: $expected"
    else
      fail "no warning $expected: $(cat "$log")"
    fi
  done
}

if step bare env CUEMU_NO_CACHE=1 "$nvcc" -o bare "$d/bare.cu"; then
  warned bare 'bare.cu:7: "uint32_t" is used without <cstdint>' \
    'bare.cu:10: "uintptr_t" is used without <cstdint>' \
    'bare.cu:11: "printf" is used without <cstdio>'
  [ "$(grep -c warning "$work/bare.log")" = 3 ] ||
    fail "bare.cu: not three warnings: $(cat "$work/bare.log")"
  passes "bare.cu runs" ./bare
fi
# The C++ library's headers: those that nvcc 13.0 leaves without
# <cstdint>'s types (std_bare.cu: one warning, at its line), and one that
# brings them (std_brings.cu: none).
if step std_bare env CUEMU_NO_CACHE=1 "$nvcc" -o std_bare "$d/std_bare.cu"; then
  if [ "$(grep -c warning "$work/std_bare.log")" = 1 ] &&
    grep -q 'std_bare.cu:9: "uint64_t" is used without <cstdint>' "$work/std_bare.log"; then
    echo "PASS: std_bare.cu: one warning, for uint64_t at its line"
  else
    fail "std_bare.cu: $(cat "$work/std_bare.log")"
  fi
  passes "std_bare.cu runs" ./std_bare
fi
# cuRAND's headers that curand_kernel.h includes (curand_normal.h...)
# bring no <cstdio> either: one warning for each name, at its first use.
if step curand_parts env CUEMU_NO_CACHE=1 "$nvcc" -o curand_parts "$d/curand_parts.cu"; then
  warned curand_parts 'curand_parts.cu:19: "fprintf" is used without <cstdio>' \
    'curand_parts.cu:20: "printf" is used without <cstdio>'
  passes "curand_parts.cu runs" ./curand_parts
fi
# More of <cstdio>'s names (a public cuRAND example's main calls sscanf).
if step stdio_more env CUEMU_NO_CACHE=1 "$nvcc" -o stdio_more "$d/stdio_more.cu"; then
  warned stdio_more 'stdio_more.cu:10: "sscanf" is used without <cstdio>' \
    'stdio_more.cu:18: "fwrite" is used without <cstdio>' \
    'stdio_more.cu:19: "fputc" is used without <cstdio>'
  passes "stdio_more.cu runs" ./stdio_more
fi
# A use before the #include that would declare the name: nvcc looks a
# template's names up where it is defined (a public queue's header).
if step late_include env CUEMU_NO_CACHE=1 "$nvcc" -o late_include "$d/late_include.cu"; then
  warned late_include 'late_include.cuh:7: "printf" is used without <cstdio>'
  [ "$(grep -c warning "$work/late_include.log")" = 1 ] ||
    fail "late_include.cu: not one warning: $(cat "$work/late_include.log")"
  passes "late_include.cu runs" ./late_include
fi
for name in included via_cuda_h std_brings own_typedef bom_first_line; do
  if step "$name" env CUEMU_NO_CACHE=1 "$nvcc" -o "$name" "$d/$name.cu"; then
    if grep -q warning "$work/$name.log"; then
      fail "$name.cu: a warning: $(cat "$work/$name.log")"
    else
      echo "PASS: $name.cu builds without a warning"
    fi
  fi
done
[ -x "$work/bom_first_line" ] && passes "bom_first_line.cu runs" ./bom_first_line

real=$(find_nvcc)
if [ -n "$real" ]; then
  refuses='! "$@"'
  (cd "$work" && nvcc_build driver_nvcc_undeclared.sh:nvcc-refuses-bare \
    sh -c "$refuses" sh "$real" -c -o bare.o "$d/bare.cu") >/dev/null 2>&1 ||
    fail "nvcc accepts bare.cu: the test is wrong"
  (cd "$work" && nvcc_build driver_nvcc_undeclared.sh:nvcc-refuses-std_bare \
    sh -c "$refuses" sh "$real" -c -o std_bare.o "$d/std_bare.cu") >/dev/null 2>&1 ||
    fail "nvcc accepts std_bare.cu: the test is wrong"
  (cd "$work" && nvcc_build driver_nvcc_undeclared.sh:nvcc-refuses-curand_parts \
    sh -c "$refuses" sh "$real" -c -o curand_parts.o "$d/curand_parts.cu") >/dev/null 2>&1 ||
    fail "nvcc accepts curand_parts.cu: the test is wrong"
  (cd "$work" && nvcc_build driver_nvcc_undeclared.sh:nvcc-refuses-stdio_more \
    sh -c "$refuses" sh "$real" -c -o stdio_more.o "$d/stdio_more.cu") >/dev/null 2>&1 ||
    fail "nvcc accepts stdio_more.cu: the test is wrong"
  (cd "$work" && nvcc_build driver_nvcc_undeclared.sh:nvcc-refuses-late_include \
    sh -c "$refuses" sh "$real" -c -o late_include.o "$d/late_include.cu") >/dev/null 2>&1 ||
    fail "nvcc accepts late_include.cu: the test is wrong"
  for name in included via_cuda_h std_brings own_typedef bom_first_line; do
    (cd "$work" && nvcc_build "driver_nvcc_undeclared.sh:nvcc-$name" \
      "$real" -c -o "$name.o" "$d/$name.cu") >/dev/null 2>&1 ||
      fail "nvcc refuses $name.cu: the test is wrong"
  done
fi

rm -rf "$work"
exit "$failed"
