#ifndef SORT_KERNEL_H
#define SORT_KERNEL_H

// LSD radix sort of key-value pairs, RADIX_BITS bits per pass. Each tile of
// SORT_BLOCK_SIZE elements counts its digits, the counts are scanned
// (digit-major, so equal digits of earlier tiles come first), then each tile
// scatters its elements with a stable rank computed from warp match masks.
#include "../Scan/scan_kernel.h"

#define SORT_BLOCK_SIZE 256
#define RADIX_BITS 4
#define RADIX (1 << RADIX_BITS)

__device__ __forceinline__ unsigned int digitOf(unsigned int key, int shift) {
    return (key >> shift) & (RADIX - 1);
}

__global__ void radixCount(const unsigned int *__restrict__ keys,
                           unsigned int *__restrict__ counts, int n, int shift) {
    __shared__ unsigned int hist[RADIX];
    if (threadIdx.x < RADIX)
        hist[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * SORT_BLOCK_SIZE + threadIdx.x;
    if (i < n)
        atomicAdd(&hist[digitOf(keys[i], shift)], 1u);
    __syncthreads();
    if (threadIdx.x < RADIX)
        counts[threadIdx.x * gridDim.x + blockIdx.x] = hist[threadIdx.x];
}

__global__ void radixScatter(const unsigned int *__restrict__ keysIn,
                             const unsigned int *__restrict__ valsIn,
                             unsigned int *__restrict__ keysOut,
                             unsigned int *__restrict__ valsOut,
                             const unsigned int *__restrict__ offsets, int n,
                             int shift) {
    constexpr int WARPS = SORT_BLOCK_SIZE / 32;
    __shared__ unsigned int warpCounts[WARPS][RADIX];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (int d = threadIdx.x; d < WARPS * RADIX; d += blockDim.x)
        warpCounts[d / RADIX][d % RADIX] = 0;
    __syncthreads();

    int i = blockIdx.x * SORT_BLOCK_SIZE + threadIdx.x;
    bool valid = i < n;
    unsigned int key = valid ? keysIn[i] : 0u;
    unsigned int digit = valid ? digitOf(key, shift) : RADIX;
    unsigned int peers = __match_any_sync(0xffffffffu, digit);
    unsigned int lanesBelow = (1u << lane) - 1u;
    unsigned int rank = __popc(peers & lanesBelow);
    if (valid && rank == 0)
        warpCounts[warp][digit] = __popc(peers);
    __syncthreads();
    if (threadIdx.x < RADIX) {
        unsigned int sum = 0;
        for (int w = 0; w < WARPS; ++w) {
            unsigned int c = warpCounts[w][threadIdx.x];
            warpCounts[w][threadIdx.x] = sum;
            sum += c;
        }
    }
    __syncthreads();
    if (valid) {
        unsigned int dst = offsets[digit * gridDim.x + blockIdx.x] +
                           warpCounts[warp][digit] + rank;
        keysOut[dst] = key;
        valsOut[dst] = valsIn[i];
    }
}

#endif
