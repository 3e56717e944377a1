/*
 * compact_by_mask.cu: moves the rows whose mask is non-zero to the front of
 * values and ids, in place and in order, and writes their number to *count
 * (compact_by_mask of CuNumpy's algorithms). Rows after the first *count
 * keep what they held. One block walks the arrays in chunks of blockDim.x
 * rows: each warp ranks its kept rows with __ballot_sync and __popc, thread
 * 0 turns the warp counts into offsets after the rows kept so far, and the
 * kept rows are written there. Every read of a chunk happens before any
 * write, and writes land at or before the chunk, so working in place is
 * safe.
 */
extern "C" __global__ void compact_by_mask(int n, const int *mask,
                                           float *values, int *ids,
                                           int *count) {
  __shared__ int warp_offsets[32];
  __shared__ int kept;
  unsigned t = threadIdx.x, lane = t % 32, warp = t / 32;
  unsigned warps = (blockDim.x + 31) / 32;
  unsigned lanes = min(32u, blockDim.x - warp * 32);
  unsigned lanes_mask = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
  if (gridDim.x != 1) __trap();
  if (t == 0) kept = 0;
  for (int start = 0; start < n; start += blockDim.x) {
    int i = start + t;
    bool keep = i < n && mask[i] != 0;
    float value = 0.0f;
    int id = 0;
    if (keep) {
      value = values[i];
      id = ids[i];
    }
    unsigned ballot = __ballot_sync(lanes_mask, keep);
    int rank = __popc(ballot & ((1u << lane) - 1));
    if (lane == 0) warp_offsets[warp] = __popc(ballot);
    __syncthreads();
    if (t == 0) {
      for (unsigned w = 0; w < warps; ++w) {
        int c = warp_offsets[w];
        warp_offsets[w] = kept;
        kept += c;
      }
    }
    __syncthreads();
    if (keep) {
      values[warp_offsets[warp] + rank] = value;
      ids[warp_offsets[warp] + rank] = id;
    }
    __syncthreads();
  }
  if (t == 0) *count = kept;
}
