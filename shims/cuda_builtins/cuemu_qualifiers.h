/*
 * cuemu_qualifiers.h: CUDA's function and variable qualifiers as host C++.
 *
 * Kernels and device functions become ordinary functions; __shared__
 * variables become per-OS-thread storage, which is per worker and so per
 * running block. `extern __shared__` arrays and `__noinline__` in the user's
 * .cu are rewritten by cuemu-cc before these macros apply.
 */
#ifndef CUEMU_QUALIFIERS_H
#define CUEMU_QUALIFIERS_H

#ifndef __cplusplus
#error "the CUDA shims are C++ headers; compile .cu files with cuemu-cc"
#endif

#if defined(CUEMU_TRANSLATING)
/* The preprocessing pass of cuemu-cc: the qualifiers stay tokens of the
 * preprocessed translation unit (a macro does not expand inside its own
 * expansion), so that the translation finds kernels, __shared__ variables
 * and launch bounds in every header; the compile of the translated unit
 * force-includes this header again, without CUEMU_TRANSLATING, and the
 * macros below give them their meaning. */
#define __global__ __global__
#define __device__ __device__
#define __host__ __host__
#define __constant__ __constant__
#define __managed__ __managed__
#define __shared__ __shared__
#define __launch_bounds__(...) __launch_bounds__(__VA_ARGS__)
#define __cluster_dims__(...) __cluster_dims__(__VA_ARGS__)
#define __maxnreg__(...) __maxnreg__(__VA_ARGS__)
#define __grid_constant__ __grid_constant__
#else
#define __global__
#define __device__
#define __host__
#define __launch_bounds__(...)
#define __cluster_dims__(...)
/* A kernel's register limit (nvcc 12.4's __maxnreg__): the emulated
 * threads have no registers to limit. */
#define __maxnreg__(...)
#define __constant__
#define __managed__
#define __shared__ static thread_local
#define __grid_constant__
#endif
#define __forceinline__ __attribute__((always_inline)) inline
#define __align__(n) __attribute__((aligned(n)))
/* g++ and clang++ already know __restrict__. */

/* What cuemu-cc adds after a definition of __constant__ variables (one
 * per variable) and at the start of a kernel with __grid_constant__
 * parameters (one per parameter; emulator/compile/cuemu_space_notes.c),
 * so that __isConstant and __isGridConstant know them. */
/* A variable's address as the notes take it: a cast, so that a volatile
 * variable (`__device__ volatile int done;`, as graph codes declare their
 * flags) is noted too. */
#define CUEMU_VARIABLE_ADDRESS_(name) ((const void *)__builtin_addressof(name))
/* The device's object of a variable that the host pass names by its host
 * object (shadow), for the notes of __constant__ and __device__ variables
 * (cuemu_program_register_variable_shadows()); the address itself
 * elsewhere. */
extern "C" const void *cuemu_variable_device_address(const void *variable);
#define CUEMU_DEVICE_ADDRESS_(name)                                           \
  cuemu_variable_device_address(CUEMU_VARIABLE_ADDRESS_(name))
extern "C" int cuemu_constant_register(const void *p, __SIZE_TYPE__ size);
extern "C" void cuemu_grid_constant_note(const void *p, __SIZE_TYPE__ size);
/* Each note of a __constant__ variable also records its size, its
 * alignment and its place in the unit (the note's counter: the compiler
 * may emit the records in another order than the definitions) in the
 * object's section cuemu_constant_bytes, and each of a __device__ or
 * __managed__ one in cuemu_global_bytes: cuemu-cc checks the first's sum
 * against the 64 KB of a GPU's constant bank, and -Xptxas -v prints both
 * (their "gmem" and "cmem[3]"), as ptxas does (cuemu__elf_space_layout()).
 * A fourth word keeps the records 32 bytes apart, as the x86-64 ABI aligns
 * an array of 16 bytes or more to 16. */
#define CUEMU_SPACE_BYTES_(section, name, n)                                  \
  [[maybe_unused]] __attribute__((__section__(section), __used__))           \
  static const unsigned long long cuemu_space_bytes_##n[4] = {                \
      sizeof(name), __alignof__(name), n, 0};
