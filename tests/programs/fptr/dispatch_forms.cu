// Every way of declaring a pointer to a __device__ function that device
// code keeps and host code copies opaquely (a device function's address
// means something only in device code; host code may read it with
// cudaMemcpyFromSymbol, pass it to a kernel or write it back with
// cudaMemcpyToSymbol). Before the fix, a declarator written out in full,
// `__device__ int (*p)(int) = f;`, was taken for a function: the host pass
// kept its own copy of the variable, holding the address of the host pass's
// stub of `f`, and a kernel called through what host code read faulted.
//   - explicit declarators: a pointer, an array of pointers, a const
//     pointer, a pointer to a function returning a pointer to a function,
//     `static` and in an unnamed namespace (private to this file);
//   - tables: `__device__ op_t ops[] = {add, mul};` and a `__constant__`
//     table, indexed in kernels and copied whole to the host;
//   - device structs holding pointers, virtual-dispatch style (an object's
//     "vtable" of __device__ functions), initialised statically and built
//     by one kernel for another;
//   - a function returning a pointer to a function, defined and called in
//     device code;
//   - pointers to instances of a function template, taken in a kernel
//     template, in a variable template's instance and in a variable (a
//     variable template's instance was the host pass's object, holding the
//     host pass's stub), and a variable template of the scale the kernels
//     use, written by host code;
//   - a __host__ __device__ function's address in a device variable;
//   - a kernel template whose template parameter is a pointer to a
//     __device__ function (`template <op_t F>`, which did not compile).
#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>
#include "../check.cuh"

__device__ int add(int a, int b) { return a + b; }
__device__ int mul(int a, int b) { return a * b; }
__device__ int sub(int a, int b) { return a - b; }
__device__ int twice(int v) { return 2 * v; }
__device__ int square(int v) { return v * v; }
__host__ __device__ int negate(int v) { return -v; }

typedef int (*op_t)(int, int);
using unary_t = int (*)(int);

// Explicit declarators.
__device__ int (*p_twice)(int) = twice;
__device__ int (*p_unset)(int);
__device__ int (*raw_ops[3])(int, int) = {add, mul, sub};
__device__ int (*const p_square)(int) = square;
__device__ int (*p_negate)(int) = negate;
static __device__ int (*p_static)(int) = square;
namespace {
__device__ int (*p_unnamed)(int) = twice;
}
namespace ops {
__device__ int (*p_scoped)(int, int) = mul;
}

// Tables.
__device__ op_t table[] = {add, mul};
__constant__ op_t const_table[3] = {sub, add, mul};
__device__ unary_t unary_table[2] = {&twice, &square};

// A function that returns a pointer to a function.
__device__ int (*pick_unary(int which))(int) {
  return which ? square : twice;
}
// The same, as a variable holding such a function's address.
__device__ int (*(*p_pick)(int))(int) = pick_unary;

// Objects with their own "vtable" of __device__ functions.
struct Shape;
struct ShapeVtbl {
  float (*area)(const Shape *);
  float (*scaled)(const Shape *, float);
};
struct Shape {
  const ShapeVtbl *vtbl;
  float a, b;
};
__device__ float rect_area(const Shape *s) { return s->a * s->b; }
__device__ float tri_area(const Shape *s) { return 0.5f * s->a * s->b; }
__device__ float rect_scaled(const Shape *s, float k) { return k * s->a * s->b; }
__device__ float tri_scaled(const Shape *s, float k) { return 0.5f * k * s->a * s->b; }
__device__ const ShapeVtbl rect_vtbl = {rect_area, rect_scaled};
__device__ const ShapeVtbl tri_vtbl = {tri_area, tri_scaled};
__device__ Shape static_shapes[2] = {{&rect_vtbl, 2.0f, 3.0f},
                                     {&tri_vtbl, 4.0f, 5.0f}};

// Function templates and a kernel template that takes their addresses.
template <typename T> __device__ T cube(T v) { return v * v * v; }
template <typename T> __device__ T half(T v) { return v / T(2); }
__device__ float (*p_cube_f)(float) = cube<float>;
template <typename T> __device__ T (*p_half)(T) = half<T>;
template <typename T> __constant__ T scale_of = T(3);

template <typename T>
__global__ void take_template_pointers(T (**out)(T)) {
  out[0] = cube<T>;
  out[1] = &half<T>;
  out[2] = p_half<T>;
}

template <typename T>
__global__ void apply_unary(const T *in, T *out, int n, T (*f)(T)) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = scale_of<T> * f(in[i]);
}

