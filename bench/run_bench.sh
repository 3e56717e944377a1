#!/bin/sh
# run_bench.sh BENCH_SRCDIR: cuemu's benchmarks, run by `make bench`.
#
# Each benchmark prints "name: value (target ...) PASS|MISS" and the raw
# times behind it; the results also go, as a new section at the top, into
# BENCH_SRCDIR/RESULTS.md. Builds go to bench/out under the current
# directory (the top build directory when make runs this).
#
# The machine may be shared and noisy, so every variant is run several times,
# the variants of one comparison are interleaved (within one process where
# they share one libcuemu, by alternating processes where they do not), and
# the minimum of the samples is taken (noise only adds time); medians are
# printed beside it.
#
# Environment (set by `make bench`): CUEMU_CC (cuemu-cc of the build tree),
# CXX, CUEMU_SHIMS_DIR, CUEMU_INCLUDE_DIR, CUEMU_LIB_DIR, CUEMU_SRCDIR,
# CUEMU_BUILDDIR. Optional: CC (the C compiler for the driver; default: the
# build's), BENCH_STRICT=1 (exit 1 when a target is missed), BENCH_QUICK=1
# (fewer repetitions, for trying the harness out; the results are then not
# written to RESULTS.md).
#
# "set -- $(stats ...)" and $CC, $CXX, $MAKE split into words on purpose.
# shellcheck disable=SC2046,SC2086
set -u

