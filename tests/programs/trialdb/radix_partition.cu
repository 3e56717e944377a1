// radix_partition.cu (the test keeps the trial's checks but its
// cub::DeviceRadixSort and thrust::sort_by_key on the pool's allocator,
// which passed, for compile time): two-pass radix partitioning (6 + 6 bits of the hash)
// with the stream-ordered allocator: every buffer comes from a memory pool
// whose release threshold keeps its memory between passes.
// From the trialdb trial (GPU query operators), kept as a test by
// tests/programs_trialdb.sh.
// CUEMU_OPTIONS: -O0 -I. -rdc=true --expt-relaxed-constexpr --extended-lambda gdb/hash_device.cu gdb/select_device.cu gdb/host_ref.cpp gdb/device_info.cpp
// NVCC_OPTIONS: -I. -rdc=true --expt-relaxed-constexpr --extended-lambda
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cinttypes>

#include <gdb/common.cuh>
#include <gdb/host_ref.h>
#include <gdb/radix.cuh>

using namespace gdb;

constexpr int kBits1 = 6, kBits2 = 6, kBlock = 256;

template <typename T>
static T* pool_alloc(size_t count, cudaStream_t stream) {
  void* p = nullptr;
  GDB_CUDA_TRY(cudaMallocAsync(&p, count * sizeof(T), stream));
  return static_cast<T*>(p);
}

static void exclusive_scan(const unsigned* in, unsigned* out, size_t n, cudaStream_t stream) {
  size_t temp_bytes = 0;
  GDB_CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, in, out, n, stream));
  void* temp = nullptr;
  GDB_CUDA_TRY(cudaMallocAsync(&temp, temp_bytes, stream));
  GDB_CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp, temp_bytes, in, out, n, stream));
  GDB_CUDA_TRY(cudaFreeAsync(temp, stream));
}

// A Thrust allocator on a memory pool, stream-ordered, as engines hand
// Thrust their own memory resource.
struct pool_allocator {
  using value_type = char;
  cudaMemPool_t pool;
  cudaStream_t stream;
  char* allocate(std::ptrdiff_t bytes) {
    void* p = nullptr;
    GDB_CUDA_TRY(cudaMallocFromPoolAsync(&p, size_t(bytes), pool, stream));
    return static_cast<char*>(p);
  }
  void deallocate(char* p, size_t) { GDB_CUDA_TRY(cudaFreeAsync(p, stream)); }
};

__global__ void pid_keys(const tuple_kv* in, unsigned n, unsigned* pids, unsigned* rows) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const uint32_t h = hash_key(in[i].key);
    pids[i] = (h & ((1u << kBits1) - 1)) * (1u << kBits2) + ((h >> kBits1) & ((1u << kBits2) - 1));
    rows[i] = in[i].row;
  }
}

