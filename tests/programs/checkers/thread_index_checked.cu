// thread_index_checked.cu: a correct program, built with every checker, whose
// kernels read threadIdx in the ways a checked build must keep right: there
// (g++) threadIdx is declared const, so that the instrumentation leaves its
// reads alone, and the thunks write it through a cast between the threads
// they run; kernel arguments are copied out of line; the shared memory of a
// block starts empty without being cleared. So: 3-D blocks, reads before and
// after barriers (threads that start after others blocked run a thunk of
// their own), reads in a device function that is not inlined, a launch
// through a function pointer, a structure passed by value, and many blocks
// whose threads write other threads' shared words than the previous block's
// did (a record left from the previous block would be a race).
// CUEMU_OPTIONS: --check=race,mem,init
#include <cuda_runtime.h>

#include "../check.cuh"

struct frame {
  int scale;
  unsigned offset;
  float bias;
  unsigned char tag[6];
};

constexpr unsigned kX = 4, kY = 3, kZ = 2;
constexpr unsigned kThreads = 128, kBlocks = 40;

__device__ __noinline__ unsigned linear_thread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

/* Each thread records its own index, before and after a barrier, from the
 * kernel and from a function that is not inlined. */
__global__ void index3d(uint3 *before, uint3 *after, unsigned *via_call,
                        frame f) {
  unsigned block = blockIdx.x + gridDim.x * blockIdx.y;
  unsigned i = block * (kX * kY * kZ) + linear_thread();
  before[i] = threadIdx;
  __syncthreads();
  after[i] = make_uint3(threadIdx.x, threadIdx.y, threadIdx.z);
  __syncthreads();
  via_call[i] = linear_thread() * f.scale + f.offset + f.tag[5];
}

/* Thread t writes word (t + 7 * block) of the tile, then reads its own word
 * and its neighbour's after a barrier; a second round after another
 * barrier writes them back shifted. */
__global__ void rotate(const unsigned *in, unsigned *out) {
  __shared__ unsigned tile[kThreads];
  unsigned t = threadIdx.x;
  unsigned base = blockIdx.x * kThreads;
  tile[(t + 7 * blockIdx.x) % kThreads] = in[base + t];
  __syncthreads();
  unsigned mine = tile[t], next = tile[(t + 1) % kThreads];
  __syncthreads();
  tile[(t + 3) % kThreads] = mine + next;
  __syncthreads();
  out[base + t] = tile[t] + threadIdx.x;
}

int main() {
  const unsigned n3 = kX * kY * kZ * 4;
  uint3 *before, *after;
  unsigned *via_call;
  cudaMallocManaged(&before, n3 * sizeof(uint3));
  cudaMallocManaged(&after, n3 * sizeof(uint3));
  cudaMallocManaged(&via_call, n3 * sizeof(unsigned));
  frame f = {3, 11, 0.5f, {1, 2, 3, 4, 5, 6}};
  void (*kernel)(uint3 *, uint3 *, unsigned *, frame) = index3d;
  kernel<<<dim3(2, 2), dim3(kX, kY, kZ)>>>(before, after, via_call, f);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int bad = 0;
  for (unsigned b = 0; b < 4; ++b)
    for (unsigned z = 0; z < kZ; ++z)
      for (unsigned y = 0; y < kY; ++y)
        for (unsigned x = 0; x < kX; ++x) {
          unsigned lin = x + kX * (y + kY * z), i = b * kX * kY * kZ + lin;
          bad += before[i].x != x || before[i].y != y || before[i].z != z;
          bad += after[i].x != x || after[i].y != y || after[i].z != z;
          bad += via_call[i] != lin * 3 + 11 + 6;
        }
  CHECK(bad == 0);

  const unsigned n = kThreads * kBlocks;
  unsigned *in, *out;
  cudaMallocManaged(&in, n * sizeof(unsigned));
  cudaMallocManaged(&out, n * sizeof(unsigned));
  for (unsigned i = 0; i < n; ++i)
    in[i] = i * 2654435761u;
  rotate<<<kBlocks, kThreads>>>(in, out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  bad = 0;
  for (unsigned b = 0; b < kBlocks; ++b)
    for (unsigned t = 0; t < kThreads; ++t) {
      /* Word w held in[(w - 7b) mod n] after the first round. */
      auto first = [&](unsigned w) {
        return in[b * kThreads + (w + kThreads * 8 - 7 * b) % kThreads];
      };
      unsigned src = (t + kThreads - 3) % kThreads;
      unsigned want = first(src) + first((src + 1) % kThreads) + t;
      bad += out[b * kThreads + t] != want;
    }
  CHECK(bad == 0);
  cudaFree(before);
  cudaFree(after);
  cudaFree(via_call);
  cudaFree(in);
  cudaFree(out);
  return finish();
}
