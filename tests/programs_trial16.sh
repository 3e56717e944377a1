#!/bin/sh
# programs_trial16.sh: programs of tests/programs/trial16, each reduced from
# a failure of a public graph, stream-ordered-allocation, multi-GPU,
# driver-API or NVRTC program built with cuemu-nvcc. Then the projects of
# the trial's second round, each a folder with its own Makefile built with
# NVCC=cuemu-nvcc as its user would build it, checked against a host
# reference: jitapp (NVRTC: headers as strings and from -I, name
# expressions of templates and variables, GetCUBIN/GetPTX then
# cuModuleLoadData, cuModuleLoadDataEx or cuLibraryLoadData, both launch
# forms; a clean compile must leave an empty log), condgraph (a while node
# whose body is captured with cudaStreamBeginCaptureToGraph between graph
# memory alloc and free nodes, a switch node updated with
# cudaGraphExecUpdate), graphmisc (user objects, event record nodes,
# disabled nodes, driver-API capture and kernel nodes with `extra`),
# poolapp (explicit pools over several streams, trimming, a pool shared
# with forked children over SCM_RIGHTS), mgpu (OpenMP threads per device,
# Jacobi halos by peer stores, a cooperative sum per device, on three
# devices) and graphapp (a static -rdc library of captured and explicit
# graphs with child graphs, getopt options, in-place updates). With nvcc
# present, each project also builds with it.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
# The programs of the folder are built as one program (PROGRAMS_COMBINE,
# programs.sh), linked with the libraries of all of them (-lnvrtc -lcuda),
# each still run in a process of its own; but multi_gpu_pools, whose -DN=3
# makes it a group of its own (<cuda.h> does not take it: its parameters
# are named N, as the toolkit's are).
PROGRAMS_COMBINE=1 sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trial16"
status=$?

command -v make >/dev/null 2>&1 || tool_missing programs_trial16.sh "no make"
builddir=$(cd "$builddir" && pwd)
work=$builddir/tests/tmp/programs_trial16.$$
projects=$srcdir/tests/programs/trial16
failed=0
real=$(find_nvcc 2>/dev/null)
# Builds project $1 with cuemu-nvcc (and with nvcc when present), then runs
# each of the remaining arguments as a command in its folder (step() and
# passes() set $name, hence $proj).
project() {
  proj=$1
  shift
  mkdir -p "$work/$proj" || exit 1
  cp -R "$projects/$proj/." "$work/$proj/" || exit 1
  if step "$proj-build" make -C "$proj" "NVCC=$builddir/cuemu-nvcc"; then
    run=0
    for command in "$@"; do
      run=$((run + 1))
      passes "$proj-$run" env CUEMU_QUIET=1 sh -c "cd $proj && $command"
    done
  fi
  # The command's words name no folder of the work folder that exists when
  # nvcc_build takes its key (nvcc_verified.py reads the files of every
  # folder of the source tree that a word names, and the work folder is in
  # it): "$proj" named the cuemu build's folder, whose objects differ from
  # run to run, so that no record ever matched and nvcc built the six
  # projects in every run (about 40 s of CPU).
  if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ]; then
    step "$proj-nvcc" nvcc_build "programs_trial16.sh:$proj" sh -c \
      'mkdir -p "$2" && cp -R "$1"/. "$2"/ && make -C "$2" "NVCC=$3"' sh \
      "$projects/$proj" "nvcc-$proj" "$real" &&
      echo "PASS: nvcc builds $proj"
  fi
}
project jitapp "./jitapp --mode=cubin" "./jitapp --mode=ptx" \
  "./jitapp --mode=library"
project condgraph "./condgraph --dot=graph.dot"
project graphmisc "./graphmisc kern.cubin"
project poolapp ./poolapp
project mgpu "CUEMU_DEVICE=count=3 ./mgpu_jacobi -nx 64 -ny 70 -niter 20"
project graphapp "./graphapp -n 4096 --iters 3 --update"
rm -rf "$work"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
