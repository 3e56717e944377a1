/*
 * ptx_simd_shared.cu: what CCCL's headers need of cuemu below CUB, tested
 * without CCCL (so it builds in seconds): the SIMD intrinsics of the CUDA
 * Math API against hand-worked values (saturation, wrap-around, signed
 * and unsigned parts, the rounding of averages, CUDA 12's 3-way, relu and
 * predicate forms); inline PTX's exit (threads that exit count as arrived
 * at barriers), %dynamic_smem_size, and 32-bit shared-window addresses
 * (__cvta_generic_to_shared, cvta.to.shared, ld/st/atom/mbarrier
 * .shared through a 32-bit register), __isShared, bmsk, vote.ballot.sync,
 * the cluster registers of a launch without clusters, .L2::cache_hint,
 * named barriers of part of a block (bar.sync a, b and bar.arrive).
 */
#include <cstdio>

#include "cub_test.cuh"

__global__ void simd() {
  EXPECT(__vadd2(0x7fff0001u, 0x00010002u) == 0x80000003u);
  EXPECT(__vaddss2(0x7fff0001u, 0x00010002u) == 0x7fff0003u);
  EXPECT(__vaddus2(0xffff0001u, 0x00020002u) == 0xffff0003u);
  EXPECT(__vadd4(0xff7f0102u, 0x01010101u) == 0x00800203u);
  EXPECT(__vaddss4(0x7f80ff01u, 0x01ff0101u) == 0x7f800002u);
  EXPECT(__vsub4(0x00010203u, 0x01010101u) == 0xff000102u);
  EXPECT(__vsubss4(0x80017f00u, 0x01ff8101u) == 0x80027fffu);
  EXPECT(__vsubus4(0x00010203u, 0x01010101u) == 0x00000102u);
  EXPECT(__vsubss2(0x80000001u, 0x00010002u) == 0x8000ffffu);
  EXPECT(__vabs2(0x8000fffeu) == 0x80000002u);
  EXPECT(__vabsss2(0x8000fffeu) == 0x7fff0002u);
  EXPECT(__vabs4(0x80ff017fu) == 0x8001017fu);
  EXPECT(__vabsss4(0x80ff017fu) == 0x7f01017fu);
  EXPECT(__vneg2(0x00018000u) == 0xffff8000u);
  EXPECT(__vnegss2(0x00018000u) == 0xffff7fffu);
  EXPECT(__vneg4(0x0180ff00u) == 0xff800100u);
  EXPECT(__vabsdiffs4(0x7f80ff01u, 0x80010102u) == 0xff810201u);
  EXPECT(__vabsdiffu2(0x0001ffffu, 0x00030000u) == 0x0002ffffu);
  EXPECT(__vavgu4(0x01020304u, 0x02020202u) == 0x02020303u);
  EXPECT(__vavgs4(0xfffefd01u, 0xfffefe02u) == 0xfffefd02u);
  EXPECT(__vavgs2(0xfffd0003u, 0xfffe0002u) == 0xfffd0003u); /* -2.5 -> -3, 2.5 -> 3 */
  EXPECT(__vhaddu2(0xffff0003u, 0x00010004u) == 0x80000003u);
  EXPECT(__vcmpgts2(0x00018000u, 0xffff7fffu) == 0xffff0000u);
  EXPECT(__vcmpgtu2(0x00018000u, 0xffff7fffu) == 0x0000ffffu);
  EXPECT(__vsetles4(0x01020380u, 0x01010180u) == 0x01000001u);
  EXPECT(__vseteq2(0x1234aba5u, 0x1234aba6u) == 0x00010000u);
  EXPECT(__vcmpeq2(0x1234aba5u, 0x1234aba6u) == 0xffff0000u);
  EXPECT(__vcmpne4(0x01020304u, 0x01000300u) == 0x00ff00ffu);
  EXPECT(__vmaxs4(0x7f80ff00u, 0x80010001u) == 0x7f010001u);
  EXPECT(__vmaxu4(0x7f80ff00u, 0x80010001u) == 0x8080ff01u);
  EXPECT(__vmins2(0x8000ffffu, 0x7fff0001u) == 0x8000ffffu);
  EXPECT(__vminu2(0x8000ffffu, 0x7fff0001u) == 0x7fff0001u);
  EXPECT(__vsads2(0x8000ffffu, 0x7fff0001u) == 65537u);
  EXPECT(__vsadu4(0x01ff0000u, 0x00010000u) == 255u);
  EXPECT(__vimax3_s32(-5, 3, 2) == 3);
  EXPECT(__vimax3_u32(5u, 0xffffffffu, 1u) == 0xffffffffu);
  EXPECT(__vimin3_s32(-5, 3, 2) == -5);
  EXPECT(__vimax_s32_relu(-5, -3) == 0);
  EXPECT(__vimin_s32_relu(4, 7) == 4);
  EXPECT(__vimax3_s16x2(0x0001ffffu, 0x8000fffeu, 0x0002fff0u) == 0x0002ffffu);
  EXPECT(__vimax3_s16x2_relu(0xffffffffu, 0xfffefffeu, 0x0003fff0u) == 0x00030000u);
  EXPECT(__vimin3_u16x2(0x0001ffffu, 0x8000fffeu, 0x0002fff0u) == 0x0001fff0u);
  EXPECT(__viaddmax_s32(0x7fffffff, 1, 0) == 0);
  EXPECT(__viaddmin_u32(3u, 4u, 5u) == 5u);
  EXPECT(__viaddmax_s16x2(0x7fff0001u, 0x00010001u, 0x00000005u) == 0x00000005u);
  EXPECT(__viaddmin_s16x2_relu(0xfff00001u, 0x00000001u, 0x00050001u) == 0x00000001u);
  bool p = false, hi = true, lo = false;
  EXPECT(__vibmax_s32(3, 3, &p) == 3 && p);
  EXPECT(__vibmin_u32(2u, 5u, &p) == 2u && p);
  EXPECT(__vibmax_s16x2(0x0001ffffu, 0x0002fffeu, &hi, &lo) == 0x0002ffffu && !hi && lo);
}

