// exported_main.cpp: the host program that defines what exported.cu's
// host function uses (tests/driver_dlink_undefined.sh).
#include <cstdio>

extern "C" int host_counter = 40;
extern "C" int host_bump(int x) { return x + 1; }
extern "C" int exported_entry();

int main() {
  int r = exported_entry();
  if (r == 44)
    std::printf("PASS\n");
  else
    std::printf("FAIL: %d, not 44\n", r);
  return r == 44 ? 0 : 1;
}
