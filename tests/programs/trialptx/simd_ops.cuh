#pragma once
// Byte-wise SIMD video intrinsics for image-distance kernels.
__global__ void sad_kernel(const unsigned* a, const unsigned* b, unsigned* sad, int* dots,
                           unsigned* misc, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = a[i], y = b[i];
  unsigned d = __vabsdiffu4(x, y);
  sad[i] = __vsadu4(x, y) + (d & 0) ;
  dots[i] = __dp4a((int)x, (int)y, 7);
  unsigned v;
  asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(v) : "r"(x), "r"(y), "r"(0));
  misc[i * 8 + 0] = v;
  misc[i * 8 + 1] = __byte_perm(x, y, 0x7531);
  misc[i * 8 + 2] = __funnelshift_r(x, y, 13);
  misc[i * 8 + 3] = __vadd4(x, y) ^ __vsub2(x, y);
  misc[i * 8 + 4] = __vcmpgeu4(x, y) | __vmaxu4(x, y);
  misc[i * 8 + 5] = (unsigned)__viaddmax_s32((int)x, (int)y, 12345);
  misc[i * 8 + 6] = (unsigned)__vimax3_s32((int)x, (int)y, -5);
  unsigned idx = 0;
  misc[i * 8 + 7] = __vibmax_u32(x & 0xffff, y & 0xffff, (bool*)&idx) + idx;
}
