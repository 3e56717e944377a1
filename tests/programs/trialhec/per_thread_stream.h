// per_thread_stream.h: a project's build header, given to the host
// compiler with -Xcompiler -include, that selects the per-thread default
// stream before any CUDA header is read (as `--default-stream per-thread`
// does). nvcc reads it before the cuda_runtime.h it force-includes, so
// CUDA's headers see the macro. It includes nothing and uses no CUDA type:
// nvcc refuses one that does (float2 is not yet declared here).
#pragma once
#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1
