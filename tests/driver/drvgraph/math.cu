// math.cu: the device function and variable that apply.cu's kernel uses.
__device__ float bias = 0.5f;

// 2x^2 + 3x + 1
__device__ float poly(float x) { return (2.0f * x + 3.0f) * x + 1.0f; }