#define CUEMU_CONSTANT_NOTE_(name, n)                                         \
  [[maybe_unused]] static const int cuemu_constant_note_##n =                 \
      cuemu_constant_register(CUEMU_DEVICE_ADDRESS_(name), sizeof(name));     \
  CUEMU_SPACE_BYTES_("cuemu_constant_bytes", name, n)
#define CUEMU_CONSTANT_NOTE_AT_(name, n) CUEMU_CONSTANT_NOTE_(name, n)
#define CUEMU_CONSTANT_NOTE(name) CUEMU_CONSTANT_NOTE_AT_(name, __COUNTER__)
/* The same after a definition of __managed__ variables (one per
 * variable): the variable is managed memory to cudaPointerGetAttributes
 * (cuemu_managed_register) from the program's or module's load until its
 * unload. */
extern "C" int cuemu_managed_register(const void *address,
                                      __SIZE_TYPE__ size);
extern "C" void cuemu_managed_unregister(const void *address);
/* Defined only where the qualifiers are macros: the translated unit, which
 * holds the preprocessing pass's text, includes this header again. */
#if !defined(CUEMU_TRANSLATING)
namespace cuemu {
struct managed_note {
  const void *address;
  int registered;
  managed_note(const void *variable, __SIZE_TYPE__ size)
      : address(variable), registered(cuemu_managed_register(variable, size)) {}
  ~managed_note() {
    if (registered)
      cuemu_managed_unregister(address);
  }
};
} // namespace cuemu
#endif
/* The same after a definition of __device__ variables (one per
 * variable): schedule perturbation saves and restores the variable around
 * a launch's two runs, and racecheck names it in reports
 * (cuemu_device_variable_register_named), from the program's or module's
 * load until its unload. */
extern "C" int cuemu_device_variable_register_named(const void *address,
                                                    __SIZE_TYPE__ size,
                                                    const char *name,
                                                    const char *file, int line);
extern "C" void cuemu_device_variable_unregister(const void *address);
#if !defined(CUEMU_TRANSLATING)
namespace cuemu {
struct __cuemu_device_note {
  const void *address;
  int registered;
  __cuemu_device_note(const void *variable, __SIZE_TYPE__ size,
                      const char *name, const char *file, int line)
      : address(variable),
        registered(cuemu_device_variable_register_named(variable, size, name,
                                                        file, line)) {}
  ~__cuemu_device_note() {
    if (registered)
      cuemu_device_variable_unregister(address);
  }
};
} // namespace cuemu
#endif
#define CUEMU_DEVICE_NOTE_(name, count)                                       \
  [[maybe_unused]] static const ::cuemu::__cuemu_device_note                 \
      cuemu_device_note_##count(CUEMU_DEVICE_ADDRESS_(name), sizeof(name),    \
                                #name, __FILE__, __LINE__);                   \
  CUEMU_SPACE_BYTES_("cuemu_global_bytes", name, count)
#define CUEMU_DEVICE_NOTE_AT_(name, count) CUEMU_DEVICE_NOTE_(name, count)
#define CUEMU_DEVICE_NOTE(name) CUEMU_DEVICE_NOTE_AT_(name, __COUNTER__)
#define CUEMU_MANAGED_NOTE_(name, count)                                      \
  [[maybe_unused]] static const ::cuemu::managed_note                         \
      cuemu_managed_note_##count(CUEMU_VARIABLE_ADDRESS_(name), sizeof(name)); \
  CUEMU_SPACE_BYTES_("cuemu_global_bytes", name, count)
#define CUEMU_MANAGED_NOTE_AT_(name, count) CUEMU_MANAGED_NOTE_(name, count)
#define CUEMU_MANAGED_NOTE(name) CUEMU_MANAGED_NOTE_AT_(name, __COUNTER__)
#define CUEMU_GRID_CONSTANT_NOTE(name)                                        \
  cuemu_grid_constant_note(CUEMU_VARIABLE_ADDRESS_(name), sizeof(name))

/* The per-block dynamic shared buffer of libcuemu, which `extern __shared__`
 * arrays in function bodies point to (see cuemu-cc's translation). */
extern "C" __thread void *cuemu_dynamic_shared
    __attribute__((tls_model("initial-exec")));

