/*
 * space_refusals.cu: what nvcc refuses across CUDA's execution spaces, one
 * form per CASE, which only the compiler sees (cuemu's GCC plugin,
 * emulator/compile/cuemu_gcc_plugin_spaces.cc): tests/device_refusals.sh
 * compiles the cases (several in one compile, with -DCASES) and expects an
 * error at each line marked `// case N: MESSAGE`, MESSAGE in nvcc's words,
 * from cuemu-nvcc (with g++) and from nvcc; without CASE and CASES, the
 * near misses that nvcc accepts build and run, and print PASS.
 */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <utility>
/* With -DSPACE_THRUST the unit includes Thrust, so that cuemu-nvcc
 * compiles it with clang++ (and cuemu's clang plugin), and the near misses
 * use Thrust's algorithms too (tests/device_space_refusals_clang.sh). */
#if defined(SPACE_THRUST)
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <vector>
#endif

#if !defined(CASE)
#define CASE 0
#endif
/* -DCASES=MASK turns on every case N whose bit (1 << N) MASK sets, so that
 * one compile checks several refusals, each at its own line (the file's
 * `// cases together` line tells tests/device_refusals.sh so). */
// cases together
#if !defined(CASES)
#define CASES 0
#endif
#define ON(n) (CASE == (n) || ((CASES) >> (n)) & 1)

int host_twice(int x) { return 2 * x; }
struct HostCounter {
  int n;
  int next() { return ++n; }
};
int host_scale = 3;
struct Table {
  static constexpr int v[4] = {1, 2, 3, 4};
  static constexpr int s = 5;
};
/* A class's constexpr static array of device function pointers. */
typedef int (*binary_op)(int, int);
__device__ int dev_add(int a, int b) { return a + b; }
__device__ int dev_mul(int a, int b) { return a * b; }
struct Ops {
  static constexpr binary_op v[2] = {dev_add, dev_mul};
};
#if ON(1)
__global__ void calls_host(int *p) {
  p[0] = host_twice(p[0]); // case 1: calling a __host__ function("host_twice(int)") from a __global__ function("calls_host") is not allowed
}
#endif
#if ON(2)
__device__ int device_calls_host(int x) {
  return host_twice(x) + 1; // case 2: calling a __host__ function("host_twice(int)") from a __device__ function("device_calls_host") is not allowed
}
#endif
#if ON(3)
__global__ void counts(int *p) {
  HostCounter c{p[0]};
  p[0] = c.next(); // case 3: calling a __host__ function("HostCounter::next()") from a __global__ function("counts") is not allowed
}
#endif
#if ON(4)
__global__ void unconfigured(int *p) { p[0] = 1; }
void launches_plainly(int *p) {
  unconfigured(p); // case 4: a __global__ function call must be configured
}
#endif
#if ON(5)
__global__ void recursive(int *p) {
  if (p[0]-- > 0) recursive(p); // case 5: a __global__ function call must be configured
}
#endif
#if ON(6)
__global__ void reads_host(int *p) {
  p[0] *= host_scale; // case 6: identifier "host_scale" is undefined in device code
}
#endif
#if ON(7)
__global__ void indexes(int *p) {
  p[0] = Table::v[p[1] & 3]; // case 7: identifier "Table::v" is undefined in device code
}
#endif
#if ON(8)
__global__ void addresses(const int **p) {
  p[0] = &Table::s; // case 8: identifier "Table::s" is undefined in device code
}
#endif
#if ON(20)
__global__ void offsets(int *p) {
  p[0] = *(Table::v + (p[1] & 3)); // case 20: identifier "Table::v" is undefined in device code
}
#endif
#if ON(21)
__global__ void picks(int *p) {
  const binary_op *pick = &Ops::v[1]; // case 21: identifier "Ops::v" is undefined in device code
  p[0] = (*pick)(p[0], p[1]);
}
#endif
#if ON(27)
__global__ void binds(int *p) {
  const int &r = Table::s; // case 27: identifier "Table::s" is undefined in device code
  p[0] = r;
}
#endif
/* A host variable bound to a call's reference parameter: a user's
 * function's, std::min's (not folded, as p[0] is no constant), a
 * constructor's, through a conditional. */
