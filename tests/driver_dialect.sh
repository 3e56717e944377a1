#!/bin/sh
# driver_dialect.sh: -std=c++14 compiles the user's code as C++14, as nvcc
# does (issue 13). tests/driver/dialect/cxx17_only.cu needs C++17
# (std::optional, a template parameter of type auto, class template
# argument deduction): under -std=c++14 each is the host compiler's error
# at the user's file and line, and no message comes from cuemu's headers;
# without -std it builds and runs. cxx17_extensions.cu uses C++17 forms
# that the compilers accept under -std=c++14 with a warning at the user's
# line each (if constexpr, an inline variable, a structured binding, a
# fold expression), and runs (tests/driver.sh checks -std=c++11's note).
# With clang++ as the host compiler, -std=c++14 builds and runs
# tests/driver/cc13b/cxx14_launches.cu and the dialect program; with the
# default host compiler (g++), -std=c++14 builds and runs cxx14_launches.cu.
# With clang++, a constexpr template whose local is of non-literal type
# is still refused where a constant is needed (constexpr_nonliteral_
# constant.cu), and such a local in what is no template is refused
# (constexpr_nonliteral_plain.cu). With nvcc present, it is checked to
# agree.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
d=$srcdir/tests/driver/dialect
work=$(mktemp -d)
failed=0
fail() {
  echo "FAIL: $*"
  failed=1
}

# C++17-only code under -std=c++14: the compiler's errors, at the lines.
if (cd "$work" && "$nvcc" -std=c++14 -o only "$d/cxx17_only.cu") \
  >"$work/only.log" 2>&1; then
  fail "C++17-only code compiles with -std=c++14"
else
  missing=
  for at in "13:.*error: .optional. in namespace .std. does not name" \
    "17:.*error: .auto. parameter not permitted" \
    "20:.*error: missing template arguments before .both."; do
    grep -q "cxx17_only.cu:$at" "$work/only.log" || missing="$missing $at"
  done
  if [ -n "$missing" ]; then
    fail "-std=c++14: no error for$missing: $(cat "$work/only.log")"
  elif grep -q -e cuda_builtins -e '/include/cuemu/' "$work/only.log"; then
    fail "-std=c++14: a message from cuemu's headers: $(cat "$work/only.log")"
  else
    echo "PASS: C++17-only code under -std=c++14 is an error at each user's line"
  fi
fi
if (cd "$work" && "$nvcc" -o only "$d/cxx17_only.cu") >"$work/only17.log" 2>&1 &&
  "$work/only" >"$work/only.out" 2>&1 && grep -qx 8 "$work/only.out"; then
  echo "PASS: the same code builds and runs as C++17"
else
  fail "C++17: $(cat "$work/only17.log" "$work/only.out" 2>/dev/null)"
fi

# C++17 forms that -std=c++14 accepts with a warning each (compiled anew:
# a cache hit shows no warnings).
if (cd "$work" && CUEMU_NO_CACHE=1 "$nvcc" -std=c++14 -o ext \
  "$d/cxx17_extensions.cu") \
  >"$work/ext.log" 2>&1 &&
  "$work/ext" >"$work/ext.out" 2>&1 && grep -qx "6 30" "$work/ext.out"; then
  missing=
  for at in "12:.*warning: inline variables" "14:.*warning: fold-expressions" \
    "17:.*warning: .if constexpr." "24:.*warning: structured bindings"; do
    grep -q "cxx17_extensions.cu:$at" "$work/ext.log" || missing="$missing $at"
  done
  if [ -n "$missing" ]; then
    fail "-std=c++14: no warning for$missing: $(cat "$work/ext.log")"
  else
    echo "PASS: C++17 forms under -std=c++14 warn at the user's lines and run"
  fi
else
  fail "-std=c++14 extensions: $(cat "$work/ext.log" "$work/ext.out" 2>/dev/null)"
fi

