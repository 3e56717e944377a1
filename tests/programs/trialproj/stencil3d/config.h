#pragma once
// Build configuration: tile sizes per architecture.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define STENCIL_BX 32
#define STENCIL_BY 8
#define USE_ASYNC_COPY 1
#elif defined(__CUDA_ARCH__)
#define STENCIL_BX 16
#define STENCIL_BY 8
#define USE_ASYNC_COPY 0
#else
#define STENCIL_BX 32
#define STENCIL_BY 8
#define USE_ASYNC_COPY 0
#endif
#define RADIUS 1
#ifndef __CUDACC__
#error "config.h must be compiled by nvcc"
#endif
