#!/bin/sh
# programs_trialmst.sh: the programs of tests/programs/trialmst, from a trial
# of Martin Burtscher's graph codes (ECL-MST, ECL-SCC, the Indigo
# microbenchmarks): work lists filled through an atomicAdd counter, run
# once and then again under schedule perturbation (CUEMU_CHECK_SCHEDULES=1),
# which reported each such list as a race before (perturb_work_list.cu).
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
keep=$(cd "$builddir" && pwd)/tests/tmp/programs_trialmst.$$
mkdir -p "$keep" || exit 1
PROGRAMS_KEEP=$keep \
  sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trialmst" || {
  rm -rf "$keep"
  exit 1
}
status=0
for program in perturb_work_list; do
  out=$(cd "$keep" && CUEMU_CHECK_SCHEDULES=1 CUEMU_QUIET=0 "./$program" 2>&1)
  if printf '%s\n' "$out" | grep -qx PASS; then
    echo "PASS: $program under CUEMU_CHECK_SCHEDULES=1"
  else
    echo "FAIL: $program under CUEMU_CHECK_SCHEDULES=1:"
    printf '%s\n' "$out"
    status=1
  fi
done
rm -rf "$keep"
exit $status
