#!/bin/sh
# nvcc_kernels.sh: every test kernel (tests/kernels/*.cu except the
# deliberately broken bad_*.cu), every test program (tests/programs/*.cu,
# the gdb tests' tests/gdb/*.cu and the checkers' deliberately buggy
# tests/buggy/**/*.cu) and every example (examples/**/*.cu) must
# also compile with the real CUDA toolkit, so that the shims never accept
# what CUDA rejects:
#   $NVCC -std=c++17 -arch=sm_90 -c FILE -o /dev/null
# run in the file's folder. A file may ask for more options with a line
# containing "NVCC_OPTIONS: ..." (paths relative to its folder). Two
# compiles run at a time. Without nvcc (NVCC, PATH, /usr/local/cuda/bin):
# skipped (77), or failed where CI=true (see test_tools.sh).
# With ccache on the PATH the compiles go through it (its own cache,
# ~/.cache/ccache unless CCACHE_DIR says otherwise): a file whose source,
# headers, options and nvcc are unchanged since a run that compiled it is
# not compiled again (ccache's direct mode hashes every included file).
# CUEMU_NVCC_CCACHE=0 compiles everything.
#
# A CI runner's compiler cache is cold, and compiling all of the files
# (over 500) there would take longer than the rest of the suite. So a file
# whose key is in tests/nvcc_verified.txt (scripts/nvcc_verified.py: nvcc's
# version, the options, the file's bytes and those of every header of the
# source tree it includes) is not compiled again: that nvcc compiled
# exactly those bytes when the record was written. Any change compiles it.
# `make nvcc-verified` (CUEMU_NVCC_RECORD=1) compiles what is not recorded
# and records it; CUEMU_NVCC_ALL=1 compiles every file, recorded or not.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"

NVCC=$(find_nvcc)
[ -n "$NVCC" ] ||
  tool_missing nvcc_kernels.sh "nvcc not found (NVCC, PATH, /usr/local/cuda/bin)"

launcher=""
if [ "${CUEMU_NVCC_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null 2>&1; then
  launcher=ccache
  # Paths under the source tree count relative, so that checkouts in other
  # folders (CI's fresh clone) share the entries.
  CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(cd "$srcdir" && pwd)}
  export CCACHE_BASEDIR
fi

work=$builddir/tests/tmp/nvcc.$$
mkdir -p "$work" || exit 1

# The list of files, one per line, in a stable order.
{
  for f in "$srcdir"/tests/kernels/*.cu; do
    case $(basename "$f") in
    bad_*) ;;
    *) [ -f "$f" ] && echo "$f" ;;
    esac
  done
  find "$srcdir/tests/programs" -name '*.cu' -type f | LC_ALL=C sort
  for f in "$srcdir"/tests/gdb/*.cu \
      "$srcdir"/tests/buggy/*.cu "$srcdir"/tests/buggy/modules/*.cu \
      "$srcdir"/tests/buggy/objects/*.cu; do
    [ -f "$f" ] && echo "$f"
  done
  find "$srcdir/examples" -name '*.cu' -type f 2>/dev/null | LC_ALL=C sort
} >"$work/all"

# The files to compile: those not recorded, or all of them.
base="-std=c++17 -arch=sm_90 -I tests/kernels"
verified="${PYTHON:-python3} $srcdir/scripts/nvcc_verified.py --srcdir $srcdir --nvcc $NVCC"
if [ "${CUEMU_NVCC_ALL:-0}" = 1 ]; then
  cp "$work/all" "$work/list"
else
  # $verified is split into words on purpose.
  # shellcheck disable=SC2086
  $verified --base "$base" pending "$work/all" >"$work/list" || exit 1
fi

# Compiles file $1 as job number $2; the log and the status go to $work.
compile() {
  dir=$(dirname "$1")
  name=$(basename "$1")
  extra=$(sed -n 's/.*NVCC_OPTIONS:[[:space:]]*\([^*]*\).*/\1/p' "$1" |
    head -n 1)
  # $extra is split into words on purpose.
  # shellcheck disable=SC2086
  # ccache caches only a real output file, so the object goes to $work.
  (cd "$dir" && $launcher "$NVCC" -std=c++17 -arch=sm_90 \
    -I"$srcdir/tests/kernels" $extra -c "$name" -o "$work/$2.o") \
    >"$work/$2.log" 2>&1
  echo $? >"$work/$2.status"
  rm -f "$work/$2.o"
}

n=0
while IFS= read -r file; do
  n=$((n + 1))
  compile "$file" "$n" &
  if [ $((n % 2)) -eq 0 ]; then
    wait
  fi
done <"$work/list"
wait

n=0
failed=0
while IFS= read -r file; do
  n=$((n + 1))
  rel=${file#"$srcdir"/}
  if [ "$(cat "$work/$n.status" 2>/dev/null)" = 0 ]; then
    echo "ok: $rel"
    echo "$file" >>"$work/ok"
  else
    echo "FAIL: $rel"
    cat "$work/$n.log"
    failed=$((failed + 1))
  fi
done <"$work/list"
total=$(wc -l <"$work/all")
if [ "${CUEMU_NVCC_RECORD:-0}" = 1 ]; then
  touch "$work/ok"
  # shellcheck disable=SC2086
  $verified --base "$base" record "$work/all" "$work/ok" || failed=$((failed + 1))
fi
rm -rf "$work"

echo "nvcc_kernels.sh: $total files, $((total - n)) compiled by this nvcc" \
  "before (tests/nvcc_verified.txt), $n compiled now," \
  "$failed failed${launcher:+ (through ccache)}"
[ "$total" -gt 0 ] && [ "$failed" -eq 0 ]