if [ $# -ne 1 ] || [ ! -f "$1/bench_driver.c" ]; then
  echo "usage: run_bench.sh BENCH_SRCDIR" >&2
  exit 2
fi
for v in CUEMU_CC CUEMU_SHIMS_DIR CUEMU_INCLUDE_DIR CUEMU_LIB_DIR; do
  eval "val=\${$v:-}"
  if [ -z "$val" ]; then
    echo "run_bench.sh: $v is not set (run it through make bench)" >&2
    exit 2
  fi
done

benchsrc=$(cd "$1" && pwd)
srcdir=$(cd "$benchsrc/.." && pwd)
builddir=${CUEMU_BUILDDIR:-$(pwd)}
out=$(pwd)/bench/out
run=$out/run
mkdir -p "$out" "$run" || exit 2
rm -f "$run"/*

# The C compiler and flags of the main build, so that the ucontext build of
# libcuemu is compiled exactly as the default one.
make_var() {
  sed -n "s/^$1 = //p" "$builddir/Makefile" 2>/dev/null | head -n 1
}
CXX=${CXX:-$(make_var CXX)}
CXX=${CXX:-c++}
CC=${CC:-$(make_var CC)}
CC=${CC:-cc}
lib_cflags=$(make_var CFLAGS)

quick=${BENCH_QUICK:-0}
status=0   # 1 after an error (a benchmark could not run or gave wrong results)
missed=0   # 1 after a missed target
results=$run/results.txt  # "name|value|target|verdict|raw" per benchmark
: >"$results"

log() { printf '%s\n' "$*"; }
error() {
  log "$1: ERROR ($2)"
  printf '%s|ERROR|%s|ERROR|%s\n' "$1" "$3" "$2" >>"$results"
  status=1
}

skip() {
  log "$1: SKIP ($2)"
  printf '%s|SKIP|%s|SKIP|%s\n' "$1" "$3" "$2" >>"$results"
}

# The samples of series NAME in FILE, one per line, sorted.
samples() {
  awk -v s="$2" '$1 == s { for (i = 2; i <= NF; i++) print $i }' "$1" | sort -n
}
# "min median count" of series NAME in FILE.
stats() {
  samples "$1" "$2" | awk '{ v[NR] = $1 }
    END {
      if (NR == 0) { print "0 0 0"; exit }
      m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
      printf "%.0f %.0f %d\n", v[1], m, NR
    }'
}
# Floating-point arithmetic: calc FORMAT EXPRESSION.
calc() { awk "BEGIN { printf \"$1\", $2 }"; }
# Verdict of VALUE against "<= X" or ">= X".
verdict() {
  awk -v v="$1" -v op="$2" -v t="$3" 'BEGIN {
    ok = (op == "<=") ? (v <= t) : (v >= t)
    print ok ? "PASS" : "MISS"
  }'
}
# Prints and records one result: report NAME VALUE UNIT OP TARGET RAW.
report() {
  v=$(verdict "$2" "$4" "$5")
  [ "$v" = MISS ] && missed=1
  log "$1: $2$3 (target $4 $5$3) $v"
  log "    $6"
  printf '%s|%s%s|%s %s%s|%s|%s\n' "$1" "$2" "$3" "$4" "$5" "$3" "$v" "$6" \
    >>"$results"
}
ms() { calc "%.2f" "$1 / 1e6"; }
loadavg() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown; }

# Runs the driver on the libcuemu in directory $1 (the rest: its arguments),
# appending its output to the file $out_file, and checks that the process
# really ran on that library.
run_driver() {
  libdir=$1
  shift
  if ! LD_LIBRARY_PATH=$libdir "$out/bench_driver" "$@" >"$run/last.txt" \
    2>"$run/last.err"; then
    sed 's/^/    /' "$run/last.err" >&2
    return 1
  fi
  got=$(awk '$1 == "lib" { print $2 }' "$run/last.txt")
  case $got in
  "$libdir"/*) ;;
  *)
    echo "    the driver ran on $got, not on $libdir" >&2
    return 1
    ;;
  esac
  cat "$run/last.txt" >>"$out_file"
}

started=$(date +%s)
log "cuemu benchmarks: $(date -u), load average $(loadavg)"

# ---- Builds --------------------------------------------------------------------
# The driver is linked without a run path: every run names its libcuemu with
# LD_LIBRARY_PATH, and the driver prints the one it got.
log "building the driver, the host loop and the modules"
if ! $CC -std=c11 -O2 -Wall -Wextra -I"$CUEMU_INCLUDE_DIR" \
  "$benchsrc/bench_driver.c" -o "$out/bench_driver" -L"$CUEMU_LIB_DIR" \
  -lcuemu -ldl; then
  echo "run_bench.sh: cannot build the driver" >&2
  exit 1
fi
# The host loop gets the flags that cuemu-cc gives a module.
if ! $CXX -std=c++17 -O2 -fPIC -fvisibility=hidden \
  -fno-semantic-interposition -pthread -shared \
  "$benchsrc/bench_saxpy_host.cpp" -o "$out/saxpy_host.so"; then
  echo "run_bench.sh: cannot build the host loop" >&2
  exit 1
fi
module=$out/kernels_asm.so
if ! CUEMU_CACHE_DIR=$out/cache-asm "$CUEMU_CC" --module \
  "$benchsrc/bench_kernels.cu" -o "$module"; then
  echo "run_bench.sh: cannot compile bench_kernels.cu" >&2
  exit 1
fi

# libcuemu with the ucontext backend, in its own build tree. The tree is kept
# between runs: make rebuilds what changed, and the tree is configured afresh
# whenever the source tree, the compilers or configure itself change (the
# stamp records them).
ucdir=$out/ucontext
uclib=$ucdir/.libs
ucmodule=$out/kernels_ucontext.so
ucstamp="srcdir=$srcdir CC=$CC CXX=$CXX CFLAGS=$lib_cflags configure=$(
  cksum <"$srcdir/configure" 2>/dev/null)"
build_ucontext() {
  : >"$out/ucontext.log"
  if [ ! -f "$ucdir/config.status" ] || [ ! -f "$ucdir/bench-stamp" ] ||
    [ "$(cat "$ucdir/bench-stamp")" != "$ucstamp" ]; then
    log "configuring libcuemu with --with-context=ucontext in $ucdir"
    rm -rf "$ucdir" && mkdir -p "$ucdir" || return 1
    # configure refuses a separate build tree for a source tree that was
    # configured in place (as the README's first command does): then build
    # from a shadow tree of symbolic links without the in-place build.
    ucsrc=$srcdir
    if [ -f "$srcdir/config.status" ]; then
      ucsrc=$out/ucontext-src
      # (bench/out, where this tree goes, is left out of it.)
      rm -rf "$ucsrc" && mkdir -p "$ucsrc/bench" || return 1
      for f in "$srcdir"/* "$srcdir"/.[!.]*; do
        [ -e "$f" ] || continue
        case ${f##*/} in
        bench | .git) ;;
        *) cp -as "$f" "$ucsrc/" || return 1 ;;
        esac
      done
      for f in "$srcdir"/bench/*; do
        [ "${f##*/}" = out ] || cp -as "$f" "$ucsrc/bench/" || return 1
      done
      (cd "$ucsrc" && rm -rf config.status config.h Makefile libtool \
          stamp-h1 cuemu.pc .libs .deps bench/out tests/cache tests/tmp &&
          find . \( -name '*.o' -o -name '*.lo' -o -name '*.la' \
            -o -name .libs -o -name .deps -o -name .dirstamp \) \
            -prune -exec rm -rf {} +) || return 1
    fi
    (cd "$ucdir" && "$ucsrc/configure" -q --with-context=ucontext \
        CC="$CC" CXX="$CXX" CFLAGS="$lib_cflags") >>"$out/ucontext.log" 2>&1 &&
      printf '%s' "$ucstamp" >"$ucdir/bench-stamp" || return 1
  fi
  # Not a sub-make of ours: keep the parent's job server out of it.
  (cd "$ucdir" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
    ${MAKE:-make} -j2 libcuemu.la) >>"$out/ucontext.log" 2>&1 || return 1
  CUEMU_LIB_DIR=$uclib CUEMU_CACHE_DIR=$out/cache-ucontext "$CUEMU_CC" \
    --module "$benchsrc/bench_kernels.cu" -o "$ucmodule" \
    >>"$out/ucontext.log" 2>&1
}
log "building libcuemu with the ucontext backend (cached in $ucdir)"
ucontext_ok=1
if ! build_ucontext; then
  ucontext_ok=0
  tail -n 20 "$out/ucontext.log" | sed 's/^/    /' >&2
