/* bad_launch.cu: includes a header whose launch is malformed; the error
 * must name the header and its line. */
__global__ void kernel(int *p) { *p = 1; }
#include "bad_launch.cuh"
int main() { return 0; }
