#!/bin/sh
# device_refusals.sh: device code that nvcc refuses is refused by
# cuemu-nvcc too, at the user's line and in nvcc's words
# (tests/driver/devref/device_refusals.cu, one form per -DCASE=N, each
# line marked `// case N: MESSAGE`): GCC's built-in functions that nvcc
# takes for host functions (__builtin_trap, __builtin_add_overflow, ...);
# the runtime API's host-only functions (cudaLaunchKernel, cudaMemcpy);
# without -rdc, an extern __device__ or __constant__ variable and its
# definition in one file (nvcc makes the extern one a definition too).
# Without CASE, the near misses that nvcc accepts (__trap(),
# __builtin_clz, checked arithmetic in host code and in a __host__
# __device__ function) build and run. With nvcc present, it is checked to
# refuse each case with the same message at the same line, and to accept
# the rest.
# With DEVREF_SOURCE=space_refusals.cu (tests/device_space_refusals.sh),
# the same for that file's cases, refused by cuemu's GCC plugin, with
# --expt-relaxed-constexpr and --extended-lambda. With DEVREF_CXX=clang++
# as well (tests/device_space_refusals_clang.sh), by cuemu's clang plugin:
# the cases compiled in a unit that includes Thrust (-DSPACE_THRUST, which
# cuemu-nvcc gives clang++), the strict ones with -ccbin clang++; nvcc's
# refusals are left to the g++ run, and the near misses are built with
# Thrust (and by nvcc, recorded in tests/nvcc_builds.txt). The cases of
# a `// clang++ cases:` line are refused by the clang plugin only (g++ has
# folded their constant expressions before its plugin sees them, or they
# include Thrust): the g++ run leaves them to nvcc, but those of a
# `// library cases:` line (refused in CUB's and Thrust's device code). The strict cases' compile (without
# --expt-relaxed-constexpr) refuses no line marked `// strict near miss`.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing device_refusals.sh "$nvcc is not built"

source=${DEVREF_SOURCE:-device_refusals.cu}
cxx=${DEVREF_CXX:-}
work=$builddir_abs/tests/tmp/${source%.cu}${cxx:+-$cxx}.$$
mkdir -p "$work" || exit 1
failed=0
src=$srcdir/tests/driver/devref/$source
real=$(find_nvcc 2>/dev/null)
options=
cases=$(sed -n 's|.*// case \([0-9]*\): .*|\1|p' "$src")
# The options of the refused cases and of the strict ones (cuemu-nvcc's).
cuemu_options=
strict_options=
if [ "$source" = space_refusals.cu ]; then
  options="--expt-relaxed-constexpr --extended-lambda"
  # Refused by cuemu's GCC plugin, built where configure found GCC's
  # plugin headers, or with clang++ by its clang plugin, built where
  # configure found clang's headers.
  plugin=cuemu_gcc_plugin.so
  if [ -n "$cxx" ]; then
    command -v "$cxx" >/dev/null 2>&1 ||
      tool_missing "device_refusals.sh" "no $cxx"
    plugin=cuemu_clang_plugin.so
    cuemu_options=-DSPACE_THRUST
    strict_options="-ccbin $cxx"
  fi
  if [ ! -f "${CUEMU_LIB_DIR:-$builddir_abs/.libs}/$plugin" ]; then
    echo "device_refusals.sh: no $plugin: $source's refusals not tested"
    cases=
  fi
fi

# The cases that the file's `// strict cases: N...` line names compile
# without those options.
strict=" $(sed -n 's|.*// strict cases: ||p' "$src" | tr '\n' ' ') "
clang_only=" $(sed -n 's|.*// clang++ cases: ||p' "$src" | tr '\n' ' ') "
# The cases of a `// library cases:` line are refused by nvcc at a line of
# CUB's or Thrust's headers, and it costs more than the rest of the file
# to compile them: their nvcc words are taken by hand (docs/nvcc-checks.md).
library=" $(sed -n 's|.*// library cases: ||p' "$src" | tr '\n' ' ') "

# refused LOG N: whether LOG, cuemu-nvcc's, holds case N's message at its
# line; nvcc_refused LOG N: nvcc's.
refused() {
  line=$(grep -n "// case $2: " "$src" | cut -d: -f1)
  message=$(sed -n "s|.*// case $2: ||p" "$src")
  grep -qF "$source:$line: $message" "$1" ||
    grep "$source:$line:[0-9]*: error: " "$1" | grep -qF "error: $message"
}
nvcc_refused() {
  line=$(grep -n "// case $2: " "$src" | cut -d: -f1)
  message=$(sed -n "s|.*// case $2: ||p" "$src")
  grep -qF "$source($line): error: $message" "$1" || grep -qF "$source:$line:" "$1"
}

