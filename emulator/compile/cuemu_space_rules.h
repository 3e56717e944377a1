/* cuemu_space_rules.h: what cuemu's two compiler plugins share of their
 * refusals across CUDA's execution spaces (cuemu_gcc_plugin_spaces.cc for
 * g++, cuemu_clang_plugin_spaces.cc for clang++): the spaces that the
 * device pass's marks give, nvcc's words for each refusal (printf formats)
 * and the C++ library's functions that device code may call. Plain C++,
 * with no compiler's headers. */
#ifndef CUEMU_SPACE_RULES_H
#define CUEMU_SPACE_RULES_H

#include <stdlib.h>
#include <string.h>

#include "cuemu_device_libc_names.h"

/* Where a function runs, from the marks of the device pass
 * (`#pragma cuemu device_code [global|host]`, cuemu_device_code.c). */
enum cuemu_space {
  CUEMU_SPACE_HOST,        /* unmarked: host code, or no user's code */
  CUEMU_SPACE_DEVICE,      /* __device__ */
  CUEMU_SPACE_HOST_DEVICE, /* __host__ __device__ */
  CUEMU_SPACE_GLOBAL       /* __global__ */
};

/* nvcc's messages (docs/nvcc-checks.md). The callee's name is written
 * with its scope and parameters ("HostCounter::next()"), the caller's
 * bare ("k"); a constexpr callee's bare too ("min"). */
#define CUEMU_MSG_HOST_CALL                                                   \
  "calling a __host__ function(\"%s\") from a %s function(\"%s\") is not "    \
  "allowed"
#define CUEMU_MSG_CONSTEXPR_CALL                                              \
  "calling a constexpr __host__ function(\"%s\") from a %s function(\"%s\") " \
  "is not allowed. The experimental flag '--expt-relaxed-constexpr' can be "  \
  "used to allow this."
/* nvcc's spelling of a constexpr callee's bare name: its front end writes
 * bool as __nv_bool ("operator __nv_bool" for std::is_same<T, int>{}'s
 * conversion, nvcc 13.0). */
static inline const char *cuemu_space_nvcc_name(const char *name) {
  return strcmp(name, "operator bool") == 0 ? "operator __nv_bool" : name;
}
#define CUEMU_MSG_UNCONFIGURED "a __global__ function call must be configured"
#define CUEMU_MSG_HOST_VARIABLE                                               \
  "identifier \"%s\" is undefined in device code"
#define CUEMU_MSG_DYNAMIC_INIT                                                \
  "dynamic initialization is not supported for a %s variable"
#define CUEMU_MSG_CONSTANT_STORE "expression must be a modifiable lvalue"
/* A kernel template instantiated with a host lambda's closure type
 * (cuemu_gcc_plugin_closures.cc): the lambda, its file's name and line. */
#define CUEMU_MSG_HOST_CLOSURE                                                \
  "The closure type for a lambda (\"%s\", defined at %s:%d) cannot be "       \
  "used in the template argument type of a __global__ function template "     \
  "instantiation, unless the lambda is defined within a __device__ or "       \
  "__global__ function, or the flag '-extended-lambda' is specified and the " \
  "lambda is an extended lambda (a __device__ or __host__ __device__ lambda " \
  "defined within a __host__ or __host__ __device__ function)"
#define CUEMU_MSG_HOST_SHARED                                                 \
  "a static \"__shared__\" variable declaration is not allowed inside a "     \
  "host function body"
#define CUEMU_MSG_OVERRIDE                                                    \
  "execution space mismatch: overridden entity (function \"%s\") is a %s "   \
  "function, but overriding entity (function \"%s\") is a %s function"
/* The variable's name, quoted as the compiler quotes it. */
#define CUEMU_MSG_VLA                                                         \
  "expression must have a constant value: %s is a variable-length array, "   \
  "which device code may not have (nvcc refuses it too)"

/* nvcc's name of an execution space in its messages: of a function that
 * overrides or is overridden, and of a caller ("__global__" or
 * "__device__"). */
static inline const char *cuemu_space_name(cuemu_space space) {
  return space == CUEMU_SPACE_DEVICE        ? "__device__"
         : space == CUEMU_SPACE_HOST_DEVICE ? "__host__ __device__"
         : space == CUEMU_SPACE_GLOBAL      ? "__global__"
                                            : "__host__";
}

