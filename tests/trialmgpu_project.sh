#!/bin/sh
# trialmgpu_project.sh: the trial project of multi-GPU and run-time
# compilation programs (tests/programs/trialmgpu_project, its own Makefile
# and helper header, as an HPC group would write them), built with
# `make NVCC=cuemu-nvcc` and run on two emulated devices (CUEMU_DEVICE=
# count=2); each program checks itself against a CPU reference and prints
# PASS:
# - jacobi_omp: a 2-D Jacobi solver in row slabs, one OpenMP thread per
#   device, halos read by P2P kernel access (peer access enabled) and, with
#   -copy, pushed by cudaMemcpyPeerAsync, events across devices;
# - ring_allreduce: reduce-scatter and all-gather over a ring of devices,
#   one std::thread each, cudaMemcpyPeerAsync between neighbours;
# - ipc_fork: forked workers open a cudaIpc memory and event handle and
#   import a POSIX-fd memory pool and one of its allocations (handles and
#   the descriptor sent over a socket, SCM_RIGHTS);
# - vmm_vector: a growable vector on cuMemCreate/cuMemAddressReserve/
#   cuMemMap striped over both devices, remapped when it grows, a chunk
#   exported and imported by file descriptor;
# - jit_compiler: a jitify-like NVRTC compiler (headers from strings and
#   -I, name expressions of templates, -default-device, a broken kernel's
#   log, PTX and CUBIN cached on disk and reloaded);
# - library_mgmt: cuLibrary*/cudaLibrary* context-independent loading
#   (one device only: a library's variables are one copy shared by every
#   device in cuemu, docs/driver-api.md, where the program expects one per
#   device);
# - link_ptx: two -rdc PTX files linked by cuLink* (an unresolved link
#   first) and by nvJitLink from LTO IR;
# - ctx_driver: cuCtxCreate per device, contexts handed to threads,
#   cuStreamWaitValue32/WriteValue32, cuLaunchHostFunc,
#   cuPointerGetAttributes;
# - mgpu_graph: a graph captured across two devices' streams, extended
#   with peer memcpy and kernel nodes, updated and launched again.
# Skipped without make. Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir=$(cd "$builddir" && pwd)
nvcc=$builddir/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing trialmgpu_project.sh "$nvcc is not built"
command -v make >/dev/null 2>&1 ||
  tool_missing trialmgpu_project.sh "make is missing"

work=$builddir/tests/tmp/trialmgpu_project.$$
mkdir -p "$work" || exit 1
project=$srcdir/tests/programs/trialmgpu_project
failed=0

if ! make -s -C "$project" NVCC="$nvcc" BIN="$work/bin" all \
  >"$work/build.log" 2>&1; then
  echo "FAIL: the project does not build:"
  cat "$work/build.log"
  rm -rf "$work"
  exit 1
fi

# run NAME DEVICES [ARGS...]: runs bin/NAME in bin/ on DEVICES devices.
run() {
  name=$1
  devices=$2
  shift 2
  if (cd "$work/bin" && CUEMU_DEVICE=count=$devices "./$name" "$@") \
    >"$work/$name.out" 2>&1 && grep -q "^$name: PASS$" "$work/$name.out"
  then
    echo "PASS: $name ($devices devices${1:+, $*})"
  else
    echo "FAIL: $name ($devices devices${1:+, $*}):"
    cat "$work/$name.out"
    failed=$((failed + 1))
  fi
}

run jacobi_omp 2
run jacobi_omp 2 -copy
run ring_allreduce 2
run ipc_fork 2
run vmm_vector 2
run jit_compiler 2 "$work/bin/jit-cache"
run library_mgmt 1
run link_ptx 2 .
run ctx_driver 2
run mgpu_graph 2

rm -rf "$work"
[ "$failed" -eq 0 ]
