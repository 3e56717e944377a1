/*
 * md_toolkit.cu: what GPU molecular-dynamics packages use around their
 * kernels: NVTX ranges, a high-priority stream with an L2 access policy
 * window, cudaHostRegister, cudaLaunchKernel of a template instance,
 * cudaFuncGetAttributes, warp-aggregated compaction with
 * coalesced_threads(), thrust::lower_bound/upper_bound cell ranges,
 * cub::BlockReduce and BlockScan sharing a union of temporary storage,
 * curand's host generator on a stream, a batched cuFFT D2Z plan on a
 * stream, atomicAdd on float2 and float4.
 * From a trial of molecular-dynamics code (tests/programs_trialmd.sh).
 * CUEMU_OPTIONS: -Iinclude --expt-relaxed-constexpr -lcurand -lcufft
 * NVCC_OPTIONS: -Iinclude --expt-relaxed-constexpr
 */
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <vector>
#include <nvtx3/nvToolsExt.h>
#include <cooperative_groups.h>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/binary_search.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/sort.h>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <curand.h>
#include <cufft.h>
namespace cg = cooperative_groups;
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); return 1; } } while (0)
static int fails = 0;
#define EXPECT(c) do { if (!(c)) { printf("FAILED %s at %d\n", #c, __LINE__); ++fails; } } while (0)

__global__ void warp_agg(const float *r2, int n, float cut2, int *out, int *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && r2[i] < cut2) {
    cg::coalesced_group active = cg::coalesced_threads();
    int base;
    if (active.thread_rank() == 0) base = atomicAdd(count, (int)active.size());
    base = active.shfl(base, 0);
    out[base + active.thread_rank()] = i;
  }
}
template <int BLOCK>
__global__ void cub_kernel(const int *in, int *scan, double *sum) {
  typedef cub::BlockReduce<double, BLOCK> Reduce;
  typedef cub::BlockScan<int, BLOCK> Scan;
  __shared__ union { typename Reduce::TempStorage r; typename Scan::TempStorage s; } tmp;
  int v = in[blockIdx.x * BLOCK + threadIdx.x];
  int x;
  Scan(tmp.s).ExclusiveSum(v, x);
  scan[blockIdx.x * BLOCK + threadIdx.x] = x;
  __syncthreads();
  double s = Reduce(tmp.r).Sum((double)v);
  if (threadIdx.x == 0) atomicAdd(sum, s);
}
template <int TPA> __global__ void scale(float *x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s * TPA;
}
__global__ void vec_atomics(float2 *a, float4 *b) {
  atomicAdd(a, make_float2(1.f, 2.f));
  atomicAdd(b, make_float4(1.f, 2.f, 3.f, 4.f));
}

