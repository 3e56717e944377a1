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
# CPU times and of the slowdown over the unchecked build. Environment: LOG2N
# (default 20: 2^20 elements), REPS (default 5), ROUNDS (default 3), CC,
# VARIANTS (default "none sync race mem init all"; none must be one of them)
# and OPTIONS, more options of every build (-ccbin clang++: the kernels as a
# clang++ unit).
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

# Every variant is built first, then run ROUNDS times (default 3), the
# variants alternating, so that load on a shared machine falls on all of
# them alike; each figure is the least CPU time of the process over its
# REPS launches and the rounds (what `make bench` [11] measures; this script
# runs those rows alone, with the targets of issue 19).
rounds=${ROUNDS:-3}
variants=${VARIANTS:-none sync race mem init all}
for variant in $variants; do
  opt=
  [ "$variant" = none ] || opt=--check=$variant
  if ! "$CUEMU_CC" --module $opt ${OPTIONS:-} "$bench/bench_kernels.cu" \
      -o "$out/kernels.$variant.so" >"$out/$variant.build" 2>&1; then
    echo "run_check_bench.sh: cuemu-cc $opt failed:" >&2
    cat "$out/$variant.build" >&2
    exit 1
  fi
done
: >"$out/samples.txt"
r=0
while [ $r -lt "$rounds" ]; do
  for variant in $variants; do
    if ! CUEMU_WORKERS=1 "$out/bench_checkers" "$out/kernels.$variant.so" \
        "$log2n" "$reps" >"$out/$variant.txt"; then
      echo "run_check_bench.sh: the $variant run failed" >&2
      exit 1
    fi
    sed "s/^/$variant /" "$out/$variant.txt" >>"$out/samples.txt"
  done
  r=$((r + 1))
done

echo "| build | saxpy 2^$log2n (ms CPU) | slowdown | target | reduction 2^$log2n (ms CPU) | slowdown | target |"
echo "|---|---|---|---|---|---|---|"
awk -v order="$variants" '
  $2 == "saxpy_cpu_ns" && (!($1 in s) || $3 < s[$1]) { s[$1] = $3 }
  $2 == "reduce_cpu_ns" && (!($1 in r) || $3 < r[$1]) { r[$1] = $3 }
  function verdict(x, limit) {
    return limit == "" ? "-" : sprintf("<= %s %s", limit, x <= limit ? "PASS" : "MISS")
  }
  END {
    n = split(order, v, " ")
    for (i = 1; i <= n; ++i) {
      limit = v[i] == "mem" || v[i] == "init" ? 10 : v[i] == "race" ? 30 : ""
      rlimit = v[i] == "mem" || v[i] == "init" || v[i] == "race" ? 2 : ""
      ss = s[v[i]] / s["none"]
      rr = r[v[i]] / r["none"]
      printf "| %s | %.2f | %.1fx | %s | %.2f | %.1fx | %s |\n",
             v[i] == "none" ? "no checkers" : "--check=" v[i], s[v[i]] / 1e6, ss,
             verdict(ss, limit), r[v[i]] / 1e6, rr, verdict(rr, rlimit)
    }
  }' "$out/samples.txt"