/* bmsk (as the PTX ISA defines it), the older vote spelling CUB uses,
 * the implicit cluster of one block, and .L2::cache_hint's policy
 * operand (read, no effect). */
__device__ unsigned bmsk_wrap(unsigned a, unsigned b) {
  unsigned d;
  asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  return d;
}
__device__ unsigned bmsk_clamp(unsigned a, unsigned b) {
  unsigned d;
  asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  return d;
}

__global__ void more_ptx(const unsigned *in) {
  if (threadIdx.x == 0) {
    EXPECT(bmsk_wrap(1, 2) == 0x6u);
    EXPECT(bmsk_clamp(30, 4) == 0xc0000000u);
    EXPECT(bmsk_wrap(33, 2) == 0x6u);
    EXPECT(bmsk_clamp(33, 2) == 0u);
    EXPECT(bmsk_wrap(4, 0) == 0u);
    EXPECT(bmsk_clamp(4, 40) == 0xfffffff0u);
    EXPECT(bmsk_wrap(4, 40) == 0x00000ff0u);
    unsigned v[4];
    asm("{ .reg .u32 x, y, z, w; .reg .pred p; mov.pred p, %%is_explicit_cluster;\n\t"
        "selp.u32 x, 1, 0, p; mov.u32 y, %%nclusterid.x;\n\t"
        "mov.u32 z, %%cluster_nctarank; mov.u32 w, %%clusterid.x;\n\t"
        "mov.u32 %0, x; mov.u32 %1, y; mov.u32 %2, z; mov.u32 %3, w; }"
        : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]));
    EXPECT(v[0] == 0 && v[1] == gridDim.x && v[2] == 1 && v[3] == blockIdx.x);
  }
  unsigned x;
  asm volatile("{ .reg .b64 policy; mov.b64 policy, 0;\n\t"
               "ld.global.L2::cache_hint.b32 %0, [%1], policy; }"
               : "=r"(x) : "l"(in + threadIdx.x));
  EXPECT(x == threadIdx.x * 7);
  unsigned ballot;
  asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0;\n\t"
               "vote.ballot.sync.b32 %0, p, 0xffffffff; }"
               : "=r"(ballot) : "r"(threadIdx.x % 3));
  EXPECT(ballot == 0xb6db6db6u); /* the lanes not divisible by 3 */
}

/* Named barriers of part of a block: warps 0 and 1 produce and arrive
 * (bar.arrive), warps 2 and 3 wait for them (bar.sync) on barrier 1 of
 * 128 threads; warps 0 and 1 alone also meet on barrier 2 of 64 threads.
 * In a block of 80 threads, the partial third warp counts as 32. */
__global__ void named_barriers(int *out) {
  __shared__ int data[128];
  const int t = threadIdx.x, warp = t / 32;
  if (blockDim.x == 128) {
    if (warp < 2) {
      data[t] = t * 5;
      asm volatile("bar.sync 2, 64;" ::: "memory");
      EXPECT(data[(t + 32) % 64] == ((t + 32) % 64) * 5);
      data[64 + t] = t * 7;
      asm volatile("bar.arrive 1, 128;" ::: "memory");
    } else {
      asm volatile("bar.sync 1, 128;" ::: "memory");
      out[blockIdx.x * 128 + t] = data[t - 64] + data[t];
    }
  } else {
    data[t] = t;
    if (warp >= 1) {
      asm volatile("barrier.sync 3, 64;" ::: "memory");
      out[t] = data[t < 64 ? t + 16 : t - 32];
    }
  }
}

/* Odd threads exit; the others meet at barriers (exited threads count as
 * arrived) and at a warp collective of the lanes that are left. */
