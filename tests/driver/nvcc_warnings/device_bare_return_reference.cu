// A particle grid's accessors written for nvcc: device functions returning
// a reference (an element of the grid, a member, a decltype, an rvalue
// reference) or a deduced type (`decltype(auto)`, `auto &`, `auto`) end
// with a bare `return;` for an index out of range. nvcc takes each, with
// its warning #117-D at the statement; what the reference refers to is
// undefined on a GPU (its PTX leaves the result register unset).
// cuemu-nvcc refused them (g++: "return-statement with no value"); it
// builds them, and a read through such a reference fails the launch
// (built with -DREAD_UNSET). The results checked here are those of the
// paths that return a value.
#include <cstdio>

__device__ float cells[4];

__device__ float &cell(int i) {
  if (i < 0 || i >= 4) return;
  return cells[i];
}

__device__ const int &count_at(const int *counts, int i) {
  if (i < 0) return;
  return counts[i];
}

__device__ float &&moved(int i) {
  if (i < 0) return;
  return static_cast<float &&>(cells[i]);
}

__device__ decltype(cells[0]) typed(int i) {
  if (i < 0) return;
  return cells[i];
}

__device__ decltype(auto) picked(int i) {
  if (i >= 0) return (cells[i]);
  return;
}

__device__ auto &chosen(int i) {
  if (i >= 0) return cells[i];
  return;
}

__device__ auto scaled(int i) {
  if (i >= 0) return cells[i] * 2.0f;
  return;
}

struct Particle {
  float mass;
  __device__ float &weight(int i) {
    if (i) return;
    return mass;
  }
  __device__ auto &heavier(int i) {
    if (i == 0) return mass;
    return;
  }
};

__global__ void gather(float *out, const int *counts) {
  Particle p{3.0f};
  cell(1) = 2.0f;
  chosen(2) = 5.0f;
  out[0] = cell(1) + count_at(counts, 0) + moved(1) + typed(1);
  out[1] = picked(2) + scaled(1) + p.weight(0) + p.heavier(0);
  cell(-1);  // the unset reference, unread, as on a GPU
  scaled(-1);
#ifdef READ_UNSET
  out[2] = cell(9);
#endif
}

int main() {
  float *out = nullptr, h[3] = {0, 0, 0};
  int *counts = nullptr, one = 1;
  cudaMalloc(&out, sizeof h);
  cudaMalloc(&counts, sizeof one);
  cudaMemcpy(counts, &one, sizeof one, cudaMemcpyHostToDevice);
  gather<<<1, 1>>>(out, counts);
  cudaError_t e = cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) {
    std::printf("launch failed: %s\n", cudaGetErrorName(e));
    return 1;
  }
  // 2 + 1 + 2 + 2, and 5 + 4 + 3 + 3.
  if (h[0] != 7.0f || h[1] != 15.0f) {
    std::printf("FAIL: %g %g\n", h[0], h[1]);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
