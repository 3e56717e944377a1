// pipeline_scan.cu: SELECT COUNT(*), SUM(x) WHERE x BETWEEN lo AND hi over a
// column larger than one transfer, in chunks on 4 streams: pinned host memory,
// copies overlapped with kernels, a setup kernel every stream waits for, and
// a host function per chunk that accumulates the chunk's result.
// From the trialdb trial (GPU query operators), kept as a test by
// tests/programs_trialdb.sh.
// CUEMU_OPTIONS: -O0 -I. -rdc=true --expt-relaxed-constexpr --extended-lambda gdb/hash_device.cu gdb/select_device.cu gdb/host_ref.cpp gdb/device_info.cpp
// NVCC_OPTIONS: -I. -rdc=true --expt-relaxed-constexpr --extended-lambda
#include <atomic>
#include <cmath>
#include <cinttypes>
#include <vector>

#include <gdb/common.cuh>
#include <gdb/host_ref.h>
#include <gdb/reduce.cuh>

using namespace gdb;

struct scan_bounds {
  int lo, hi;
};

struct chunk_result {
  unsigned long long count;
  long long sum;
};

__device__ scan_bounds d_bounds;

__global__ void setup_bounds(int lo, int hi) {
  if (threadIdx.x == 0 && blockIdx.x == 0) d_bounds = scan_bounds{lo, hi};
}

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) scan_chunk(const int* __restrict__ x, size_t n, chunk_result* result) {
  const scan_bounds b = d_bounds;
  unsigned long long count = 0;
  long long sum = 0;
  for (size_t i = blockIdx.x * size_t(BLOCK) + threadIdx.x; i < n; i += size_t(gridDim.x) * BLOCK) {
    const int v = x[i];
    if (v >= b.lo && v <= b.hi) {
      ++count;
      sum += v;
    }
  }
  count = block_sum<BLOCK>(count);
  __syncthreads();
  sum = block_sum<BLOCK>(sum);
  if (threadIdx.x == 0) {
    atomicAdd(&result->count, count);
    atomicAdd(reinterpret_cast<unsigned long long*>(&result->sum), (unsigned long long)sum);
  }
}

__global__ void combine_results(const chunk_result* parts, int chunks, chunk_result* total) {
  if (threadIdx.x != 0) return;
  chunk_result t{0, 0};
  for (int c = 0; c < chunks; ++c) {
    t.count += parts[c].count;
    t.sum += parts[c].sum;
  }
  *total = t;
}

struct host_accumulator {
  std::atomic<unsigned long long> count{0};
  std::atomic<long long> sum{0};
  std::atomic<int> chunks{0};
};

struct callback_arg {
  host_accumulator* acc;
  const chunk_result* pinned;  // the chunk's result, copied back before the callback
};

static void CUDART_CB accumulate_chunk(void* data) {
  auto* arg = static_cast<callback_arg*>(data);
  arg->acc->count += arg->pinned->count;
  arg->acc->sum += arg->pinned->sum;
  arg->acc->chunks++;
}

// A row store (array of structs) whose price column is gathered by a 2D
// copy (pitch = the row's size), and whose quantity column is read in
// place through mapped, registered host memory (zero copy).
struct order_row {
  int id;
  int quantity;
  float price;
  char status;
  char pad[3];
};

__global__ void revenue_zero_copy(const order_row* __restrict__ rows, const float* __restrict__ price, int n,
                                  double* __restrict__ revenue) {
  double local = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    if (rows[i].status == 'F') local += double(rows[i].quantity) * price[i];
  local = block_sum<256>(local);
  if (threadIdx.x == 0) atomicAdd(revenue, local);
}

static void CUDART_CB stream_done(cudaStream_t, cudaError_t status, void* data) {
  *static_cast<int*>(data) = status == cudaSuccess ? 1 : -1;
}

