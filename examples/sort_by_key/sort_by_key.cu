/*
 * sort_by_key.cu: a stable sort of n (key, value) pairs by key, in one block
 * (sort_by_key of CuNumpy's algorithms): sorted_keys gets the keys in
 * increasing order, order the original index of each, and sorted_values the
 * values in that order. Rows with equal keys keep their original order.
 *
 * A least-significant-digit radix sort with one bit per pass, in dynamic
 * shared memory (16 * n bytes: two buffers of keys and of indices). Each
 * pass splits the rows stably into those with a 0 bit and those with a 1
 * bit: the block walks the rows in chunks of blockDim.x, each warp ranks its
 * rows of either kind with __ballot_sync and __popc, and thread 0 turns the
 * warp counts into offsets. The keys are signed: flipping their sign bit
 * makes their unsigned order the signed order.
 */
extern "C" __global__ void sort_by_key(int n, const int *keys,
                                       const float *values, int *sorted_keys,
                                       int *order, float *sorted_values) {
  extern __shared__ unsigned int sort_shared[];
  __shared__ int zero_offsets[32], one_offsets[32];
  __shared__ int zeros_placed, ones_placed;
  unsigned *key_in = sort_shared, *key_out = key_in + n;
  int *index_in = (int *)(key_out + n), *index_out = index_in + n;
  unsigned t = threadIdx.x, lane = t % 32, warp = t / 32;
  unsigned warps = (blockDim.x + 31) / 32;
  unsigned lanes = min(32u, blockDim.x - warp * 32);
  unsigned lanes_mask = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
  unsigned below = (1u << lane) - 1;
  if (gridDim.x != 1) __trap();
  for (int i = t; i < n; i += blockDim.x) {
    key_in[i] = (unsigned)keys[i] ^ 0x80000000u;
    index_in[i] = i;
  }
  __syncthreads();
  for (int bit = 0; bit < 32; ++bit) {
    /* Every thread learns how many rows have a 0 bit. */
    int zeros = 0;
    for (int start = 0; start < n; start += blockDim.x) {
      int i = start + t;
      zeros += __syncthreads_count(i < n && !((key_in[i] >> bit) & 1u));
    }
    if (t == 0) {
      zeros_placed = 0;
      ones_placed = zeros;
    }
    for (int start = 0; start < n; start += blockDim.x) {
      int i = start + t;
      bool valid = i < n;
      bool zero = valid && !((key_in[i] >> bit) & 1u);
      unsigned zero_ballot = __ballot_sync(lanes_mask, zero);
      unsigned one_ballot = __ballot_sync(lanes_mask, valid && !zero);
      if (lane == 0) {
        zero_offsets[warp] = __popc(zero_ballot);
        one_offsets[warp] = __popc(one_ballot);
      }
      __syncthreads();
      if (t == 0) {
        for (unsigned w = 0; w < warps; ++w) {
          int z = zero_offsets[w], o = one_offsets[w];
          zero_offsets[w] = zeros_placed;
          one_offsets[w] = ones_placed;
          zeros_placed += z;
          ones_placed += o;
        }
      }
      __syncthreads();
      if (valid) {
        int to = zero ? zero_offsets[warp] + __popc(zero_ballot & below)
                      : one_offsets[warp] + __popc(one_ballot & below);
        key_out[to] = key_in[i];
        index_out[to] = index_in[i];
      }
      __syncthreads();
    }
    unsigned *k = key_in;
    int *x = index_in;
    key_in = key_out;
    key_out = k;
    index_in = index_out;
    index_out = x;
  }
  for (int i = t; i < n; i += blockDim.x) {
    sorted_keys[i] = (int)(key_in[i] ^ 0x80000000u);
    order[i] = index_in[i];
    sorted_values[i] = values[index_in[i]];
  }
}
