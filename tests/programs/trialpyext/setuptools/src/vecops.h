/* vecops.h: the C interface between the extension module and its kernels. */
#ifndef VECOPS_H
#define VECOPS_H
#ifdef __cplusplus
extern "C" {
#endif

/* Each returns 0 or a cudaError_t; vecops_error_string describes it. */
int vecops_add(const float* a, const float* b, float* out, long n);
int vecops_dot(const double* a, const double* b, long n, double* result);
int vecops_scan_i32(const int* in, int* out, int n);
int vecops_device(char* name, int len, int* sm_count);
const char* vecops_error_string(int code);

#ifdef __cplusplus
}
#endif
#endif
