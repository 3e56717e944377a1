#!/bin/sh
# programs_trialmgpu2.sh: programs of tests/programs/trialmgpu2: a second
# trial of public-style multi-GPU, graph and stream-ordered-allocation
# programs (a peer bandwidth matrix, a halo-exchange solver with a host
# thread per device, pools shared across devices and with forked
# processes, IPC memory and event handles, cooperative grids per device,
# graphs over two devices, graph memory footprints, host nodes, callback
# order, sticky errors and cudaDeviceReset, unified memory on devices with
# and without concurrent managed access), trimmed to run fast, and the
# cases reduced from its failures, built with cuemu-nvcc. Each program
# names its devices (CUEMU_DEVICE) before its first CUDA call.
PROGRAMS_COMBINE=1 exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialmgpu2"
