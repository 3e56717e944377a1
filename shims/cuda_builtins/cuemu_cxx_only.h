/*
 * cuemu_cxx_only.h: the check that a file including one of the runtime or
 * driver API headers (cuda_runtime.h, cuda_runtime_api.h, cuda.h) is C++.
 * cuemu's headers are C++ (inline functions, overloads and templates over
 * libcuemu), whereas NVIDIA's compile as C too, so a C file that nvcc gives
 * the host C compiler may include them. Such a file is told what to do
 * here, instead of failing at the first C++ standard header. A C file
 * that the host C compiler builds with cuemu-toolkit's include folder
 * (CMake's CUDA::cudart, FindCUDAToolkit pointed at cuemu-toolkit) gets
 * here too: NVIDIA's headers first in its include path make it work, its
 * runtime calls being libcuemu_cudart.so's C symbols (docs/runtime.md).
 * Where NVIDIA's toolkit is installed, the three headers include NVIDIA's
 * in a C file first (cuemu_nvidia_c_headers.h), and this check is quiet.
 */
#ifndef CUEMU_CXX_ONLY_H
#define CUEMU_CXX_ONLY_H

#ifndef __cplusplus
#include "cuemu_nvidia_c_headers.h"
#endif
#if !defined(__cplusplus) && !CUEMU_NVIDIA_C_HEADERS
#error "cuemu: the CUDA runtime and driver API headers are C++ here (NVIDIA's also compile as C): compile this C file as C++ (rename it .cpp; with cuemu-nvcc, -x c++ before it; in CMake, set_source_files_properties(FILE.c PROPERTIES LANGUAGE CXX)), or against NVIDIA's include folder (-I/usr/local/cuda/include before cuemu-toolkit's, as CMake's CUDA::cudart gives it; its calls then link to libcuemu_cudart.so with -lcudart)"
/* The compile stops here (a header that is not found is fatal), before the
 * file's own uses of the API add errors of their own. */
#include "cuemu: compile this C file as C++ (above)"
#endif

#endif /* CUEMU_CXX_ONLY_H */
