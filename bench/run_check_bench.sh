#!/bin/sh
# run_check_bench.sh BENCH_SRCDIR: what each checker costs on the saxpy and
# the 256-thread reduction of bench_kernels.cu (docs/checkers.md). Never part
# of `make check`; run it from the top build directory:
#
#   CUEMU_CC=$PWD/cuemu-cc CUEMU_SHIMS_DIR=... CUEMU_INCLUDE_DIR=... \
#   CUEMU_LIB_DIR=$PWD/.libs sh bench/run_check_bench.sh /path/to/bench
#
# The kernels are built once per variant (no checkers, then --check=sync,
# race, mem, init, all), every buffer is registered with the checkers, and
# each variant is run in its own process with CUEMU_WORKERS=1 (the cost per
# core); the best of REPS launches counts. Prints a Markdown table of the
# times and of the slowdown over the unchecked build. Environment: LOG2N
# (default 20: 2^20 elements), REPS (default 5), CC.
# shellcheck disable=SC2086
set -u

if [ $# -ne 1 ] || [ ! -f "$1/bench_checkers.c" ]; then
  echo "usage: run_check_bench.sh BENCH_SRCDIR" >&2
  exit 2
fi
for v in CUEMU_CC CUEMU_SHIMS_DIR CUEMU_INCLUDE_DIR CUEMU_LIB_DIR; do
  eval "val=\${$v:-}"
  if [ -z "$val" ]; then
    echo "run_check_bench.sh: $v is not set" >&2
    exit 2
  fi
done
bench=$(cd "$1" && pwd)
log2n=${LOG2N:-20}
reps=${REPS:-5}
out=$(pwd)/bench/out/checkers
mkdir -p "$out" || exit 2

${CC:-cc} -O2 -I"$CUEMU_INCLUDE_DIR" "$bench/bench_checkers.c" \
  -o "$out/bench_checkers" -L"$CUEMU_LIB_DIR" -lcuemu \
  -Wl,-rpath,"$CUEMU_LIB_DIR" || exit 1

echo "| build | saxpy 2^$log2n (ms) | slowdown | reduction 2^$log2n (ms) | slowdown |"
echo "|---|---|---|---|---|"
base_s=
base_r=
for variant in none sync race mem init all; do
  opt=
  [ "$variant" = none ] || opt=--check=$variant
  if ! "$CUEMU_CC" --module $opt "$bench/bench_kernels.cu" \
      -o "$out/kernels.$variant.so" >"$out/$variant.build" 2>&1; then
    echo "run_check_bench.sh: cuemu-cc $opt failed:" >&2
    cat "$out/$variant.build" >&2
    exit 1
  fi
  if ! CUEMU_WORKERS=1 "$out/bench_checkers" "$out/kernels.$variant.so" \
      "$log2n" "$reps" >"$out/$variant.txt"; then
    echo "run_check_bench.sh: the $variant run failed" >&2
    exit 1
  fi
  s=$(sed -n 's/^saxpy_ns //p' "$out/$variant.txt")
  r=$(sed -n 's/^reduce_ns //p' "$out/$variant.txt")
  [ -n "$base_s" ] || { base_s=$s; base_r=$r; }
  awk -v v="$variant" -v s="$s" -v r="$r" -v bs="$base_s" -v br="$base_r" \
    'BEGIN { printf "| %s | %.2f | %.1fx | %.2f | %.1fx |\n", \
             v == "none" ? "no checkers" : "--check=" v, s / 1e6, s / bs, \
             r / 1e6, r / br }'
done
