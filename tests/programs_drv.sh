#!/bin/sh
# programs_drv.sh: the whole-program tests of the driver API's generic graph
# nodes, external objects and kernel calls, and of linked images written to
# files and loaded by other processes (tests/programs/drv). The programs of
# one set of options are built as one program (PROGRAMS_COMBINE, programs.sh);
# link_image_file runs its own executable again (/proc/self/exe --load), and
# ptx_fault_line runs itself again to read a report, so they are built by
# themselves.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
PROGRAMS_COMBINE=1 PROGRAMS_ALONE='link_image_file ptx_fault_line' \
  exec sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/drv"
