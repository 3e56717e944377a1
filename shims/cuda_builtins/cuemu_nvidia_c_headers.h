/*
 * cuemu_nvidia_c_headers.h: where a C file finds NVIDIA's runtime and
 * driver API headers. cuemu's cuda_runtime.h, cuda_runtime_api.h and cuda.h
 * are C++, whereas NVIDIA's compile as C too, and a C file of a real
 * project includes them through cuemu-toolkit's include folder when its
 * Makefile compiles it with `gcc -I$(CUDA_HOME)/include` and CUDA_HOME names
 * cuemu-toolkit, or when CMake gives a C target CUDA::cudart's include
 * folder. Where NVIDIA's toolkit is installed at /usr/local/cuda (the last
 * place cuemu-nvcc searches for a .c file's headers: docs/runtime.md), each
 * of the three headers includes NVIDIA's own in a C file; its calls are then
 * libcuemu_cudart.so's C symbols (-lcudart from cuemu-toolkit's lib64) and,
 * with -lcuda, the driver's. CUEMU_NVIDIA_C_HEADERS is 1 then, else 0, and
 * cuemu_cxx_only.h tells the file to compile as C++. A C file may define it
 * as 0 itself (-DCUEMU_NVIDIA_C_HEADERS=0) to get that message instead.
 */
#ifndef CUEMU_NVIDIA_C_HEADERS_H
#define CUEMU_NVIDIA_C_HEADERS_H

#if !defined(__cplusplus) && !defined(CUEMU_NVIDIA_C_HEADERS)
#if defined(__has_include)
/* The same two files that cuemu-nvcc probes for (cuemu_toolkit.c). */
#if __has_include("/usr/local/cuda/include/cuda_runtime_api.h") && \
    __has_include("/usr/local/cuda/include/crt/host_config.h")
#define CUEMU_NVIDIA_C_HEADERS 1
#endif
#endif
#ifndef CUEMU_NVIDIA_C_HEADERS
#define CUEMU_NVIDIA_C_HEADERS 0
#endif
#endif

#define CUEMU_NVIDIA_CUDA_RUNTIME_H "/usr/local/cuda/include/cuda_runtime.h"
#define CUEMU_NVIDIA_CUDA_RUNTIME_API_H                                        \
  "/usr/local/cuda/include/cuda_runtime_api.h"
#define CUEMU_NVIDIA_CUDA_H "/usr/local/cuda/include/cuda.h"

#endif /* CUEMU_NVIDIA_C_HEADERS_H */
