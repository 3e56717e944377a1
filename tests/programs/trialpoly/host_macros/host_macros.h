/* host_macros.h: what a file compiled by nvcc sees of nvcc's macros, as a
 * string ("__NVCC__ 13.0.88 api 13.0", "__CUDACC__" where it is defined). */
#ifndef HOST_MACROS_H
#define HOST_MACROS_H
#include <stdio.h>

#define STR_(x) #x
#define STR(x) STR_(x)

static inline void describe_macros(char *out, size_t size)
{
  snprintf(out, size, "%s%s%s.%s.%s api %s.%s",
#ifdef __NVCC__
           "__NVCC__ ",
#else
           "",
#endif
#ifdef __CUDACC__
           "__CUDACC__ ",
#else
           "",
#endif
#ifdef __CUDACC_VER_MAJOR__
           STR(__CUDACC_VER_MAJOR__), STR(__CUDACC_VER_MINOR__), STR(__CUDACC_VER_BUILD__),
#else
           "?", "?", "?",
#endif
#ifdef __CUDA_API_VER_MAJOR__
           STR(__CUDA_API_VER_MAJOR__), STR(__CUDA_API_VER_MINOR__)
#else
           "?", "?"
#endif
  );
}

#ifdef __cplusplus
extern "C" {
#endif
void c_file_macros(char *out, size_t size);
void cpp_file_macros(char *out, size_t size);
#ifdef __cplusplus
}
#endif
#endif
