// device_variable_error.cu: an error on the line of a __device__ variable,
// which both passes compile, each with its own additions to the line
// (the device pass a visibility and an assembler name, the host pass a
// weak shadow), so that g++ names the error at a different column in
// each: nvcc shows it once, and so must cuemu-nvcc.
__device__ int scale = undefined_scale;

__global__ void scaled(int *out) { out[threadIdx.x] = scale * threadIdx.x; }

int main() { return 0; }
