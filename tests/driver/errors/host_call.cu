/* host_call.cu: a kernel that calls exit(), which nvcc refuses; cuemu-nvcc
 * must refuse it too, naming the function and the line (issue 17). */
#include <cstdlib>
__global__ void kernel(int *p) {
  if (*p < 0)
    std::exit(1);
  *p = 1;
}
int main() { return 0; }