__device__ int plus_one(const int &x) { return x + 1; }
constexpr int ns_limit = 6;
const int ns_const_limit = 7;
struct Bound {
  int v;
  __device__ Bound(const int &x) : v(x) {}
};
#if ON(28)
__global__ void binds_argument(int *p) {
  p[0] = plus_one(Table::s); // case 28: identifier "Table::s" is undefined in device code
}
#endif
#if ON(29)
__global__ void binds_min(int *p) {
  p[0] = std::min(ns_limit, p[0]); // case 29: identifier "ns_limit" is undefined in device code
}
#endif
#if ON(30)
__global__ void binds_constructor(int *p) {
  Bound b(ns_const_limit); // case 30: identifier "ns_const_limit" is undefined in device code
  p[0] = b.v;
}
#endif
#if ON(31)
__global__ void binds_either(int *p) {
  p[0] = plus_one(p[1] ? p[0] : Table::s); // case 31: identifier "Table::s" is undefined in device code
}
#endif
#if ON(9)
struct Seeded {
  int seed;
  __device__ Seeded() { seed = 42; }
};
__device__ Seeded seeded; // case 9: dynamic initialization is not supported for a __device__ variable
#endif
#if ON(22)
/* A class with virtual functions: its constructor stores the vtable's
 * address, though its base's constructor is empty. */
struct EmptyBase {
  __device__ EmptyBase() {}
};
struct Shape : EmptyBase {
  __device__ virtual int area() const { return 1; }
};
__device__ Shape shape; // case 22: dynamic initialization is not supported for a __device__ variable
#endif
#if ON(23)
/* A member whose constructor does work makes the implicit one dynamic. */
struct Stored {
  int v;
  __device__ Stored() { v = 3; }
};
struct HoldsStored {
  Stored s;
};
__constant__ HoldsStored holds_stored; // case 23: dynamic initialization is not supported for a __constant__ variable
#endif
#if ON(10)
__constant__ float gain;
__global__ void writes_constant(const float *in) {
  gain = in[0]; // case 10: expression must be a modifiable lvalue
}
#endif
#if ON(11)
void host_with_shared(int *p) {
  __shared__ int staged[4]; // case 11: a static "__shared__" variable declaration is not allowed inside a host function body
  staged[0] = p[0];
}
#endif

/* Cases 12 and 13 compile without --expt-relaxed-constexpr
 * (tests/device_refusals.sh reads this line). */
// strict cases: 12 13
#if ON(12)
constexpr int host_cx(int x) { return x + 1; }
__global__ void strict_constexpr(int *p) {
  p[0] = host_cx(p[0]); // case 12: calling a constexpr __host__ function("host_cx") from a __global__ function("strict_constexpr") is not allowed. The experimental flag '--expt-relaxed-constexpr' can be used to allow this.
}
#endif
#if ON(13)
__global__ void library_constexpr(int *p) {
  p[0] = std::min(p[0], p[1]); // case 13: calling a constexpr __host__ function("min") from a __global__ function("library_constexpr") is not allowed. The experimental flag '--expt-relaxed-constexpr' can be used to allow this.
}
#endif
/* Cases 33 to 37: a constexpr host function called in a constant
 * expression of device code (a constexpr variable's initializer, a
 * template argument, a static_assert, an array's bound; the conversion of
 * std::is_same<...>{} to bool, which nvcc names with its own spelling of
 * bool, __nv_bool), which nvcc 13.0
 * refuses as it refuses a call at run time (without
 * --expt-relaxed-constexpr). The operands of sizeof, decltype and
 * noexcept beside them are unevaluated, which nvcc accepts (the line
 * marked as a strict near miss, which tests/device_refusals.sh checks).
 * Refused by the clang plugin only: g++ has folded these expressions
 * before its plugin walks the body (docs/nvcc-checks.md). */
