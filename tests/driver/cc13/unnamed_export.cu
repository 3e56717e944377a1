// unnamed_export.cu: a shared library whose unnamed namespaces (its own and
// an -isystem header's) hold a function and a variable: nvcc's cudafe++
// names such a namespace and makes it hidden, so nothing of it is exported;
// neither is it by cuemu-nvcc. api() is.
#include <unnamed.h>

namespace {
int own_value() { return unnamed_value() + unnamed_counter; }
} // namespace

__global__ void touch(int *p) { *p = 1; }

int api() { return own_value(); }
