// vla.cu: variable-length arrays, which nvcc refuses in device code
// ("expression must have a constant value") and the host compiler accepts
// in host code. Without -DFIXED the device code has eleven (the lines named
// by tests/device_vla.sh); with it, only the host function keeps its own.
#include <cstdio>

#ifdef FIXED
#define BOUND(n) 8
#else
#define BOUND(n) n
#endif

template <typename T>
__device__ T sum_first(const T *p, int n) {
  T tmp[BOUND(n)];
  T s = 0;
  for (int i = 0; i < n; ++i) {
    tmp[i] = p[i];
    s += tmp[i];
  }
  return s;
}

__host__ __device__ int twice(int n) {
  char c[BOUND(n)];
  c[0] = (char)n;
  return 2 * c[0];
}

__device__ int fixed_size(int v) {
  const int m = 4;
  int a[m * sizeof(int)];
  a[0] = v;
  return a[0];
}

__global__ void gather(float *out, const float *in, int n) {
  int idx[BOUND(n)];
  for (int i = 0; i < n; ++i)
    idx[i] = i;
  auto pick = [&](int m) {
    float local[BOUND(m)];
    local[0] = in[idx[m - 1]];
    return local[0];
  };
  out[0] = sum_first(in, n) + pick(n) + twice(1) + fixed_size(0);
}

struct Tally {
  __device__ int count(int n) {
    int marks[BOUND(n)];
    marks[0] = n;
    return marks[0];
  }
};

__global__ void tally(int *out, int n) { out[0] = Tally().count(n); }

template <typename F> __global__ void apply(F f, int *out, int n) {
  out[0] = f(n);
}

// An extended lambda of host code is device code too.
void launch_apply(int *out, int n) {
  apply<<<1, 1>>>(
      [=] __device__(int m) {
        int scratch[BOUND(m)];
        scratch[0] = m;
        return scratch[0];
      },
      out, n);
}

// So is one of a function template's instance.
template <typename T> void launch_apply_as(int *out, int n) {
  apply<<<1, 1>>>(
      [=] __device__(int m) {
        T scratch[BOUND(m)];
        scratch[0] = T(m);
        return int(scratch[0]);
      },
      out, n);
}

// Host code keeps its variable-length array, as g++ allows.
static int host_sum(int n) {
  int h[n];
  int s = 0;
  for (int i = 0; i < n; ++i) {
    h[i] = i;
    s += h[i];
  }
  return s;
}

// Bodies that follow something other than the parameters' ')': a trailing
// return type, a constructor's braced initializer, a ref-qualifier, and a
// mutable extended lambda.
__device__ auto trailing(int n) -> int {
  int t[BOUND(n)];
  t[0] = n;
  return t[0];
}

struct Holder {
  int v;
  __device__ Holder(int n) : v{n} {
    int h[BOUND(n)];
    h[0] = n;
    v = h[0];
  }
  __device__ int get(int n) const & {
    int g[BOUND(n)];
    g[0] = n + v;
    return g[0];
  }
};

__global__ void forms(int *out, int n) {
  Holder h(n);
  out[0] = trailing(n) + h.get(n);
}

void launch_mutable(int *out, int n) {
  apply<<<1, 1>>>(
      [=] __device__(int m) mutable {
        int s[BOUND(m)];
        s[0] = m;
        return s[0];
      },
      out, n);
}

int main() {
  float *in, *out;
  cudaMallocManaged(&in, 8 * sizeof(float));
  cudaMallocManaged(&out, sizeof(float));
  for (int i = 0; i < 8; ++i)
    in[i] = float(i + 1);
  gather<<<1, 1>>>(out, in, 4);
  cudaDeviceSynchronize();
  // 1+2+3+4, in[3] = 4, twice(1) = 2, fixed_size(0) = 0.
  int *applied;
  cudaMallocManaged(&applied, sizeof(int));
  launch_apply(applied, 6);
  cudaDeviceSynchronize();
  int applied_first = *applied;
  launch_apply_as<short>(applied, 9);
  cudaDeviceSynchronize();
  int *formed;
  cudaMallocManaged(&formed, sizeof(int));
  forms<<<1, 1>>>(formed, 3);
  cudaDeviceSynchronize();
  int formed_value = *formed;
  launch_mutable(applied, 7);
  cudaDeviceSynchronize();
  // trailing(3) = 3, Holder(3).get(3) = 3 + 3.
  bool ok = out[0] == 10.0f + 4.0f + 2.0f && host_sum(5) == 10 &&
            applied_first == 6 && formed_value == 9 && *applied == 7;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
