// constant_narrowing_thrust.cu: the same kind of unit, whose host code
// narrows a constant in braces (`int whole{2.5};`): g++, and so nvcc,
// refuses it ("narrowing conversion of '2.5e+0' from 'double' to 'int'"),
// and so must cuemu-nvcc with clang++ in g++'s place
// (driver_cccl_narrowing.sh).
#include <thrust/version.h>

int whole_part() {
  int whole{2.5};
  return whole + THRUST_VERSION;
}

int main() { return whole_part() == 0; }
