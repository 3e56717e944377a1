// host_macros.cpp: nvcc compiles a .cpp file as C++ with __NVCC__ and its version macros.
#include "host_macros.h"

extern "C" void cpp_file_macros(char *out, size_t size) { describe_macros(out, size); }
