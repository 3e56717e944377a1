#!/bin/sh
# driver_warnings.sh: the host compiler's warnings as nvcc shows them
# (issue 13). nvcc's host compiler never sees the bodies of kernels and
# __device__ functions, so `-Xcompiler -Wall,-Werror` fails for host code
# only, and each warning is shown once with the user's file, line and
# column. tests/driver/warnings has device code that g++ -Wall -Wextra
# warns about (a kernel template and a __device__ function in a header, a
# kernel and a __device__ function in another file) and, with
# -DHOST_WARNING, one comparison of host code (main.cu:19). Host code that
# calls a __device__ function is refused, and so is -std=c++14 with CUB,
# as nvcc refuses them; -std=c++14 and c++11 give no warning of a later
# dialect's (old_dialect.cu); messages name the program as invoked; a
# deprecated double4 warns with a readable note, at the user's uses only,
# once each (deprecated_vec.cu); a
# cache hit shows its build's warnings again; an error on a __device__
# variable's line, whose columns differ between the passes, is shown once
# (device_variable_error.cu), and names the source as the command line
# spells it; clang++'s quote of a kernel's line is the user's line
# (clang_quote_error.cu); a private field only __device__ members read
# builds with clang++ and -Werror (private_field.cu). With nvcc present, it is
# checked to agree.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing driver_warnings.sh "$nvcc is not built"

work=$(cd "$builddir" && pwd)/tests/tmp/driver_warnings.$$
mkdir -p "$work" || exit 1
failed=0
w=$srcdir/tests/driver/warnings

# Device code's warnings are not the host compiler's: the program builds
# with -Werror, silently, and runs.
step werror-clean "$nvcc" -arch=sm_90 -Xcompiler -Wall,-Werror -Xcompiler \
  -Wextra -o clean "$w/main.cu" "$w/dev.cu" &&
  passes "-Xcompiler -Wall,-Werror -Xcompiler -Wextra: device code's warnings are not shown" \
    ./clean
if grep -q "warning" "$work/werror-clean.log"; then
  fail "-Wall on device code printed warnings: $(cat "$work/werror-clean.log")"
fi

# The one host warning fails the build, named once at the user's place.
if (cd "$work" && "$nvcc" -arch=sm_90 -DHOST_WARNING -Xcompiler -Wall,-Werror \
  -Xcompiler -Wextra -c -o main.o "$w/main.cu") >"$work/host.log" 2>&1; then
  fail "-Werror: a host warning did not fail the build"
elif [ "$(grep -c 'error: ' "$work/host.log")" = 1 ] &&
  grep -q 'main.cu:19:14: error: comparison of integer expressions' "$work/host.log" &&
  ! grep -q -e 'kernels.cuh:' -e 'cuda_builtins' "$work/host.log"; then
  echo "PASS: -Werror fails once, for the host code's warning (main.cu:19:14)"
else
  fail "-Werror with a host warning: $(cat "$work/host.log")"
fi

# A warning is shown at every build, also when the compile cache has the
# object (a Makefile project's second build showed none): twice the same
# compile, whose second is a cache hit where the first was not already.
for round in 1 2; do
  (cd "$work" && "$nvcc" -arch=sm_90 -DHOST_WARNING -Xcompiler -Wall \
    -c -o warned.o "$w/main.cu") >"$work/warned$round.log" 2>&1 ||
    fail "a host warning without -Werror failed the build: $(cat "$work/warned$round.log")"
done
if grep -q 'main.cu:19:14: warning: comparison of integer expressions' \
  "$work/warned2.log" && cmp -s "$work/warned1.log" "$work/warned2.log"; then
  echo "PASS: a cache hit shows the build's warning again"
else
  fail "warnings of a cache hit: $(cat "$work/warned1.log"; echo ---; cat "$work/warned2.log")"
fi

# An error in host code (which both passes compile) is shown once.
if (cd "$work" && "$nvcc" -arch=sm_90 -DHOST_ERROR -c -o main.o "$w/main.cu") \
  >"$work/error.log" 2>&1; then
  fail "an error in host code compiles"
elif [ "$(grep -c 'main.cu:12:.*error: ' "$work/error.log")" = 1 ]; then
  echo "PASS: an error in host code is shown once"
else
  fail "an error in host code: $(cat "$work/error.log")"
fi

# An error on a __device__ variable's line, which the passes translate
# apart (the columns differ), is shown once.
if (cd "$work" && "$nvcc" -c -o dve.o "$w/device_variable_error.cu") \
  >"$work/dve.log" 2>&1; then
  fail "an undeclared name in a __device__ variable's initializer compiles"