// strict cases: 33 34 35 36 37
// clang++ cases: 33 34 35 36 37
constexpr int host_cx2(int x) { return x + 2; }
template <typename T> constexpr T host_tcx(T x) { return 3 * x; }
template <int N> struct Fixed {
  static constexpr int value = N;
};
#if ON(33)
/* A __shared__ variable of a device function: the note cuemu-cc puts
 * beside it calls cuemu's own constexpr hash, no call of the user's. */
__device__ int staged_value(int x) {
  __shared__ int staged[4]; // strict near miss
  staged[threadIdx.x % 4] = x;
  return staged[threadIdx.x % 4];
}
__global__ void constant_init(int *p) {
  p[1] = staged_value(1);
  constexpr int four = host_cx2(2); // case 33: calling a constexpr __host__ function("host_cx2") from a __global__ function("constant_init") is not allowed. The experimental flag '--expt-relaxed-constexpr' can be used to allow this.
  decltype(host_cx2(1)) unevaluated = sizeof(host_cx2(1)) + noexcept(host_cx2(1)); // strict near miss
  p[0] = four + unevaluated;
}
#endif
#if ON(34)
__device__ int constant_template_argument() {
  return Fixed<host_tcx(2)>::value; // case 34: calling a constexpr __host__ function("host_tcx") from a __device__ function("constant_template_argument") is not allowed. The experimental flag '--expt-relaxed-constexpr' can be used to allow this.
}
#endif
#if ON(35)
__global__ void constant_assert(int *p) {
  static_assert(std::max(1, 2) == 2, "max"); // case 35: calling a constexpr __host__ function("max") from a __global__ function("constant_assert") is not allowed. The experimental flag '--expt-relaxed-constexpr' can be used to allow this.
  p[0] = 1;
}
#endif
#if ON(36)
__global__ void constant_bound(int *p) {
  int staged[host_cx2(1)]; // case 36: calling a constexpr __host__ function("host_cx2") from a __global__ function("constant_bound") is not allowed. The experimental flag '--expt-relaxed-constexpr' can be used to allow this.
  staged[0] = p[0];
  p[1] = staged[0];
}
#endif
#if ON(37)
__global__ void constant_trait(int *p) {
  static_assert(std::is_same<int, int>{}, "same"); // case 37: calling a constexpr __host__ function("operator __nv_bool") from a __global__ function("constant_trait") is not allowed. The experimental flag '--expt-relaxed-constexpr' can be used to allow this.
  p[0] = 1;
}
#endif
#if ON(14)
__global__ void library_sort(int *p) {
  std::sort(p, p + 4); // case 14: calling a __host__ function("
}
#endif
#if ON(15)
#include <vector>
__device__ void library_member(std::vector<int> &v) {
  v.push_back(1); // case 15: calling a __host__ function("
}
#endif
#if ON(16)
const int host_const_table[3] = {1, 2, 3};
__global__ void const_element(int *p) {
  p[0] = host_const_table[1]; // case 16: identifier "host_const_table" is undefined in device code
}
#endif
#if ON(19)
constexpr int ns_const_table[3] = {1, 2, 3};
__global__ void constexpr_element(int *p) {
  p[0] = ns_const_table[1]; // case 19: identifier "ns_const_table" is undefined in device code
}
#endif
#if ON(17)
template <class T> T host_template_var = T(1);
__global__ void reads_template_var(int *p) {
  p[0] = host_template_var<int>; // case 17: identifier "host_template_var<int>
}
#endif
#if ON(18)
template <class T> struct HostStatic {
  static int n;
};
template <class T> int HostStatic<T>::n = 2;
__global__ void reads_static_member(int *p) {
  p[0] = HostStatic<int>::n; // case 18: identifier "HostStatic<int>
}
#endif