# clang++ as the host compiler under -std=c++14, which takes no cast of a
# kernel's address as a template argument (g++ does): every launch form
# that the translation names by such a cast (cuemu_qualifiers.h,
# CUEMU_KERNEL_CAST_ARGS) builds and runs. Before, none did ("non-type
# template argument does not refer to any declaration").
launches=$srcdir/tests/driver/cc13b/cxx14_launches.cu
program=$srcdir/tests/programs/dialect/cxx14_program.cu
# g++ (the default host compiler) under -std=c++14 takes the casts, but
# not an overload set's pick as a template argument by its ::value: the
# overloaded kernels of cxx14_launches.cu did not build before
# (launch_constant, cuemu_kernel_thunks.h).
if (cd "$(dirname "$launches")" && CUEMU_NO_CACHE=1 "$nvcc" -std=c++14 \
  -o "$work/launches_gxx" "$(basename "$launches")") \
  >"$work/launches_gxx.log" 2>&1 &&
  "$work/launches_gxx" >"$work/launches_gxx.out" 2>&1 &&
  grep -qx PASS "$work/launches_gxx.out"; then
  echo "PASS: cxx14_launches with the default host compiler and -std=c++14"
else
  fail "cxx14_launches with -std=c++14: $(head -c 3000 \
    "$work/launches_gxx.log" "$work/launches_gxx.out" 2>/dev/null)"
fi
if command -v "${CLANGXX:-clang++}" >/dev/null 2>&1; then
  for source in "$launches" "$program"; do
    name=$(basename "$source" .cu)
    if (cd "$(dirname "$source")" && CUEMU_NO_CACHE=1 "$nvcc" \
      -ccbin "${CLANGXX:-clang++}" -std=c++14 -o "$work/$name" \
      "$(basename "$source")") >"$work/$name.log" 2>&1 &&
      "$work/$name" >"$work/$name.out" 2>&1 && grep -qx PASS "$work/$name.out"
    then
      echo "PASS: $name with clang++ -std=c++14"
    else
      fail "$name with clang++ -std=c++14: $(head -c 3000 "$work/$name.log" \
        "$work/$name.out" 2>/dev/null)"
    fi
  done
  # A local of non-literal type in a constexpr function: clang++ compiles
  # again without `constexpr` the templates that nvcc takes so
  # (cuemu_constexpr_locals.c, tests/programs/dialect/
  # constexpr_nonliteral_local.cu), and a call of one where a constant is
  # needed is still an error at the user's line; what is no template is
  # refused at its variable.
  for case in constant:11:must.be.initialized.by.a.constant \
    constant:12:not.an.integral.constant plain:11:non-literal \
    plain:14:non-literal plain:17:non-literal; do
    name=constexpr_nonliteral_${case%%:*}
    at=${case#*:}
    [ -f "$work/$name.log" ] ||
      if (cd "$work" && CUEMU_NO_CACHE=1 "$nvcc" -ccbin "${CLANGXX:-clang++}" \
        -c -o x.o "$d/$name.cu") >"$work/$name.log" 2>&1; then
        fail "$name.cu compiles"
      fi
    grep -q "$name.cu:${at%%:*}:.*error: .*${at#*:}" "$work/$name.log" ||
      fail "$name.cu: no error at line ${at%%:*}: $(head -c 3000 "$work/$name.log")"
  done
  grep -q "cannot be defined in a constexpr" \
    "$work/constexpr_nonliteral_constant.log" &&
    fail "constexpr_nonliteral_constant.cu: the template is refused itself"
else
  tool_missing driver_dialect.sh "clang++ is missing"
fi

# nvcc agrees.
real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ]; then
  (cd "$work" && "$real" -arch=sm_90 -std=c++14 -c -o x.o "$d/cxx17_only.cu") \
    >/dev/null 2>&1 &&
    fail "nvcc -std=c++14 compiles cxx17_only.cu: the test is wrong"
  (cd "$work" && "$real" -arch=sm_90 -c -o x.o "$d/cxx17_only.cu") \
    >/dev/null 2>&1 ||
    fail "nvcc fails on cxx17_only.cu: the test is wrong"
  (cd "$work" && "$real" -arch=sm_90 -std=c++14 -c -o x.o \
    "$d/cxx17_extensions.cu") >/dev/null 2>&1 ||
    fail "nvcc -std=c++14 fails on cxx17_extensions.cu: the test is wrong"
  (cd "$work" && "$real" -arch=sm_90 -ccbin "${CLANGXX:-clang++}" \
    -std=c++14 -c -o x.o "$launches") >/dev/null 2>&1 ||
    fail "nvcc -ccbin clang++ -std=c++14 fails on cxx14_launches.cu"
  for name in constant plain; do
    (cd "$work" && "$real" -arch=sm_90 -c -o x.o \
      "$d/constexpr_nonliteral_$name.cu") >/dev/null 2>&1 &&
      fail "nvcc takes constexpr_nonliteral_$name.cu: the test is wrong"
  done
fi

rm -rf "$work"
exit "$failed"
