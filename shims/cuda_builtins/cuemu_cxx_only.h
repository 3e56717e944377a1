/*
 * cuemu_cxx_only.h: the check that a file including the driver API header
 * (cuda.h) is C++. cuemu's cuda.h is C++ (inline functions, overloads and
 * templates over libcuemu), whereas NVIDIA's compiles as C too, so a C file
 * that nvcc gives the host C compiler may include it. Such a file is told
 * what to do here, instead of failing at the first C++ standard header. A
 * C file that the host C compiler builds with cuemu-toolkit's include
 * folder (CMake's CUDA::cuda_driver) gets here too: NVIDIA's headers first
 * in its include path make it work, its driver calls being libcuda.so.1's
 * C symbols (docs/driver-api.md). The runtime API headers (cuda_runtime.h,
 * cuda_runtime_api.h) have a C view (cuemu_runtime_c_decls.h) and do not
 * include this check.
 */
#ifndef CUEMU_CXX_ONLY_H
#define CUEMU_CXX_ONLY_H

#ifndef __cplusplus
#error "cuemu: the CUDA driver API header cuda.h is C++ here (NVIDIA's also compiles as C; cuemu's cuda_runtime.h does too): compile this C file as C++ (rename it .cpp; with cuemu-nvcc, -x c++ before it; in CMake, set_source_files_properties(FILE.c PROPERTIES LANGUAGE CXX)), or against NVIDIA's include folder (-I/usr/local/cuda/include before cuemu-toolkit's; its calls then link to libcuda.so.1 with -lcuda)"
/* The compile stops here (a header that is not found is fatal), before the
 * file's own uses of the API add errors of their own. */
#include "cuemu: compile this C file as C++ (above)"
#endif

#endif /* CUEMU_CXX_ONLY_H */
