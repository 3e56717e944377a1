// nvcc 13 defines its feature macros for .cpp files too (nvcc --dryrun:
// the host compiler's command line has them), with __NVCC__ and the
// version macros; __CUDACC__ is for .cu files alone.
#ifndef __CUDACC_DEVICE_ATOMIC_BUILTINS__
#error "__CUDACC_DEVICE_ATOMIC_BUILTINS__ is not defined for a .cpp file"
#endif
#ifndef __NVCC_DIAG_PRAGMA_SUPPORT__
#error "__NVCC_DIAG_PRAGMA_SUPPORT__ is not defined for a .cpp file"
#endif
#ifdef __CUDACC__
#error "__CUDACC__ is defined for a .cpp file"
#endif
int host_macros_seen() { return __CUDACC_DEVICE_ATOMIC_BUILTINS__ + __NVCC_DIAG_PRAGMA_SUPPORT__; }
