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
# children_cpu (cpu_times.sh) runs `times` in this shell, not in a command
# substitution's subshell, which would count that subshell's children.
. "$(dirname "$0")/cpu_times.sh"
times_file=$(mktemp "${TMPDIR:-/tmp}/cuemu-times.XXXXXX") || exit $status
children_cpu "$times_file" >"$times_file.cpu"
echo "# cpu: $(cat "$times_file.cpu") s"
rm -f "$times_file.cpu"
rm -f "$times_file"
exit $status
