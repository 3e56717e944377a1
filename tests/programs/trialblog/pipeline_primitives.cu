/*
 * The toolkit's own asynchronous-copy headers, as the blog's "controlling data movement"
 * posts use them: the pipeline primitives of cuda_pipeline.h (__pipeline_memcpy_async with a
 * zero fill, __pipeline_commit, __pipeline_wait_prior), the C++ nvcuda::experimental::pipeline
 * with cuda_awbarrier.h's awbarrier, and libcu++'s cuda::annotated_ptr with the access
 * properties of the L2-persistence post. cuemu compiles the toolkit's headers with their
 * inline PTX; before the fix they did not link (__nvvm_get_smem_pointer, NVVM's built-in that
 * the helpers declare extern "C", and __nv_associate_access_property behind annotated_ptr,
 * were missing), and under clang++ a __restrict pointer given to an "l" operand did not
 * compile. pipeline_primitives_clang.cu builds this file with clang++.
 */
#include <cuda/annotated_ptr>
#if __has_include(<cuda_pipeline.h>) && __has_include(<cuda_awbarrier.h>)
#include <cuda_awbarrier.h>
#include <cuda_pipeline.h>
#define HAVE_PIPELINE_HEADERS 1
#endif

#include "../check.cuh"

#ifdef HAVE_PIPELINE_HEADERS
/* Double-buffered: batch b + 1 is in flight while batch b is read, by another thread. Each
 * 16-byte copy takes 16 - zfill bytes from global memory and zeros the rest. */
__global__ void primitives(const int4 *in, int4 *out, int batches, int zfill) {
  extern __shared__ int4 stage[]; /* 2 * blockDim.x */
  const int t = threadIdx.x, n = blockDim.x;
  __pipeline_memcpy_async(&stage[t], &in[t], sizeof(int4), zfill);
  __pipeline_commit();
  for (int b = 0; b < batches; ++b) {
    if (b + 1 < batches)
      __pipeline_memcpy_async(&stage[((b + 1) % 2) * n + t], &in[(b + 1) * n + t], sizeof(int4), zfill);
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    out[b * n + t] = stage[(b % 2) * n + (n - 1 - t)];
    __syncthreads();
  }
}

__global__ void cxx_pipeline(const float *in, float *out) {
  __shared__ float s[128];
  __shared__ nvcuda::experimental::awbarrier bar;
  if (threadIdx.x == 0) nvcuda::experimental::init(&bar, blockDim.x);
  __syncthreads();
  nvcuda::experimental::pipeline pipe;
  nvcuda::experimental::memcpy_async(s[threadIdx.x], in[blockIdx.x * blockDim.x + threadIdx.x], pipe);
  pipe.commit();
  pipe.arrive_on(bar);
  bar.arrive_and_wait();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x] * 2.f;
}
#endif

__global__ void annotated(cuda::annotated_ptr<const int, cuda::access_property::persisting> table, int *out,
                          int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  cuda::annotated_ptr<int, cuda::access_property::streaming> dst(out);
  if (i < n) dst[i] = table[(i * 7) % n] + 1;
  if (i == 0) {
    cuda::apply_access_property(out, n * sizeof(int), cuda::access_property::normal{});
    int *same = cuda::associate_access_property(out, cuda::access_property::persisting{});
    if (same != out) __trap();
  }
}

int main() {
  const int n = 128, batches = 6;
#ifdef HAVE_PIPELINE_HEADERS
  for (int zfill = 0; zfill <= 8; zfill += 4) {
    int4 *in, *out;
    cudaMallocManaged(&in, batches * n * sizeof(int4));
    cudaMallocManaged(&out, batches * n * sizeof(int4));
    for (int i = 0; i < batches * n; ++i) in[i] = make_int4(i, -i, 3 * i, 7);
    primitives<<<1, n, 2 * n * sizeof(int4)>>>(in, out, batches, zfill);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    for (int b = 0; b < batches; ++b)
      for (int t = 0; t < n; ++t) {
        int src = b * n + (n - 1 - t);
        int4 o = out[b * n + t];
        bool ok = o.x == src && o.y == -src && o.z == (zfill >= 8 ? 0 : 3 * src) && o.w == (zfill >= 4 ? 0 : 7);
        if (!ok)
          std::fprintf(stderr, "zfill %d batch %d thread %d: (%d,%d,%d,%d)\n", zfill, b, t, o.x, o.y, o.z, o.w);
        CHECK(ok);
      }
    cudaFree(in);
    cudaFree(out);
  }
  {
    float *in, *out;
    cudaMallocManaged(&in, 2 * n * sizeof(float));
    cudaMallocManaged(&out, 2 * n * sizeof(float));
    for (int i = 0; i < 2 * n; ++i) in[i] = 0.5f * i;
    cxx_pipeline<<<2, n>>>(in, out);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    for (int i = 0; i < 2 * n; ++i) CHECK(out[i] == in[i / n * n + (i % n + 1) % n] * 2.f);
    cudaFree(in);
    cudaFree(out);
  }
#endif
  int *table, *out;
  cudaMallocManaged(&table, n * sizeof(int));
  cudaMallocManaged(&out, n * sizeof(int));
  for (int i = 0; i < n; ++i) table[i] = i * i;
  annotated<<<1, n>>>(cuda::annotated_ptr<const int, cuda::access_property::persisting>(table), out, n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int i = 0; i < n; ++i) CHECK(out[i] == table[(i * 7) % n] + 1);
  return finish();
}
