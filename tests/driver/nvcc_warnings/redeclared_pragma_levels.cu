// redeclared_pragma_levels.cu: functions declared __device__ and defined
// without an execution space (nvcc's warning #20037-D) under the nv_diag
// pragmas that set the warning's level (tests/driver_nvcc_warnings.sh):
// nvcc 13.0 refuses `made_error` ("error: a __device__ function ...",
// without the number) even under -w, and gives the command line's level
// to the three others.
__device__ int made_error(int x);
__device__ int after_pop(int x);
__device__ int warned(int x);
__device__ int defaulted(int x);

#pragma nv_diagnostic push
#pragma nv_diag_error 20037
int made_error(int x) { return x + 1; }
#pragma nv_diagnostic pop
int after_pop(int x) { return x + 2; }
#pragma nv_diag_warning 20037
int warned(int x) { return x + 3; }
#pragma nv_diag_default 20037
int defaulted(int x) { return x + 4; }

__global__ void sum(int *out) {
  out[0] = made_error(1) + after_pop(2) + warned(3) + defaulted(4);
}