/* A virtual function that overrides one of another execution space. */
struct Figure {
  __host__ __device__ virtual int sides() const { return 0; }
  __device__ virtual int corners() const { return 0; }
  virtual int id() const { return 0; }
};
#if ON(24)
struct Triangle : Figure {
  __device__ int sides() const override { return 3; } // case 24: execution space mismatch: overridden entity (function "Figure::sides") is a __host__ __device__ function, but overriding entity (function "Triangle::sides") is a __device__ function
};
__global__ void triangle_sides(int *p) { p[0] = Triangle().sides(); }
#endif
#if ON(25)
struct Square : Figure {
  __host__ __device__ int corners() const override { return 4; } // case 25: execution space mismatch: overridden entity (function "Figure::corners") is a __device__ function, but overriding entity (function "Square::corners") is a __host__ __device__ function
};
__global__ void square_corners(int *p) { p[0] = Square().corners(); }
#endif
#if ON(32)
/* One byte of an address is not known before the program is linked. */
__device__ int byte_target;
__device__ unsigned char address_byte = (unsigned char)((unsigned long long)&byte_target >> 8); // case 32: dynamic initialization is not supported for a __device__ variable
#endif
#if ON(26)
template <class T> struct Labelled : Figure {
  __device__ int id() const override { return sizeof(T); } // case 26: execution space mismatch: overridden entity (function "Figure::id") is a __host__ function, but overriding entity (function "Labelled
};
__global__ void labelled_id(int *p) { p[0] = Labelled<int>().id(); }
#endif
/* A kernel template instantiated with a host lambda's closure type: a
 * lambda that is neither extended nor defined in device code (nvcc
 * reports it at the launch, cuemu-nvcc at the lambda, here one line).
 * Case 40 compiles without --extended-lambda, so that the clang++ run
 * compiles it without Thrust (-ccbin clang++): a lambda of namespace
 * scope in a kernel template's parameter pack. */
// strict cases: 40
#if ON(38) || ON(39)
template <class F> __global__ void apply_host_lambda(F f, int *out) {
  out[0] = f(out[0]);
}
#endif
#if ON(38)
void launch_capturing_lambda(int *d, int c) {
  apply_host_lambda<<<1, 1>>>([c](int x) { return x + c; }, d); // case 38: The closure type for a lambda ("lambda [](int)->int", defined at
}
#endif
#if ON(39)
template <class F> struct Offset {
  F f;
  __host__ __device__ int operator()(int x) const { return f(x) + 1; }
};
void launch_wrapped_lambda(int *d) {
  auto twice = [](int x) { return 2 * x; }; apply_host_lambda<<<1, 1>>>(Offset<decltype(twice)>{twice}, d); // case 39: The closure type for a lambda ("lambda [](int)->int", defined at
}
#endif
#if ON(40)
template <class... Fs> __global__ void apply_each(int *out, Fs... fs) {
  out[0] = (fs(out[0]) + ... + 0);
}
auto negate = [](int x) { return -x; }; void launch_namespace_lambda(int *d) { apply_each<<<1, 1>>>(d, negate); } // case 40: The closure type for a lambda ("lambda [](int)->int", defined at
#endif
/* Cases 41 to 47: a host function of the user's reached from the device
 * code of CUB's or Thrust's templates (their kernels and the device
 * functions these call), through an algorithm called on device data with
 * a plain lambda or a functor whose operator is not __device__. nvcc
 * refuses it at the library's line (its front end, for a lambda, which is
 * constexpr, with "detected during" lines down to the user's call; its
 * device-code check, for the others, without the user's line);
 * cuemu-nvcc at the user's call, and names the library's line in a note.
 * A lambda that the library's __host__ __device__ code calls (through a
 * transform_iterator, case 42) nvcc's host compile of the kernel's stub
 * refuses; cuemu-nvcc as a closure type in a kernel's template argument.
 * Refused by the clang plugin only (a unit that includes Thrust); nvcc's
 * words were taken by hand (docs/nvcc-checks.md), as each of its
 * compiles of Thrust costs more than the rest of this file's. Case 41
 * compiles without --expt-relaxed-constexpr. */
