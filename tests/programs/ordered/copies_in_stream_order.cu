// copies_in_stream_order.cu: copies beyond cudaMemcpyAsync run at their
// place in the stream, and the host that issues them is not held:
//  - cudaMemcpyFromSymbolAsync reads a __device__ table after the kernel
//    before it wrote it, cudaMemcpyToSymbolAsync writes it before the
//    kernel after it reads it;
//  - cudaMemcpy3DAsync between pitched buffers, between a kernel that
//    fills the source and one that sums the destination;
//  - cudaMemcpyPeerAsync and cuMemcpyPeerAsync (device 0 to device 0) in
//    the same pipeline;
//  - cudaMemPrefetchAsync and cudaStreamAttachMemAsync on the held stream;
//  - cudaLaunchHostFunc runs after the work before it.
// The stream is held by a kernel until the host lets it go; a host that
// waited for it would only get on when a valve thread raises the flag, and
// the test fails then.
// CUEMU_OPTIONS: -std=c++17 -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include "../check.cuh"
#include "ordered_kernels.cuh"

#define RT(call) CHECK((call) == cudaSuccess)

static const int Table = 64;
__device__ int table[Table];

// table[i] = i * k.
__global__ void write_table(int k) {
  int i = threadIdx.x;
  if (i < Table)
    table[i] = i * k;
}

// out[i] = table[i] + 1.
__global__ void read_table(int *out) {
  int i = threadIdx.x;
  if (i < Table)
    out[i] = table[i] + 1;
}

// A 3D box of width x height x depth ints at pitch bytes per row.
__global__ void fill_box(cudaPitchedPtr p, int width, int height, int depth) {
  int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
  if (x < width && y < height && z < depth) {
    int *row = (int *)((char *)p.ptr + (z * height + y) * p.pitch);
    row[x] = x + 10 * y + 100 * z;
  }
}

__global__ void sum_box(cudaPitchedPtr p, int width, int height, int depth,
                        int *sum) {
  int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
  if (x < width && y < height && z < depth) {
    const int *row = (const int *)((char *)p.ptr + (z * height + y) * p.pitch);
    atomicAdd(sum, row[x]);
  }
}

static void host_step(void *arg) { *static_cast<int *>(arg) += 1; }

int main() {
  RT(cudaSetDeviceFlags(cudaDeviceMapHost));
  cudaStream_t s;
  RT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const int W = 40, H = 6, D = 3;
  cudaExtent extent = make_cudaExtent(W * sizeof(int), H, D);
  cudaPitchedPtr a, b;
  RT(cudaMalloc3D(&a, extent));
  RT(cudaMalloc3D(&b, extent));
  int *sums, *peer_copy, *managed;
  RT(cudaMalloc(&sums, 2 * sizeof(int)));
  RT(cudaMalloc(&peer_copy, 2 * sizeof(int)));
  RT(cudaMallocManaged(&managed, 1024));
  RT(cudaMemset(sums, 0, 2 * sizeof(int)));
  int *before, *after, *next, *host_sums; // pinned: the copies are queued
  RT(cudaMallocHost(&before, Table * sizeof(int)));
  RT(cudaMallocHost(&after, Table * sizeof(int)));
  RT(cudaMallocHost(&next, Table * sizeof(int)));
  RT(cudaMallocHost(&host_sums, 3 * sizeof(int)));
  for (int i = 0; i < Table; ++i)
    next[i] = 1000 - i;
  int *out;
  RT(cudaMalloc(&out, Table * sizeof(int)));
  int host_calls = 0;
  RT(cudaDeviceSynchronize());

  Hold hold(5.0);
  hold_until<<<1, 32, 0, s>>>(hold.dflag);
  write_table<<<1, Table, 0, s>>>(3);
  RT(cudaMemcpyFromSymbolAsync(before, table, sizeof(int) * Table, 0,
                               cudaMemcpyDeviceToHost, s));
  RT(cudaMemcpyToSymbolAsync(table, next, sizeof(int) * Table, 0,
                             cudaMemcpyHostToDevice, s));
  read_table<<<1, Table, 0, s>>>(out);
  RT(cudaMemcpyAsync(after, out, sizeof(int) * Table, cudaMemcpyDeviceToHost,
                     s));
  fill_box<<<dim3(H, D), W, 0, s>>>(a, W, H, D);
  cudaMemcpy3DParms p = {};
  p.srcPtr = a;
  p.dstPtr = b;
  p.extent = extent;
  p.kind = cudaMemcpyDeviceToDevice;
  RT(cudaMemcpy3DAsync(&p, s));
  sum_box<<<dim3(H, D), W, 0, s>>>(b, W, H, D, sums);
  RT(cudaMemcpyPeerAsync(peer_copy, 0, sums, 0, sizeof(int), s));
  CUcontext ctx;
  CHECK(cuCtxGetCurrent(&ctx) == CUDA_SUCCESS);
  CHECK(cuMemcpyPeerAsync((CUdeviceptr)(peer_copy + 1), ctx, (CUdeviceptr)sums,
                          ctx, sizeof(int), (CUstream)s) == CUDA_SUCCESS);
  sum_box<<<dim3(H, D), W, 0, s>>>(a, W, H, D, sums + 1);
  RT(cudaMemcpyAsync(host_sums, peer_copy, sizeof(int),
                     cudaMemcpyDeviceToHost, s));
  RT(cudaMemcpyAsync(host_sums + 2, peer_copy + 1, sizeof(int),
                     cudaMemcpyDeviceToHost, s));
  RT(cudaMemcpyAsync(host_sums + 1, sums + 1, sizeof(int),
                     cudaMemcpyDeviceToHost, s));
  RT(cudaStreamAttachMemAsync(s, managed, 0, cudaMemAttachSingle));
#if CUDART_VERSION >= 13000
  cudaMemLocation here = {};
  here.type = cudaMemLocationTypeDevice;
  RT(cudaMemPrefetchAsync(managed, 1024, here, 0, s));
#else
  RT(cudaMemPrefetchAsync(managed, 1024, 0, s));
#endif
  RT(cudaLaunchHostFunc(s, host_step, &host_calls));
  if (!streams_run_inline()) {
    CHECK(cudaStreamQuery(s) == cudaErrorNotReady);
    cudaGetLastError();
    CHECK(host_calls == 0);
  }
  CHECK(hold.release()); // nothing above waited for the held stream
  RT(cudaStreamSynchronize(s));

  int want_box = 0;
  for (int z = 0; z < D; ++z)
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x)
        want_box += x + 10 * y + 100 * z;
  for (int i = 0; i < Table; ++i) {
    CHECK(before[i] == 3 * i);
    CHECK(after[i] == 1000 - i + 1);
  }
  CHECK(host_sums[0] == want_box);
  CHECK(host_sums[1] == want_box);
  CHECK(host_sums[2] == want_box);
  CHECK(host_calls == 1);

  RT(cudaFree(a.ptr));
  RT(cudaFree(b.ptr));
  RT(cudaFree(sums));
  RT(cudaFree(peer_copy));
  RT(cudaFree(managed));
  RT(cudaFree(out));
  RT(cudaFreeHost(before));
  RT(cudaFreeHost(after));
  RT(cudaFreeHost(next));
  RT(cudaFreeHost(host_sums));
  RT(cudaStreamDestroy(s));
  RT(cudaGetLastError());
  return finish();
}
