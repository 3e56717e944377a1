/* host_macros.c: nvcc compiles a .c file as C with __NVCC__ and its version macros. */
#include "host_macros.h"

void c_file_macros(char *out, size_t size) { describe_macros(out, size); }