# check_cases COMPILER LOG OPTIONS N...: compiles cases N... with COMPILER
# (cuemu or nvcc) and OPTIONS, checks each one's message at its line in
# the log (refused, nvcc_refused) and prints the cases not refused, each
# with its compile's log in $work/LOG.N. Where the file's `// cases
# together` line says that -DCASES=MASK turns several on, one compile holds
# them all, and the cases not found are compiled again without those
# found, since a compiler stops after the errors of one phase (nvcc's front
# end before its device-code checks, these before a __device__ variable's
# dynamic initialization): each case is still refused at its own line with
# its own message. When a compile finds none, the cases left are compiled
# one at a time, with -DCASE=N.
check_cases() {
  compiler=$1
  log=$2
  copts=$3
  shift 3
  single=$([ "$together_file" = yes ] || echo yes)
  left="$*"
  while [ -n "$left" ]; do
    # shellcheck disable=SC2086 # the cases are words
    set -- $left
    if [ -z "$single" ] && [ $# -gt 1 ]; then
      mask=0
      for n; do mask=$((mask | 1 << n)); done
      define=-DCASES=$mask
    else
      define=-DCASE=$1
      set -- "$1"
    fi
    # shellcheck disable=SC2086 # the options are words
    if [ "$compiler" = nvcc ]; then
      (cd "$work" && "$real" -std=c++17 -arch=sm_90 $copts $define -c -o nv.o "$src")
    else
      (cd "$work" && "$nvcc" $copts $define -c -o x.o "$src")
    fi >"$work/$log" 2>&1 && echo "(it compiles)" >>"$work/$log"
    found=
    for n; do
      if [ "$compiler" = nvcc ]; then
        nvcc_refused "$work/$log" "$n"
      else
        refused "$work/$log" "$n"
      fi && found="$found $n "
    done
    rest=
    for n in $left; do
      case $found in *" $n "*) ;; *) rest="$rest $n" ;; esac
    done
    if [ "$define" = "-DCASE=$1" ] && [ -z "$found" ]; then
      printf ' %s ' "$1"
      cp "$work/$log" "$work/$log.$1"
    elif [ -z "$found" ]; then
      single=yes
    fi
    [ "$define" = "-DCASE=$1" ] && rest=$(echo " $rest " | sed "s/ $1 / /")
    # shellcheck disable=SC2086 # the cases are words
    set -- $rest
    left="$*"
  done
}

together_file=no
grep -q '^// cases together$' "$src" && together_file=yes
# split CASES: the relaxed ones and the strict ones.
split() {
  relaxed=
  strict_cases=
  for n in $1; do
    case $strict in
      *" $n "*) strict_cases="$strict_cases $n" ;;
      *) relaxed="$relaxed $n" ;;
    esac
  done
}
cuemu_cases=
for n in $cases; do
  case "$cxx:$clang_only" in
    :*" $n "*) echo "SKIP: case $n: refused by the clang plugin only" ;;
    *) cuemu_cases="$cuemu_cases $n" ;;
  esac
done
split "$cuemu_cases"
missed=
# shellcheck disable=SC2086 # the cases are words
[ -n "$relaxed" ] && missed="$missed $(check_cases cuemu cuemu.log "$options $cuemu_options" $relaxed)"
# shellcheck disable=SC2086 # the cases are words
[ -n "$strict_cases" ] && missed="$missed $(check_cases cuemu cuemu-strict.log "$strict_options" $strict_cases)"
# The strict cases all together: no line marked `// strict near miss`
# refused.
near=$(grep -n '// strict near miss' "$src" | cut -d: -f1)
if [ -n "$strict_cases" ] && [ -n "$near" ] && [ "$together_file" = yes ]; then
  mask=0
  for n in $strict_cases; do mask=$((mask | 1 << n)); done
  # shellcheck disable=SC2086 # the options are words
  (cd "$work" && "$nvcc" $strict_options -DCASES=$mask -c -o x.o "$src") \
    >"$work/strict-all.log" 2>&1
  refused_near=
  for l in $near; do
    grep -q "$source:$l:[0-9]*: error: " "$work/strict-all.log" &&
      refused_near="$refused_near $l"
  done
  if [ -n "$refused_near" ]; then
    fail "the strict cases' compile refuses near misses at lines$refused_near:"
    grep "error: " "$work/strict-all.log" | head -5
  else
    echo "PASS: the strict cases' compile refuses no near miss beside them"
  fi
