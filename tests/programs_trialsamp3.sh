#!/bin/sh
# programs_trialsamp3.sh: programs of tests/programs/trialsamp3, written in
# the style of NVIDIA's samples for a trial of graph, stream-ordered
# allocation and multi-GPU samples (issue 16), built with cuemu-nvcc: a
# Jacobi solver relaunching one captured graph with
# cudaGraphExecKernelNodeSetParams, graph memory nodes with
# AutoFreeOnLaunch, a power iteration in a conditional while node, graphs
# captured by several threads in thread-local mode with nodes spliced in
# (cudaStreamGetCaptureInfo, cudaStreamUpdateCaptureDependencies),
# captured stream-ordered allocation with
# cudaGraphDebugDotPrint's flags, and a JIT-compiled template kernel
# loaded as a CUDA 12 library (nvrtcAddNameExpression, cuLibraryLoadData
# with JIT options, cuLibraryGetKernel, cuLaunchKernelEx). Then
# timed/cg_multi_thread.cu, a conjugate gradient with one host thread per
# device and a cooperative launch per dot product, under a CPU limit: cuemu once made and unmapped every thread's stack at each
# cooperative launch (9.3 s of CPU, 7.8 of it system time; now under 1 s).
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
PROGRAMS_COMBINE=1 sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trialsamp3"
status=$?

builddir=$(cd "$builddir" && pwd)
work=$builddir/tests/tmp/programs_trialsamp3.$$
failed=0
mkdir -p "$work" || exit 1
if step cg-build "$builddir/cuemu-nvcc" \
  "$srcdir/tests/programs/trialsamp3/timed/cg_multi_thread.cu" -o cg_multi_thread; then
  passes "cooperative launches per iteration on two devices, in 4 s of CPU" \
    sh -c 'ulimit -t 4 && ./cg_multi_thread'
fi
rm -rf "$work"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
