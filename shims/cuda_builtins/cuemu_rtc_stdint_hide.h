/*
 * cuemu_rtc_stdint_hide.h: the first half of a module's fixed-width types
 * (the second is cuemu_rtc_stdint.h, which cuda_runtime.h includes last).
 *
 * NVRTC provides no <stdint.h>, so NVRTC sources (CuPy's RawKernel and
 * RawModule code among them) declare their own types at file scope, as in
 * `typedef unsigned long long uint64_t;`; and NVRTC's <cuda/std/cstdint>
 * declares ::uint64_t as unsigned long long and ::int64_t as long long.
 * The shims' C and C++ headers bring glibc's <stdint.h>, whose uint64_t is
 * unsigned long: that typedef would conflict with the module's. So in the
 * compile of an NVRTC source (nvrtcCompileProgram, RawKernel and RawModule,
 * cuemu-cc --module: cuemu_compile() defines CUEMU_NVRTC_STDINT there) the
 * names whose glibc type differs from NVRTC's are renamed while the shims'
 * headers are read: glibc declares them under cuemu_host_ names, which the
 * shims use consistently, and the names themselves are left to
 * cuemu_rtc_stdint.h and to the module.
 *
 * cuemu-nvcc's -ptx, -cubin and -fatbin also compile a module with
 * __CUDACC_RTC__, but of nvcc's code, whose uint64_t is the host's
 * unsigned long, as with nvcc: they do not define CUEMU_NVRTC_STDINT.
 */
#ifndef CUEMU_RTC_STDINT_HIDE_H
#define CUEMU_RTC_STDINT_HIDE_H

/* A <stdint.h> read before cuda_runtime.h (-Xcompiler -include) has declared
 * glibc's types under their own names already: they stay, as without the
 * renames, since <cstdint> would then find no ::cuemu_host_ names. */
#if defined(__CUDACC_RTC__) && defined(CUEMU_NVRTC_STDINT) &&                  \
    !defined(CUEMU_HOST_PASS) && !defined(_STDINT_H)
#define CUEMU_RTC_STDINT_RENAMED 1
#define int64_t cuemu_host_int64_t
#define uint64_t cuemu_host_uint64_t
#define int_least64_t cuemu_host_int_least64_t
#define uint_least64_t cuemu_host_uint_least64_t
#define int_fast16_t cuemu_host_int_fast16_t
#define uint_fast16_t cuemu_host_uint_fast16_t
#define int_fast32_t cuemu_host_int_fast32_t
#define uint_fast32_t cuemu_host_uint_fast32_t
#define int_fast64_t cuemu_host_int_fast64_t
#define uint_fast64_t cuemu_host_uint_fast64_t
#define intptr_t cuemu_host_intptr_t
#define uintptr_t cuemu_host_uintptr_t
#define intmax_t cuemu_host_intmax_t
#define uintmax_t cuemu_host_uintmax_t
#endif

#endif /* CUEMU_RTC_STDINT_HIDE_H */
