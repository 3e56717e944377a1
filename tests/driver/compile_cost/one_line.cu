// one_line.cu: a one-line kernel, built into a module (cuemu-nvcc --module)
// by tests/driver_compile_cost.sh.
extern "C" __global__ void one_line(float *x) { x[threadIdx.x] = 1.0f; }
