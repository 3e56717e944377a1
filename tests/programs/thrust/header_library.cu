/*
 * header_library.cu: a header-only library under -isystem (minilib/),
 * written as CUB and Thrust are: kernel templates launched with <<<>>>
 * from a launcher template, queried through void pointers and for their
 * occupancy before their first launch, hidden visibility, launch bounds
 * that depend on template parameters, device-only bodies (issue 14).
 *
 * Instances whose template arguments have no linkage (lambdas) are each
 * pass's own, and are launched and queried all the same.
 *
 * CUEMU_OPTIONS: -isystem minilib --extended-lambda
 * NVCC_OPTIONS: -isystem minilib --extended-lambda
 */
#include <minilib/launch.cuh>

#include <cstdint>
#include <vector>

#include "../check.cuh"

struct square {
  __host__ __device__ long long operator()(long long x) const { return x * x; }
};

/* An agent for run_agent: each thread writes its global index times a
 * factor, staged through the dynamic shared buffer. */
struct scale_agent {
  static constexpr int block_threads = 96;
  static constexpr size_t shared_bytes = block_threads * sizeof(int);
  static __device__ void entry(char *shmem, int *out, int n, int factor) {
    int *stage = reinterpret_cast<int *>(shmem);
    int i = blockIdx.x * block_threads + threadIdx.x;
    stage[threadIdx.x] = i * factor;
    __syncthreads();
    int j = block_threads - 1 - threadIdx.x; /* a neighbour's value */
    int k = blockIdx.x * block_threads + j;
    if (k < n)
      out[k] = stage[j];
  }
};

/* How many of the n ints at d (after the work of stream s) differ from
 * expect(i). */
