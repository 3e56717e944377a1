/* stencil_reads_before_start.cu: a Jacobi step over a whole image whose
 * threads on the first row and column read their neighbours at offset - 1
 * and offset - width before testing whether the pixel is one they keep (a
 * course's seamless-cloning homework solved that way: only interior
 * pixels' results are used). On a GPU those reads land in the mapped
 * memory around the allocation and the program runs; cuemu faulted at the
 * first byte before an allocation mapped at the start of its own pages,
 * while a read past the end already gave zeros. Each image is allocated
 * last, just after another was freed, so that nothing of cuemu's is
 * mapped just before it. From tests/programs_trialuda.sh (a trial of
 * Udacity CS344's problem sets). */
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t e_ = (call);                                                 \
    if (e_ != cudaSuccess) {                                                 \
      std::printf("%s: %s\n", #call, cudaGetErrorString(e_));                \
      std::printf("FAIL\n");                                                 \
      return 1;                                                              \
    }                                                                        \
  } while (0)

/* One step for every pixel; the caller keeps only the interior. */
__global__ void jacobi_all_pixels(const unsigned char *inside, const float *f,
                                  float *next, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (c >= cols || r >= rows) return;
  int at = r * cols + c;
  float sum = 0.f;
  if (inside[at - 1]) sum += f[at - 1];
  if (inside[at - cols]) sum += f[at - cols];
  if (c + 1 < cols && inside[at + 1]) sum += f[at + 1];
  if (r + 1 < rows && inside[at + cols]) sum += f[at + cols];
  next[at] = sum / 4.f;
}

int main() {
  const int rows = 40, cols = 48, n = rows * cols;
  unsigned char h_inside[n];
  float h_f[n], h_next[n];
  for (int i = 0; i < n; ++i) {
    int r = i / cols, c = i % cols;
    h_inside[i] = r > 0 && c > 0 && r < rows - 1 && c < cols - 1;
    h_f[i] = (float)(i % 17);
  }
  unsigned char *inside;
  float *f, *next, *scratch;
  CHECK(cudaMalloc(&scratch, 4096));
  CHECK(cudaFree(scratch));
  CHECK(cudaMalloc(&next, n * sizeof(float)));
  CHECK(cudaMalloc(&scratch, 4096));
  CHECK(cudaFree(scratch));
  CHECK(cudaMalloc(&f, n * sizeof(float)));
  CHECK(cudaMalloc(&scratch, 4096));
  CHECK(cudaFree(scratch));
  CHECK(cudaMalloc(&inside, n));
  CHECK(cudaMemcpy(inside, h_inside, n, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(f, h_f, n * sizeof(float), cudaMemcpyHostToDevice));
  dim3 block(16, 8), grid((cols + 15) / 16, (rows + 7) / 8);
  jacobi_all_pixels<<<grid, block>>>(inside, f, next, rows, cols);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_next, next, n * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int r = 1; r < rows - 1; ++r)
    for (int c = 1; c < cols - 1; ++c) {
      int at = r * cols + c;
      float sum = 0.f;
      if (h_inside[at - 1]) sum += h_f[at - 1];
      if (h_inside[at - cols]) sum += h_f[at - cols];
      if (h_inside[at + 1]) sum += h_f[at + 1];
      if (h_inside[at + cols]) sum += h_f[at + cols];
      bad += h_next[at] != sum / 4.f;
    }
  std::printf("interior pixels that differ from the host's step: %d\n", bad);
  CHECK(cudaFree(inside));
  CHECK(cudaFree(f));
  CHECK(cudaFree(next));
  std::printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