fi

if [ "$quick" = 1 ]; then
  saxpy_reps=5 red_rounds=1 red_extra=1 red_reps=1 uc_rounds=1 cc_reps=5
  mem_runs=1 warp_rounds=1 warp_reps=1
else
  saxpy_reps=15 red_rounds=3 red_extra=3 red_reps=3 uc_rounds=3 cc_reps=20
  mem_runs=3 warp_rounds=3 warp_reps=3
fi
log ""

# ---- 1. saxpy, barrier-free -----------------------------------------------------
# Host loop and emulated launch alternate inside one process.
log "[1] saxpy, 2^24 elements, 256-thread blocks, CUEMU_WORKERS=1"
out_file=$run/saxpy.txt
if CUEMU_WORKERS=1 run_driver "$CUEMU_LIB_DIR" saxpy "$module" \
  "$out/saxpy_host.so" 24 "$saxpy_reps"; then
  set -- $(stats "$out_file" emu_ns)
  emu_min=$1 emu_med=$2 n=$3
  set -- $(stats "$out_file" host_ns)
  host_min=$1 host_med=$2
  report saxpy_emulated_over_host "$(calc %.2f "$emu_min / $host_min")" "" \
    "<=" 1.5 "emulated $(ms "$emu_min") ms, host loop $(ms "$host_min") ms (min of $n each); medians $(ms "$emu_med") / $(ms "$host_med") ms = $(calc %.2f "$emu_med / $host_med")"
else
  error saxpy_emulated_over_host "the saxpy driver failed" "<= 1.5"
fi