// strict cases: 41
// clang++ cases: 41 42 43 44 45 46 47
// library cases: 41 42 43 44 45 46 47
#if ON(41) || ON(42) || ON(43) || ON(44) || ON(45) || ON(46) || ON(47)
#include <cub/device/device_reduce.cuh>
#include <thrust/device_vector.h>
#include <thrust/for_each.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
struct HostSum {
  int operator()(int a, int b) const { return a + b; }
};
#endif
#if ON(41)
void triple_all(thrust::device_vector<int> &v) {
  thrust::transform(v.begin(), v.end(), v.begin(), [](int x) { return x * 3; }); // case 41: calling a constexpr __host__ function("operator()") from a __device__ function(
}
#endif
#if ON(42)
int sum_plus_one(thrust::device_vector<int> &v) {
  auto it = thrust::make_transform_iterator(v.begin(), [](int x) { return x + 1; }); // case 42: The closure type for a lambda ("lambda [](int)->int", defined at
  return thrust::reduce(it, it + v.size());
}
#endif
#if ON(43)
int host_sum(thrust::device_vector<int> &v) {
  return thrust::reduce(v.begin(), v.end(), 0, HostSum()); // case 43: calling a __host__ function("HostSum::operator ()(int, int) const") from a __device__ function(
}
#endif
#if ON(44)
struct HostGreater {
  bool operator()(int a, int b) const { return a > b; }
};
void sort_down(thrust::device_vector<int> &v) {
  thrust::sort(v.begin(), v.end(), HostGreater()); // case 44: calling a __host__ function("HostGreater::operator ()(int, int) const") from a __device__ function(
}
#endif
#if ON(45)
struct HostBump {
  void operator()(int &x) const { x += 1; }
};
void bump_all(thrust::device_vector<int> &v) {
  thrust::for_each(v.begin(), v.end(), HostBump()); // case 45: calling a __host__ function("HostBump::operator ()(int &) const") from a __device__ function(
}
#endif
#if ON(46)
struct HostSquare {
  int operator()(int x) const { return x * x; }
};
int sum_squares(thrust::device_vector<int> &v) {
  return thrust::transform_reduce(v.begin(), v.end(), HostSquare(), 0, thrust::plus<int>()); // case 46: calling a __host__ function("HostSquare::operator ()(int) const") from a __device__ function(
}
#endif
#if ON(47)
struct HostMax {
  int operator()(int a, int b) const { return a > b ? a : b; }
};
void cub_max(const int *in, int *out, int n) {
  size_t bytes = 0;
  cub::DeviceReduce::Reduce(nullptr, bytes, in, out, n, HostMax(), 0); // case 47: calling a __host__ function("HostMax::operator ()(int, int) const") from a __device__ function(
}
#endif

/* ---- What nvcc accepts: built and run --------------------------------- */

/* Overrides in the space of the function they override, through two
 * levels, a class template and a pure virtual function, called through a
 * base pointer in device code. */
struct Polygon : Figure {
  __host__ __device__ int sides() const override { return 5; }
  __device__ int corners() const override { return 5; }
  int id() const override { return 1; }
};
struct Hexagon : Polygon {
  __host__ __device__ int sides() const override { return 6; }
};
struct Area {
  __device__ virtual int area() const = 0;
  __device__ virtual ~Area() {}
};
template <int N> struct Grid : Area {
  __device__ int area() const override { return N * N; }
};
__global__ void virtual_spaces(int *out) {
  Hexagon h;
  Grid<3> g;
  const Figure *s = &h;
  const Area *a = &g;
  out[0] = s->sides() + s->corners() + a->area();
}

/* Integers initialised with addresses, which nvcc initialises statically
 * (PTX's `generic(address_target)`, `generic(address_target)+4`), unlike a
 * byte of an address (nvcc: dynamic initialization is not supported). */
