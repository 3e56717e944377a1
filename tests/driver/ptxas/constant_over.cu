// 80 KB of __constant__ data in one unit, over the 64 KB that a GPU's
// constant bank holds: ptxas refuses the file ("File uses too much global
// constant data (0x14000 bytes, 0x10000 max)").
__constant__ unsigned sbox_tables[16][1024];
__constant__ unsigned round_keys[4096];

__global__ void lookup(unsigned *out) {
  out[threadIdx.x] = sbox_tables[threadIdx.x % 16][threadIdx.x] ^ round_keys[threadIdx.x * 100];
}