int main() {
  nvtxRangePushA("probe");
  int lo, hi;
  CK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
  cudaStream_t s;
  CK(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, hi));
  int prio; CK(cudaStreamGetPriority(s, &prio)); EXPECT(prio == hi);
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  float *buf; CK(cudaMalloc(&buf, 1 << 20));
  if (prop.persistingL2CacheMaxSize > 0) {
    cudaStreamAttrValue attr = {};
    attr.accessPolicyWindow.base_ptr = buf;
    attr.accessPolicyWindow.num_bytes = 1 << 20;
    attr.accessPolicyWindow.hitRatio = 0.6f;
    attr.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    attr.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    CK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &attr));
  }
  std::vector<float> host(1000, 1.f);
  CK(cudaHostRegister(host.data(), host.size() * sizeof(float), cudaHostRegisterDefault));
  CK(cudaMemcpyAsync(buf, host.data(), 4000, cudaMemcpyHostToDevice, s));
  int n = 1000; float sc = 0.5f;
  void *args[] = {&buf, &sc, &n};
  CK(cudaLaunchKernel((const void *)scale<4>, dim3(8), dim3(128), args, 0, s));
  CK(cudaMemcpyAsync(host.data(), buf, 4000, cudaMemcpyDeviceToHost, s));
  CK(cudaStreamSynchronize(s));
  EXPECT(host[999] == 2.f);
  CK(cudaHostUnregister(host.data()));
  cudaFuncAttributes fa; CK(cudaFuncGetAttributes(&fa, scale<4>));
  EXPECT(fa.maxThreadsPerBlock >= 128);

  // warp-aggregated atomics
  std::vector<float> r2(1000);
  for (int i = 0; i < 1000; ++i) r2[i] = (i * 37 % 101) / 10.f;
  int expect = 0; for (float v : r2) expect += v < 5.f;
  float *d_r2; int *d_out, *d_count;
  CK(cudaMalloc(&d_r2, 4000)); CK(cudaMalloc(&d_out, 4000)); CK(cudaMalloc(&d_count, 4));
  CK(cudaMemcpy(d_r2, r2.data(), 4000, cudaMemcpyHostToDevice)); CK(cudaMemset(d_count, 0, 4));
  warp_agg<<<8, 128>>>(d_r2, 1000, 5.f, d_out, d_count);
  int count; CK(cudaMemcpy(&count, d_count, 4, cudaMemcpyDeviceToHost)); EXPECT(count == expect);
  std::vector<int> out(count); CK(cudaMemcpy(out.data(), d_out, 4 * count, cudaMemcpyDeviceToHost));
  std::sort(out.begin(), out.end()); bool uniq = true; for (int i = 1; i < count; ++i) uniq &= out[i] != out[i-1]; EXPECT(uniq);

  // thrust cell ranges by binary search
  thrust::device_vector<unsigned> cells(1000);
  thrust::host_vector<unsigned> hc(1000); for (int i = 0; i < 1000; ++i) hc[i] = (i * 7919) % 64;
  cells = hc;
  thrust::sort(cells.begin(), cells.end());
  thrust::device_vector<unsigned> start(64), end(64);
  thrust::lower_bound(cells.begin(), cells.end(), thrust::counting_iterator<unsigned>(0), thrust::counting_iterator<unsigned>(64), start.begin());
  thrust::upper_bound(cells.begin(), cells.end(), thrust::counting_iterator<unsigned>(0), thrust::counting_iterator<unsigned>(64), end.begin());
  thrust::host_vector<unsigned> hs = start, he = end;
  int tot = 0; for (int c = 0; c < 64; ++c) tot += he[c] - hs[c]; EXPECT(tot == 1000); EXPECT(hs[0] == 0);

  // cub block primitives
  int *d_in, *d_scan; double *d_sum;
  CK(cudaMalloc(&d_in, 512 * 4)); CK(cudaMalloc(&d_scan, 512 * 4)); CK(cudaMalloc(&d_sum, 8));
  std::vector<int> in(512); for (int i = 0; i < 512; ++i) in[i] = i % 7;
  CK(cudaMemcpy(d_in, in.data(), 2048, cudaMemcpyHostToDevice)); CK(cudaMemset(d_sum, 0, 8));
  cub_kernel<128><<<4, 128>>>(d_in, d_scan, d_sum);
  std::vector<int> sc2(512); double sum;
  CK(cudaMemcpy(sc2.data(), d_scan, 2048, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(&sum, d_sum, 8, cudaMemcpyDeviceToHost));
  double hsum = 0; for (int v : in) hsum += v; EXPECT(sum == hsum);
  int run = 0; bool sok = true; for (int i = 0; i < 512; ++i) { if (i % 128 == 0) run = 0; sok &= sc2[i] == run; run += in[i]; } EXPECT(sok);

  // curand host API for initial velocities
  curandGenerator_t gen;
  EXPECT(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10) == CURAND_STATUS_SUCCESS);
  EXPECT(curandSetPseudoRandomGeneratorSeed(gen, 1234ull) == CURAND_STATUS_SUCCESS);
  EXPECT(curandSetStream(gen, s) == CURAND_STATUS_SUCCESS);
  float *d_v; CK(cudaMalloc(&d_v, 30000 * 4));
  EXPECT(curandGenerateNormal(gen, d_v, 30000, 0.f, 1.5f) == CURAND_STATUS_SUCCESS);
  std::vector<float> hv(30000); CK(cudaMemcpyAsync(hv.data(), d_v, 120000, cudaMemcpyDeviceToHost, s)); CK(cudaStreamSynchronize(s));
  double m = 0, v2 = 0; for (float x : hv) { m += x; v2 += x * x; } m /= 30000; v2 = v2 / 30000 - m * m;
  EXPECT(fabs(m) < 0.05 && fabs(v2 - 2.25) < 0.1);
  curandDestroyGenerator(gen);

  // cufft batched double 3D with a stream
  cufftHandle plan; int dims[3] = {8, 8, 8};
  EXPECT(cufftPlanMany(&plan, 3, dims, nullptr, 1, 0, nullptr, 1, 0, CUFFT_D2Z, 2) == CUFFT_SUCCESS);
  EXPECT(cufftSetStream(plan, s) == CUFFT_SUCCESS);
  size_t ws = 0; EXPECT(cufftGetSize(plan, &ws) == CUFFT_SUCCESS);
  double *d_g; cufftDoubleComplex *d_k;
  CK(cudaMalloc(&d_g, 2 * 512 * 8)); CK(cudaMalloc(&d_k, 2 * 8 * 8 * 5 * sizeof(cufftDoubleComplex)));
  std::vector<double> g(1024); for (int i = 0; i < 1024; ++i) g[i] = (i % 13) * 0.25;
  CK(cudaMemcpy(d_g, g.data(), 8192, cudaMemcpyHostToDevice));
  EXPECT(cufftExecD2Z(plan, d_g, d_k) == CUFFT_SUCCESS);
  cufftDoubleComplex k0[2]; CK(cudaStreamSynchronize(s));
  CK(cudaMemcpy(&k0[0], d_k, 16, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(&k0[1], d_k + 320, 16, cudaMemcpyDeviceToHost));
  double s0 = 0, s1 = 0; for (int i = 0; i < 512; ++i) { s0 += g[i]; s1 += g[512 + i]; }
  EXPECT(fabs(k0[0].x - s0) < 1e-9 && fabs(k0[1].x - s1) < 1e-9);
  cufftDestroy(plan);

  float2 *d_a2; float4 *d_a4;
  CK(cudaMalloc(&d_a2, 8)); CK(cudaMalloc(&d_a4, 16)); CK(cudaMemset(d_a2, 0, 8)); CK(cudaMemset(d_a4, 0, 16));
  vec_atomics<<<2, 64>>>(d_a2, d_a4);
  float2 a2; float4 a4; CK(cudaMemcpy(&a2, d_a2, 8, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(&a4, d_a4, 16, cudaMemcpyDeviceToHost));
  EXPECT(a2.x == 128 && a2.y == 256 && a4.w == 512);
  nvtxRangePop();
  CK(cudaGetLastError());
  printf("%s\n", fails ? "FAIL" : "PASS");
  return fails != 0;
}