__device__ int address_target = 5;
__device__ unsigned long long address_held[2] = {
    (unsigned long long)&address_target, (unsigned long long)&address_target + 4};

/* A read by value whose whole expression is a constant (nvcc folds it):
 * `*&Table::v[1]`, pointer arithmetic at constant offsets, and a class's
 * constexpr array of device function pointers called at a constant index,
 * which calls the device function. */
__global__ void folded_reads(int *out) {
  out[0] = *&Table::v[1] + *(&Table::v[1] + 1) + (&Table::s)[0] +
           *&*&Table::v[3] + *&Table::s + (*&Ops::v[0] == dev_add) +
           Ops::v[1](3, 4) + (*&Ops::v[1])(2, 5) + (*(&Ops::v[0] + 1))(1, 2) +
           (address_held[1] - address_held[0] == 4) +
           *reinterpret_cast<const int *>(address_held[0]);
}

/* Across execution spaces, what nvcc accepts: constants read by value (a
 * constexpr or const scalar, a constexpr array's element at a constant
 * index), a constexpr function (with --expt-relaxed-constexpr, which
 * tests/device_refusals.sh gives), implicit and defaulted members, a
 * __device__ function declared before the kernel that calls it and
 * defined after, a __device__ variable whose default member initializers
 * are constants, a lambda of device code, __shared__ in a __device__
 * function, and a kernel's address in host code. */
/* Also: a __device__ and a __constant__ variable of a class whose
 * __device__ constructor is empty (and of classes holding or deriving from
 * it), a function whose declarator nests the
 * array it returns a reference to, a __device__ variable template and a
 * constexpr one, a class template's constexpr static member, a const
 * float, abs and std::move, and a namespace's constexpr array's elements
 * in constant expressions and under sizeof. */
struct Empty {
  int a;
  __device__ Empty() {}
};
__device__ Empty empty_device;
__constant__ Empty empty_constant;
/* A class whose implicit constructor only calls empty ones (of members,
 * an array of them, a base) is empty too, as nvcc counts it: a ray
 * tracer's __constant__ camera of vec3 members. */
struct HoldsEmpty {
  Empty a, b[2];
  int n;
};
struct FromEmpty : Empty {
  int k;
};
__constant__ HoldsEmpty holds_empty_constant;
__device__ HoldsEmpty holds_empty_device;
__device__ FromEmpty from_empty[2];
template <int N> struct Indexer {
  long long v[N];
  __host__ __device__ const long long (&get() const)[N] { return v; }
};
template <class T> __device__ T device_template_var = T(2);
template <class T> constexpr T constexpr_template_var = T(3);
template <class T> struct Limits {
  static constexpr int k = 4;
};
const float half_gain = 0.5f;
/* A namespace's constexpr array: nvcc refuses its element read in device
 * code (case 19) but in a constant expression or an unevaluated operand. */
constexpr int ns_table[3] = {4, 5, 6};
__global__ void more_spaces(int *out) {
  Indexer<2> ix{{5, 6}};
  int moved = std::move(out[1]);
  constexpr int from_table = ns_table[1];
  int bound[ns_table[0]] = {};
  out[0] = empty_device.a * 0 + empty_constant.a * 0 + (int)ix.get()[1] +
           holds_empty_constant.n * 0 + holds_empty_device.b[1].a * 0 +
           from_empty[1].k * 0 +
           device_template_var<int> + constexpr_template_var<int> +
           Limits<int>::k + (int)(half_gain * 2) + abs(-1) + moved * 0 +
           from_table + (int)(sizeof bound / sizeof bound[0]) +
           (int)sizeof ns_table[out[1]] +
           std::integral_constant<int, ns_table[2]>::value;
}

/* A constant bound to no reference: read by value (`int v = Table::s;`,
 * `x + Table::s`), a template argument, a call of a constexpr function
 * that nvcc folds (std::min's, the user's, a lambda's, of constants);
 * std::min of two locals; a __device__ and a __constant__ variable bound
 * to a reference. */
