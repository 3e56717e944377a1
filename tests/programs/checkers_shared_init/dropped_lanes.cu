// dropped_lanes.cu: a correct program that reads shared bytes nothing wrote
// and drops their values, as real kernels do (tests/checkers_shared_init.sh).
// compute-sanitizer's initcheck checks global memory only, and so does
// cuemu's by default: this program gets no initcheck report. With
// CUEMU_CHECK_SHARED_INIT=1 initcheck checks shared memory too and reports
// both reads (lines 33 and 58), whose values are never used.
#include <cstdio>
#include <cuda_runtime.h>

constexpr unsigned kThreads = 512, kWarps = kThreads / 32, kBlocks = 4;
constexpr unsigned kWords = 8, kBytes = 4 * kWords + 2;

/* A block-wide inclusive scan in the shape of LC compression's: each warp
 * scans its values, lane 31 puts the warp's total in carry[warp], and warp
 * 0 scans all 32 entries of carry. Only kWarps (16) of them were written;
 * an inclusive scan's lane i depends on lanes 0..i only, so the unwritten
 * lanes' garbage ends in lanes that nobody reads. */
__global__ void block_scan(const unsigned *in, unsigned *out) {
  __shared__ unsigned carry[32];
  unsigned t = threadIdx.x, lane = t % 32, warp = t / 32;
  unsigned i = blockIdx.x * kThreads + t;
  unsigned v = in[i];
  for (unsigned d = 1; d < 32; d *= 2) {
    unsigned u = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d)
      v += u;
  }
  if (lane == 31)
    carry[warp] = v;
  __syncthreads();
  if (warp == 0) {
    /* Lanes kWarps..31 read entries that no warp wrote. */
    unsigned c = carry[lane];
    for (unsigned d = 1; d < 32; d *= 2) {
      unsigned u = __shfl_up_sync(0xffffffffu, c, d);
      if (lane >= d)
        c += u;
    }
    if (lane < kWarps)
      carry[lane] = c;
  }
  __syncthreads();
  out[i] = v + (warp > 0 ? carry[warp - 1] : 0u);
}

/* A byte stream in shared memory, read a word at a time: thread t takes
 * the two bytes at 4t + 3 with a funnel shift of words t and t + 1 and a
 * mask. Only kBytes bytes are written, so the last thread's second word
 * holds two unwritten bytes, which the shift and the mask drop. */
__global__ void byte_pairs(const unsigned char *in, unsigned *out) {
  __shared__ unsigned words[kWords + 1];
  unsigned t = threadIdx.x;
  unsigned char *bytes = reinterpret_cast<unsigned char *>(words);
  for (unsigned b = t; b < kBytes; b += blockDim.x)
    bytes[b] = in[b];
  __syncthreads();
  if (t < kWords) {
    unsigned lo = words[t], hi = words[t + 1];
    out[t] = __funnelshift_r(lo, hi, 24) & 0xffffu;
  }
}

int main() {
  const unsigned n = kThreads * kBlocks;
  unsigned *in, *out;
  unsigned char *stream;
  unsigned *pairs;
  cudaMalloc(&in, n * sizeof *in);
  cudaMalloc(&out, n * sizeof *out);
  cudaMalloc(&stream, kBytes);
  cudaMalloc(&pairs, kWords * sizeof *pairs);
  static unsigned host_in[kThreads * kBlocks], host_out[kThreads * kBlocks];
  for (unsigned i = 0; i < n; ++i)
    host_in[i] = i % 7 + 1;
  unsigned char host_stream[kBytes];
  for (unsigned b = 0; b < kBytes; ++b)
    host_stream[b] = (unsigned char)(b * 3 + 1);
  cudaMemcpy(in, host_in, sizeof host_in, cudaMemcpyHostToDevice);
  cudaMemcpy(stream, host_stream, kBytes, cudaMemcpyHostToDevice);
  block_scan<<<kBlocks, kThreads>>>(in, out);
  byte_pairs<<<1, 32>>>(stream, pairs);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("FAIL: the launches failed\n");
    return 1;
  }
  cudaMemcpy(host_out, out, sizeof host_out, cudaMemcpyDeviceToHost);
  unsigned host_pairs[kWords];
  cudaMemcpy(host_pairs, pairs, sizeof host_pairs, cudaMemcpyDeviceToHost);
  for (unsigned b = 0; b < kBlocks; ++b) {
    unsigned sum = 0;
    for (unsigned t = 0; t < kThreads; ++t) {
      sum += host_in[b * kThreads + t];
      if (host_out[b * kThreads + t] != sum) {
        printf("FAIL: block %u thread %u: %u, wanted %u\n", b, t,
               host_out[b * kThreads + t], sum);
        return 1;
      }
    }
  }
  for (unsigned t = 0; t < kWords; ++t) {
    unsigned want = host_stream[4 * t + 3] | host_stream[4 * t + 4] << 8;
    if (host_pairs[t] != want) {
      printf("FAIL: pair %u: %#x, wanted %#x\n", t, host_pairs[t], want);
      return 1;
    }
  }
  cudaFree(in);
  cudaFree(out);
  cudaFree(stream);
  cudaFree(pairs);
  printf("PASS\n");
  return 0;
}
