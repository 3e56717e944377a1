// asan_std_copies.cu: host code of a .cu file built with AddressSanitizer
// (a project's sanitizer build: -Xcompiler -fsanitize=address), which uses
// templates of namespace std that the device pass instantiates too. Host
// code must run the host pass's copies: the device pass's allocate through
// the device heap's operator new and free, which ASan reports as an
// alloc-dealloc mismatch (a GoogleTest death test's regex matcher, freed
// by a std::shared_ptr's virtual _M_destroy, aborted every death test).
// CUEMU_OPTIONS: -O2 -Xcompiler -fsanitize=address
// NVCC_OPTIONS: -Xcompiler -fsanitize=address
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

__global__ void add_one(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1;
}

struct Shape {
  virtual ~Shape() = default;
  virtual int sides() const = 0;
};
struct __attribute__((visibility("default"))) Square : Shape {
  int sides() const override { return 4; }
};

int main() {
  std::vector<std::string> words;
  for (int i = 0; i < 50; ++i) words.push_back(std::string(32, char('a' + i % 26)));
  std::shared_ptr<const std::string> first(new std::string(words[0]));
  std::shared_ptr<Shape> shape(new Square);
  std::vector<int> host(64);
  for (int i = 0; i < 64; ++i) host.push_back(i);
  int* d = nullptr;
  cudaMalloc(&d, host.size() * sizeof(int));
  cudaMemcpy(d, host.data(), host.size() * sizeof(int), cudaMemcpyHostToDevice);
  add_one<<<2, 64>>>(d, static_cast<int>(host.size()));
  cudaMemcpy(host.data(), d, host.size() * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d);
  int want = 1 + 64 + 1 + 4;
  int got = host[0] + host[127] + static_cast<int>(first->size() / 32) + shape->sides();
  first.reset();
  shape.reset();
  if (got != want) {
    std::printf("FAIL: %d, want %d\n", got, want);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