__device__ int device_limit = 8;
__constant__ int constant_limit = 9;
constexpr int cx_plus_one(const int &x) { return x + 1; }
__global__ void bound_values(int *out) {
  int v = Table::s;
  int x = out[1];
  int lo = std::min(v, x);
  auto same = [](const int &y) { return y; };
  out[0] = v + (x + Table::s) + lo + plus_one(device_limit) +
           plus_one(constant_limit) +
           std::integral_constant<int, Table::s>::value +
           std::min(Table::s, 3) + cx_plus_one(Table::s) + same(Table::s);
}

constexpr int offset = 7;
const int bias = 1;
constexpr int triple(int x) { return 3 * x; }
struct Defaults {
  int a = 10;
  int b = 20;
  Defaults() = default;
};
__device__ Defaults defaults;
struct Vec2 {
  float x, y;
};
__device__ int defined_later(int x);
__device__ int staged_sum(int v) {
  __shared__ int slot[1];
  slot[0] = v;
  return slot[0];
}
__global__ void spaces(int *out) {
  Vec2 a{1.f, 2.f};
  Vec2 b = a;
  auto plus = [](int x) { return defined_later(x); };
  out[0] = Table::v[2] + Table::s + offset + bias + triple(2) + plus(1) +
           defaults.a + (int)b.y + staged_sum(4);
}
__device__ int defined_later(int x) { return x + 100; }

/* A __host__ __device__ function's calls of host functions are not
 * refused (nvcc warns, where its device code is emitted), nor are a
 * constexpr host function's calls from an extended __host__ __device__
 * lambda (with --expt-relaxed-constexpr and --extended-lambda, which
 * tests/device_refusals.sh gives the near misses). */
__host__ __device__ int hd_twice(int x) { return host_twice(x); }
#if defined(__CUDACC_EXTENDED_LAMBDA__)
template <class F> __global__ void apply_lambda(F f, int *out) {
  out[0] = f(out[0]);
}
template <class F> struct Nudge {
  F f;
  __device__ int operator()(int x) const { return f(x) - 1; }
};
int lambda_triple(int v) {
  int *d, r = v;
  cudaMalloc(&d, sizeof r);
  cudaMemcpy(d, &r, sizeof r, cudaMemcpyHostToDevice);
  apply_lambda<<<1, 1>>>([] __host__ __device__(int x) { return triple(x); },
                         d);
  /* An extended lambda inside a class template's instance. */
  auto plus_one = [] __device__(int x) { return x + 1; };
  apply_lambda<<<1, 1>>>(Nudge<decltype(plus_one)>{plus_one}, d);
  cudaMemcpy(&r, d, sizeof r, cudaMemcpyDeviceToHost);
  cudaFree(d);
  return r;
}
#else
int lambda_triple(int v) { return 3 * v; }
#endif
#if defined(SPACE_THRUST) && defined(__CUDACC_EXTENDED_LAMBDA__)
/* Thrust's algorithms with such a lambda, in a unit of clang++; with a
 * __host__ __device__ functor and through a transform_iterator of a
 * __device__ lambda; and on host data with thrust::host, where a plain
 * lambda and a host functor are what the host runs (the near misses of
 * cases 41 to 47). */
struct DeviceSum {
  __host__ __device__ int operator()(int a, int b) const { return a + b; }
};
struct HostLess {
  bool operator()(int a, int b) const { return a < b; }
};
/* A host functor that Thrust's __host__ __device__ transform_iterator
 * calls, which nvcc builds (Thrust disables its check there). */