static int row_store_checks() {
  const int n = 100000;
  std::vector<order_row> rows(n);
  uint64_t seed = 8;
  double want = 0;
  for (int i = 0; i < n; ++i) {
    const uint64_t r = host::splitmix(seed);
    rows[i] = order_row{i, int(r % 50) + 1, float((r >> 8) % 10000) / 100.f, (r >> 40) % 3 ? 'F' : 'O', {0, 0, 0}};
    if (rows[i].status == 'F') want += double(rows[i].quantity) * rows[i].price;
  }
  GDB_CUDA_TRY(cudaHostRegister(rows.data(), n * sizeof(order_row), cudaHostRegisterMapped));
  order_row* d_rows = nullptr;
  GDB_CUDA_TRY(cudaHostGetDevicePointer(reinterpret_cast<void**>(&d_rows), rows.data(), 0));
  float* d_price = nullptr;
  double* d_revenue = nullptr;
  GDB_CUDA_TRY(cudaMalloc(&d_price, n * sizeof(float)));
  GDB_CUDA_TRY(cudaMalloc(&d_revenue, sizeof(double)));
  cudaStream_t stream;
  GDB_CUDA_TRY(cudaStreamCreate(&stream));
  GDB_CUDA_TRY(cudaMemsetAsync(d_revenue, 0, sizeof(double), stream));
  GDB_CUDA_TRY(cudaMemcpy2DAsync(d_price, sizeof(float), &rows[0].price, sizeof(order_row), sizeof(float), n,
                                 cudaMemcpyHostToDevice, stream));
  revenue_zero_copy<<<64, 256, 0, stream>>>(d_rows, d_price, n, d_revenue);
  GDB_CHECK_LAST();
  int done = 0;
  GDB_CUDA_TRY(cudaStreamAddCallback(stream, stream_done, &done, 0));
  cudaEvent_t finished;
  GDB_CUDA_TRY(cudaEventCreate(&finished));
  GDB_CUDA_TRY(cudaEventRecord(finished, stream));
  cudaError_t q;
  while ((q = cudaEventQuery(finished)) == cudaErrorNotReady) {
  }
  GDB_CUDA_TRY(q);
  GDB_CUDA_TRY(cudaStreamQuery(stream));
  double got = 0;
  GDB_CUDA_TRY(cudaMemcpy(&got, d_revenue, sizeof got, cudaMemcpyDeviceToHost));
  std::vector<float> prices(n);
  GDB_CUDA_TRY(cudaMemcpy2D(prices.data(), sizeof(float), d_price, sizeof(float), sizeof(float), n,
                            cudaMemcpyDeviceToHost));
  bool gathered = true;
  for (int i = 0; i < n; ++i) gathered &= prices[i] == rows[i].price;
  GDB_CUDA_TRY(cudaEventDestroy(finished));
  GDB_CUDA_TRY(cudaStreamDestroy(stream));
  GDB_CUDA_TRY(cudaFree(d_price));
  GDB_CUDA_TRY(cudaFree(d_revenue));
  GDB_CUDA_TRY(cudaHostUnregister(rows.data()));
  return report("cudaMemcpy2D column gather", gathered) +
         report("zero-copy revenue", std::fabs(got - want) <= 1e-9 * want && done == 1);
}