# ---- 2 and 4. reduction, 1 and 2 workers ----------------------------------------
# Processes with CUEMU_WORKERS=1 and =2 alternate, the first of each round
# swapping, so that a burst of load from elsewhere hits both.
log "[2,4] 256-thread tree reduction, 2^22 elements, 9 barriers per thread"
load_before=$(loadavg)
out_file=$run/reduce.txt
w1=$run/reduce_w1.txt w2=$run/reduce_w2.txt
: >"$w1"
: >"$w2"
red_ok=1
# CPU time over wall time of the fastest 2-worker launch so far (2.0: both
# workers were on a CPU all the time).
fastest_w2_cpu() {
  awk '$1 == "reduce_ns" { for (i = 2; i <= NF; i++) wall[nw++] = $i }
    $1 == "reduce_cpu_ns" { for (i = 2; i <= NF; i++) cpu[nc++] = $i }
    END {
      b = -1
      for (i = 0; i < nw; i++) if (b < 0 || wall[i] < wall[b]) b = i
      printf "%.2f\n", b < 0 ? 0 : cpu[b] / wall[b]
    }' "$w2"
}
# Base rounds, then up to $red_extra more while no 2-worker launch has had
# both CPUs (another process was loading the machine).
r=0
while [ $red_ok = 1 ]; do
  if [ $r -ge $red_rounds ]; then
    [ $r -lt $((red_rounds + red_extra)) ] || break
    [ "$(awk -v r="$(fastest_w2_cpu)" 'BEGIN { print (r < 1.8) }')" = 1 ] ||
      break
    log "    the 2-worker runs did not get both CPUs; one more round"
  fi
  if [ $((r % 2)) = 0 ]; then order="1 2"; else order="2 1"; fi
  for w in $order; do
    out_file=$run/reduce_w$w.txt
    CUEMU_WORKERS=$w run_driver "$CUEMU_LIB_DIR" reduce "$module" 22 \
      "$red_reps" || red_ok=0
  done
  r=$((r + 1))
done
load_after=$(loadavg)
elems=4194304
if [ $red_ok = 1 ]; then
  set -- $(stats "$w1" reduce_ns)
  t1=$1 t1_med=$2 n=$3
  set -- $(stats "$w2" reduce_ns)
  t2=$1 t2_med=$2
  c2=$(fastest_w2_cpu)
  report reduce_ns_per_thread_barrier \
    "$(calc %.2f "$t1 / ($elems * 9)")" " ns" "<=" 6 \
    "CUEMU_WORKERS=1: $(ms "$t1") ms per launch (min of $n; median $(ms "$t1_med") ms) / (2^22 threads * 9 barriers)"
  if [ "$(nproc)" -lt 2 ]; then
    skip reduce_speedup_2_workers "only one CPU: no parallel speed-up to measure" ">= 1.7"
  else
    busy=$(awk -v r="$c2" 'BEGIN {
      if (r < 1.8) print "; NOTE: the 2 workers did not get 2 CPUs, so another process was loading the machine" }')
    report reduce_speedup_2_workers "$(calc %.2f "$t1 / $t2")" "" ">=" 1.7 \
      "1 worker $(ms "$t1") ms, 2 workers $(ms "$t2") ms (min of $n each; medians $(ms "$t1_med") / $(ms "$t2_med") ms); CPU/wall of the fastest 2-worker launch $c2 (2.0 = both workers always on a CPU); $r rounds; load average before $load_before, after $load_after on $(nproc) CPUs$busy"
  fi
else
  error reduce_ns_per_thread_barrier "the reduction driver failed" "<= 6 ns"
  error reduce_speedup_2_workers "the reduction driver failed" ">= 1.7"
fi

