// Exactly 64 KB of __constant__ data in one unit, in two arrays and a
// struct: what a GPU's constant bank holds, which ptxas accepts.
struct curve_params {
  unsigned p[8], a[8], b[8], gx[8], gy[8], n[8], h, pad[207];
};
__constant__ unsigned sbox_tables[8][1024];
__constant__ unsigned round_keys[7936];
__constant__ curve_params curve;

__global__ void lookup(unsigned *out) {
  out[threadIdx.x] = sbox_tables[threadIdx.x % 8][threadIdx.x] ^ round_keys[threadIdx.x * 100] ^ curve.p[threadIdx.x % 8];
}
