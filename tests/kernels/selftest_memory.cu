/*
 * selftest_memory.cu: self-checking kernels for the cache-hinted loads and
 * stores, the memory fences, clock64() and __nanosleep().
 *
 * The hinted loads and stores work on global memory only, so these kernels
 * use __device__ arrays, one slot per thread (one block of 32 threads).
 */
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "selftest.cuh"

__device__ int selftest_g_int[32];
__device__ unsigned long long selftest_g_ull[32];
__device__ float selftest_g_float[32];
__device__ double selftest_g_double[32];
__device__ signed char selftest_g_schar[32];
__device__ unsigned short selftest_g_ushort[32];
__device__ long selftest_g_long[32];
__device__ float2 selftest_g_float2[32];
__device__ float4 selftest_g_float4[32];
__device__ int4 selftest_g_int4[32];
__device__ double2 selftest_g_double2[32];
__device__ uchar4 selftest_g_uchar4[32];
__device__ longlong2 selftest_g_longlong2[32];
__device__ __half selftest_g_half[32];
__device__ __half2 selftest_g_half2[32];
__device__ __nv_bfloat16 selftest_g_bf16[32];
__device__ __nv_bfloat162 selftest_g_bf162[32];

/* Each store form writes, and each load form reads back, every type. */
extern "C" __global__ void selftest_memory_hints(unsigned *failures) {
  const unsigned t = threadIdx.x;
  const int ti = static_cast<int>(t);

  __stwb(&selftest_g_int[t], -ti);
  SELFTEST_CHECK(failures, __ldg(&selftest_g_int[t]) == -ti);
  __stcg(&selftest_g_int[t], ti * 3);
  SELFTEST_CHECK(failures, __ldcg(&selftest_g_int[t]) == ti * 3);
  __stcs(&selftest_g_int[t], ti + 7);
  SELFTEST_CHECK(failures, __ldca(&selftest_g_int[t]) == ti + 7);
  __stwt(&selftest_g_int[t], ti - 7);
  SELFTEST_CHECK(failures, __ldcs(&selftest_g_int[t]) == ti - 7);
  SELFTEST_CHECK(failures, __ldlu(&selftest_g_int[t]) == ti - 7);
  SELFTEST_CHECK(failures, __ldcv(&selftest_g_int[t]) == ti - 7);

  __stcg(&selftest_g_ull[t], 0x100000000ULL * t + 1ULL);
  SELFTEST_CHECK(failures, __ldg(&selftest_g_ull[t]) == 0x100000000ULL * t + 1ULL);
  __stwt(&selftest_g_float[t], 0.5f * ti);
  SELFTEST_CHECK(failures, __ldcv(&selftest_g_float[t]) == 0.5f * ti);
  __stcs(&selftest_g_double[t], -0.25 * ti);
  SELFTEST_CHECK(failures, __ldcs(&selftest_g_double[t]) == -0.25 * ti);
  __stwb(&selftest_g_schar[t], static_cast<signed char>(-ti));
  SELFTEST_CHECK(failures, __ldca(&selftest_g_schar[t]) == -ti);
  __stwb(&selftest_g_ushort[t], static_cast<unsigned short>(60000u + t));
  SELFTEST_CHECK(failures, __ldlu(&selftest_g_ushort[t]) == 60000u + t);
  __stcg(&selftest_g_long[t], -5000000000L * ti);
  SELFTEST_CHECK(failures, __ldg(&selftest_g_long[t]) == -5000000000L * ti);

  __stcg(&selftest_g_float2[t], make_float2(1.0f * ti, 2.0f));
  const float2 f2 = __ldg(&selftest_g_float2[t]);
  SELFTEST_CHECK(failures, f2.x == 1.0f * ti && f2.y == 2.0f);
  __stcs(&selftest_g_float4[t], make_float4(1.0f, 2.0f, 3.0f, 1.0f * ti));
  const float4 f4 = __ldcs(&selftest_g_float4[t]);
  SELFTEST_CHECK(failures, f4.x == 1.0f && f4.y == 2.0f && f4.z == 3.0f && f4.w == 1.0f * ti);
  __stwb(&selftest_g_int4[t], make_int4(ti, -ti, 2 * ti, -2 * ti));
  const int4 i4 = __ldca(&selftest_g_int4[t]);
  SELFTEST_CHECK(failures, i4.x == ti && i4.y == -ti && i4.z == 2 * ti && i4.w == -2 * ti);
  __stwt(&selftest_g_double2[t], make_double2(0.125 * ti, -1.0));
  const double2 d2 = __ldcv(&selftest_g_double2[t]);
  SELFTEST_CHECK(failures, d2.x == 0.125 * ti && d2.y == -1.0);
  __stcg(&selftest_g_uchar4[t], make_uchar4(1, 2, 3, static_cast<unsigned char>(t)));
  const uchar4 c4 = __ldlu(&selftest_g_uchar4[t]);
  SELFTEST_CHECK(failures, c4.x == 1 && c4.y == 2 && c4.z == 3 && c4.w == t);
  __stwb(&selftest_g_longlong2[t], make_longlong2(-1LL * ti, 1LL << 40));
  const longlong2 l2 = __ldg(&selftest_g_longlong2[t]);
  SELFTEST_CHECK(failures, l2.x == -1LL * ti && l2.y == (1LL << 40));

  __stcg(&selftest_g_half[t], __float2half(0.5f * ti));
  SELFTEST_CHECK(failures, __half2float(__ldg(&selftest_g_half[t])) == 0.5f * ti);
  __stwt(&selftest_g_half2[t], __floats2half2_rn(1.0f, -1.0f * ti));
  const __half2 h2 = __ldcv(&selftest_g_half2[t]);
  SELFTEST_CHECK(failures, __low2float(h2) == 1.0f && __high2float(h2) == -1.0f * ti);
  __stcs(&selftest_g_bf16[t], __float2bfloat16(2.0f * ti));
  SELFTEST_CHECK(failures, __bfloat162float(__ldcs(&selftest_g_bf16[t])) == 2.0f * ti);
  __stwb(&selftest_g_bf162[t], __floats2bfloat162_rn(-2.0f, 4.0f));
  const __nv_bfloat162 b2 = __ldca(&selftest_g_bf162[t]);
  SELFTEST_CHECK(failures, __low2float(b2) == -2.0f && __high2float(b2) == 4.0f);
}

