#!/bin/sh
# programs_robust.sh: programs of tests/programs/robust, each a defect of
# the emulator found in a review (the watchdog, stack overflows, device
# variables, graphs, fault reports), built with cuemu-nvcc; those of the
# same options as one program (PROGRAMS_COMBINE, tests/programs.sh), but
# those that expect a kernel's name without a namespace in a report (of a
# fault, a stack overflow, the watchdog) or need a process of their own
# signals as they are (built alone, PROGRAMS_ALONE).
PROGRAMS_ALONE="fault_reports_clang fault_reports_gxx misaligned_faults_clang \
misaligned_faults_gxx misaligned_faults_gxx_O0 signal_faults sigurg_user_handler \
unguarded_stack_overflow unoptimized_stack user_fault_handlers watchdog_dl_lock" \
PROGRAMS_COMBINE=1 exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/robust"
