// redeclared_pragmas.cu: functions declared __device__ and defined without
// an execution space (nvcc's warning #20037-D), the warning suppressed by
// nv_diag pragmas around two of them (tests/driver_nvcc_warnings.sh):
// nvcc 13.0 warns at plain_after_pop's definition alone.
__device__ int pushed(int x);
__device__ int plain_after_pop(int x);
__device__ int after_operator(int x);

#pragma nv_diagnostic push
#pragma nv_diag_suppress 20037
int pushed(int x) { return x + 1; }
#pragma nv_diagnostic pop
int plain_after_pop(int x) { return x + 2; }
_Pragma("nv_diag_suppress 20037")
int after_operator(int x) { return x + 3; }

__global__ void sum(int *out) {
  out[0] = pushed(1) + plain_after_pop(2) + after_operator(3);
}