elif [ "$(grep -c 'device_variable_error.cu:6:.*error: ' "$work/dve.log")" = 1 ]; then
  echo "PASS: an error on a __device__ variable's line is shown once"
else
  fail "an error on a __device__ variable's line: $(cat "$work/dve.log")"
fi

# Messages spell the source as its command line does, as nvcc's do:
# `cuemu-nvcc -c warnings/device_variable_error.cu` from tests/driver
# names warnings/device_variable_error.cu:6, not the absolute path the
# passes preprocess by (a HeCBench Makefile's `nvcc -c main.cu` showed
# /abs/.../main.cu:192:19).
(cd "$w/.." && "$nvcc" -c -o "$work/dve_rel.o" warnings/device_variable_error.cu) \
  >"$work/dve_rel.log" 2>&1
if grep -q '^warnings/device_variable_error\.cu:6:[0-9]*: error: ' "$work/dve_rel.log" &&
  ! grep -q "$w/device_variable_error" "$work/dve_rel.log"; then
  echo "PASS: an error names the source as the command line spells it"
else
  fail "an error's file name: $(cat "$work/dve_rel.log")"
fi

# So does an error that cuemu's translation finds (a launch with too few
# arguments), which named the absolute path.
(cd "$w/.." && "$nvcc" -c -o "$work/count.o" warnings/launch_count_error.cu) \
  >"$work/count.log" 2>&1
if grep -q 'warnings/launch_count_error\.cu:13: too few arguments in function call' \
  "$work/count.log" && ! grep -q "$w/launch_count_error" "$work/count.log"; then
  echo "PASS: a translation error names the source as the command line spells it"
else
  fail "a translation error's file name: $(cat "$work/count.log")"
fi
# A kernel template's launch with more arguments than parameters: nvcc's
# error, not a static assertion inside the shims.
(cd "$w/.." && "$nvcc" -DTEMPLATE_LAUNCH -c -o "$work/count_t.o" \
  warnings/launch_count_error.cu) >"$work/count_t.log" 2>&1
if grep -q 'launch_count_error\.cu:15: no instance of function template "fill_t" matches the argument list' \
  "$work/count_t.log" && ! grep -q "static assert" "$work/count_t.log"; then
  echo "PASS: a kernel template's launch with too many arguments"
else
  fail "a kernel template's launch with too many arguments: $(cat "$work/count_t.log")"
fi
real=$(find_nvcc 2>/dev/null)
for define in -DNONE -DTEMPLATE_LAUNCH; do
  if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ] &&
    "$real" $define -c -o "$work/count_nv.o" "$w/launch_count_error.cu" \
      >/dev/null 2>&1; then
    fail "nvcc builds launch_count_error.cu $define (the test is wrong)"
  fi
done

# A message about a launch (a line that the translation rewrites) gives
# the user's column, with g++'s caret under it: g++ said 19:53, past the
# end of the line, and clang++ the same column of its translated line; so
# does a message after a macro's expansion on the line (21:30, the macro's
# name, for the undeclared name after it).
src=$w/launch_column_error.cu
for compiler in g++ clang++; do
  command -v "$compiler" >/dev/null 2>&1 || continue
  if (cd "$w/.." && "$nvcc" -ccbin "$compiler" -c -o "$work/col.o" \
    warnings/launch_column_error.cu) \
    >"$work/col_$compiler.log" 2>&1; then
    fail "$compiler: launch_column_error.cu compiles"
    continue
  fi
  bad=$(sed -n 's/.*launch_column_error\.cu:\([0-9]*\):\([0-9]*\):.*/\1 \2/p' \
    "$work/col_$compiler.log" | while read -r line column; do
    length=$(sed -n "${line}p" "$src" | wc -c)
    [ "$column" -le "$length" ] || echo "$line:$column"
  done)
  # The undeclared names after a macro's expansion, at their columns.
  a=$(sed -n 14p "$src" | awk '{print index($0, "missing_a")}')
  b=$(sed -n 21p "$src" | awk '{print index($0, "missing_b")}')
  if [ -z "$bad" ] &&
    grep -q 'launch_column_error\.cu:19:3: error: ' "$work/col_$compiler.log" &&
    grep -q 'launch_column_error\.cu:20:[0-9]*: error: ' "$work/col_$compiler.log" &&
    grep -q "launch_column_error\.cu:14:$a: error: " "$work/col_$compiler.log" &&
    grep -q "launch_column_error\.cu:21:$b: error: " "$work/col_$compiler.log"; then
    echo "PASS: $compiler: the launches' errors give the user's columns"
  else
    fail "$compiler: columns past the line ($bad): $(cat "$work/col_$compiler.log")"
  fi