# ---- 3. reduction, ucontext vs asm ----------------------------------------------
# Both backends at 2^16 elements (ucontext is slow), alternating processes.
log "[3] the same reduction, ucontext backend vs asm, 2^16 elements"
if [ $ucontext_ok = 1 ]; then
  uc_run_ok=1
  r=0
  while [ $r -lt $uc_rounds ] && [ $uc_run_ok = 1 ]; do
    out_file=$run/reduce_asm16.txt
    CUEMU_WORKERS=1 run_driver "$CUEMU_LIB_DIR" reduce "$module" 16 10 ||
      uc_run_ok=0
    out_file=$run/reduce_uc16.txt
    CUEMU_WORKERS=1 run_driver "$uclib" reduce "$ucmodule" 16 3 ||
      uc_run_ok=0
    r=$((r + 1))
  done
  if [ $uc_run_ok = 1 ] &&
    grep -q '^lib .* ucontext$' "$run/reduce_uc16.txt" &&
    ! grep -q '^lib .* ucontext$' "$run/reduce_asm16.txt"; then
    set -- $(stats "$run/reduce_asm16.txt" reduce_ns)
    ta=$1 na=$3
    set -- $(stats "$run/reduce_uc16.txt" reduce_ns)
    tu=$1 nu=$3
    per=$((65536 * 9))
    report reduce_ucontext_over_asm "$(calc %.1f "$tu / $ta")" "x" ">=" 50 \
      "per thread per barrier: ucontext $(calc %.1f "$tu / $per") ns (min of $nu), asm $(calc %.2f "$ta / $per") ns (min of $na)"
  elif [ $uc_run_ok = 1 ]; then
    error reduce_ucontext_over_asm "the runs did not report the expected backends (see $run)" ">= 50x"
  else
    error reduce_ucontext_over_asm "the reduction driver failed" ">= 50x"
  fi
else
  error reduce_ucontext_over_asm "the ucontext build failed (see $out/ucontext.log)" ">= 50x"
fi

# ---- 5. compile-cache hit -------------------------------------------------------
# The real cuemu-cc binary is timed (in a build tree $CUEMU_CC is usually a
# libtool wrapper script, which an installed cuemu-cc is not), from the
# driver, around posix_spawn and waitpid.
log "[5] cuemu-cc --module on a cache hit"
real_cc=$CUEMU_CC
if head -c 2 "$CUEMU_CC" | grep -q '#!'; then
  for c in "$(dirname "$CUEMU_CC")/.libs/lt-cuemu-cc" \
    "$(dirname "$CUEMU_CC")/.libs/cuemu-cc"; do
    if [ -x "$c" ]; then
      real_cc=$c
      break
    fi
  done
fi
out_file=$run/cc.txt
hit_ok=0
if LD_LIBRARY_PATH=$CUEMU_LIB_DIR CUEMU_CACHE_DIR=$out/cache-asm "$real_cc" \
  --module "$benchsrc/bench_kernels.cu" -o "$out/k_hit.so" -v \
  2>"$run/cc.err" && grep -q 'cache hit' "$run/cc.err"; then
  hit_ok=1
fi
if [ $hit_ok = 0 ]; then
  error compile_cache_hit "cuemu-cc did not hit the cache: $(cat "$run/cc.err")" "<= 10 ms"
elif CUEMU_CACHE_DIR=$out/cache-asm run_driver "$CUEMU_LIB_DIR" spawn \
  "$cc_reps" "$real_cc" --module "$benchsrc/bench_kernels.cu" \
  -o "$out/k_hit.so"; then
  set -- $(stats "$out_file" spawn_ns)
  report compile_cache_hit "$(ms "$2")" " ms" "<=" 10 \
    "median of $3 runs of $real_cc (min $(ms "$1") ms)"
else
  error compile_cache_hit "the spawn driver failed" "<= 10 ms"
fi

