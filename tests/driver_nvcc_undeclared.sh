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
# for fprintf and one for printf. With nvcc present, it is checked to
# refuse bare.cu, std_bare.cu and curand_parts.cu and to build the others.
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
if step bare env CUEMU_NO_CACHE=1 "$nvcc" -o bare "$d/bare.cu"; then
  for expected in 'bare.cu:7: "uint32_t" is used without <cstdint>' \
    'bare.cu:10: "uintptr_t" is used without <cstdint>' \
    'bare.cu:11: "printf" is used without <cstdio>'; do
    if [ "$(grep -c "warning : .*$expected" "$work/bare.log")" = 1 ]; then
      echo "PASS: warned once: $expected"
    else
      fail "no warning $expected: $(cat "$work/bare.log")"
    fi
  done
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
  for expected in 'curand_parts.cu:19: "fprintf" is used without <cstdio>' \
    'curand_parts.cu:20: "printf" is used without <cstdio>'; do
    if [ "$(grep -c "warning : .*$expected" "$work/curand_parts.log")" = 1 ]; then
      echo "PASS: warned once: $expected"
    else
      fail "no warning $expected: $(cat "$work/curand_parts.log")"
    fi
  done
  passes "curand_parts.cu runs" ./curand_parts
fi
for name in included via_cuda_h std_brings; do
  if step "$name" env CUEMU_NO_CACHE=1 "$nvcc" -o "$name" "$d/$name.cu"; then
    if grep -q warning "$work/$name.log"; then
      fail "$name.cu: a warning: $(cat "$work/$name.log")"
    else
      echo "PASS: $name.cu builds without a warning"
    fi
  fi
done

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
  for name in included via_cuda_h std_brings; do
    (cd "$work" && nvcc_build "driver_nvcc_undeclared.sh:nvcc-$name" \
      "$real" -c -o "$name.o" "$d/$name.cu") >/dev/null 2>&1 ||
      fail "nvcc refuses $name.cu: the test is wrong"
  done
fi

rm -rf "$work"
exit "$failed"
