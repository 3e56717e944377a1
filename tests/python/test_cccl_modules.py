"""CCCL in RawModule sources, as in CuPy (which puts CCCL on NVRTC's
include path): CUB's block primitives included by a RawModule's code
compile and give numpy's results (docs/cccl.md)."""
import os

import numpy
import pytest


def _toolkit_cccl():
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"),
                 "/usr/local/cuda"):
        if root and os.path.isdir(os.path.join(root, "include", "cccl", "cub")):
            return True
    return False


needs_cccl = pytest.mark.skipif(not _toolkit_cccl(),
                                reason="needs a CUDA toolkit with include/cccl")

CUB_SOURCE = r'''
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

constexpr int kThreads = 128;

extern "C" __global__ void block_sums(const int *in, long long *sums, int n) {
  using BlockReduce = cub::BlockReduce<long long, kThreads>;
  __shared__ typename BlockReduce::TempStorage storage;
  const int i = blockIdx.x * kThreads + threadIdx.x;
  long long v = i < n ? in[i] : 0;
  long long total = BlockReduce(storage).Sum(v);
  if (threadIdx.x == 0) sums[blockIdx.x] = total;
}

extern "C" __global__ void block_offsets(const int *in, int *out, int n) {
  using BlockScan = cub::BlockScan<int, kThreads>;
  __shared__ typename BlockScan::TempStorage storage;
  const int i = blockIdx.x * kThreads + threadIdx.x;
  int v = i < n ? in[i] : 0, offset;
  BlockScan(storage).ExclusiveSum(v, offset);
  if (i < n) out[i] = offset;
}
'''


@needs_cccl
def test_cub_block_primitives_in_a_raw_module(cp):
    module = cp.RawModule(code=CUB_SOURCE)
    n, threads = 300, 128
    blocks = (n + threads - 1) // threads
    host = (numpy.arange(n, dtype=numpy.int32) * 7919) % 1000 - 300
    x = cp.asarray(host)
    sums = cp.zeros(blocks, dtype=cp.int64)
    offsets = cp.zeros(n, dtype=cp.int32)
    module.get_function("block_sums")((blocks,), (threads,), (x, sums, numpy.int32(n)))
    module.get_function("block_offsets")((blocks,), (threads,),
                                         (x, offsets, numpy.int32(n)))
    padded = numpy.zeros(blocks * threads, dtype=numpy.int64)
    padded[:n] = host
    tiles = padded.reshape(blocks, threads)
    numpy.testing.assert_array_equal(sums.get(), tiles.sum(axis=1))
    want = (numpy.cumsum(tiles, axis=1) - tiles).reshape(-1)[:n]
    numpy.testing.assert_array_equal(offsets.get(), want)