int main(int argc, char** argv) {
  const size_t n = argc > 1 ? size_t(atol(argv[1])) : (size_t(1) << 22);
  const size_t chunk = size_t(1) << 18;
  const int chunks = int((n + chunk - 1) / chunk);
  constexpr int kStreams = 4, kBlock = 256;
  const int lo = -5000, hi = 20000;

  int* h_x = nullptr;
  GDB_CUDA_TRY(cudaHostAlloc(reinterpret_cast<void**>(&h_x), n * sizeof(int), cudaHostAllocDefault));
  uint64_t seed = 77;
  unsigned long long want_count = 0;
  long long want_sum = 0;
  for (size_t i = 0; i < n; ++i) {
    h_x[i] = int(host::splitmix(seed) % 100000) - 50000;
    if (h_x[i] >= lo && h_x[i] <= hi) {
      ++want_count;
      want_sum += h_x[i];
    }
  }
  chunk_result* h_results = nullptr;
  GDB_CUDA_TRY(cudaMallocHost(&h_results, (chunks + 1) * sizeof(chunk_result)));

  int* d_x = nullptr;
  chunk_result* d_results = nullptr;
  GDB_CUDA_TRY(cudaMalloc(&d_x, n * sizeof(int)));
  GDB_CUDA_TRY(cudaMalloc(&d_results, (chunks + 1) * sizeof(chunk_result)));

  cudaStream_t streams[kStreams];
  cudaEvent_t done[kStreams], setup_done;
  for (int s = 0; s < kStreams; ++s) {
    GDB_CUDA_TRY(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
    GDB_CUDA_TRY(cudaEventCreateWithFlags(&done[s], cudaEventDisableTiming));
  }
  GDB_CUDA_TRY(cudaEventCreateWithFlags(&setup_done, cudaEventDisableTiming));

  gpu_timer timer;
  timer.start(streams[0]);
  GDB_CUDA_TRY(cudaMemsetAsync(d_results, 0, (chunks + 1) * sizeof(chunk_result), streams[0]));
  setup_bounds<<<1, 32, 0, streams[0]>>>(lo, hi);
  GDB_CUDA_TRY(cudaEventRecord(setup_done, streams[0]));

  host_accumulator acc;
  std::vector<callback_arg> args(chunks);
  for (int s = 1; s < kStreams; ++s) GDB_CUDA_TRY(cudaStreamWaitEvent(streams[s], setup_done, 0));
  for (int c = 0; c < chunks; ++c) {
    cudaStream_t st = streams[c % kStreams];
    const size_t off = size_t(c) * chunk;
    const size_t len = std::min(chunk, n - off);
    GDB_CUDA_TRY(cudaMemcpyAsync(d_x + off, h_x + off, len * sizeof(int), cudaMemcpyHostToDevice, st));
    scan_chunk<kBlock><<<grid_for(len, kBlock, 128), kBlock, 0, st>>>(d_x + off, len, d_results + c);
    GDB_CHECK_LAST();
    GDB_CUDA_TRY(cudaMemcpyAsync(h_results + c, d_results + c, sizeof(chunk_result), cudaMemcpyDeviceToHost, st));
    args[c] = callback_arg{&acc, h_results + c};
    GDB_CUDA_TRY(cudaLaunchHostFunc(st, accumulate_chunk, &args[c]));
  }
  for (int s = 0; s < kStreams; ++s) GDB_CUDA_TRY(cudaEventRecord(done[s], streams[s]));
  for (int s = 1; s < kStreams; ++s) GDB_CUDA_TRY(cudaStreamWaitEvent(streams[0], done[s], 0));
  combine_results<<<1, 32, 0, streams[0]>>>(d_results, chunks, d_results + chunks);
  GDB_CUDA_TRY(cudaMemcpyAsync(h_results + chunks, d_results + chunks, sizeof(chunk_result), cudaMemcpyDeviceToHost,
                               streams[0]));
  const float ms = timer.stop(streams[0]);
  GDB_CUDA_TRY(cudaDeviceSynchronize());

  const chunk_result total = h_results[chunks];
  int failures = report("device total", total.count == want_count && total.sum == want_sum);
  failures += report("host callbacks", acc.chunks == chunks && acc.count == want_count && acc.sum == want_sum);
  std::fprintf(stderr, "pipeline: %zu rows in %d chunks, %llu match, sum %lld, %.3f ms\n", n, chunks, total.count,
               total.sum, ms);

  for (int s = 0; s < kStreams; ++s) {
    GDB_CUDA_TRY(cudaEventDestroy(done[s]));
    GDB_CUDA_TRY(cudaStreamDestroy(streams[s]));
  }
  GDB_CUDA_TRY(cudaEventDestroy(setup_done));
  GDB_CUDA_TRY(cudaFree(d_x));
  GDB_CUDA_TRY(cudaFree(d_results));
  GDB_CUDA_TRY(cudaFreeHost(h_x));
  GDB_CUDA_TRY(cudaFreeHost(h_results));
  failures += row_store_checks();
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
