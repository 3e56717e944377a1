// lambda_parent.cu: nvcc's restrictions on the function that encloses an
// extended lambda (the CUDA programming guide's "Extended Lambda
// Restrictions"), one per value of REFUSE, each refused by nvcc 13 at the
// lambda's line with the message that tests/driver_extended_lambda.sh
// expects. Without REFUSE the file holds only forms that nvcc accepts.
template <typename F> __global__ void apply_one(F f, int *out) { *out = f(1); }

#if REFUSE == 1 // a deduced return type
auto deduced(int *out)
{
  auto f = [] __device__(int v) { return v + 1; };
  apply_one<<<1, 1>>>(f, out);
  return 0;
}
#elif REFUSE == 2 // decltype(auto), and a __host__ __device__ lambda
decltype(auto) deduced_too(int *out)
{
  auto f = [] __host__ __device__(int v) { return v + 1; };
  apply_one<<<1, 1>>>(f, out);
  return 0;
}
#elif REFUSE == 3 // a private member function, through a plain lambda
class Hidden {
  void run(int *out)
  {
    auto outer = [=] {
      auto f = [] __device__(int v) { return v; };
      apply_one<<<1, 1>>>(f, out);
    };
    outer();
  }
};
#elif REFUSE == 4 // a protected member function of a class template
template <typename T> struct Guarded {
protected:
  void run(int *out)
  {
    auto f = [] __device__(int v) { return v * 2; };
    apply_one<<<1, 1>>>(f, out);
  }
};
#elif REFUSE == 5 // a member of a class local to another function
void outer_function(int *out)
{
  struct Local {
    static void run(int *out)
    {
      auto f = [] __device__(int v) { return v; };
      apply_one<<<1, 1>>>(f, out);
    }
  };
  Local::run(out);
}
#elif REFUSE == 6 // a constructor
struct Launcher {
  explicit Launcher(int *out) : out_(out)
  {
    auto f = [] __device__(int v) { return v; };
    apply_one<<<1, 1>>>(f, out_);
  }
  int *out_;
};
#elif REFUSE == 7 // a destructor
struct Finisher {
  int *out_ = nullptr;
  ~Finisher()
  {
    auto f = [] __host__ __device__(int v) { return v; };
    apply_one<<<1, 1>>>(f, out_);
  }
};
#elif REFUSE == 8 // a public member of a class that another class hides
class Owner {
  struct Part {
    void run(int *out)
    {
      auto f = [] __device__(int v) { return v; };
      apply_one<<<1, 1>>>(f, out);
    }
  };
};
#elif REFUSE == 9 // inside an extended __host__ __device__ lambda
void nested(int *out)
{
  auto outer = [] __host__ __device__(int v) {
    auto f = [] __device__(int w) { return w; };
    (void)f;
    return v;
  };
  apply_one<<<1, 1>>>(outer, out);
}
#elif REFUSE == 10 // a private member function defined outside its class
namespace shapes {
class Outside {
public:
  void go(int *out) { run(out); }

private:
  void run(int *out);
  int kept_ = 0;
};
} // namespace shapes
void shapes::Outside::run(int *out)
{
  auto f = [] __device__(int v) { return v + 3; };
  apply_one<<<1, 1>>>(f, out);
}
#elif REFUSE == 11 // a protected member of a class template, out of class
struct Root {};
template <typename T> class Base : public Root {
protected:
  void step(T *out);
};
template <typename T> void Base<T>::step(T *out)
{
  auto f = [] __device__(int v) { return v * 3; };
  apply_one<<<1, 1>>>(f, out);
}
template class Base<int>;
#else
#include <cstdio>
// What nvcc accepts: a trailing return type, public members (in-class and
// out of class, of a struct and after `public:`), a public operator(), a
// class that another class makes public, lambdas through a plain lambda.
auto trailing(int *out) -> int
{
  auto f = [] __device__(int v) { return v + 1; };
  apply_one<<<1, 1>>>(f, out);
  return 0;
}
class Visible {
  int base_ = 3;

public:
  void run(int *out)
  {
    auto f = [] __device__(int v) { return v + 3; };
    apply_one<<<1, 1>>>(f, out);
  }
  void later(int *out);
  struct Part {
    void operator()(int *out) const
    {
      auto f = [] __host__ __device__(int v) { return v + 4; };
      apply_one<<<1, 1>>>(f, out);
    }
  };
};
void Visible::later(int *out)
{
  auto outer = [=] {
    auto f = [] __device__(int v) { return v + 5; };
    apply_one<<<1, 1>>>(f, out);
  };
  outer();
}

int main()
{
  int *d, h[5];
  cudaMalloc(&d, 5 * sizeof(int));
  trailing(d);
  Visible v;
  v.run(d + 1);
  Visible::Part{}(d + 2);
  v.later(d + 3);
  auto local = [=] {
    auto f = [] __device__(int x) { return x + 6; };
    apply_one<<<1, 1>>>(f, d + 4);
  };
  local();
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d %d %d %d\n", h[0], h[1], h[2], h[3], h[4]);
  cudaFree(d);
  return 0;
}
#endif
