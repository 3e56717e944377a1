/* message.cu: C library calls in device code that nvcc refuses, each with
 * its words at the user's line (tests/driver_devlibc_calls.sh). */
#include <cstdlib>
#include <cstring>

__device__ int parse(const char *s) {
  return atoi(s); /* line 7 */
}

__global__ void compare(const char *a, const char *b, int *out) {
  *out = strcmp(a, b) + parse(a); /* line 11 */
}
