// scan_sort.cu: a course assignment's histogram, scan and sort, checked
// against host references as its main.cpp does: a histogram privatised in
// dynamic shared memory, a multi-block exclusive scan (Blelloch's per
// block with bank-conflict padding, scan_blelloch.cuh, then a recursive
// scan of the block sums and a uniform add) and a least-significant-digit
// radix sort of one bit per pass (predicate, scan, scatter) built on it.
#include "scan_blelloch.cuh"
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)
template <typename T> void check(T err, const char *func, const char *file, int line) {
  if (err != cudaSuccess) {
    fprintf(stderr, "CUDA error at %s:%d: %s %s\n", file, line, cudaGetErrorString(err), func);
    exit(1);
  }
}

const int SCAN_THREADS = 128;
const int SCAN_ELEMS = 2 * SCAN_THREADS;

__global__ void histoShared(const unsigned int *vals, unsigned int *histo, int numBins, int n) {
  extern __shared__ unsigned int sHisto[];
  for (int b = threadIdx.x; b < numBins; b += blockDim.x) sHisto[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&sHisto[vals[i] % numBins], 1);
  __syncthreads();
  for (int b = threadIdx.x; b < numBins; b += blockDim.x)
    if (sHisto[b]) atomicAdd(&histo[b], sHisto[b]);
}

__global__ void scanBlocks(const unsigned int *in, unsigned int *out, unsigned int *sums, int n) {
  __shared__ unsigned int temp[SCAN_ELEMS + SCAN_ELEMS / NUM_BANKS];
  int base = blockIdx.x * SCAN_ELEMS;
  int ai = threadIdx.x, bi = threadIdx.x + SCAN_THREADS;
  temp[ai + CONFLICT_FREE_OFFSET(ai)] = base + ai < n ? in[base + ai] : 0;
  temp[bi + CONFLICT_FREE_OFFSET(bi)] = base + bi < n ? in[base + bi] : 0;
  blellochScanBlock(temp, SCAN_ELEMS, sums ? &sums[blockIdx.x] : (unsigned int *)nullptr);
  if (base + ai < n) out[base + ai] = temp[ai + CONFLICT_FREE_OFFSET(ai)];
  if (base + bi < n) out[base + bi] = temp[bi + CONFLICT_FREE_OFFSET(bi)];
}

__global__ void addBlockSums(unsigned int *out, const unsigned int *sums, int n) {
  int i = blockIdx.x * SCAN_ELEMS + threadIdx.x;
  unsigned int s = sums[blockIdx.x];
  if (i < n) out[i] += s;
  if (i + SCAN_THREADS < n) out[i + SCAN_THREADS] += s;
}

static void exclusiveScan(const unsigned int *d_in, unsigned int *d_out, int n) {
  int blocks = (n + SCAN_ELEMS - 1) / SCAN_ELEMS;
  if (blocks == 1) {
    scanBlocks<<<1, SCAN_THREADS>>>(d_in, d_out, nullptr, n);
    return;
  }
  unsigned int *d_sums, *d_sumsScanned;
  checkCudaErrors(cudaMalloc(&d_sums, blocks * sizeof(unsigned int)));
  checkCudaErrors(cudaMalloc(&d_sumsScanned, blocks * sizeof(unsigned int)));
  scanBlocks<<<blocks, SCAN_THREADS>>>(d_in, d_out, d_sums, n);
  exclusiveScan(d_sums, d_sumsScanned, blocks);
  addBlockSums<<<blocks, SCAN_THREADS>>>(d_out, d_sumsScanned, n);
  checkCudaErrors(cudaFree(d_sums));
  checkCudaErrors(cudaFree(d_sumsScanned));
}

__global__ void predicateZero(const unsigned int *in, unsigned int *pred, unsigned int bit, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) pred[i] = ((in[i] >> bit) & 1u) == 0;
}

__global__ void scatter(const unsigned int *in, unsigned int *out, const unsigned int *pred,
                        const unsigned int *scanned, unsigned int bit, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned int zeros = scanned[n - 1] + pred[n - 1];
  unsigned int v = in[i];
  unsigned int dst = ((v >> bit) & 1u) ? zeros + (i - scanned[i]) : scanned[i];
  out[dst] = v;
}