done
if grep -A2 'launch_column_error\.cu:19:3: error: ' "$work/col_g++.log" |
  grep -q '^ *| *  ^$'; then
  echo "PASS: g++'s caret stands under the column"
else
  fail "g++'s caret: $(cat "$work/col_g++.log")"
fi
if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ] &&
  "$real" -c -o "$work/col_nv.o" "$src" >/dev/null 2>&1; then
  fail "nvcc builds launch_column_error.cu (the test is wrong)"
fi

# An undeclared name among a launch's arguments gives one error, as nvcc's:
# g++ added "template argument 1 is invalid" on the launch's line, about
# the translation's check of the arguments (trialcsc).
if (cd "$w/.." && "$nvcc" -c -o "$work/arg.o" warnings/launch_argument_error.cu) \
  >"$work/arg.log" 2>&1; then
  fail "launch_argument_error.cu compiles"
elif [ "$(grep -c ': error: ' "$work/arg.log")" = 1 ] &&
  grep -q "launch_argument_error\.cu:7:[0-9]*: error: .*missing_value" "$work/arg.log"; then
  echo "PASS: a launch's undeclared argument gives one error"
else
  fail "a launch's undeclared argument: $(cat "$work/arg.log")"
fi
if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ] &&
  "$real" -c -o "$work/arg_nv.o" "$w/launch_argument_error.cu" >/dev/null 2>&1; then
  fail "nvcc builds launch_argument_error.cu (the test is wrong)"
fi

# A host call of a __device__ function is an error, as with nvcc.
if (cd "$work" && "$nvcc" -c -o host_call.o "$w/host_call.cu") \
  >"$work/host_call.log" 2>&1; then
  fail "a host function that calls a __device__ function compiles"
elif grep -q 'host_call.cu:10:.*calling a __device__ function("plus_one") from a __host__ function is not allowed' \
  "$work/host_call.log"; then
  echo "PASS: a host call of a __device__ function is refused"
else
  fail "host call of a __device__ function: $(cat "$work/host_call.log")"
fi

# -std=c++14 with CUB: refused as nvcc refuses it.
if (cd "$work" && "$nvcc" -std=c++14 -c -o old.o "$w/old_dialect_cub.cu") \
  >"$work/old.log" 2>&1; then
  fail "-std=c++14 with CUB compiles"
elif grep -q 'CUB requires at least C++17' "$work/old.log"; then
  echo "PASS: -std=c++14 with CUB is refused, as nvcc refuses it"
else
  fail "-std=c++14 with CUB: $(cat "$work/old.log")"
fi

# -std=c++14 (compiled as C++14) and -std=c++11 (compiled as C++14): no
# warning about what C++17 deprecates or removes (`register`,
# std::iterator, std::not1) or what C++14 deprecates, as nvcc gives none;
# a .c file in the same build takes no C++ option.
for dialect in c++14 c++11; do
  if (cd "$work" && "$nvcc" -std=$dialect -Xcompiler -Wall,-Wextra,-Werror \
    -o old_$dialect "$w/old_dialect.cu" "$w/plain.c") >"$work/old_$dialect.log" 2>&1 &&
    ! grep -q -e warning -e error "$work/old_$dialect.log" &&
    "$work/old_$dialect" >"$work/old_$dialect.out" 2>&1 &&
    grep -q PASS "$work/old_$dialect.out"; then
    echo "PASS: -std=$dialect -Xcompiler -Wall,-Wextra,-Werror: no warning of a later dialect's"
  else
    fail "-std=$dialect: $(cat "$work/old_$dialect.log" "$work/old_$dialect.out" 2>/dev/null)"
  fi
done

# Messages name the program as invoked, in nvcc's form under nvcc's name
# ("nvcc fatal   : ..."); -Xptxas -v is no -v of nvcc's own (ptxas's -v
# prints each kernel's resources, tests/driver_keep_options.sh; other ptxas
# options are noted).
(cd "$work" && "$nvcc" -arch=sm_12 -c -o arch.o "$w/plain.c") >"$work/name.log" 2>&1
(cd "$work" && "$builddir_abs/cuemu-cc" -arch=sm_12 -c -o arch.o "$w/plain.c") \
  >"$work/name_cc.log" 2>&1
