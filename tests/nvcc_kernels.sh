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
      "$srcdir"/tests/buggy/*.cu "$srcdir"/tests/buggy/modules/*.cu; do
    [ -f "$f" ] && echo "$f"
  done
  find "$srcdir/examples" -name '*.cu' -type f 2>/dev/null | LC_ALL=C sort
} >"$work/list"

# Compiles file $1 as job number $2; the log and the status go to $work.
compile() {
  dir=$(dirname "$1")
  base=$(basename "$1")
  extra=$(sed -n 's/.*NVCC_OPTIONS:[[:space:]]*\([^*]*\).*/\1/p' "$1" |
    head -n 1)
  # $extra is split into words on purpose.
  # shellcheck disable=SC2086
  # ccache caches only a real output file, so the object goes to $work.
  (cd "$dir" && $launcher "$NVCC" -std=c++17 -arch=sm_90 \
    -I"$srcdir/tests/kernels" $extra -c "$base" -o "$work/$2.o") \
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
  else
    echo "FAIL: $rel"
    cat "$work/$n.log"
    failed=$((failed + 1))
  fi
done <"$work/list"
rm -rf "$work"

echo "nvcc_kernels.sh: $n files, $failed failed${launcher:+ (through ccache)}"
[ "$n" -gt 0 ] && [ "$failed" -eq 0 ]
