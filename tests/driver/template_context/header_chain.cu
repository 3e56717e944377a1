// header_chain.cu: the error is in include/apply.cuh's twice<int>, reached
// through apply<int> and run<int> from main (nvcc: "detected during
// instantiation of ... at line 4 of header_chain.cu").
#include "include/apply.cuh"
int main() {
  int *p = nullptr;
  run(p, 10);
  return 0;
}
