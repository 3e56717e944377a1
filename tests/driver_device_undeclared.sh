#!/bin/sh
# driver_device_undeclared.sh: names declared nowhere in a template that
# only the device pass sees and nothing instantiates (CGBN's device-only
# headers) build, as with nvcc, whose device pass does not parse such a
# template: g++ refuses them at the definition, so cuemu-nvcc compiles the
# unit again with clang++ and -fdelayed-template-parsing in the device pass
# (cuemu_undeclared_names.c). tests/programs/dialect/
# device_template_undeclared.cu builds with the default compiler (with
# cuemu's note) and with -ccbin clang++, and prints PASS. What nvcc refuses
# stays refused (tests/driver/dialect/undeclared_*.cu): such a template that
# the host pass sees too (also a `using ::name;` that reads the same in both
# passes), one that a kernel instantiates, and a plain __device__ function. With nvcc present, it is checked to agree.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
d=$srcdir/tests/driver/dialect
program=$srcdir/tests/programs/dialect/device_template_undeclared.cu
work=$(mktemp -d)
failed=0
fail() {
  echo "FAIL: $*"
  failed=1
}

command -v "${CLANGXX:-clang++}" >/dev/null 2>&1 ||
  tool_missing driver_device_undeclared.sh "clang++ is missing"

# The program: with g++ (the default), then with clang++ chosen.
for ccbin in "" "${CLANGXX:-clang++}"; do
  if (cd "$work" && "$nvcc" ${ccbin:+-ccbin "$ccbin"} -o prog "$program") \
    >"$work/build.log" 2>&1 && "$work/prog" >"$work/out" 2>&1 &&
    grep -qx PASS "$work/out"; then
    [ -n "$ccbin" ] || grep -q "note: .*undeclared in templates.*-fdelayed-template-parsing" \
      "$work/build.log" || fail "no note with g++: $(cat "$work/build.log")"
  else
    fail "device_template_undeclared.cu ${ccbin:+(-ccbin $ccbin)}: $(head -c 3000 \
      "$work/build.log" "$work/out" 2>/dev/null)"
  fi
done

# -Xptxas -v reads a module of the unit, compiled as nvcc's device code
# alone: it must build too, and print ptxas's lines.
if ! (cd "$work" && "$nvcc" -Xptxas -v -o prog "$program") >"$work/ptxas.log" 2>&1 ||
  ! grep -q "ptxas info    : Used" "$work/ptxas.log"; then
  fail "device_template_undeclared.cu (-Xptxas -v): $(head -c 3000 "$work/ptxas.log")"
fi

# -cubin has no host pass, with nvcc as here: a template that nothing
# instantiates may name what is declared nowhere, even one that a whole
# program's host pass would see; an instantiated one stays refused.
if ! (cd "$work" && "$nvcc" -arch=sm_90 -cubin -o x.cubin \
  "$d/undeclared_both_passes.cu") >"$work/cubin.log" 2>&1; then
  fail "undeclared_both_passes.cu -cubin: $(head -c 3000 "$work/cubin.log")"
fi
if (cd "$work" && "$nvcc" -arch=sm_90 -cubin -o x.cubin \
  "$d/undeclared_instantiated.cu") >"$work/cubin2.log" 2>&1; then
  fail "undeclared_instantiated.cu -cubin compiles"
fi

# What nvcc refuses: the name at its line, in the compiler's words.
for case in both_passes:5 instantiated:7 plain_device:6 qualified_both:8; do
  name=undeclared_${case%%:*}
  line=${case##*:}
  if (cd "$work" && "$nvcc" -c -o x.o "$d/$name.cu") >"$work/$name.log" 2>&1; then
    fail "$name.cu compiles"
  elif ! grep -q "$name.cu:$line:.*error: .*nowhere_" "$work/$name.log"; then
    fail "$name.cu: no error at line $line: $(head -c 3000 "$work/$name.log")"
  fi
done

# nvcc agrees.
real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ]; then
  (cd "$work" && "$real" -arch=sm_90 -c -o x.o "$program") >/dev/null 2>&1 ||
    fail "nvcc refuses device_template_undeclared.cu: the test is wrong"
  for name in both_passes instantiated plain_device qualified_both; do
    (cd "$work" && "$real" -arch=sm_90 -c -o x.o "$d/undeclared_$name.cu") \
      >/dev/null 2>&1 && fail "nvcc takes undeclared_$name.cu: the test is wrong"
  done
  (cd "$work" && "$real" -arch=sm_90 -cubin -o x.cubin "$d/undeclared_both_passes.cu") \
    >/dev/null 2>&1 || fail "nvcc -cubin refuses undeclared_both_passes.cu: the test is wrong"
  (cd "$work" && "$real" -arch=sm_90 -cubin -o x.cubin "$d/undeclared_instantiated.cu") \
    >/dev/null 2>&1 && fail "nvcc -cubin takes undeclared_instantiated.cu: the test is wrong"
fi

rm -rf "$work"
exit "$failed"
