// lib.cu: a device function and a device variable that main.cu's kernel
// reaches across units (tests/driver_dlink_undefined.sh).
__device__ int scale = 3;

__device__ int scaled(int x) { return x * scale; }
