/*
 * ptx_indirect_kernels.cuh: kernels that call through addresses, for
 * device_indirect_calls.cu (built as CUDA C++) and ptx_indirect_calls.cu
 * (the same kernels as nvcc's PTX text, ptx_indirect_kernels.h, loaded
 * through the driver API): a table of `__device__` function pointers, a
 * hierarchy of classes with virtual functions created in device code with
 * new (a call through the vtable, and the virtual destructor through
 * delete), a function pointer chosen in a kernel, `__device__` pointers initialised with the addresses of
 * `__device__` variables (one into an array, one in `__constant__` memory),
 * a structure holding a pointer and a function pointer, and a packed one
 * (nvcc writes its pointer byte by byte, with PTX's mask operator).
 * With PTX_INDIRECT_EXPECTED_ONLY defined, only what the kernels give,
 * computed on the host.
 */
#ifndef PTX_INDIRECT_KERNELS_CUH
#define PTX_INDIRECT_KERNELS_CUH

#ifndef PTX_INDIRECT_EXPECTED_ONLY

typedef int (*binop)(int, int);
__device__ __noinline__ int add_op(int a, int b) { return a + b; }
__device__ __noinline__ int sub_op(int a, int b) { return a - b; }
__device__ __noinline__ int mul_op(int a, int b) { return a * b; }
__device__ binop ops[3] = {add_op, sub_op, mul_op};

__device__ int target = 7;
__device__ int *target_ptr = &target;
__device__ int table_data[4] = {10, 20, 30, 40};
__device__ int *table_third = &table_data[2];
__constant__ int *const_ptr = &table_data[3];

__device__ __noinline__ int twice(int a) { return 2 * a; }
struct Holder {
  int base;
  int *ptr;
  int (*fn)(int);
};
__device__ Holder holder = {3, &target, twice};
struct __attribute__((packed)) Packed {
  char tag;
  int *ptr;
};
__device__ Packed packed = {'k', &table_data[1]};

struct Shape {
  __device__ virtual ~Shape() {}
  __device__ virtual int area() const = 0;
  __device__ virtual int sides() const { return 0; }
};
struct Rect : Shape {
  int w, h;
  __device__ Rect(int w, int h) : w(w), h(h) {}
  __device__ int area() const override { return w * h; }
  __device__ int sides() const override { return 4; }
};
struct Square : Rect {
  __device__ explicit Square(int s) : Rect(s, s) {}
  __device__ int sides() const override { return 40; }
};
struct Tri : Shape {
  int b, h;
  __device__ Tri(int b, int h) : b(b), h(h) {}
  __device__ int area() const override { return b * h / 2; }
  __device__ int sides() const override { return 3; }
};

/* out[i] = ops[which[i] % 3](a + i, b) */
extern "C" __global__ void apply_ops(int *out, const int *which, int a, int b,
                                     int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = ops[which[i] % 3](a + i, b);
}

/* out[i] = i + 3 or i * 3 by sel[i], through a function pointer chosen in
 * the kernel (nvcc moves both functions' addresses into registers and
 * selects one; volatile keeps the pointer in local memory). */
extern "C" __global__ void pick_op(int *out, const int *sel, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    volatile binop f = sel[i] ? add_op : mul_op;
    out[i] = f(i, 3);
  }
}

/* out[2i], out[2i+1]: the area and sides of shape i, a Rect, a Square or a
 * Tri by i % 3. */
extern "C" __global__ void shapes(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Shape *s;
  switch (i % 3) {
  case 0: s = new Rect(i, 2); break;
  case 1: s = new Square(i); break;
  default: s = new Tri(i, 4); break;
  }
  out[2 * i] = s->area();
  out[2 * i + 1] = s->sides();
  delete s;
}

/* Reads through the initialised pointers: out = {8, 30, 40, 9, 20, 'k'}
 * (target incremented once). */
extern "C" __global__ void through_pointers(int *out) {
  *target_ptr += 1;
  out[0] = *target_ptr;
  out[1] = *table_third;
  out[2] = *const_ptr;
  out[3] = holder.fn(holder.base) + (holder.ptr == &target) * 3;
  out[4] = *packed.ptr;
  out[5] = packed.tag;
}

#endif

/* What the kernels give, computed on the host. */
inline int expected_op(int which, int a, int b) {
  return which % 3 == 0 ? a + b : which % 3 == 1 ? a - b : a * b;
}
inline int expected_area(int i) {
  return i % 3 == 0 ? i * 2 : i % 3 == 1 ? i * i : i * 4 / 2;
}
inline int expected_sides(int i) { return i % 3 == 0 ? 4 : i % 3 == 1 ? 40 : 3; }

#endif