/* Message passing between threads: each producer writes its data, fences,
 * then raises a flag; its consumer waits for the flag (letting the others
 * run with __nanosleep) and must then see the data. */
__device__ int selftest_g_data[32];
__device__ int selftest_g_flag[32];

extern "C" __global__ void selftest_memory_fences(unsigned *failures) {
  const unsigned t = threadIdx.x;
  selftest_g_flag[t] = 0;
  selftest_g_data[t] = 0;
  __syncthreads();
  if (t % 2 == 0) {
    /* Producer for the odd thread after it. */
    selftest_g_data[t] = 1000 + static_cast<int>(t);
    if (t % 4 == 0)
      __threadfence();
    else if (t % 8 == 2)
      __threadfence_block();
    else
      __threadfence_system();
    atomicExch(&selftest_g_flag[t], 1);
  } else {
    const unsigned p = t - 1;
    while (atomicAdd(&selftest_g_flag[p], 0) == 0)
      __nanosleep(100);
    __threadfence();
    SELFTEST_CHECK(failures, __ldcv(&selftest_g_data[p]) == 1000 + static_cast<int>(p));
  }
  __syncthreads();
  /* A shared-memory flag, polled through a volatile pointer. */
  __shared__ int ready;
  __shared__ int payload;
  if (t == 0)
    ready = 0;
  __syncthreads();
  if (t == 5) {
    payload = 12345;
    __threadfence_block();
    atomicExch(&ready, 1);
  } else if (t == 9) {
    volatile int *flag = &ready;
    while (*flag == 0)
      __nanosleep(0);
    __threadfence_block();
    SELFTEST_CHECK(failures, payload == 12345);
  }
}

/* clock64() never goes backwards, and it advances across a sleep loop. */
extern "C" __global__ void selftest_clock(unsigned *failures) {
  const long long t0 = clock64();
  long long prev = t0;
  for (int i = 0; i < 100; ++i) {
    const long long now = clock64();
    SELFTEST_CHECK(failures, now >= prev);
    prev = now;
  }
  for (int i = 0; i < 100 && clock64() == t0; ++i)
    __nanosleep(1000);
  SELFTEST_CHECK(failures, clock64() > t0);
  SELFTEST_CHECK(failures, sizeof(clock64()) == 8);
}
