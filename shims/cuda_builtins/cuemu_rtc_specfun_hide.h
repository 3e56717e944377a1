/*
 * cuemu_rtc_specfun_hide.h: a module's <cmath> without the C++17
 * mathematical special functions (std::beta, std::cyl_bessel_j,
 * std::riemann_zeta, ... and their f and l forms).
 *
 * NVRTC provides none of them, and device code cannot call host functions,
 * so an NVRTC source (CUEMU_NVRTC_STDINT: nvrtcCompileProgram, RawKernel
 * and RawModule, cuemu-cc --module; see cuemu_rtc_stdint_hide.h) never uses
 * them. libstdc++ defines their float and long double forms as non-template
 * inline functions that call function templates, which GCC instantiates at
 * the end of every unit that includes <cmath>, even from a precompiled
 * prelude: about a quarter of the compiler's work on a one-line kernel.
 * libstdc++ declares them only when _GLIBCXX_USE_STD_SPEC_FUNCS is set, so
 * the setting is removed before the shims first include <cmath>. A <cmath>
 * read earlier (-Xcompiler -include) keeps them.
 *
 * nvcc's code (cuemu-nvcc's -ptx, -cubin, -fatbin, whose host functions may
 * call them, and programs) keeps them too.
 */
#ifndef CUEMU_RTC_SPECFUN_HIDE_H
#define CUEMU_RTC_SPECFUN_HIDE_H

#if defined(__CUDACC_RTC__) && defined(CUEMU_NVRTC_STDINT) &&                  \
    !defined(CUEMU_HOST_PASS)
#include <cstddef>
#if defined(__GLIBCXX__) && !defined(_GLIBCXX_CMATH)
#undef _GLIBCXX_USE_STD_SPEC_FUNCS
#endif
#endif

#endif /* CUEMU_RTC_SPECFUN_HIDE_H */