if [ "$(head -n 1 "$work/name.log")" = "cuemu-nvcc fatal   : Unsupported gpu architecture 'sm_12'" ] &&
  [ "$(head -n 1 "$work/name_cc.log")" = "cuemu-cc: Unsupported gpu architecture 'sm_12'" ]; then
  echo "PASS: messages name cuemu-nvcc and cuemu-cc as invoked"
else
  fail "program names in messages: $(cat "$work/name.log" "$work/name_cc.log")"
fi
if (cd "$work" && "$nvcc" -Xptxas -v,-dlcm=cg -c -o ptxas.o "$w/plain.c") \
  >"$work/ptxas.log" 2>&1 && ! grep -q '^#\$' "$work/ptxas.log" &&
  grep -q "^cuemu-nvcc: note: -Xptxas -dlcm=cg is accepted and ignored" "$work/ptxas.log"; then
  echo "PASS: -Xptxas -dlcm=cg is noted, and -Xptxas -v is not nvcc's -v"
else
  fail "-Xptxas -v: $(cat "$work/ptxas.log")"
fi

# An output that is not a file (a FIFO here; `-o /dev/null` alike) is
# written, never replaced, as the compilers write it.
if command -v mkfifo >/dev/null 2>&1 && mkfifo "$work/out.fifo"; then
  (timeout 120 cat "$work/out.fifo" >"$work/fifo.bytes") &
  reader=$!
  (cd "$work" && "$nvcc" -c -o out.fifo "$w/host_call.cu" -DPLUS_ONE_ONLY) \
    >"$work/fifo.log" 2>&1
  wait "$reader"
  if [ -p "$work/out.fifo" ] && [ -s "$work/fifo.bytes" ]; then
    echo "PASS: -o FIFO: written through, not replaced"
  else
    fail "-o FIFO: replaced or not written: $(cat "$work/fifo.log")"
  fi
fi

# nvcc agrees: the same builds pass and fail. Each check is an nvcc_build
# (tests/test_tools.sh), run unless tests/nvcc_builds.txt records that this
# nvcc gave that verdict on exactly these bytes; a refusal is the build of
# `sh -c '! "$@"'` around nvcc's command.
real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ]; then
  refuses='! "$@"'
  (cd "$work" && nvcc_build driver_warnings.sh:nvcc-dev-werror "$real" \
    -arch=sm_90 -Xcompiler -Wall,-Werror -c -o dev.o "$w/dev.cu") >/dev/null 2>&1 ||
    fail "nvcc -Xcompiler -Wall,-Werror fails on dev.cu: the test is wrong"
  (cd "$work" && nvcc_build driver_warnings.sh:nvcc-clang-private-field "$real" \
    -ccbin clang++ -arch=sm_90 -Xcompiler -Wall,-Wextra,-Werror -c \
    -o private_field.o "$w/private_field.cu") >/dev/null 2>&1 ||
    fail "nvcc -ccbin clang++ -Werror fails on private_field.cu: the test is wrong"
  (cd "$work" && nvcc_build driver_warnings.sh:nvcc-refuses-host-warning \
    sh -c "$refuses" sh "$real" -arch=sm_90 -DHOST_WARNING -Xcompiler \
    -Wall,-Werror -c -o main.o "$w/main.cu") >/dev/null 2>&1 ||
    fail "nvcc accepts main.cu's host warning with -Werror: the test is wrong"
  (cd "$work" && nvcc_build driver_warnings.sh:nvcc-refuses-host-call \
    sh -c "$refuses" sh "$real" -c -o host_call.o "$w/host_call.cu") \
    >/dev/null 2>&1 ||
    fail "nvcc accepts host_call.cu: the test is wrong"
  (cd "$work" && nvcc_build driver_warnings.sh:nvcc-refuses-cub-c++14 \
    sh -c "$refuses" sh "$real" -std=c++14 -c -o old.o \
    "$w/old_dialect_cub.cu") >/dev/null 2>&1 ||
    fail "nvcc accepts CUB with -std=c++14: the test is wrong"
  for dialect in c++14 c++11; do
    (cd "$work" && nvcc_build driver_warnings.sh:nvcc-old-dialect-$dialect \
      "$real" -arch=sm_90 -std=$dialect -Xcompiler -Wall,-Wextra,-Werror \
      -c -o old.o "$w/old_dialect.cu") >/dev/null 2>&1 ||
      fail "nvcc -std=$dialect -Werror fails on old_dialect.cu: the test is wrong"
  done
  (cd "$work" && nvcc_build driver_warnings.sh:nvcc-unknown-arch-words \
    sh -c '"$@" 2>&1 | head -n 1 | grep -q "^nvcc fatal   : Unsupported gpu architecture .sm_12.\$"' \
    sh "$real" -arch=sm_12 -c -o arch.o "$w/plain.c") >/dev/null 2>&1 ||
    fail "nvcc words an unknown architecture otherwise: the test is wrong"