static void radixSort(const unsigned int *d_in, unsigned int *d_out, int n, int bits) {
  unsigned int *d_pred, *d_scan, *d_tmp;
  checkCudaErrors(cudaMalloc(&d_pred, n * sizeof(unsigned int)));
  checkCudaErrors(cudaMalloc(&d_scan, n * sizeof(unsigned int)));
  checkCudaErrors(cudaMalloc(&d_tmp, n * sizeof(unsigned int)));
  checkCudaErrors(cudaMemcpy(d_tmp, d_in, n * sizeof(unsigned int), cudaMemcpyDeviceToDevice));
  unsigned int *src = d_tmp, *dst = d_out;
  int threads = 256, blocks = (n + threads - 1) / threads;
  for (int bit = 0; bit < bits; ++bit) {
    predicateZero<<<blocks, threads>>>(src, d_pred, bit, n);
    exclusiveScan(d_pred, d_scan, n);
    scatter<<<blocks, threads>>>(src, dst, d_pred, d_scan, bit, n);
    std::swap(src, dst);
  }
  if (src != d_out)
    checkCudaErrors(cudaMemcpy(d_out, src, n * sizeof(unsigned int), cudaMemcpyDeviceToDevice));
  checkCudaErrors(cudaFree(d_pred));
  checkCudaErrors(cudaFree(d_scan));
  checkCudaErrors(cudaFree(d_tmp));
}

static bool same(const std::vector<unsigned int> &ref, const std::vector<unsigned int> &got,
                 size_t n, const char *what) {
  for (size_t i = 0; i < n; ++i)
    if (ref[i] != got[i]) {
      printf("%s: difference at pos %zu: %u vs %u\n", what, i, ref[i], got[i]);
      return false;
    }
  return true;
}

int main() {
  const int n = 70000, numBins = 1000, bits = 10;
  std::vector<unsigned int> h(n), ref(n), got(n);
  srand(7);
  for (int i = 0; i < n; ++i) h[i] = rand() & ((1u << bits) - 1);
  unsigned int *d_in, *d_out, *d_histo;
  checkCudaErrors(cudaMalloc(&d_in, n * sizeof(unsigned int)));
  checkCudaErrors(cudaMalloc(&d_out, n * sizeof(unsigned int)));
  checkCudaErrors(cudaMalloc(&d_histo, numBins * sizeof(unsigned int)));
  checkCudaErrors(cudaMemcpy(d_in, h.data(), n * sizeof(unsigned int), cudaMemcpyHostToDevice));
  bool ok = true;

  checkCudaErrors(cudaMemset(d_histo, 0, numBins * sizeof(unsigned int)));
  histoShared<<<32, 256, numBins * sizeof(unsigned int)>>>(d_in, d_histo, numBins, n);
  checkCudaErrors(cudaGetLastError());
  std::fill(ref.begin(), ref.end(), 0u);
  for (int i = 0; i < n; ++i) ref[h[i] % numBins]++;
  checkCudaErrors(cudaMemcpy(got.data(), d_histo, numBins * sizeof(unsigned int),
                             cudaMemcpyDeviceToHost));
  ok &= same(ref, got, numBins, "histogram");

  exclusiveScan(d_in, d_out, n);
  unsigned int acc = 0;
  for (int i = 0; i < n; ++i) {
    ref[i] = acc;
    acc += h[i];
  }
  checkCudaErrors(cudaMemcpy(got.data(), d_out, n * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  ok &= same(ref, got, n, "scan");

  radixSort(d_in, d_out, n, bits);
  ref = h;
  std::stable_sort(ref.begin(), ref.end());
  checkCudaErrors(cudaMemcpy(got.data(), d_out, n * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  ok &= same(ref, got, n, "sort");

  checkCudaErrors(cudaFree(d_in));
  checkCudaErrors(cudaFree(d_out));
  checkCudaErrors(cudaFree(d_histo));
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
