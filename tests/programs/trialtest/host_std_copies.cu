// host_std_copies.cu: a test harness's allocation counter (the global
// operators new and delete replaced in counting_new.cpp) sees every new
// and delete of this file's host code, even in the templates of namespace
// std that the device pass instantiates too (std::vector<std::string>'s
// growth, std::shared_ptr<int>'s control block): host code links the host
// pass's copies, not the device pass's, whose new and delete are the
// device heap's. Kernel code's new and delete stay the device heap's.
// CUEMU_OPTIONS: -O2 counting_new.cpp
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

long allocation_news();
long allocation_deletes();

template <typename T>
__global__ void fill(T* out, T v) {
  out[threadIdx.x] = v;
  int* scratch = new int[4];
  scratch[0] = 1;
  delete[] scratch;
}

struct Counter {
  virtual ~Counter() = default;
  virtual int value() const { return 7; }
};

int main() {
  long news = 0, deletes = 0;
  {
    std::vector<int> v;
    for (int i = 0; i < 100; ++i) v.push_back(i);
    std::shared_ptr<Counter> c(new Counter);
    std::shared_ptr<int> shared_int(new int(3));
    std::vector<std::string> words;
    for (int i = 0; i < 20; ++i) words.push_back(std::string(40, char('a' + i)));
    std::function<int(int)> f = [v](int x) { return x + v[3]; };
    std::string s(100, 'x');
    int* d;
    cudaMalloc(&d, 32 * sizeof(int));
    fill<<<1, 32>>>(d, f(4) + c->value() + *shared_int - 3);
    int h[32];
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    cudaFree(d);
    if (h[31] != 14) {
      std::printf("FAIL: kernel wrote %d\n", h[31]);
      return 1;
    }
    news = allocation_news();
  }
  deletes = allocation_deletes();
  if (news == 0 || deletes < news) {
    std::printf("FAIL: %ld news, %ld deletes reached the replacements\n", news, deletes);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