__global__ void exits(int *out) {
  const int t = threadIdx.x;
  __shared__ int alive;
  if (t == 0) alive = 0;
  __syncthreads();
  if (t % 2) asm volatile("exit;");
  atomicAdd(&alive, 1);
  __syncthreads();
  out[blockIdx.x * 128 + t] = alive;
  unsigned left; /* exited lanes may be named in a collective's mask */
  asm volatile("vote.sync.ballot.b32 %0, 1, 0xffffffff;" : "=r"(left));
  if (t % 32 == 0) out[blockIdx.x * 128 + blockDim.x + t / 32] = (int)left;
}

/* Shared memory through its own 32-bit addresses. */
__global__ void shared_window(unsigned *out) {
  extern __shared__ unsigned dyn[];
  __shared__ unsigned words[64];
  __shared__ unsigned long long bar;
  const unsigned t = threadIdx.x;
  unsigned size;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(size));
  EXPECT(size == 64 * sizeof(unsigned));
  const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(&words[t]));
  EXPECT(a != 0 && __cvta_shared_to_generic(a) == &words[t]);
  asm volatile("st.shared.u32 [%0], %1;" ::"r"(a), "r"(t * 3) : "memory");
  unsigned b;
  asm volatile("{ .reg .u64 s; cvta.to.shared.u64 s, %1; cvt.u32.u64 %0, s; }"
               : "=r"(b) : "l"(&dyn[t]));
  EXPECT(b == static_cast<unsigned>(__cvta_generic_to_shared(&dyn[t])));
  asm volatile("st.shared.u32 [%0+0], %1;" ::"r"(b), "r"(t + 100) : "memory");
  unsigned long long back;
  asm volatile("cvta.shared.u64 %0, %1;" : "=l"(back) : "l"((unsigned long long)b));
  EXPECT(back == reinterpret_cast<unsigned long long>(&dyn[t]));
  if (t == 0)
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(
                     static_cast<unsigned>(__cvta_generic_to_shared(&bar))),
                 "r"(blockDim.x)
                 : "memory");
  __syncthreads();
  unsigned v, w = 0;
  const unsigned na = static_cast<unsigned>(__cvta_generic_to_shared(&words[(t + 1) % 64]));
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(na));
  if (t < 63) asm volatile("ld.shared.u32 %0, [%1+4];" : "=r"(w) : "r"(b));
  EXPECT(v == ((t + 1) % 64) * 3);
  if (t < 63) EXPECT(w == t + 101);
  __syncthreads(); /* every thread has read its neighbour's word */
  unsigned old;
  asm volatile("atom.shared.add.u32 %0, [%1], 1;" : "=r"(old) : "r"(a) : "memory");
  EXPECT(old == t * 3);
  /* An mbarrier phase through 32-bit addresses. */
  unsigned long long state;
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state)
               : "r"(static_cast<unsigned>(__cvta_generic_to_shared(&bar))) : "memory");
  unsigned done = 0;
  while (!done)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.shared.b64 p, [%1], %2;\n\t"
                 "selp.u32 %0, 1, 0, p; }"
                 : "=r"(done)
                 : "r"(static_cast<unsigned>(__cvta_generic_to_shared(&bar))), "l"(state)
                 : "memory");
  EXPECT(words[(t + 1) % 64] == ((t + 1) % 64) * 3 + 1);
  int local = 0;
  EXPECT(__isShared(&words[t]) && __isShared(&dyn[t]) && __isShared(&bar));
  EXPECT(!__isShared(&local) && !__isShared(out));
  if (blockIdx.x == 0) out[t] = v;
}


int main() {
  simd<<<1, 1>>>();
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(take_errors("ptx") == 0);

  unsigned *sevens;
  cudaMallocManaged(&sevens, 32 * sizeof(unsigned));
  for (unsigned i = 0; i < 32; ++i) sevens[i] = i * 7;
  more_ptx<<<2, 32>>>(sevens);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(take_errors("ptx") == 0);
  cudaFree(sevens);

  int *out;
  cudaMallocManaged(&out, 256 * sizeof(int));
  named_barriers<<<2, 128>>>(out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(take_errors("ptx") == 0);
  for (int t = 64; t < 256; t += t == 127 ? 65 : 1)
    CHECK(out[t] == (t % 128 - 64) * 7 + (t % 128 - 64) * 5);
  named_barriers<<<1, 80>>>(out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int t = 32; t < 80; ++t) CHECK(out[t] == (t < 64 ? t + 16 : t - 32));
  exits<<<2, 80>>>(out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int b = 0; b < 2; ++b) {
    const int *o = out + b * 128;
    for (int t = 0; t < 80; t += 2) CHECK(o[t] == 40);
    CHECK(o[80] == 0x55555555 && o[81] == 0x55555555 && o[82] == 0x5555);
  }

  unsigned *words;
  cudaMallocManaged(&words, 64 * sizeof(unsigned));
  shared_window<<<3, 64, 64 * sizeof(unsigned)>>>(words);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(take_errors("ptx") == 0);
  for (int t = 0; t < 64; ++t) CHECK(words[t] == ((t + 1) % 64) * 3u);
  cudaFree(out);
  cudaFree(words);
  return finish();
}
