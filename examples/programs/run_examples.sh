#!/bin/sh
# run_examples.sh: runs the whole-program examples. Compiles every example
# (EXAMPLES_DIR/*/*.cu, with EXAMPLES_DIR normally examples/programs) with
# cuemu-cc, runs it, and prints a table of compile time, compile cache use,
# run time and result.
#
# Usage: run_examples.sh EXAMPLES_DIR [NAME...]
#
# NAMEs limit the run to those examples. The environment gives:
#   CUEMU_CC         the cuemu-cc command (default: cuemu-cc on the PATH);
#   CUEMU_BUILDDIR   where the examples-out folder goes (default: .);
#   CUEMU_EXAMPLE_TIMEOUT  seconds an example may run (default: 60);
# and the CUEMU_* variables of the runtime (CUEMU_WORKERS, CUEMU_CACHE_DIR,
# ...), which are passed on unchanged.
#
# An example prints a last line "RESULT <name> PASS|FAIL <detail>" and exits
# 0 on PASS. The script exits 0 when every example compiles and passes, 1
# otherwise, and 2 on a usage error.

usage() {
  echo "usage: $0 EXAMPLES_DIR [NAME...]" >&2
  exit 2
}

[ $# -ge 1 ] || usage
srcdir=$1
shift
[ -d "$srcdir" ] || {
  echo "$0: $srcdir: not a folder" >&2
  exit 2
}
cc=${CUEMU_CC:-cuemu-cc}
outdir=${CUEMU_BUILDDIR:-.}/examples-out
limit=${CUEMU_EXAMPLE_TIMEOUT:-60}
mkdir -p "$outdir" || exit 2

# The examples to run: one folder each, holding NAME.cu.
names=
if [ $# -gt 0 ]; then
  for name in "$@"; do
    [ -f "$srcdir/$name/$name.cu" ] || {
      echo "$0: no example $srcdir/$name/$name.cu" >&2
      exit 2
    }
    names="$names $name"
  done
else
  for src in "$srcdir"/*/*.cu; do
    [ -f "$src" ] || continue
    name=${src%.cu}
    name=${name##*/}
    dir=${src%/*}
    # Only the main file of a folder is an example.
    [ "${dir##*/}" = "$name" ] && names="$names $name"
  done
fi
[ -n "$names" ] || {
  echo "$0: no examples under $srcdir" >&2
  exit 2
}

# Nanoseconds since the epoch, or seconds times 1e9 where date has no %N.
now_ns() {
  t=$(date +%s%N)
  case $t in
  *N) echo $(($(date +%s) * 1000000000)) ;;
  *) echo "$t" ;;
  esac
}

# Formats a nanosecond interval as seconds with two decimals.
seconds() {
  cs=$((($1 + 5000000) / 10000000))
  printf '%d.%02ds' $((cs / 100)) $((cs % 100))
}

# Runs a command under timeout(1) where it exists.
limited() {
  if command -v timeout >/dev/null 2>&1; then
    timeout "$limit" "$@"
  else
    "$@"
  fi
}

width=7
for name in $names; do
  [ ${#name} -gt "$width" ] && width=${#name}
done
rule=
while [ ${#rule} -lt "$width" ]; do
  rule="$rule-"
done
row() {
  printf "%-${width}s  %8s  %-8s  %8s  %s\n" "$1" "$2" "$3" "$4" "$5"
}

echo "cuemu examples: $cc, output in $outdir, CUEMU_WORKERS=${CUEMU_WORKERS:-all CPUs}"
row example compile cache run result
row "$rule" -------- -------- -------- ------
total=0
passed=0
failed_names=
started=$(now_ns)
for name in $names; do
  total=$((total + 1))
  src=$srcdir/$name/$name.cu
  exe=$outdir/$name
  clog=$outdir/$name.compile.log
  rlog=$outdir/$name.log
  rm -f "$exe" "$rlog"

  t0=$(now_ns)
  limited "$cc" -v "$src" -o "$exe" >"$clog" 2>&1
  crc=$?
  t1=$(now_ns)
  ctime=$(seconds $((t1 - t0)))
  if grep -q 'cache hit' "$clog"; then
    cache=hit
  elif grep -q 'compiled' "$clog"; then
    cache=miss
  else
    cache=-
  fi
  if [ $crc -ne 0 ] || [ ! -x "$exe" ]; then
    row "$name" "$ctime" "$cache" - "FAIL compile error (exit $crc)"
    failed_names="$failed_names $name"
    continue
  fi

  t0=$(now_ns)
  limited "$exe" >"$rlog" 2>&1
  rrc=$?
  t1=$(now_ns)
  rtime=$(seconds $((t1 - t0)))
  # The last RESULT line of this example: "RESULT name STATUS detail".
  line=$(grep "^RESULT $name " "$rlog" | tail -n 1)
  status=$(printf '%s\n' "$line" | cut -d ' ' -f 3)
  detail=$(printf '%s\n' "$line" | cut -d ' ' -f 4-)
  if [ -z "$line" ]; then
    case $rrc in
    124) result="FAIL timed out after ${limit}s" ;;
    129 | 1[3-9][0-9] | 2[0-9][0-9])
      result="FAIL no RESULT line (killed by signal $((rrc - 128)))" ;;
    *) result="FAIL no RESULT line (exit $rrc)" ;;
    esac
  elif [ "$status" = PASS ] && [ $rrc -eq 0 ]; then
    result="PASS $detail"
  elif [ "$status" = PASS ]; then
    result="FAIL exit $rrc after: PASS $detail"
  else
    result="FAIL $detail"
  fi
  case $result in
  PASS*) passed=$((passed + 1)) ;;
  *) failed_names="$failed_names $name" ;;
  esac
  row "$name" "$ctime" "$cache" "$rtime" "$result"
done
finished=$(now_ns)

echo
echo "$passed of $total examples passed in $(seconds $((finished - started)))"

# Show why each failure failed: the compiler's messages or the program's
# last lines of output.
for name in $failed_names; do
  if [ -f "$outdir/$name.log" ]; then
    log=$outdir/$name.log
  else
    log=$outdir/$name.compile.log
  fi
  echo
  echo "---- $name: last lines of $log"
  if [ -s "$log" ]; then
    tail -n 20 "$log"
  else
    echo "(no output)"
  fi
done
[ -z "$failed_names" ]
