#!/bin/sh
# programs_trialmgpu.sh: programs of tests/programs/trialmgpu, each reduced
# from a failure of a public-style multi-GPU or runtime-compilation program
# (OpenMP or std::thread per device, IPC between processes, virtual memory
# management, NVRTC, libraries, the linker, contexts, multi-device graphs),
# built with cuemu-nvcc.
PROGRAMS_COMBINE=1 exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialmgpu"