struct HostPlusOne {
  int operator()(int x) const { return x + 1; }
};
int thrust_sum() {
  thrust::device_vector<int> v(4, 2);
  thrust::transform(v.begin(), v.end(), v.begin(),
                    [] __host__ __device__(int x) { return triple(x) + 1; });
  auto plus_one = thrust::make_transform_iterator(
      v.begin(), [] __device__(int x) { return x + 1; });
  std::vector<int> h = {3, 1, 2};
  thrust::sort(thrust::host, h.begin(), h.end(), HostLess());
  thrust::host_vector<int> hv(h.begin(), h.end());
  int in_order = thrust::reduce(thrust::host, hv.begin(), hv.end(), 0,
                                [](int a, int b) { return 10 * a + b; });
  auto host_plus_one = thrust::make_transform_iterator(v.begin(), HostPlusOne());
  return thrust::reduce(v.begin(), v.end(), 0, DeviceSum()) +
         thrust::reduce(plus_one, plus_one + 4) - 4 * 8 + in_order - 123 +
         thrust::reduce(host_plus_one, host_plus_one + 4) - 4 * 8;
}
#endif

int main() {
  int *dspaces, spaced = 0;
  void (*kernel)(int *) = spaces;
  cudaMalloc(&dspaces, sizeof spaced);
  kernel<<<1, 1>>>(dspaces);
  cudaMemcpy(&spaced, dspaces, sizeof spaced, cudaMemcpyDeviceToHost);
  cudaFree(dspaces);
  int ok = spaced == 3 + 5 + 7 + 1 + 6 + 101 + 10 + 2 + 4;
  if (!ok)
    printf("spaces: %d\n", spaced);
  int more[2] = {0, 9};
  cudaMalloc(&dspaces, sizeof more);
  cudaMemcpy(dspaces, more, sizeof more, cudaMemcpyHostToDevice);
  more_spaces<<<1, 1>>>(dspaces);
  cudaMemcpy(more, dspaces, sizeof more, cudaMemcpyDeviceToHost);
  cudaFree(dspaces);
  if (more[0] != 6 + 2 + 3 + 4 + 1 + 1 + 5 + 4 + 4 + 6) {
    printf("more_spaces: %d\n", more[0]);
    ok = 0;
  }
  cudaMalloc(&dspaces, sizeof spaced);
  folded_reads<<<1, 1>>>(dspaces);
  cudaMemcpy(&spaced, dspaces, sizeof spaced, cudaMemcpyDeviceToHost);
  cudaFree(dspaces);
  if (spaced != 2 + 3 + 5 + 4 + 5 + 1 + 12 + 10 + 2 + 1 + 5) {
    printf("folded_reads: %d\n", spaced);
    ok = 0;
  }
  int values[2] = {0, 2};
  cudaMalloc(&dspaces, sizeof values);
  cudaMemcpy(dspaces, values, sizeof values, cudaMemcpyHostToDevice);
  bound_values<<<1, 1>>>(dspaces);
  cudaMemcpy(values, dspaces, sizeof values, cudaMemcpyDeviceToHost);
  cudaFree(dspaces);
  if (values[0] != 5 + 7 + 2 + 9 + 10 + 5 + 3 + 6 + 5) {
    printf("bound_values: %d\n", values[0]);
    ok = 0;
  }
  cudaMalloc(&dspaces, sizeof spaced);
  virtual_spaces<<<1, 1>>>(dspaces);
  cudaMemcpy(&spaced, dspaces, sizeof spaced, cudaMemcpyDeviceToHost);
  cudaFree(dspaces);
  if (spaced != 6 + 5 + 9) {
    printf("virtual_spaces: %d\n", spaced);
    ok = 0;
  }
  if (hd_twice(4) != 8 || lambda_triple(5) != 15) {
    printf("hd_twice, lambda_triple: %d %d\n", hd_twice(4), lambda_triple(5));
    ok = 0;
  }
#if defined(SPACE_THRUST) && defined(__CUDACC_EXTENDED_LAMBDA__)
  if (thrust_sum() != 4 * 7) {
    printf("thrust_sum: %d\n", thrust_sum());
    ok = 0;
  }
#endif
  puts(ok ? "PASS" : "FAIL");
  return !ok;
}