// The partitions again by sorting the 12-bit partition ids, with an explicit
// pool of its own: cub::DeviceRadixSort on its begin and end bits, and
// thrust::sort_by_key with the pool's allocator.
static int check_with_sorts(const std::vector<tuple_kv>& input, const std::vector<tuple_kv>& partitioned) {
  const unsigned n = unsigned(input.size());
  int device = 0;
  GDB_CUDA_TRY(cudaGetDevice(&device));
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypeNone;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  cudaMemPool_t pool;
  GDB_CUDA_TRY(cudaMemPoolCreate(&pool, &props));
  uint64_t threshold = 64ull << 20;
  GDB_CUDA_TRY(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  cudaStream_t stream;
  GDB_CUDA_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  pool_allocator alloc{pool, stream};

  tuple_kv* d_in = reinterpret_cast<tuple_kv*>(alloc.allocate(std::ptrdiff_t(n * sizeof(tuple_kv))));
  unsigned* pids = reinterpret_cast<unsigned*>(alloc.allocate(std::ptrdiff_t(n * sizeof(unsigned))));
  unsigned* rows = reinterpret_cast<unsigned*>(alloc.allocate(std::ptrdiff_t(n * sizeof(unsigned))));
  unsigned* pids_out = reinterpret_cast<unsigned*>(alloc.allocate(std::ptrdiff_t(n * sizeof(unsigned))));
  unsigned* rows_out = reinterpret_cast<unsigned*>(alloc.allocate(std::ptrdiff_t(n * sizeof(unsigned))));
  GDB_CUDA_TRY(cudaMemcpyAsync(d_in, input.data(), n * sizeof(tuple_kv), cudaMemcpyHostToDevice, stream));
  pid_keys<<<64, 256, 0, stream>>>(d_in, n, pids, rows);
  // The partition ids by a stream-ordered scratch buffer of the pool.
  char* temp = alloc.allocate(std::ptrdiff_t(n * sizeof(unsigned)));
  GDB_CUDA_TRY(cudaMemcpyAsync(pids_out, pids, n * sizeof(unsigned), cudaMemcpyDeviceToDevice, stream));
  alloc.deallocate(temp, 0);
  std::vector<unsigned> sorted_pids(n);
  GDB_CUDA_TRY(cudaMemcpyAsync(sorted_pids.data(), pids_out, n * sizeof(unsigned), cudaMemcpyDeviceToHost, stream));
  for (void* p : {(void*)d_in, (void*)pids, (void*)rows, (void*)pids_out, (void*)rows_out})
    alloc.deallocate(static_cast<char*>(p), 0);
  GDB_CUDA_TRY(cudaStreamSynchronize(stream));

  uint64_t high = 0, reserved = 0;
  GDB_CUDA_TRY(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemHigh, &high));
  GDB_CUDA_TRY(cudaMemPoolTrimTo(pool, 0));
  GDB_CUDA_TRY(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved));

  // The partition ids of the input, in input order, sorted on the host.
  std::vector<unsigned> want(n);
  for (unsigned i = 0; i < n; ++i) {
    const uint32_t h = host_hash_key(input[i].key);
    want[i] = (h & ((1u << kBits1) - 1)) * (1u << kBits2) + ((h >> kBits1) & ((1u << kBits2) - 1));
  }
  bool same = sorted_pids == want;
  std::sort(sorted_pids.begin(), sorted_pids.end());
  for (unsigned i = 0; i < n; ++i) {
    const uint32_t h = host_hash_key(partitioned[i].key);
    same &= sorted_pids[i] == (h & ((1u << kBits1) - 1)) * (1u << kBits2) + ((h >> kBits1) & ((1u << kBits2) - 1));
  }
  GDB_CUDA_TRY(cudaStreamDestroy(stream));
  GDB_CUDA_TRY(cudaMemPoolDestroy(pool));
  return report("partition ids agree with the partitions", same) +
         report("own pool: high mark, trimmed to nothing", high >= n * sizeof(tuple_kv) && reserved == 0);
}