/* The minimum or maximum that a float-to-integer conversion of device code
 * saturates to, which cuemu's GCC plugin passes through this function
 * (opaque_bound(), emulator/compile/cuemu_gcc_plugin.cc) so that g++ does
 * not see it as a constant: an index of a __shared__ array taken from it
 * would fold into the array's 32-bit thread-local offset, and the link
 * would fail. Defined where the qualifiers are macros (the compile of a
 * translated unit). */
#if !defined(CUEMU_TRANSLATING)
static inline __attribute__((always_inline)) unsigned long long
__cuemu_saturation_bound(unsigned long long __cuemu_bound) {
  __asm__("" : "+r"(__cuemu_bound));
  return __cuemu_bound;
}
#endif

/* What cuemu-cc adds after each static __shared__ declaration in a
 * kernel's body (emulator/compile/cuemu_shared_decl.c): nvcc's limit on a
 * kernel's static shared memory, checked at compile time as ptxas does,
 * and, in the pass whose kernels run, a record of the variable's size in
 * the section `cuemu_static_shared` (::cuemu::static_shared_record), which
 * the program or module gives libcuemu when it is loaded
 * (::cuemu::declare_static_shared), so that cudaFuncGetAttributes'
 * sharedSizeBytes, occupancy and the launch's check of static plus dynamic
 * shared memory count it before the kernel's first launch. `kernel` names
 * the body's own kernel (instance), `id` the declaration. An asm statement,
 * as for CUEMU_KERNEL_INSTANCE below; the record holds a hidden function
 * that returns the kernel's address, since the address of a kernel of
 * default visibility is no constant of position-independent code. */
#define CUEMU_STATIC_SHARED_CHECK(name)                                       \
  static_assert(sizeof(name) <= 48u * 1024u,                                  \
                "the static __shared__ variable '" #name "' is larger than " \
                "48 KiB, the most static shared memory a kernel may have "    \
                "(nvcc: too much shared data)")
#define CUEMU_STATIC_SHARED_NOTE(name, kernel, id)                            \
  CUEMU_STATIC_SHARED_CHECK(name);                                            \
  __asm__(".pushsection cuemu_static_shared,\"aw\"\n\t.balign "            \
          CUEMU_INSTANCE_DATA_ "%c0, %c1, %c2\n\t.popsection"                \
          :                                                                   \
          : "i"(&::cuemu::kernel_identity<CUEMU_KERNEL_CAST_ARGS kernel>), "i"(id), \
            "i"(sizeof(name)))

/* What cuemu-cc adds after each static __shared__ declaration in the body
 * of a function that is not a kernel (a __device__ function, a member) in
 * the device pass: the limit's check, and a note in the section
 * `cuemu_shared_notes` of the declaration (`id`) and its size at the
 * address where the declaration lies in the function's code (a label of
 * the asm statement: in the code of each function it is inlined into).
 * After the pass's compile, cuemu-cc reads the notes and the calls of the
 * object's functions (cuemu__elf_shared_calls(), cuemu_elf_instances.c)
 * and records, for each global
 * function (each kernel), the notes of the functions it can reach, as
 * nvcc counts a callee's __shared__ variables in the kernel's static
 * shared memory. The note's id is the declaration's mixed with the
 * function's __PRETTY_FUNCTION__, so that each instance of a function
 * template is a variable of its own (`staged<8>` and `staged<4>`), and the
 * copies of one inlined into several callers are one. */
