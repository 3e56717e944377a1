// only_in_toolkit.cu: includes a header that only the toolkit named by
// CUDA_HOME has (the test makes it), as nvcc finds its toolkit's headers.
#include <only_in_toolkit.h>
#include <cstdio>

int main() {
  std::printf("%s\n", ONLY_IN_TOOLKIT == 42 ? "PASS" : "FAIL");
  return ONLY_IN_TOOLKIT == 42 ? 0 : 1;
}
