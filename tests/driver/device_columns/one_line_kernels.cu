// one_line_kernels.cu: kernels whose bodies start on their declaration's
// line call a host function, which nvcc refuses. cuemu's device pass splits
// such a line after the body's `{`, so the compiler's column is one of the
// body's part: the message must give the column of the user's line.
int host_step(int v) { return v + 1; }

__global__ void child(int *out) { out[1] = 2; }

__global__ void plain(int *out) { out[0] = host_step(out[0]); }

__global__ void parent(int *out) { if (threadIdx.x == 0) { child<<<1, 1>>>(out); out[2] = host_step(out[2]); } }

int main() { return 0; }
