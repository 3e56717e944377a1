// lto_main.cpp: the host side of lto_scale.cu, compiled with -flto.
#include <cstdio>

int scale_on_device(int *host, int factor, int n);

int main() {
  int values[100];
  for (int i = 0; i < 100; ++i)
    values[i] = i;
  if (scale_on_device(values, 3, 100) != 0) {
    std::printf("FAIL: the launch failed\n");
    return 1;
  }
  for (int i = 0; i < 100; ++i)
    if (values[i] != 3 * i) {
      std::printf("FAIL: values[%d] = %d\n", i, values[i]);
      return 1;
    }
  std::printf("PASS\n");
  return 0;
}