# ---- 5b. whole-program compile, both passes ----------------------------------
# A whole program (bench_program.cu) compiled without the cache: nvcc's
# device and host passes (run at once), against one pass of the same source
# (--module, the device pass alone), median of 3 runs each; wall time.
log "[5b] cuemu-cc whole-program compile (two passes) vs one pass"
now_ns() { date +%s%N; }
compile_ms() { # compile_ms ARGS...: prints the median wall time in ms of 3 runs
  for i in 1 2 3; do
    t0=$(now_ns)
    LD_LIBRARY_PATH=$CUEMU_LIB_DIR "$real_cc" --no-cache "$@" \
      >"$run/compile.err" 2>&1 || { echo fail; return; }
    t1=$(now_ns)
    echo $(((t1 - t0) / 1000000))
  done | sort -n | sed -n 2p
}
two=$(compile_ms "$benchsrc/bench_program.cu" -o "$out/program_two")
one=$(compile_ms --module "$benchsrc/bench_program.cu" -o "$out/program_one.so")
if [ "$two" = fail ] || [ "$one" = fail ] || [ -z "$two" ] || [ -z "$one" ]; then
  error compile_two_passes "cannot compile bench_program.cu: $(cat "$run/compile.err")" "<= 1.5x"
else
  report compile_two_passes "$(calc "%.2f" "$two / $one")" "x" "<=" 1.5 \
    "whole program (two passes, link): $two ms; one pass (--module): $one ms; median of 3, wall time, loadavg $(loadavg)"
fi

# ---- 6. peak memory of a launch -------------------------------------------------
log "[6] peak resident memory of 64 blocks of 1024 threads, CUEMU_WORKERS=2"
out_file=$run/memory.txt
mem_ok=1
r=0
while [ $r -lt $mem_runs ]; do
  CUEMU_WORKERS=2 run_driver "$CUEMU_LIB_DIR" memory "$module" 64 1024 ||
    mem_ok=0
  r=$((r + 1))
done
if [ $mem_ok = 1 ]; then
  # The largest growth of VmHWM over the runs, in MiB.
  grow=$(awk '$1 == "hwm_kib" { d = $3 - $2; if (d > m) m = d } END { print m + 0 }' "$out_file")
  all=$(awk '$1 == "hwm_kib" { printf "%s%.1f", sep, ($3 - $2) / 1024; sep = ", " }' "$out_file")
  user=$(awk '$1 == "user_kib" { print $2; exit }' "$out_file")
  report launch_peak_memory "$(calc %.1f "$grow / 1024")" " MiB" "<=" 64 \
    "growth of VmHWM across the launch, largest of $mem_runs child processes ($all MiB); user data $user KiB, touched before"
else
  error launch_peak_memory "the memory driver failed" "<= 64 MiB"
fi

# ---- 7. the bare register switch, for context ------------------------------------
# No target: how much one switch costs among N coroutines on this machine,
# the floor under [2], which switches once per thread per barrier.
log "[7] bare register switch among N coroutines (context for [2])"
topbuild=${CUEMU_BUILDDIR:-$(dirname "$CUEMU_LIB_DIR")}
if [ -f "$topbuild/config.h" ] &&
  grep -q 'define CUEMU_CONTEXT_UCONTEXT 0' "$topbuild/config.h" &&
  $CC -std=gnu11 -O2 -I"$topbuild" -I"$srcdir/emulator" \
    "$benchsrc/bench_switch.c" "$srcdir/emulator/context/cuemu_context.c" \
    "$srcdir/emulator/context/cuemu_arch_x86_64.c" \
    "$srcdir/emulator/context/cuemu_arch_aarch64.c" \
    "$srcdir/emulator/context/cuemu_context_x86_64.S" \
    "$srcdir/emulator/context/cuemu_context_aarch64.S" \
    -o "$out/bench_switch" 2>"$run/switch.err"; then
  best=""
  r=0
  while [ $r -lt 3 ]; do
    "$out/bench_switch" 32 256 1024 >>"$run/switch.txt" || break
    r=$((r + 1))
  done
  for n in 32 256 1024; do
    v=$(awk -v n=$n '$1 == "switch_ns" && $2 == n { if (m == "" || $3 < m) m = $3 } END { print m }' "$run/switch.txt")
    best="$best${best:+, }$n: $v ns"
  done
  log "switch_ns_per_coroutine_count: $best (min of $r runs; no target)"
  printf '%s|%s|%s|%s|%s\n' switch_ns_per_coroutine_count "$best" "-" info \
    "cuemu__ctx_switch round-robin among N coroutines on guarded, coloured stacks (bench_switch.c); [2] costs at least one switch per thread per barrier" \
    >>"$results"