#if !defined(CUEMU_TRANSLATING) /* once in a translated unit */
namespace cuemu {
#if __cplusplus >= 201402L
constexpr unsigned long long __cuemu_shared_note_id(const char *__cuemu_f,
                                                    unsigned long long __cuemu_id) {
  unsigned long long __cuemu_h = __cuemu_id;
  for (; *__cuemu_f; ++__cuemu_f)
    __cuemu_h = (__cuemu_h ^ static_cast<unsigned char>(*__cuemu_f)) *
                1099511628211ull;
  return __cuemu_h & 0x7fffffffu;
}
#else
/* C++11 takes a constexpr function of one return statement only: a .cpp
 * file that the host compiler compiles with -std=c++11 (CMake's CXX
 * language with CMAKE_CXX_STANDARD 11) may include cuda_runtime.h, as it
 * may NVIDIA's. Such a unit declares no __shared__ variable: never
 * called there. */
constexpr unsigned long long __cuemu_shared_note_id(const char *__cuemu_f,
                                                    unsigned long long __cuemu_id) {
  return *__cuemu_f ? __cuemu_shared_note_id(
                          __cuemu_f + 1,
                          (__cuemu_id ^ static_cast<unsigned char>(*__cuemu_f)) *
                              1099511628211ull)
                    : __cuemu_id & 0x7fffffffu;
}
#endif
} // namespace cuemu
#endif
#define CUEMU_DEVICE_SHARED_NOTE(name, id)                                    \
  CUEMU_STATIC_SHARED_CHECK(name);                                            \
  static constexpr unsigned long long cuemu_shared_note_##id =                \
      ::cuemu::__cuemu_shared_note_id(__PRETTY_FUNCTION__, id);               \
  __asm__(".pushsection cuemu_shared_notes,\"aw\"\n\t.balign "              \
          CUEMU_INSTANCE_DATA_ "1f, %c0, %c1\n\t.popsection\n1:"             \
          :                                                                   \
          : "i"(cuemu_shared_note_##id), "i"(sizeof(name)))

/* What cuemu-cc puts in the body of a kernel template
 * (emulator/compile/cuemu_kernel_instance.c): a record of the instance in
 * the section `cuemu_instances` (see cuemu_kernel_instances.h for its
 * words), which the program registers when it starts. In the device pass
 * it comes first in the body (CUEMU_KERNEL_INSTANCE); in the host pass it
 * is the whole body of a system header's kernel template
 * (CUEMU_KERNEL_HOST_INSTANCE), whose instance is the device pass's unless
 * a template argument has no linkage (a lambda), and then stands for it:
 * it runs only if it was not matched, and says so. A user's kernel
 * template keeps its body in the host pass, with the record first
 * (CUEMU_KERNEL_HOST_RECORD), so that the address of an instance of its
 * own (a lambda's) launches the device pass's. An asm statement, because g++ ignores section
 * attributes on templated variables; `kernel` is parenthesised. */
#if __SIZEOF_POINTER__ == 8
#define CUEMU_INSTANCE_DATA_ "8\n\t.quad "
#else
#define CUEMU_INSTANCE_DATA_ "4\n\t.long "
#endif
#define CUEMU_INSTANCE_RECORD_(pass, ...)                                     \
  __asm__(".pushsection .rodata.cuemu_instance_names,\"a\"\n"                \
          "1:\t.asciz \"%c3\"\n\t.popsection\n\t"                            \
          ".pushsection cuemu_instances,\"aw\"\n\t.balign " CUEMU_INSTANCE_DATA_ \
          "%c0, %c1, %c2, %c3, 1b, %c4, " #pass "\n\t.popsection"               \
          :                                                                   \
          : __VA_ARGS__)
/* A kernel known at compile time (its name, a template-id, a cast of its
 * address) as the two template arguments, its pointer type and its
 * address, that launch_static, describe and the other templates of such a
 * kernel take (cuemu_kernel_thunks.h): `template <auto K>` is C++17, and
 * a unit is compiled in the user's dialect, C++14 or C++11 too. The
 * translation writes it in its launches and tables. */
#define CUEMU_KERNEL_ARGS(...)                                                 \
  typename ::std::decay<decltype(__VA_ARGS__)>::type, __VA_ARGS__
/* The same for a cast of a kernel's address that picks one kernel of an
 * overload set or names a template's instance, written `(TYPE)(ADDRESS)`:
 * the type, and the address alone. C++14 takes as a non-type template
 * argument of pointer type only an address (`&name`, `name`), never a
 * cast (C++17 takes any constant expression; g++ accepts a cast in C++14
 * too, clang++ refuses it), and the parameter's type picks the kernel out
 * of an overload set as the cast would. The macros below take the kernel
 * parenthesised, `((TYPE)(ADDRESS))`, and write `CUEMU_KERNEL_CAST_ARGS
 * kernel` (kernel_cast_type: cuemu_kernel_thunks.h). */
#define CUEMU_KERNEL_CAST_ARGS(...) CUEMU_KERNEL_CAST_TYPE_ __VA_ARGS__
#define CUEMU_KERNEL_CAST_TYPE_(...)                                          \
  typename ::cuemu::kernel_cast_type<void(__VA_ARGS__)>::type,
#define CUEMU_KERNEL_INSTANCE(file, line, unit, kernel, max_threads,          \
                              min_blocks)                                     \
  CUEMU_INSTANCE_RECORD_(1, "i"(&::cuemu::register_instance<CUEMU_KERNEL_CAST_ARGS kernel, \
                                                            max_threads,      \
                                                            min_blocks>),     \
                         "i"(file), "i"(line), "i"(kernel), "i"(unit))
/* The same in a module's one pass (NVRTC's, -cubin's), whose instances are
 * found by name only (name expressions): nothing, unless the module is the
 * one that cuemu-nvcc reads for -Xptxas -v and --resource-usage, which
 * lists every kernel the unit holds, its template instances too, as
 * nvcc's ptxas does (CUEMU_RECORD_INSTANCES; cuemu_resource_usage.c).
 * CUEMU_MODULE_TEMPLATE, after `__global__` in a kernel template's
 * declarations, makes the instances hidden there (as in a device pass), so
 * that a record may name an instance's address, also with -rdc. */
#ifdef CUEMU_RECORD_INSTANCES
#define CUEMU_MODULE_INSTANCE CUEMU_KERNEL_INSTANCE
#define CUEMU_MODULE_TEMPLATE __attribute__((visibility("hidden"), used))
#else
#define CUEMU_MODULE_INSTANCE(...)
#define CUEMU_MODULE_TEMPLATE
#endif
/* The same in a further device pass (one per virtual architecture), whose
 * translated unit defines CUEMU_KERNEL_INSTANCE as this with its
 * __CUDA_ARCH__ as `arch` (cuemu__codegen_write_unit()). */
#define CUEMU_KERNEL_VARIANT_INSTANCE(arch, file, line, unit, kernel,         \
                                      max_threads, min_blocks)                \
  CUEMU_INSTANCE_RECORD_(arch, "i"(&::cuemu::cuemu_variant_instance<CUEMU_KERNEL_CAST_ARGS kernel, \
                                                           max_threads,       \
                                                           min_blocks>),      \
                         "i"(file), "i"(line), "i"(kernel), "i"(unit))