fi
for n in $cuemu_cases; do
  line=$(grep -n "// case $n: " "$src" | cut -d: -f1)
  message=$(sed -n "s|.*// case $n: ||p" "$src")
  case " $missed " in
    *" $n "*)
      fail "case $n: not refused at line $line with '$message':"
      sed 's/^/  | /' "$work/cuemu.log.$n" "$work/cuemu-strict.log.$n" 2>/dev/null | head -10 ;;
    *) echo "PASS: case $n refused at line $line: $message" ;;
  esac
done
if [ -n "$real" ] && [ -z "$cxx" ]; then
  nvcc_cases=
  for n in $cases; do
    case $library in *" $n "*) ;; *) nvcc_cases="$nvcc_cases $n" ;; esac
  done
  split "$nvcc_cases"
  missed=
  # shellcheck disable=SC2086 # the cases are words
  [ -n "$relaxed" ] && missed="$missed $(check_cases nvcc nvcc.log "$options" $relaxed)"
  # shellcheck disable=SC2086 # the cases are words
  [ -n "$strict_cases" ] && missed="$missed $(check_cases nvcc nvcc-strict.log "" $strict_cases)"
  for n in $missed; do
    fail "nvcc does not refuse case $n so (the test is wrong): $(cat "$work/nvcc.log.$n" "$work/nvcc-strict.log.$n" 2>/dev/null | head -3)"
  done
fi

# With relocatable device code, case 7's declaration and definition are
# one variable's.
if [ "$source" != device_refusals.cu ]; then
  : # device_refusals.cu's case 7 only
elif (cd "$work" && "$nvcc" -rdc=true -DCASE=7 -c -o rdc.o "$src") >"$work/rdc.log" 2>&1; then
  echo "PASS: with -rdc=true, an extern __constant__ and its definition build"
else
  fail "case 7 with -rdc=true: $(head -5 "$work/rdc.log")"
fi
if [ -n "$real" ] && [ "$source" = device_refusals.cu ]; then
  (cd "$work" && "$real" -std=c++17 -arch=sm_90 -rdc=true -DCASE=7 -c -o nv.o "$src") \
    >"$work/nvcc-rdc.log" 2>&1 ||
    fail "nvcc refuses case 7 with -rdc=true (the test is wrong): $(head -3 "$work/nvcc-rdc.log")"
fi

# shellcheck disable=SC2086 # the options are words
step fixed "$nvcc" $options $cuemu_options -o fixed "$src" &&
  passes "the near misses that nvcc accepts build and run${cxx:+ with $cxx}" ./fixed
if [ -n "$real" ] && [ -n "$cxx" ]; then
  # shellcheck disable=SC2086 # the options are words
  step nvcc-near-misses nvcc_build device_refusals.sh:$cxx-near-misses \
    "$real" -std=c++17 -arch=sm_90 $options $cuemu_options -c -o "$work/nv.o" "$src" ||
    fail "nvcc refuses the near misses with $cuemu_options (the test is wrong)"
elif [ -n "$real" ]; then
  # shellcheck disable=SC2086 # the options are words
  (cd "$work" && "$real" -std=c++17 -arch=sm_90 $options -o nv "$src") >"$work/nvcc.log" 2>&1 ||
    fail "nvcc refuses the near misses (the test is wrong): $(head -5 "$work/nvcc.log")"
fi

# A module (the form of NVRTC's and the PTX JIT's compiles) in which a
# __device__ variable is followed by a __device__ function's prototype,
# which the device pass marks as a variable it may have misread: the mark
# is the function's, not the variable's note (the clang plugin judged the
# note's initialization, and refused it as dynamic).
if [ "$source" = space_refusals.cu ]; then
  cat >"$work/prototype_after_variable.cu" <<'EOT'
__device__ float gain = 2.0f;
__device__ float twice(float x);
__device__ float twice(float x) { return gain * x; }
extern "C" __global__ void scale(float *p) { p[0] = twice(p[0]); }
EOT
  # shellcheck disable=SC2086 # the options are words
  step module-prototype "$nvcc" $strict_options --module \
    -o prototype_after_variable.so prototype_after_variable.cu &&
    echo "PASS: a module with a prototype after a __device__ variable builds${cxx:+ with $cxx}"
fi

rm -rf "$work"
exit "$failed"
