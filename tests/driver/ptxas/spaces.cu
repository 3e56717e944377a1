// State spaces as ptxas counts them in the first line of -Xptxas -v: the
// __device__ and __managed__ variables (gmem) in a different order from
// their alignments, and the __constant__ ones (cmem[3]) in theirs.
__device__ char tag[9];
__device__ double total;
__managed__ int hits;
__constant__ char mode[3];
__constant__ double scale;

__global__ void accumulate(const double *x) {
  if (threadIdx.x == 0 && mode[0]) {
    total += x[blockIdx.x] * scale;
    hits += tag[0];
  }
}