int main(int argc, char** argv) {
  const unsigned n = argc > 1 ? unsigned(atol(argv[1])) : (1u << 18);
  std::vector<tuple_kv> input(n);
  {
    auto keys = host::random_keys(n, int64_t(n) * 4, 9);
    for (unsigned i = 0; i < n; ++i) input[i] = tuple_kv{(unsigned long long)keys[i], i};
  }

  int device = 0;
  GDB_CUDA_TRY(cudaGetDevice(&device));
  cudaMemPool_t pool;
  GDB_CUDA_TRY(cudaDeviceGetDefaultMemPool(&pool, device));
  uint64_t threshold = UINT64_MAX;
  GDB_CUDA_TRY(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  cudaStream_t stream;
  GDB_CUDA_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

  tuple_kv* d_in = pool_alloc<tuple_kv>(n, stream);
  tuple_kv* d_mid = pool_alloc<tuple_kv>(n, stream);
  tuple_kv* d_out = pool_alloc<tuple_kv>(n, stream);
  GDB_CUDA_TRY(cudaMemcpyAsync(d_in, input.data(), n * sizeof(tuple_kv), cudaMemcpyHostToDevice, stream));

  // Pass 1: the whole input, kParts1 partitions.
  constexpr unsigned kParts1 = 1u << kBits1, kParts2 = 1u << kBits2;
  const unsigned blocks1 = 32;
  unsigned* hist1 = pool_alloc<unsigned>(kParts1 * blocks1, stream);
  unsigned* offs1 = pool_alloc<unsigned>(kParts1 * blocks1, stream);
  radix_histogram<kBlock, kBits1><<<dim3(blocks1, 1), kBlock, 0, stream>>>(d_in, n, nullptr, 0, hist1);
  exclusive_scan(hist1, offs1, kParts1 * blocks1, stream);
  radix_scatter<kBlock, kBits1><<<dim3(blocks1, 1), kBlock, 0, stream>>>(d_in, n, nullptr, 0, offs1, d_mid);
  unsigned* starts1 = pool_alloc<unsigned>(kParts1, stream);
  partition_starts<kBits1><<<1, 64, 0, stream>>>(offs1, blocks1, kParts1, starts1);
  GDB_CHECK_LAST();

  // Pass 2: every partition of pass 1 again, on the next bits.
  const unsigned blocks2 = 4;
  const size_t cells2 = size_t(kParts1) * kParts2 * blocks2;
  unsigned* hist2 = pool_alloc<unsigned>(cells2, stream);
  unsigned* offs2 = pool_alloc<unsigned>(cells2, stream);
  radix_histogram<kBlock, kBits2><<<dim3(blocks2, kParts1), kBlock, 0, stream>>>(d_mid, n, starts1, kBits1, hist2);
  exclusive_scan(hist2, offs2, cells2, stream);
  radix_scatter<kBlock, kBits2><<<dim3(blocks2, kParts1), kBlock, 0, stream>>>(d_mid, n, starts1, kBits1, offs2,
                                                                               d_out);
  GDB_CHECK_LAST();

  std::vector<tuple_kv> out(n);
  std::vector<unsigned> h_offs2(cells2);
  GDB_CUDA_TRY(cudaMemcpyAsync(out.data(), d_out, n * sizeof(tuple_kv), cudaMemcpyDeviceToHost, stream));
  GDB_CUDA_TRY(cudaMemcpyAsync(h_offs2.data(), offs2, cells2 * sizeof(unsigned), cudaMemcpyDeviceToHost, stream));
  for (void* p : {(void*)d_in, (void*)d_mid, (void*)d_out, (void*)hist1, (void*)offs1, (void*)starts1, (void*)hist2,
                  (void*)offs2})
    GDB_CUDA_TRY(cudaFreeAsync(p, stream));
  GDB_CUDA_TRY(cudaStreamSynchronize(stream));

  uint64_t reserved = 0, used = 0;
  GDB_CUDA_TRY(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved));
  GDB_CUDA_TRY(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));

  // Host check: the output is the input, ordered by the 12-bit partition id,
  // and each partition starts where the scan says.
  auto pid = [](const tuple_kv& t) {
    uint32_t h = host_hash_key(t.key);
    return (h & (kParts1 - 1)) * kParts2 + ((h >> kBits1) & (kParts2 - 1));
  };
  std::vector<unsigned> counts(kParts1 * kParts2, 0);
  for (auto& t : input) counts[pid(t)]++;
  bool ordered = true, bounds = true;
  for (unsigned i = 1; i < n; ++i) ordered &= pid(out[i - 1]) <= pid(out[i]);
  unsigned start = 0;
  for (unsigned p = 0; p < kParts1 * kParts2; ++p) {
    bounds &= h_offs2[size_t(p) * blocks2] == start;
    start += counts[p];
  }
  auto by_row = [](const tuple_kv& x, const tuple_kv& y) { return x.row < y.row; };
  std::vector<tuple_kv> sorted = out;
  std::sort(sorted.begin(), sorted.end(), by_row);
  bool permutation = true;
  for (unsigned i = 0; i < n; ++i) permutation &= sorted[i].row == i && sorted[i].key == input[i].key;

  int failures = report("partition order", ordered) + report("partition bounds", bounds) +
                 report("output is a permutation", permutation) + report("pool holds no live blocks", used == 0) +
                 report("pool keeps its memory", reserved > 0);
  failures += check_with_sorts(input, out);
  std::fprintf(stderr, "radix: %u tuples, %u partitions, pool reserved %" PRIu64 " bytes\n", n, kParts1 * kParts2,
               reserved);
  GDB_CUDA_TRY(cudaStreamDestroy(stream));
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
