#!/bin/sh
# programs_progress.sh: programs of tests/programs/progress, whose blocks
# wait for flags that other blocks set (a software grid barrier in a
# persistent kernel, a block waiting for a later block, producer/consumer
# queues between blocks): a GPU completes them because it holds every block
# of their grids at once. Run with the default workers and with
# CUEMU_WORKERS=1, where the blocks that are waited for start only when the
# emulator sees the spinning (docs/streams.md, "Blocks that wait for other
# blocks").
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
PROGRAMS_COMBINE=1
export PROGRAMS_COMBINE
sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/progress" || exit 1
CUEMU_WORKERS=1 exec sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/progress"
