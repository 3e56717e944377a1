#ifndef REDUCTION_KERNEL_H
#define REDUCTION_KERNEL_H

// Dynamic shared memory typed per T: the usual specialised accessor,
// since extern __shared__ arrays of different types must not collide.
template <class T> struct SharedMemory {
    __device__ inline operator T *() {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
};

template <> struct SharedMemory<double> {
    __device__ inline operator double *() {
        extern __shared__ double __smem_d[];
        return (double *)__smem_d;
    }
};

template <class T> __device__ __forceinline__ T warpReduceSum(T val) {
    for (int offset = warpSize / 2; offset > 0; offset >>= 1)
        val += __shfl_down_sync(0xffffffffu, val, offset);
    return val;
}

// Each block reduces a grid-strided part of the input; the partial sums
// of the block's warps go through shared memory.
template <class T, int blockSize>
__global__ void reduce(const T *__restrict__ g_idata, T *__restrict__ g_odata,
                       const unsigned int n) {
    T *sdata = SharedMemory<T>();
    const unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockSize * 2) + tid;
    const unsigned int gridSize = blockSize * 2 * gridDim.x;
    T sum = 0;
    while (i < n) {
        sum += g_idata[i];
        if (i + blockSize < n)
            sum += g_idata[i + blockSize];
        i += gridSize;
    }
    sdata[tid] = sum;
    __syncthreads();

    if (blockSize >= 512) { if (tid < 256) sdata[tid] = sum = sum + sdata[tid + 256]; __syncthreads(); }
    if (blockSize >= 256) { if (tid < 128) sdata[tid] = sum = sum + sdata[tid + 128]; __syncthreads(); }
    if (blockSize >= 128) { if (tid < 64) sdata[tid] = sum = sum + sdata[tid + 64]; __syncthreads(); }

    if (tid < 32) {
        if (blockSize >= 64)
            sum += sdata[tid + 32];
        sum = warpReduceSum(sum);
    }
    if (tid == 0)
        g_odata[blockIdx.x] = sum;
}

// Counts elements above a threshold (block-wide __syncthreads_count) and
// flags blocks that hold a negative value (__syncthreads_or).
template <class T>
__global__ void countAbove(const T *in, unsigned int n, T threshold,
                           unsigned int *counts, int *anyNegative) {
    unsigned int total = 0;
    int negative = 0;
    for (unsigned int base = blockIdx.x * blockDim.x; base < n;
         base += blockDim.x * gridDim.x) {
        unsigned int i = base + threadIdx.x;
        bool inRange = i < n;
        total += __syncthreads_count(inRange && in[i] > threshold);
        negative |= __syncthreads_or(inRange && in[i] < (T)0);
    }
    if (threadIdx.x == 0) {
        atomicAdd(counts, total);
        if (negative)
            atomicOr(anyNegative, 1);
    }
}

#endif
