#ifndef SCAN_KERNEL_H
#define SCAN_KERNEL_H

// Exclusive scan in three phases: per-block sums, a scan of the sums in one
// block, then each block scans its tile and adds its offset.

template <class T> __device__ __forceinline__ T warpInclusiveScan(T v) {
    const int lane = threadIdx.x & (warpSize - 1);
#pragma unroll
    for (int offset = 1; offset < 32; offset <<= 1) {
        T n = __shfl_up_sync(0xffffffffu, v, offset);
        if (lane >= offset)
            v += n;
    }
    return v;
}

// Inclusive scan of one value per thread over the block; returns the
// block's total through *total.
template <class T, int BLOCK_SIZE>
__device__ T blockInclusiveScan(T v, T *total) {
    __shared__ T warpSums[BLOCK_SIZE / 32];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = warpInclusiveScan(v);
    if (lane == 31)
        warpSums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        T s = lane < BLOCK_SIZE / 32 ? warpSums[lane] : T(0);
        s = warpInclusiveScan(s);
        if (lane < BLOCK_SIZE / 32)
            warpSums[lane] = s;
    }
    __syncthreads();
    if (warp > 0)
        v += warpSums[warp - 1];
    *total = warpSums[BLOCK_SIZE / 32 - 1];
    __syncthreads();
    return v;
}

template <class T, int BLOCK_SIZE>
__global__ void reduceTiles(const T *__restrict__ in, T *__restrict__ blockSums,
                            int n, int tilesPerBlock) {
    T sum = 0;
    int begin = blockIdx.x * tilesPerBlock * BLOCK_SIZE;
    for (int t = 0; t < tilesPerBlock; ++t) {
        int i = begin + t * BLOCK_SIZE + threadIdx.x;
        if (i < n)
            sum += in[i];
    }
    T total;
    blockInclusiveScan<T, BLOCK_SIZE>(sum, &total);
    if (threadIdx.x == 0)
        blockSums[blockIdx.x] = total;
}

// One block: exclusive scan of the block sums in place (numBlocks <= BLOCK_SIZE).
template <class T, int BLOCK_SIZE>
__global__ void scanBlockSums(T *blockSums, int numBlocks) {
    T v = threadIdx.x < numBlocks ? blockSums[threadIdx.x] : T(0);
    T total;
    T inc = blockInclusiveScan<T, BLOCK_SIZE>(v, &total);
    if (threadIdx.x < numBlocks)
        blockSums[threadIdx.x] = inc - v;
}

template <class T, int BLOCK_SIZE>
__global__ void bottomScan(const T *__restrict__ in, T *__restrict__ out,
                           const T *__restrict__ blockOffsets, int n,
                           int tilesPerBlock) {
    T carry = blockOffsets[blockIdx.x];
    int begin = blockIdx.x * tilesPerBlock * BLOCK_SIZE;
    for (int t = 0; t < tilesPerBlock; ++t) {
        int i = begin + t * BLOCK_SIZE + threadIdx.x;
        T v = i < n ? in[i] : T(0);
        T total;
        T inc = blockInclusiveScan<T, BLOCK_SIZE>(v, &total);
        if (i < n)
            out[i] = carry + inc - v;
        carry += total;
    }
}

template <class T, int BLOCK_SIZE>
void exclusiveScan(const T *d_in, T *d_out, T *d_blockSums, int n, int numBlocks,
                   cudaStream_t stream = 0) {
    int tiles = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
    int tilesPerBlock = (tiles + numBlocks - 1) / numBlocks;
    reduceTiles<T, BLOCK_SIZE><<<numBlocks, BLOCK_SIZE, 0, stream>>>(d_in, d_blockSums, n, tilesPerBlock);
    scanBlockSums<T, BLOCK_SIZE><<<1, BLOCK_SIZE, 0, stream>>>(d_blockSums, numBlocks);
    bottomScan<T, BLOCK_SIZE><<<numBlocks, BLOCK_SIZE, 0, stream>>>(d_in, d_out, d_blockSums, n, tilesPerBlock);
}

#endif
