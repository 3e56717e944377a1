// objects_main.cpp: the host program of tests/checkers_objects.sh, compiled
// without checkers, that runs the kernel of the checked object or library
// it is linked with.
#include <cstdio>

int run_kernel();

int main() {
  std::printf("%s\n", run_kernel() == 0 ? "ran" : "failed");
  return 0;
}
