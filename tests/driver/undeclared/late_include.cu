// late_include.cu: includes late_include.cuh, whose template calls printf,
// before <iostream>, which declares printf. nvcc 13.0 refuses the unit
// (`identifier "printf" is undefined` in the header): a name is looked up
// where the template is defined. cuemu-nvcc warns at the header's line (a
// public queue's cu_queue.cuh did this, trial pub47;
// tests/driver_nvcc_undeclared.sh).
#include "late_include.cuh"

#include <iostream>

int main() {
  Box<int>().say();
  return 0;
}