else
  log "switch_ns_per_coroutine_count: SKIP (needs the asm backend and config.h in $topbuild)"
fi

# ---- 8. warp-shuffle reduction, shared memory beside it -------------------------
# bench_warp.cu, in its own module: the sum of each 32-element slice by 5
# __shfl_down_sync per lane (the target), and by 5 steps through shared memory
# with one __syncthreads before each (a reference, no target). The two
# alternate inside one process, in 3 processes (1 with BENCH_QUICK=1).
log "[8] warp-shuffle reduction, 5 __shfl_down_sync per lane, 2^22 elements, CUEMU_WORKERS=1"
warp_load_before=$(loadavg)
warpmodule=$out/warp_asm.so
out_file=$run/warp.txt
warp_ok=1
if ! CUEMU_CACHE_DIR=$out/cache-asm "$CUEMU_CC" --module \
  "$benchsrc/bench_warp.cu" -o "$warpmodule" >"$out/warp_cc.log" 2>&1; then
  warp_ok=0
  tail -n 20 "$out/warp_cc.log" | sed 's/^/    /' >&2
  error warp_shfl_ns_per_lane_shuffle "cannot compile bench_warp.cu (see $out/warp_cc.log)" "<= 10 ns"
fi
r=0
while [ $warp_ok = 1 ] && [ $r -lt $warp_rounds ]; do
  if ! CUEMU_WORKERS=1 run_driver "$CUEMU_LIB_DIR" warp "$warpmodule" 22 \
    "$warp_reps"; then
    warp_ok=0
    error warp_shfl_ns_per_lane_shuffle "the warp driver failed" "<= 10 ns"
  fi
  r=$((r + 1))
done
if [ $warp_ok = 1 ]; then
  set -- $(stats "$out_file" warp_shfl_ns)
  tw=$1 tw_med=$2 n=$3
  set -- $(stats "$out_file" warp_shared_ns)
  ts=$1 ts_med=$2
  per=$((4194304 * 5))
  report warp_shfl_ns_per_lane_shuffle "$(calc %.2f "$tw / $per")" " ns" \
    "<=" 10 "CUEMU_WORKERS=1: $(ms "$tw") ms per launch (min of $n; median $(ms "$tw_med") ms) / (2^22 lanes * 5 shuffles); the shared-memory version below takes $(calc %.2f "$ts / $tw")x as long; load average before $warp_load_before, after $(loadavg)"
  shared=$(calc %.2f "$ts / $per")
  log "warp_shared_ns_per_lane_step: $shared ns (no target)"
  log "    CUEMU_WORKERS=1: $(ms "$ts") ms per launch (min of $n; median $(ms "$ts_med") ms) / (2^22 lanes * 5 steps), one __syncthreads per step"
  printf '%s|%s|%s|%s|%s\n' warp_shared_ns_per_lane_step "$shared ns" "-" info \
    "the same sums through shared memory, 5 steps over each 32-element slice of a 256-thread block with one __syncthreads before each: $(ms "$ts") ms per launch (min of $n; median $(ms "$ts_med") ms) / (2^22 lanes * 5 steps); $(calc %.2f "$ts / $tw")x the shuffle version" \
    >>"$results"
fi

