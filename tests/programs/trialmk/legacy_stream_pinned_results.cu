// legacy_stream_pinned_results.cu: the way a hydrodynamics proxy app (LULESH
// 2.0's CUDA port, trial "mini") hands its time-step constraints to the host.
// A kernel on the legacy default stream leaves one minimum per block; a
// kernel on a created (blocking) stream reduces them and stores the result
// straight into page-locked host memory from cudaMallocHost, through the
// host pointer itself (unified addressing); an event recorded on that
// stream is all the host waits for before it reads the values. Device code
// also sets a page-locked error flag only when a value is bad. The program
// is built as LULESH's Makefile builds it: relocatable device code and the
// old libstdc++ string ABI, with Thrust vectors filled by thrust::fill.
// CUEMU_OPTIONS: -rdc=true -D_GLIBCXX_USE_CXX11_ABI=0
// NVCC_OPTIONS: -rdc=true -D_GLIBCXX_USE_CXX11_ABI=0
#include <thrust/device_vector.h>
#include <thrust/fill.h>
#include <thrust/sequence.h>

#include <cstdio>
#include <string>

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t check_status = (call);                                       \
    if (check_status != cudaSuccess) {                                       \
      std::string check_text = cudaGetErrorString(check_status);             \
      std::printf("FAIL: %s at line %d\n", check_text.c_str(), __LINE__);   \
      return 1;                                                              \
    }                                                                        \
  } while (0)

// Each block leaves the minimum of its grid-stride share in partial[block],
// and flags the index of a negative value, as LULESH flags a bad volume.
template <int BLOCK>
__global__ void block_minima(const double *values, int n, double *partial,
                             int *bad_index) {
  __shared__ double smem[BLOCK];
  double mine = 1.0e20;
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK) {
    if (values[i] < 0.0)
      *bad_index = i;
    mine = fmin(mine, values[i]);
  }
  smem[threadIdx.x] = mine;
  __syncthreads();
  for (int half = BLOCK / 2; half > 0; half /= 2) {
    if (threadIdx.x < half)
      smem[threadIdx.x] = fmin(smem[threadIdx.x], smem[threadIdx.x + half]);
    __syncthreads();
  }
  if (threadIdx.x == 0)
    partial[blockIdx.x] = smem[0];
}

// Block 0 reduces the first array into *first, block 1 the second into
// *second; both results go to page-locked host memory.
__global__ void two_minima(const double *a, const double *b, int count,
                           double *first, double *second) {
  extern __shared__ double smem[];
  const double *from = blockIdx.x == 0 ? a : b;
  smem[threadIdx.x] = threadIdx.x < count ? from[threadIdx.x] : 1.0e20;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half)
      smem[threadIdx.x] = fmin(smem[threadIdx.x], smem[threadIdx.x + half]);
    __syncthreads();
  }
  if (threadIdx.x == 0)
    *(blockIdx.x == 0 ? first : second) = smem[0];
}

int main() {
  const int n = 5000, blocks = 20, block = 128;
  thrust::device_vector<double> courant(n), hydro(n);
  thrust::fill(courant.begin(), courant.end(), 3.0);
  thrust::sequence(hydro.begin(), hydro.end(), 7.0, 0.5);
  courant[1234] = 0.25;  // the smallest Courant constraint
  thrust::device_vector<double> partial_courant(blocks), partial_hydro(blocks);

  double *courant_h = nullptr, *hydro_h = nullptr;
  int *bad_h = nullptr;
  CHECK(cudaMallocHost(&courant_h, sizeof(double)));
  CHECK(cudaMallocHost(&hydro_h, sizeof(double)));
  CHECK(cudaMallocHost(&bad_h, sizeof(int)));
  *courant_h = *hydro_h = 1.0e20;
  *bad_h = -1;

  cudaStream_t stream;
  cudaEvent_t computed;
  CHECK(cudaStreamCreate(&stream));
  CHECK(cudaEventCreateWithFlags(&computed, cudaEventDisableTiming));
  CHECK(cudaFuncSetCacheConfig(block_minima<block>, cudaFuncCachePreferShared));
  CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferL1));

  for (int step = 0; step < 3; ++step) {
    // Legacy default stream: the blocking stream's kernel below waits for these.
    block_minima<block><<<blocks, block>>>(
        thrust::raw_pointer_cast(courant.data()), n,
        thrust::raw_pointer_cast(partial_courant.data()), bad_h);
    block_minima<block><<<blocks, block>>>(
        thrust::raw_pointer_cast(hydro.data()), n,
        thrust::raw_pointer_cast(partial_hydro.data()), bad_h);
    two_minima<<<2, 32, 32 * sizeof(double), stream>>>(
        thrust::raw_pointer_cast(partial_courant.data()),
        thrust::raw_pointer_cast(partial_hydro.data()), blocks, courant_h,
        hydro_h);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(computed, stream));
    CHECK(cudaEventSynchronize(computed));
    const double want_hydro = 7.0 + 0.5 * step;
    if (*courant_h != 0.25 || *hydro_h != want_hydro || *bad_h != -1) {
      std::printf("FAIL: step %d: courant %g hydro %g (want %g) bad %d\n", step,
                  *courant_h, *hydro_h, want_hydro, *bad_h);
      return 1;
    }
    // The next step's values, set by Thrust on the legacy default stream.
    thrust::sequence(hydro.begin(), hydro.end(), want_hydro + 0.5, 0.5);
  }

  // A bad value is flagged through the page-locked flag.
  courant[77] = -1.0;
  block_minima<block><<<blocks, block>>>(
      thrust::raw_pointer_cast(courant.data()), n,
      thrust::raw_pointer_cast(partial_courant.data()), bad_h);
  CHECK(cudaDeviceSynchronize());
  if (*bad_h != 77) {
    std::printf("FAIL: bad index %d, want 77\n", *bad_h);
    return 1;
  }

  CHECK(cudaEventDestroy(computed));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFreeHost(courant_h));
  CHECK(cudaFreeHost(hydro_h));
  CHECK(cudaFreeHost(bad_h));
  std::printf("PASS\n");
  return 0;
}