fi

# A use of a vector type that CUDA 13 deprecates (double4) warns as with
# nvcc, and g++'s "declared here" shows a short line of vector_types.h:
# the shim's macro expansion was one preprocessed line, and the note's
# caret line was over 2,900 columns wide (trialshoc).
if (cd "$work" && "$nvcc" -o deprecated_vec "$w/deprecated_vec.cu") \
  >"$work/deprecated.log" 2>&1 && (cd "$work" && ./deprecated_vec) |
  grep -qx PASS && grep -q "'double4' is deprecated: use double4_16a or double4_32a\|‘double4’ is deprecated: use double4_16a or double4_32a" \
    "$work/deprecated.log" && grep -q "vector_types.h:[0-9]*:[0-9]*: note: declared here" \
    "$work/deprecated.log" &&
  [ "$(awk '{ if (length($0) > n) n = length($0) } END { print n + 0 }' "$work/deprecated.log")" -lt 300 ]; then
  echo "PASS: a deprecated double4 warns, its note shows a short line"
else
  fail "double4's deprecation: $(cut -c1-200 "$work/deprecated.log" | head -12)"
fi

# Every warning is at a line of the user's that names double4: none at the
# kernel's closing brace, after which the translation declares the
# kernel's picker with the same parameter types (cuemu_kernel_picker.c).
stray=
for line in $(sed -n 's/.*deprecated_vec\.cu:\([0-9]*\):[0-9]*: warning.*/\1/p' \
  "$work/deprecated.log" | sort -u); do
  sed -n "${line}p" "$w/deprecated_vec.cu" | grep -q double4 || stray="$stray $line"
done
if [ -z "$stray" ]; then
  echo "PASS: double4's deprecation warns only at the user's uses"
else
  fail "double4's deprecation warns at lines$stray, which do not name it: $(grep 'warning' "$work/deprecated.log")"
fi

# Each use warns once, as with nvcc: the kernel's parameter's declaration,
# which the translation repeats in the host pass, warned twice at one place
# (print_pass_messages() leaves out a message a pass repeats).
repeated=$(grep 'deprecated_vec\.cu:[0-9]*:[0-9]*: warning' "$work/deprecated.log" |
  sort | uniq -d)
if [ -z "$repeated" ]; then
  echo "PASS: each use of double4 warns once"
else
  fail "double4's deprecation warns twice at one place: $repeated"
fi

# clang++ (a unit that includes Thrust) quotes the line of the unit it
# compiled: a note at a kernel's line quoted cuemu's translation of it
# (CUEMU_KERNEL_HOST_FORWARD, _Pragma...) with the caret at its column 71;
# it quotes the user's line, the caret and the column on the kernel's name.
"$nvcc" -c "$srcdir/tests/driver/warnings/clang_quote_error.cu" \
  -o "$work/clang_quote.o" >"$work/clang_quote.log" 2>&1
if grep -q 'CUEMU_\|_Pragma\|cuemu_pick' "$work/clang_quote.log"; then
  fail "clang++'s quote shows cuemu's translation: $(cat "$work/clang_quote.log")"
elif grep -q 'clang_quote_error\.cu:10:17: note' "$work/clang_quote.log" &&
  grep -q '^__global__ void scale_amplitudes(T \*state' "$work/clang_quote.log"; then
  echo "PASS: clang++'s quote of a kernel's line is the user's line"
else
  fail "clang++'s note at the kernel's line: $(cat "$work/clang_quote.log")"
fi

# A private field that only __device__ members read is unused in the host
# pass; nvcc's cudafe++ tells a clang++ host compiler to ignore
# -Wunused-private-field (and -Wunused-parameter), so -Werror builds it
# (stdgpu's mutex_ref, trialstdgpu).
if "$nvcc" -ccbin clang++ -arch=sm_90 -Xcompiler -Wall,-Wextra,-Werror \
  -o "$work/private_field" "$w/private_field.cu" >"$work/private_field.log" 2>&1 &&
  [ "$("$work/private_field")" = PASS ] && ! grep -q warning "$work/private_field.log"; then
  echo "PASS: clang++ host pass: a field only device code reads builds with -Werror"
else
  fail "clang++ -Wall,-Werror, a field only device code reads: $(cat "$work/private_field.log")"
fi

rm -rf "$work"
exit "$failed"
