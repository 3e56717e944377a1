#!/bin/sh
# timed.sh: make check's LOG_COMPILER. Runs one test and ends its log with
# the seconds it took (wall clock), which .ci/run lists, slowest first, so
# that the suite's time is seen test by test. The test's status is kept.
start=$(date +%s)
"$@"
status=$?
echo "# duration: $(($(date +%s) - start)) s"
exit $status