__global__ void apply_binary(const int *a, const int *b, int *out, int n,
                             op_t f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = f(a[i], b[i]);
}

// A kernel of a fixed operator, chosen at compile time.
template <op_t F, int (*G)(int)>
__global__ void apply_fixed(const int *a, const int *b, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = G(F(a[i], b[i]));
}

// Calls through every table in device code; out[k] for k in [0, 16).
__global__ void use_tables(int x, int y, int *out) {
  out[0] = table[0](x, y);
  out[1] = table[1](x, y);
  out[2] = const_table[0](x, y);
  out[3] = const_table[2](x, y);
  out[4] = raw_ops[2](x, y);
  out[5] = unary_table[1](x);
  out[6] = p_twice(x);
  out[7] = p_square(x);
  out[8] = p_static(x);
  out[9] = p_unnamed(x);
  out[10] = ops::p_scoped(x, y);
  out[11] = pick_unary(1)(x);
  out[12] = p_pick(0)(x);
  out[13] = p_negate(x);
  out[14] = p_unset ? p_unset(x) : -1;
  out[15] = (*p_twice)(y);
}

// Builds shapes whose vtables are made in device code, for another kernel.
__global__ void build_shapes(Shape *shapes, ShapeVtbl *vtbls, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (i == 0) {
    vtbls[0].area = rect_area;
    vtbls[0].scaled = &rect_scaled;
    vtbls[1] = tri_vtbl;
  }
  shapes[i].vtbl = &vtbls[i % 2];
  shapes[i].a = (float)(i + 1);
  shapes[i].b = 2.0f;
}

__global__ void areas(const Shape *shapes, int n, float k, float *area,
                      float *scaled) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  // Device code may not read a host's table, so the barrier between the
  // kernels is what makes the vtables written by build_shapes visible.
  area[i] = shapes[i].vtbl->area(&shapes[i]);
  scaled[i] = shapes[i].vtbl->scaled(&shapes[i], k);
}

