// asan_std_copies_rdc.cu: asan_std_copies.cu built with relocatable device
// code (-rdc=true), where only namespace std's weak functions and the
// virtual tables are the host pass's (an explicit instance of a device
// function template stays the device pass's, for other units' kernels).
// CUEMU_OPTIONS: -O2 -rdc=true -Xcompiler -fsanitize=address
// NVCC_OPTIONS: -rdc=true -Xcompiler -fsanitize=address
#include "asan_std_copies.cu"