template <typename F>
static int mismatches(const int *d, int n, cudaStream_t s, F expect) {
  std::vector<int> r(n);
  cudaMemcpyAsync(r.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += r[i] != expect(i);
  return bad;
}

int main() {
  /* Before any launch: the kernel's attributes through a void pointer,
   * with the launch bounds of its instance. */
  int version = 0;
  CHECK(minilib::ptx_version(version) == cudaSuccess);
  CHECK(version == 900);
  cudaFuncAttributes attr;
  using P = minilib::policy<128, 1>;
  CHECK(cudaFuncGetAttributes(&attr, reinterpret_cast<const void *>(
                                         minilib::block_sum_kernel<P, int>)) ==
        cudaSuccess);
  CHECK(attr.maxThreadsPerBlock == 128);
  using Q = minilib::policy<64, 3>;
  CHECK(cudaFuncGetAttributes(
            &attr, reinterpret_cast<const void *>(
                       minilib::transform_kernel<Q, void, long long, square>)) ==
        cudaSuccess);
  CHECK(attr.maxThreadsPerBlock == 64);

  /* A launch past the instance's __launch_bounds__ is refused, as on a GPU
   * (and not sticky). */
  {
    int *sink = nullptr;
    cudaMalloc(&sink, 256 * sizeof(int));
    minilib::launcher wide{dim3(1), dim3(256), 0, 0};
    CHECK(wide.doit(minilib::block_sum_kernel<P, int>,
                    static_cast<const int *>(sink), sink, 256) ==
          cudaErrorLaunchOutOfResources);
    CHECK(cudaGetLastError() == cudaErrorLaunchOutOfResources);
    CHECK(cudaGetLastError() == cudaSuccess);
    cudaFree(sink);
  }

  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) ==
        cudaSuccess);

  /* transform, for sizes around the tile (192). */
  for (int n : {0, 1, 191, 192, 193, 1000, 300001}) {
    std::vector<long long> h(n), r(n);
    for (int i = 0; i < n; ++i)
      h[i] = (i * 7919LL) % 100003 - 50000;
    long long *in = nullptr, *out = nullptr;
    CHECK(cudaMalloc(&in, (n + 1) * sizeof(long long)) == cudaSuccess);
    CHECK(cudaMalloc(&out, (n + 1) * sizeof(long long)) == cudaSuccess);
    cudaMemcpyAsync(in, h.data(), n * sizeof(long long), cudaMemcpyHostToDevice,
                    stream);
    CHECK(minilib::transform(in, out, n, square(), stream) == cudaSuccess);
    cudaMemcpyAsync(r.data(), out, n * sizeof(long long),
                    cudaMemcpyDeviceToHost, stream);
    CHECK(cudaStreamSynchronize(stream) == cudaSuccess);
    int bad = 0;
    for (int i = 0; i < n; ++i)
      bad += r[i] != h[i] * h[i];
    CHECK(bad == 0);
    cudaFree(in);
    cudaFree(out);
  }

  /* sum with the temp-storage protocol, 64-bit and 32-bit. */
  for (int n : {1, 127, 128, 4097, 250000}) {
    std::vector<std::int64_t> h(n);
    std::int64_t expect = 0;
    for (int i = 0; i < n; ++i) {
      h[i] = (std::int64_t(i) << 20) - 3 * i;
      expect += h[i];
    }
    std::int64_t *in = nullptr, *out = nullptr;
    cudaMalloc(&in, n * sizeof(std::int64_t));
    cudaMalloc(&out, sizeof(std::int64_t));
    cudaMemcpy(in, h.data(), n * sizeof(std::int64_t), cudaMemcpyHostToDevice);
    size_t bytes = 0;
    CHECK(minilib::sum<std::int64_t>(nullptr, bytes, in, out, n, stream) ==
          cudaSuccess);
    CHECK(bytes > 0 && bytes <= 64 * sizeof(std::int64_t));
    void *temp = nullptr;
    cudaMalloc(&temp, bytes);
    CHECK(minilib::sum(temp, bytes, static_cast<const std::int64_t *>(in), out,
                       n, stream) == cudaSuccess);
    std::int64_t got = 0;
    cudaMemcpyAsync(&got, out, sizeof got, cudaMemcpyDeviceToHost, stream);
    cudaStreamSynchronize(stream);
    CHECK(got == expect);
    cudaFree(in);
    cudaFree(out);
    cudaFree(temp);
  }

  /* Template arguments without linkage: __device__ and __host__ __device__
   * lambdas. */
  {
    const int n = 777;
    std::vector<int> h(n);
    for (int i = 0; i < n; ++i)
      h[i] = 3 * i - 1000;
    int *in = nullptr, *out = nullptr;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, n * sizeof(int));
    cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    auto twice_plus = [] __device__(int x) { return 2 * x + 7; };
    CHECK(minilib::transform(static_cast<const int *>(in), out, n, twice_plus,
                             stream) == cudaSuccess);
    CHECK(mismatches(out, n, stream, [&](int i) { return 2 * h[i] + 7; }) == 0);
    auto halve = [] __host__ __device__(int x) { return x / 2; };
    CHECK(minilib::transform(static_cast<const int *>(in), out, n, halve,
                             stream) == cudaSuccess);
    CHECK(mismatches(out, n, stream, [&](int i) { return h[i] / 2; }) == 0);
    /* Known by the program before its first launch, with its bounds. */
    auto lambda_kernel = minilib::transform_kernel<
        Q, void, int, decltype(twice_plus)>;
    CHECK(cudaFuncGetAttributes(&attr, reinterpret_cast<const void *>(
                                           lambda_kernel)) == cudaSuccess);
    CHECK(attr.maxThreadsPerBlock == 64);
    cudaFree(in);
    cudaFree(out);
  }

  /* An agent kernel whose body exists in the device pass only. */
  {
    const int n = 1000, blocks = (n + 95) / 96;
    int *out = nullptr;
    cudaMalloc(&out, n * sizeof(int));
    CHECK(minilib::run_agent<scale_agent>(blocks, stream, out, n, 3) ==
          cudaSuccess);
    CHECK(mismatches(out, n, stream, [](int i) { return 3 * i; }) == 0);
    cudaFree(out);
  }

  /* The explicit specialization, and the device pass's code. */
  {
    int *out = nullptr;
    cudaMallocManaged(&out, 3 * sizeof(int));
    minilib::launcher l{dim3(1), dim3(1), 0, stream};
    CHECK(l.doit(minilib::tag_kernel<float>, out) == cudaSuccess);
    CHECK(l.doit(minilib::tag_kernel<double>, out + 1) == cudaSuccess);
    CHECK(l.doit(minilib::pass_kernel<7>, out + 2) == cudaSuccess);
    cudaStreamSynchronize(stream);
    CHECK(out[0] == 1);
    CHECK(out[1] == 2);
    CHECK(out[2] == 907);
    cudaFree(out);
  }

  /* A launch through cudaLaunchKernel with a void pointer. */
  {
    int *out = nullptr;
    cudaMallocManaged(&out, sizeof(int));
    void *args[] = {&out};
    CHECK(cudaLaunchKernel(reinterpret_cast<const void *>(
                               minilib::pass_kernel<11>),
                           dim3(1), dim3(1), args, 0, stream) == cudaSuccess);
    cudaStreamSynchronize(stream);
    CHECK(*out == 911);
    cudaFree(out);
  }
  cudaStreamDestroy(stream);
  CHECK(cudaGetLastError() == cudaSuccess);
  return finish();
}