int main() {
  // Every call through a table, in device code.
  int *d_out, out[16];
  const int x = 7, y = 3;
  CHECK(cudaMalloc(&d_out, sizeof out) == cudaSuccess);
  use_tables<<<1, 1>>>(x, y, d_out);
  CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost) == cudaSuccess);
  const int expect[16] = {x + y, x * y, x - y, x * y, x - y, x * x, 2 * x,
                          x * x, x * x,  2 * x, x * y, x * x, 2 * x, -x,
                          -1,    2 * y};
  for (int k = 0; k < 16; ++k) {
    if (out[k] != expect[k]) std::fprintf(stderr, "out[%d] = %d, expected %d\n", k, out[k], expect[k]);
    CHECK(out[k] == expect[k]);
  }

  // Pointers read by host code and passed back to kernels.
  const int n = 40;
  int ha[n], hb[n], hr[n];
  for (int i = 0; i < n; ++i) { ha[i] = i - 9; hb[i] = 3 * i + 1; }
  int *da, *db, *dr;
  CHECK(cudaMalloc(&da, sizeof ha) == cudaSuccess);
  CHECK(cudaMalloc(&db, sizeof hb) == cudaSuccess);
  CHECK(cudaMalloc(&dr, sizeof hr) == cudaSuccess);
  CHECK(cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice) == cudaSuccess);

  int (*h_twice)(int) = 0, (*h_square)(int) = 0, (*h_static)(int) = 0,
      (*h_unnamed)(int) = 0, (*h_negate)(int) = 0;
  CHECK(cudaMemcpyFromSymbol(&h_twice, p_twice, sizeof h_twice) == cudaSuccess);
  CHECK(cudaMemcpyFromSymbol(&h_square, p_square, sizeof h_square) == cudaSuccess);
  CHECK(cudaMemcpyFromSymbol(&h_static, p_static, sizeof h_static) == cudaSuccess);
  CHECK(cudaMemcpyFromSymbol(&h_unnamed, p_unnamed, sizeof h_unnamed) == cudaSuccess);
  CHECK(cudaMemcpyFromSymbol(&h_negate, p_negate, sizeof h_negate) == cudaSuccess);
  CHECK(h_twice == h_unnamed && h_square == h_static && h_twice != h_square);
  // Device code's negate is not host code's.
  CHECK(h_negate != 0);
  unary_t host_unary[2] = {0, 0};
  CHECK(cudaMemcpyFromSymbol(host_unary, unary_table, sizeof host_unary) == cudaSuccess);
  CHECK(host_unary[0] == h_twice && host_unary[1] == h_square);

  struct { unary_t f; int (*expect)(int); } unary_cases[] = {
      {h_twice, [](int v) { return 2 * v; }},
      {h_square, [](int v) { return v * v; }},
      {h_negate, [](int v) { return -v; }},
  };
  for (auto &c : unary_cases) {
    CHECK(cudaMemset(dr, 0, sizeof hr) == cudaSuccess);
    apply_unary<int><<<2, 32>>>(da, dr, n, c.f);
    CHECK(cudaMemcpy(hr, dr, sizeof hr, cudaMemcpyDeviceToHost) == cudaSuccess);
    for (int i = 0; i < n; ++i) CHECK(hr[i] == 3 * c.expect(ha[i]));
  }

  op_t h_raw[3] = {0, 0, 0}, h_table[2] = {0, 0}, h_const[3] = {0, 0, 0}, h_scoped = 0;
  CHECK(cudaMemcpyFromSymbol(h_raw, raw_ops, sizeof h_raw) == cudaSuccess);
  CHECK(cudaMemcpyFromSymbol(h_table, table, sizeof h_table) == cudaSuccess);
  CHECK(cudaMemcpyFromSymbol(h_const, const_table, sizeof h_const) == cudaSuccess);
  CHECK(cudaMemcpyFromSymbol(&h_scoped, ops::p_scoped, sizeof h_scoped) == cudaSuccess);
  // One address per function, whichever table it was read from.
  CHECK(h_raw[0] == h_table[0] && h_raw[0] == h_const[1]);
  CHECK(h_raw[1] == h_table[1] && h_raw[1] == h_const[2] && h_raw[1] == h_scoped);
  CHECK(h_raw[2] == h_const[0]);
  for (int f = 0; f < 3; ++f) {
    CHECK(cudaMemset(dr, 0, sizeof hr) == cudaSuccess);
    apply_binary<<<2, 32>>>(da, db, dr, n, h_raw[f]);
    CHECK(cudaMemcpy(hr, dr, sizeof hr, cudaMemcpyDeviceToHost) == cudaSuccess);
    for (int i = 0; i < n; ++i) {
      int e = f == 0 ? ha[i] + hb[i] : f == 1 ? ha[i] * hb[i] : ha[i] - hb[i];
      CHECK(hr[i] == e);
    }
  }

  // Operators as template arguments.
  apply_fixed<mul, twice><<<2, 32>>>(da, db, dr, n);
  CHECK(cudaMemcpy(hr, dr, sizeof hr, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < n; ++i) CHECK(hr[i] == 2 * ha[i] * hb[i]);
  apply_fixed<sub, &negate><<<2, 32>>>(da, db, dr, n);
  CHECK(cudaMemcpy(hr, dr, sizeof hr, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < n; ++i) CHECK(hr[i] == hb[i] - ha[i]);

  // A pointer read earlier, written into other variables with
  // cudaMemcpyToSymbol: the explicit declarator, the __constant__ table
  // (reversed) and a pointer that had none.
  CHECK(cudaMemcpyToSymbol(p_unset, &h_negate, sizeof h_negate) == cudaSuccess);
  CHECK(cudaMemcpyToSymbol(p_twice, &h_square, sizeof h_square) == cudaSuccess);
  op_t reversed[3] = {h_const[2], h_const[1], h_const[0]};
  CHECK(cudaMemcpyToSymbol(const_table, reversed, sizeof reversed) == cudaSuccess);
  use_tables<<<1, 1>>>(x, y, d_out);
  CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(out[2] == x * y && out[3] == x - y);
  CHECK(out[6] == x * x && out[15] == y * y);
  CHECK(out[14] == -x);

  // Structs of pointers: a static vtable, and vtables built by a kernel.
  Shape h_shapes[2];
  CHECK(cudaMemcpyFromSymbol(h_shapes, static_shapes, sizeof h_shapes) == cudaSuccess);
  CHECK(h_shapes[0].a == 2.0f && h_shapes[1].b == 5.0f);
  CHECK(h_shapes[0].vtbl != h_shapes[1].vtbl);
  Shape *d_static_shapes = 0;
  CHECK(cudaGetSymbolAddress((void **)&d_static_shapes, static_shapes) == cudaSuccess);
  float *d_area, *d_scaled, h_area[64], h_scaled[64];
  CHECK(cudaMalloc(&d_area, sizeof h_area) == cudaSuccess);
  CHECK(cudaMalloc(&d_scaled, sizeof h_scaled) == cudaSuccess);
  areas<<<1, 2>>>(d_static_shapes, 2, 3.0f, d_area, d_scaled);
  CHECK(cudaMemcpy(h_area, d_area, 2 * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(cudaMemcpy(h_scaled, d_scaled, 2 * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(h_area[0] == 6.0f && h_area[1] == 10.0f);
  CHECK(h_scaled[0] == 18.0f && h_scaled[1] == 30.0f);

  const int ns = 64;
  Shape *d_shapes;
  ShapeVtbl *d_vtbls;
  CHECK(cudaMalloc(&d_shapes, ns * sizeof(Shape)) == cudaSuccess);
  CHECK(cudaMalloc(&d_vtbls, 2 * sizeof(ShapeVtbl)) == cudaSuccess);
  build_shapes<<<2, 32>>>(d_shapes, d_vtbls, ns);
  areas<<<2, 32>>>(d_shapes, ns, 0.5f, d_area, d_scaled);
  CHECK(cudaMemcpy(h_area, d_area, sizeof h_area, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(cudaMemcpy(h_scaled, d_scaled, sizeof h_scaled, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < ns; ++i) {
    float a = (float)(i + 1) * 2.0f * (i % 2 ? 0.5f : 1.0f);
    CHECK(h_area[i] == a && h_scaled[i] == 0.5f * a);
  }
  // The vtable a kernel copied holds the addresses of the static one.
  ShapeVtbl built[2], tri;
  CHECK(cudaMemcpy(built, d_vtbls, sizeof built, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(cudaMemcpyFromSymbol(&tri, tri_vtbl, sizeof tri) == cudaSuccess);
  CHECK(built[1].area == tri.area && built[1].scaled == tri.scaled);
  CHECK(built[0].area != tri.area);

  // Function templates: pointers taken in a kernel template, in a variable
  // template's instance and in a variable agree, and run.
  float (*taken[3])(float) = {0, 0, 0}, (*h_cube)(float) = 0, (*h_half)(float) = 0;
  float (**d_taken)(float);
  CHECK(cudaMalloc(&d_taken, sizeof taken) == cudaSuccess);
  take_template_pointers<float><<<1, 1>>>(d_taken);
  CHECK(cudaMemcpy(taken, d_taken, sizeof taken, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(cudaMemcpyFromSymbol(&h_cube, p_cube_f, sizeof h_cube) == cudaSuccess);
  CHECK(cudaMemcpyFromSymbol(&h_half, p_half<float>, sizeof h_half) == cudaSuccess);
  CHECK(taken[0] == h_cube && taken[1] == taken[2] && taken[0] != taken[1]);
  CHECK(h_half == taken[1]);
  float scale = 0;
  CHECK(cudaMemcpyFromSymbol(&scale, scale_of<float>, sizeof scale) == cudaSuccess);
  CHECK(scale == 3.0f);
  scale = 0.5f;
  CHECK(cudaMemcpyToSymbol(scale_of<float>, &scale, sizeof scale) == cudaSuccess);
  float hf[n], hfr[n], *df, *dfr;
  for (int i = 0; i < n; ++i) hf[i] = 0.25f * (float)(i - 20);
  CHECK(cudaMalloc(&df, sizeof hf) == cudaSuccess);
  CHECK(cudaMalloc(&dfr, sizeof hfr) == cudaSuccess);
  CHECK(cudaMemcpy(df, hf, sizeof hf, cudaMemcpyHostToDevice) == cudaSuccess);
  for (int f = 0; f < 2; ++f) {
    apply_unary<float><<<1, 64>>>(df, dfr, n, taken[f]);
    CHECK(cudaMemcpy(hfr, dfr, sizeof hfr, cudaMemcpyDeviceToHost) == cudaSuccess);
    for (int i = 0; i < n; ++i)
      CHECK(hfr[i] == 0.5f * (f == 0 ? hf[i] * hf[i] * hf[i] : hf[i] / 2.0f));
  }

  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaGetLastError() == cudaSuccess);
  cudaFree(d_taken); cudaFree(df); cudaFree(dfr);
  cudaFree(d_vtbls); cudaFree(d_shapes); cudaFree(d_area); cudaFree(d_scaled);
  cudaFree(da); cudaFree(db); cudaFree(dr); cudaFree(d_out);
  return finish();
}
