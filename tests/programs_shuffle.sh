#!/bin/sh
# Warp collectives: values live across shuffles, votes, matches and reductions (tests/programs/shuffle).
exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/shuffle"
