// runtime_alone.cu: the names a .cu file may use with nvcc 13.0 without
// including anything (nvcc force-includes cuda_runtime.h, which brings
// <cstdlib>, <cmath> and with it <type_traits>, <utility> and <limits>,
// <cstring>, <ctime>, <climits>, <cctype>, <new> and glibc's
// <sys/types.h>, whose int32_t and int64_t are the signed fixed-width types
// alone), used as nvcc accepts them: each also compiles with cuemu-nvcc
// (docs/nvcc-checks.md, "What a header brings"). Prints PASS; <cstdio>
// (nvcc refuses printf without it) is included after the names are used.

__global__ void device_names(float *out) {
  float f = sqrtf(4.0f) + std::sqrt(4.0f) + fabsf(-1.0f) + std::abs(-1.0f);
  out[0] = f + (std::isnan(f) ? 1.0f : 0.0f) + (isinf(f) ? 1.0f : 1.0f);
}

static int host_names() {
  size_t a = 1;
  std::size_t b = 2;
  int32_t i32 = 3;
  int64_t i64 = 4;
  int8_t i8 = 5;
  int16_t i16 = 6;
  ptrdiff_t pd = 7;
  void *p = malloc(8);
  char buf[8];
  memcpy(buf, "abc", 4);
  int len = static_cast<int>(strlen(buf));
  memset(p, 0, 8);
  free(p);
  std::pair<int, int> pr(1, 2);
  std::swap(pr.first, pr.second);
  int moved = std::move(pr.first);
  bool same = std::is_same<int, int>::value && std::is_same_v<long, long>;
  std::enable_if_t<true, int> enabled = 1;
  int limits = std::numeric_limits<int>::max() == INT_MAX && CHAR_BIT == 8;
  int minmax = std::min(1, 2) + std::max(1, 2) + abs(-3);
  clock_t c = clock();
  time_t t = time(nullptr);
  int chars = toupper('a') == 'A' && isdigit('1') && isspace(' ');
  std::initializer_list<int> il = {1, 2};
  int *q = new int(9);
  int nine = *q;
  delete q;
  long parsed = strtol("12", nullptr, 10) + atoi("3");
  double e = std::exp(0.0) + exp(0.0) + floor(1.5);
  (void)c;
  (void)t;
  int sum = static_cast<int>(a + b + i32 + i64 + i8 + i16 + pd);
  return (sum == 28) + (len == 3) + (moved == 2) + same + enabled + limits +
         (minmax == 6) + chars + (il.size() == 2) + (nine == 9) +
         (parsed == 15) + (e == 3.0);
}

static int run() {
  float *out = nullptr;
  if (cudaMallocManaged(&out, sizeof(float)) != cudaSuccess)
    return 1;
  device_names<<<1, 1>>>(out);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 2;
  const bool device_ok = out[0] == 7.0f;
  cudaFree(out);
  return host_names() == 12 && device_ok ? 0 : 3;
}

#include <cstdio>

int main() {
  const int status = run();
  if (status != 0) {
    printf("FAIL: %d\n", status);
    return status;
  }
  printf("PASS\n");
  return 0;
}
