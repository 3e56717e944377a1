/*
 * cuemu_extended_lambda.h: the closure types of extended lambdas, and
 * nvcc's traits that tell them apart.
 *
 * nvcc (--extended-lambda) gives host code a `[] __device__ (...) {...}`
 * as an object of a wrapper type of its own (__nv_dl_wrapper_t), and its
 * traits __nv_is_extended_device_lambda_closure_type(T),
 * __nv_is_extended_host_device_lambda_closure_type(T) and
 * __nv_is_extended_device_lambda_with_preserved_return_type(T) tell such
 * types apart. libcu++'s invoke_result uses them to stop host code that
 * asks for the return type of a __device__ lambda, which nvcc cannot
 * know in host code (thrust::transform_reduce with a __device__ lambda
 * fails to compile with nvcc, with a static_assert that names the fixes).
 *
 * cuemu-cc does the same: an extended lambda of host code is given to
 * the program as extended_lambda<KIND, CLOSURE>, a class derived from the
 * closure type that calls and converts as the closure does
 * (emulator/compile/cuemu_lambda_passes.c writes
 * `::cuemu::extended_lambda_of<KIND>(LAMBDA)` in both passes), so that
 * the traits below are nvcc's: true of exactly the type of such an
 * object, as nvcc's are of its wrapper type.
 */
#ifndef CUEMU_EXTENDED_LAMBDA_H
#define CUEMU_EXTENDED_LAMBDA_H

namespace cuemu {

/* The kinds of extended lambda, as nvcc's traits tell them apart. */
enum extended_lambda_kind {
  extended_device_lambda = 0,           /* [] __device__ (...) {...} */
  extended_host_device_lambda = 1,      /* [] __host__ __device__ ..., with
                                           a trailing return type or not */
  extended_device_lambda_returning = 2, /* [] __device__ (...) -> T {...} */
};

/* constexpr, so that a lambda that initializes a constexpr variable still
 * does (C++17). */
template <int Kind, class Closure> struct extended_lambda : Closure {
  constexpr extended_lambda(Closure &&closure)
      : Closure(static_cast<Closure &&>(closure)) {}
  using Closure::operator();
};

template <int Kind, class Closure>
constexpr extended_lambda<Kind, Closure> extended_lambda_of(Closure closure) {
  return extended_lambda<Kind, Closure>(static_cast<Closure &&>(closure));
}

/* True of the type of an extended lambda of that kind, const or volatile
 * too, and of no reference (nvcc 13's traits, tried on each form). */
template <class T, int Kind> struct is_extended_lambda {
  static constexpr bool value = false;
};
template <class Closure, int Kind>
struct is_extended_lambda<extended_lambda<Kind, Closure>, Kind> {
  static constexpr bool value = true;
};
template <class T, int Kind>
struct is_extended_lambda<const T, Kind> : is_extended_lambda<T, Kind> {};
template <class T, int Kind>
struct is_extended_lambda<volatile T, Kind> : is_extended_lambda<T, Kind> {};
template <class T, int Kind>
struct is_extended_lambda<const volatile T, Kind>
    : is_extended_lambda<T, Kind> {};

} // namespace cuemu

#ifndef __nv_is_extended_device_lambda_closure_type
/* nvcc's wrapper of a __device__ lambda with a trailing return type is a
 * __device__ lambda's too. */
#define __nv_is_extended_device_lambda_closure_type(closure)                  \
  (::cuemu::is_extended_lambda<closure,                                       \
                               ::cuemu::extended_device_lambda>::value ||     \
   ::cuemu::is_extended_lambda<                                               \
       closure, ::cuemu::extended_device_lambda_returning>::value)
#define __nv_is_extended_host_device_lambda_closure_type(closure)             \
  (::cuemu::is_extended_lambda<closure,                                       \
                               ::cuemu::extended_host_device_lambda>::value)
#define __nv_is_extended_device_lambda_with_preserved_return_type(closure)    \
  (::cuemu::is_extended_lambda<                                               \
       closure, ::cuemu::extended_device_lambda_returning>::value)
#endif

#endif /* CUEMU_EXTENDED_LAMBDA_H */