# ---- 9. cub::BlockReduce beside the hand-written reduction ----------------------
# bench_cub_reduce.cu, a whole program built with the toolkit's CUB (skipped
# when cuemu-cc finds no CCCL): the block sums of examples/block_sum by its
# shared-memory tree and by cub::BlockReduce, interleaved in one process;
# the ratio of the minimum times. CUEMU_WORKERS=1, as [2].
log "[9] cub::BlockReduce<float, 256> against examples/block_sum's shared-memory tree, 2^20 elements"
if ! CUEMU_CACHE_DIR=$out/cache-asm "$CUEMU_CC" "$benchsrc/bench_cub_reduce.cu" \
  -o "$out/bench_cub_reduce" >"$out/cub_cc.log" 2>&1; then
  if grep -q 'cub/block/block_reduce.cuh' "$out/cub_cc.log"; then
    log "cub_block_reduce_over_hand_written: SKIP (no CCCL found: see docs/cccl.md)"
  else
    tail -n 20 "$out/cub_cc.log" | sed 's/^/    /' >&2
    error cub_block_reduce_over_hand_written "cannot compile bench_cub_reduce.cu (see $out/cub_cc.log)" "<= 1.5x"
  fi
elif CUEMU_WORKERS=1 "$out/bench_cub_reduce" "$([ "$quick" = 1 ] && echo 2 || echo 7)" \
  >"$run/cub.txt" 2>&1; then
  ratio=$(sed -n 's/^cub_block_reduce_over_hand_written: //p' "$run/cub.txt")
  report cub_block_reduce_over_hand_written "$ratio" "x" "<=" 1.5 \
    "CUEMU_WORKERS=1, min of 3 x 7 interleaved launches each: $(tr '\n' ' ' <"$run/cub.txt"); loadavg $(loadavg)"
else
  error cub_block_reduce_over_hand_written "bench_cub_reduce failed: $(cat "$run/cub.txt")" "<= 1.5x"
fi

# ---- RESULTS.md -----------------------------------------------------------------
elapsed=$(($(date +%s) - started))
log ""
log "done in ${elapsed} s"
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
[ -n "$cpu" ] || cpu=$(uname -p)
section=$run/section.md
{
  echo "## $(date -u)"
  echo
  echo "| | |"
  echo "|---|---|"
  echo "| date | $(date -u) |"
  echo "| machine | $(uname -m), $(nproc) CPUs, ${cpu:-unknown CPU} |"
  echo "| compiler | $($CXX --version 2>/dev/null | head -n 1) (\`$CXX\`), C: $($CC --version 2>/dev/null | head -n 1) |"
  echo "| cuemu | $(git -C "$srcdir" describe --always --dirty 2>/dev/null || echo "not a git tree") |"
  echo "| load average | $load_before before the reduction, $load_after after; $(loadavg) at the end |"
  echo "| time | ${elapsed} s |"
  echo
  echo "| benchmark | value | target | result | measured |"
  echo "|---|---|---|---|---|"
  while IFS='|' read -r name value target verdict raw; do
    echo "| $name | $value | $target | **$verdict** | $raw |"
  done <"$results"
  echo
} >"$section"
resfile=$benchsrc/RESULTS.md
if [ "$quick" = 1 ]; then
  log "BENCH_QUICK=1: $resfile left as it was; this run's section is $section"
else
  {
    echo "# Benchmark results"
    echo
    echo "Written by \`make bench\` (bench/run_bench.sh), newest run first. Times are"
    echo "the minimum of interleaved repetitions unless noted; see run_bench.sh."
    echo
    cat "$section"
    [ -f "$resfile" ] && sed -n '/^## /,$p' "$resfile"
  } >"$run/RESULTS.md.new"
  if cat "$run/RESULTS.md.new" >"$resfile"; then
    log "results written to $resfile"
  else
    log "run_bench.sh: could not write $resfile"
  fi
fi

if [ $status != 0 ]; then
  log "some benchmarks could not run (ERROR above)"
  exit 1
fi
if [ $missed = 1 ]; then
  log "some targets were missed (MISS above)"
  [ "${BENCH_STRICT:-0}" = 1 ] && exit 1
fi
exit 0
