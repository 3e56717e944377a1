#include <cstdio>

#include "api.h"

int main() {
  int want = 0;
  for (int i = 0; i < 100; ++i)
    want += i * i;
  int got = lib_sum_squares(100);
  int ok = got == want && lib_sum_squares(10) == 285 && lib_launches == 2;
  std::printf("sum %d (want %d), launches %d\n", got, want, lib_launches);
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
