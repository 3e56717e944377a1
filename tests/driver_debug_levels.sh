#!/bin/sh
# driver_debug_levels.sh: the optimisation macros that a unit's code sees,
# and the level at which cuemu compiles its device pass, for each set of
# options.
#
# The macros are nvcc's: nvcc 13.0 preprocesses both passes with the host
# compiler's options and its own -O alone (`nvcc -dryrun`: its `gcc -E`
# has no -O of nvcc's, -O0 is dropped, -O1 to -O3 follow -Xcompiler's
# options), so device and host code both see __NO_INLINE__ without -O, with
# -O0, -g, -G and -lineinfo, and __OPTIMIZE__ from -O1 on (-G -O3
# included); -Xcompiler -Os adds __OPTIMIZE_SIZE__. Before, cuemu-nvcc's
# device pass was preprocessed at its own -O2 and saw __OPTIMIZE__ without
# -O and with -g. debug_levels.cu prints its macros as a number (1
# __OPTIMIZE__, 2 __NO_INLINE__, 4 __OPTIMIZE_SIZE__) and, built with
# -DEXPECT_MACROS, fails to compile in a pass that sees others: real nvcc
# builds it with each row's options and number (recorded in
# tests/nvcc_builds.txt), so the table is nvcc's.
#
# The level is cuemu's: the device pass's compile stays optimised (-O2),
# as nvcc's device code does without -G, whatever the macros; -G compiles
# it at -O0 (-G -O3 too, so that gdb sees a kernel's locals). Before,
# nvcc's -g compiled it at -O0 too, and the Makefiles of "Learn CUDA
# Programming" (all built with -g) ran their cooperative-groups reductions
# ten times slower than without it (trial book3). The level is read from
# the compile commands themselves: the compilers are wrappers that log
# their commands, with an empty cache for each build so that every
# compile runs; the device pass's compile is the command with -ffp-contract, and
# its level its last -O.
#
# `-O3 -Xcompiler -O0`: nvcc puts its -O3 last, so both passes see
# __OPTIMIZE__, and so do cuemu-nvcc's, whose preprocessing puts nvcc's -O
# last too; its compiles keep the user's order, at -O0 (its tests build
# CCCL programs so: docs/thrust.md, Cost). Where nvcc differs still:
# `-Xcompiler -O3 -O0` (nvcc drops its -O0: __OPTIMIZE__) is seen at -O0.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
nvcc=$(cd "$builddir" && pwd)/cuemu-nvcc
cc=$(cd "$builddir" && pwd)/cuemu-cc
file=$srcdir/tests/driver/debug_levels/debug_levels.cu
work=$(mktemp -d)
failed=0
real=$(find_nvcc 2>/dev/null)
[ -n "${CUEMU_SKIP_NVCC:-}" ] && real=

# The logging wrappers of g++ and clang++ (clang++'s where it is found).
mkdir "$work/bin"
for compiler in "${GXX:-g++}" "${CLANGXX:-clang++}"; do
  path=$(command -v "$compiler") || continue
  case $compiler in *clang*) name=clang++ ;; *) name=g++ ;; esac
  printf '#!/bin/sh\nprintf "%%s\\n" "$*" >>"%s/commands.log"\nexec "%s" "$@"\n' \
    "$work" "$path" >"$work/bin/$name"
  chmod +x "$work/bin/$name"
done
CUEMU_CACHE_DIR=$work/cache
export CUEMU_CACHE_DIR

# expect COMPILER "OPTIONS" MACROS LEVEL: cuemu-nvcc with -ccbin COMPILER
# (cuemu-cc with CXX=COMPILER where COMPILER is cc:g++) builds the program
# with OPTIONS, whose passes both see MACROS, and compiles its device pass
# at LEVEL; real nvcc (-ccbin COMPILER) builds it with OPTIONS and MACROS.
expect() {
  compiler=${1#cc:}
  wrapper=$work/bin/$compiler
  label="$1 $2"
  if [ ! -x "$wrapper" ]; then
    echo "SKIP: $label: no $compiler"
    return
  fi
  : >"$work/commands.log"
  rm -rf "$work/cache"
  # shellcheck disable=SC2086 # OPTIONS is a list of words
  case $1 in
  cc:*) built() { CXX=$wrapper "$cc" $2 -DEXPECT_MACROS="$3" -o prog "$file"; } ;;
  *) built() { "$nvcc" -ccbin "$wrapper" $2 -DEXPECT_MACROS="$3" -o prog "$file"; } ;;
  esac
  if ! (cd "$work" && built "$@") >"$work/build.log" 2>&1; then
    fail "$label: the build failed"
    sed 's/^/  | /' "$work/build.log" | head -20
    return
  fi
  got=$("$work/prog" 2>&1)
  if [ "$got" != "device $3 host $3" ]; then
    fail "$label: '$got', expected 'device $3 host $3'"
  fi
  level=$(grep -e '-ffp-contract=' "$work/commands.log" | tail -n 1 |
    tr ' ' '\n' | grep '^-O' | tail -n 1)
  if [ "${level:--O0}" != "$4" ]; then
    fail "$label: the device pass compiled at '${level:--O0}', expected $4"
  fi
  case $1 in cc:*) return ;; esac
  if [ -n "$real" ]; then
    name=$(printf '%s' "$1 $2" | tr -c 'A-Za-z0-9+=-' _)
    # shellcheck disable=SC2086
    step "nvcc-$name" nvcc_build "driver_debug_levels.sh:$name" "$real" \
      -ccbin "$1" -std=c++17 $2 -DEXPECT_MACROS="$3" -c "$file" -o nvcc.o
  fi
}

before=$failed
expect g++ "" 2 -O2
expect g++ "-O0" 2 -O2
expect g++ "-O3" 1 -O2
expect g++ "-g" 2 -O2
expect g++ "-g -rdc=true" 2 -O2
expect g++ "-lineinfo" 2 -O2
expect g++ "-G" 2 -O0
expect g++ "-G -O3" 1 -O0
expect g++ "-Xcompiler -Os" 5 -Os
expect g++ "-O0 -Xcompiler -O2" 1 -O2
expect g++ "-O3 -Xcompiler -O0" 1 -O0
expect clang++ "" 2 -O2
expect clang++ "-O2" 1 -O2
expect clang++ "-G" 2 -O0
# cuemu-cc's -g is cuemu's debug build: every pass at -O0
# (docs/debugging.md); its macros are the user's level, as nvcc's.
expect cc:g++ "" 2 -O2
expect cc:g++ "-g" 2 -O0
[ "$failed" = "$before" ] &&
  echo "PASS: nvcc's optimisation macros in both passes, device code compiled at -O2 (-O0 with -G)"

rm -rf "$work"
[ "$failed" = 0 ]
