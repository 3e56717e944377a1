#!/bin/sh
# programs_trialcgbn.sh: programs of tests/programs/trialcgbn, each reduced
# from a failure of CGBN (NVIDIA's Cooperative Groups Big Numbers: inline-PTX
# carry chains, warp ballots and shuffles within groups of 4 to 32 threads)
# built with cuemu-nvcc and checked against GMP.
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialcgbn"
