#ifndef COURSE_NN_KERNELS_CUH
#define COURSE_NN_KERNELS_CUH
#include <cuda_runtime.h>
#include <cfloat>

constexpr int TILE = 16;

// C[M,N] = A[M,K] * B[K,N] (+ bias[N]), optional transposes of A and B.
template <int TILE_SIZE, bool TRANS_A, bool TRANS_B>
__global__ void matmul_tiled(const float* __restrict__ A, const float* __restrict__ B,
                             const float* __restrict__ bias, float* __restrict__ C,
                             int M, int N, int K, float beta)
{
    __shared__ float As[TILE_SIZE][TILE_SIZE];
    __shared__ float Bs[TILE_SIZE][TILE_SIZE + 1];

    int row = blockIdx.y * TILE_SIZE + threadIdx.y;
    int col = blockIdx.x * TILE_SIZE + threadIdx.x;
    float acc = 0.0f;

    for (int t = 0; t < (K + TILE_SIZE - 1) / TILE_SIZE; ++t) {
        int ka = t * TILE_SIZE + threadIdx.x;
        int kb = t * TILE_SIZE + threadIdx.y;
        if (row < M && ka < K)
            As[threadIdx.y][threadIdx.x] = TRANS_A ? A[ka * M + row] : A[row * K + ka];
        else
            As[threadIdx.y][threadIdx.x] = 0.0f;
        if (col < N && kb < K)
            Bs[threadIdx.y][threadIdx.x] = TRANS_B ? B[col * K + kb] : B[kb * N + col];
        else
            Bs[threadIdx.y][threadIdx.x] = 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE_SIZE; ++k)
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < N) {
        float b = bias ? bias[col] : 0.0f;
        C[row * N + col] = acc + b + (beta != 0.0f ? beta * C[row * N + col] : 0.0f);
    }
}

__global__ void relu_forward(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fmaxf(in[i], 0.0f);
}

__global__ void relu_backward(const float* in, const float* grad_out, float* grad_in, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        grad_in[i] = in[i] > 0.0f ? grad_out[i] : 0.0f;
}

__device__ __forceinline__ float warp_reduce_max(float v)
{
    for (int offset = warpSize / 2; offset > 0; offset >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, offset));
    return v;
}

__device__ __forceinline__ float warp_reduce_sum(float v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    return __shfl_sync(0xffffffff, v, 0);
}

// One warp per row: softmax of logits, then cross-entropy loss and its gradient.
__global__ void softmax_xent(const float* logits, const int* labels, float* probs,
                             float* grad, float* loss, int rows, int cols)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
    int lane = threadIdx.x % warpSize;
    if (warp >= rows) return;
    const float* x = logits + warp * cols;
    float m = -FLT_MAX;
    for (int j = lane; j < cols; j += warpSize) m = fmaxf(m, x[j]);
    m = warp_reduce_max(m);
    float s = 0.0f;
    for (int j = lane; j < cols; j += warpSize) s += __expf(x[j] - m);
    s = warp_reduce_sum(s);
    float inv = 1.0f / s;
    for (int j = lane; j < cols; j += warpSize) {
        float p = __expf(x[j] - m) * inv;
        probs[warp * cols + j] = p;
        grad[warp * cols + j] = (p - (j == labels[warp] ? 1.0f : 0.0f)) / rows;
    }
    __syncwarp();  // lane 0 reads a probability another lane wrote
    if (lane == 0) atomicAdd(loss, -logf(fmaxf(probs[warp * cols + labels[warp]], 1e-12f)) / rows);
}

// Column sums of grad (bias gradient): one block per column, block reduction in shared memory.
template <int BLOCK>
__global__ void column_sum(const float* g, float* out, int rows, int cols)
{
    __shared__ float partial[BLOCK / 32];
    int c = blockIdx.x;
    float v = 0.0f;
    for (int r = threadIdx.x; r < rows; r += BLOCK) v += g[r * cols + c];
    v = warp_reduce_sum(v);
    if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < BLOCK / 32 ? partial[threadIdx.x] : 0.0f;
        v = warp_reduce_sum(v);
        if (threadIdx.x == 0) out[c] = v;
    }
}

__global__ void sgd_update(float* __restrict__ w, const float* __restrict__ g, float lr, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) w[i] -= lr * g[i];
}

#endif
