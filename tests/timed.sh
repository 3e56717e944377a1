#!/bin/sh
# timed.sh: make check's LOG_COMPILER. Runs one test and ends its log with
# the seconds it took (wall clock) and the processor seconds that it and
# its children used (user and system), which .ci/run lists, slowest first,
# so that the suite's time is seen test by test: the wall clock of a test
# depends on what runs beside it, its processor time much less. The test's
# status is kept.
start=$(date +%s)
"$@"
status=$?
echo "# duration: $(($(date +%s) - start)) s"
# The second line of `times` holds the children's user and system times,
# each as MINUTESmSECONDSs; `times` runs in this shell (in a pipeline's
# subshell it would count that subshell's children), into a file.
times_file=$(mktemp "${TMPDIR:-/tmp}/cuemu-times.XXXXXX") || exit $status
times >"$times_file"
sed -n 2p "$times_file" | awk '{
  s = 0
  for (i = 1; i <= NF; ++i) {
    split($i, t, "m")
    sub("s", "", t[2])
    s += t[1] * 60 + t[2]
  }
  printf "# cpu: %.0f s\n", s
}'
rm -f "$times_file"
exit $status