/* Whether device code is judged for the calls and variables of host code:
 * a __global__ or __device__ function's (a __host__ __device__ one's calls
 * are not judged: nvcc's warning #20011-D, only where its device code is
 * emitted). */
static inline bool cuemu_space_device_only(cuemu_space space) {
  return space == CUEMU_SPACE_DEVICE || space == CUEMU_SPACE_GLOBAL;
}

/* Whether a function of the C++ library's header `file` (a path), of
 * namespace std, named `name`, at namespace scope or not, is one that nvcc
 * takes for a host function in device code: not a math function (<cmath>,
 * <cstdlib>: the CUDA headers give their overloads for device code), nor
 * std::move or std::forward, which nvcc lets device code call. `file` not
 * of the C++ library (no "/c++/" in it) holds none. */
static inline bool cuemu_space_library_host(const char *file,
                                            const char *name,
                                            bool namespace_scope) {
  if (!file || !strstr(file, "/c++/"))
    return false;
  const char *base = strrchr(file, '/');
  base = base ? base + 1 : file;
  static const char *const math[] = {"cmath", "std_abs.h", "cstdlib",
                                     "specfun.h", "math.h", "stdlib.h"};
  for (const char *m : math)
    if (strcmp(base, m) == 0)
      return false;
  return !(namespace_scope &&
           (strcmp(name, "move") == 0 || strcmp(name, "forward") == 0));
}

/* Whether a function of the global namespace declared in `file` (a path),
 * named `name`, extern "C" or not (`extern_c`), is a function of the C
 * library that nvcc takes for a host function in device code ("calling a
 * __host__ function("strcmp") from a __global__ function("k") is not
 * allowed"): one of the system's headers (/usr/include, not the C++
 * library's) that CUDA does not declare for device code too, as it
 * declares printf, malloc, memcpy, clock and the math API
 * (cuemu_device_libc_names.h, from nvcc's headers). A function of C++
 * linkage counts only in a header of /usr/include itself: glibc's C++
 * overloads of strchr, strstr, memchr (<string.h>) and wcschr (<wchar.h>),
 * not a C++ library's of a folder there (Eigen's, /usr/include/eigen3). */
static inline int cuemu_space_libc_name_order(const void *a, const void *b) {
  return strcmp(*static_cast<const char *const *>(a),
                *static_cast<const char *const *>(b));
}
static inline bool cuemu_space_libc_host(const char *file, const char *name,
                                         bool extern_c) {
  if (!file || strncmp(file, "/usr/include/", 13) != 0 ||
      strstr(file, "/c++/") || (!extern_c && strchr(file + 13, '/')))
    return false;
  return !bsearch(&name, cuemu_device_libc_names,
                  sizeof cuemu_device_libc_names /
                      sizeof cuemu_device_libc_names[0],
                  sizeof cuemu_device_libc_names[0],
                  cuemu_space_libc_name_order);
}

/* Whether nvcc folds a call of the C library's `name` whose value is a
 * constant (`constant_call`), so that device code calls nothing: it
 * accepts strlen("ab") in a kernel, and refuses strcmp("a", "b"),
 * memchr("ab", 'b', 2) and strlen(p) (nvcc 13.0). */
static inline bool cuemu_space_libc_folded(const char *name,
                                           bool constant_call) {
  return constant_call && strcmp(name, "strlen") == 0;
}

/* Whether a variable of the user's code named `name` is one of cuemu's own
 * (the translation's, the shims'), never the user's host memory. */
static inline bool cuemu_space_own_variable(const char *name) {
  return strncmp(name, "cuemu", 5) == 0 || strncmp(name, "__", 2) == 0;
}

/* Whether a call in device code is folded, as nvcc folds it, so that the
 * variables bound to its reference parameters are not odr-used there: a
 * call of a constexpr function (`std::min`, a lambda's, the user's) that
 * is a constant as a whole (`std::min(Table::s, 3)`, `f(Table::s)` of a
 * `constexpr int f(const int &)`). Any other call's reference parameter
 * bound to a host variable, a constant too, is refused
 * (`std::min(Table::s, x)`). */
static inline bool cuemu_space_folded_call(bool constexpr_callee,
                                           bool constant_call) {
  return constexpr_callee && constant_call;
}

#endif