#define CUEMU_KERNEL_HOST_RECORD(unit, kernel)                                \
  CUEMU_INSTANCE_RECORD_(2, "i"(&::cuemu::host_instance_params<CUEMU_KERNEL_CAST_ARGS kernel>), \
                         "i"(0), "i"(0), "i"(kernel), "i"(unit))
#define CUEMU_KERNEL_HOST_INSTANCE(unit, kernel)                              \
  CUEMU_INSTANCE_RECORD_(2, "i"(&::cuemu::host_instance_params<CUEMU_KERNEL_CAST_ARGS kernel>), \
                         "i"(0), "i"(0), "i"(kernel), "i"(unit));           \
  cuemu_kernel_assert_fail("the host pass's instance of this kernel "        \
                           "template was not matched to the device pass's " \
                           "(see cuemu's docs/thrust.md)",                  \
                           __FILE__, __LINE__, __PRETTY_FUNCTION__)

/* The host pass's body of the user's kernel template: its record, and a
 * call of the device pass's instance (cuemu_kernel_instances.h) with the
 * parameters that follow the macro. */
#define CUEMU_KERNEL_HOST_FORWARD(unit, kernel)                               \
  CUEMU_INSTANCE_RECORD_(2, "i"(&::cuemu::host_instance_params<CUEMU_KERNEL_CAST_ARGS kernel>), \
                         "i"(0), "i"(0), "i"(kernel), "i"(unit));           \
  ::cuemu::device_instance<CUEMU_KERNEL_CAST_ARGS kernel>(__FILE__, __LINE__,     \
                                                     __PRETTY_FUNCTION__)

/* Code may test for the emulator. cuemu-cc defines __CUDACC__, __NVCC__
 * and __CUDACC_VER_*__ on its command line, and __CUDA_ARCH__ in the
 * device pass only (as nvcc does); a host compiler including these headers
 * directly (a .cpp file) defines none of them. */
#define __CUEMU__ 1

/* nvcc's traits of extended lambdas (--extended-lambda, which defines
 * __CUDACC_EXTENDED_LAMBDA__) are in cuemu_extended_lambda.h, with the
 * closure types they tell apart: C++ declarations, which this header,
 * force-included again when the translated unit is compiled, cannot hold. */

#endif /* CUEMU_QUALIFIERS_H */
