/*
 * cuemu_kernel_thunks.h: the generated side of kernels: per-kernel thunks that run
 * a range of a block's threads, parameter descriptors, and the launchers
 * that `kernel<<<grid, block, shmem, stream>>>(args)` is rewritten into.
 *
 * cuemu-cc rewrites a launch of a kernel it knows by name into
 *   ::cuemu::launch_static<CUEMU_KERNEL_ARGS(kernel)>(grid, block, shmem,
 *                                                   stream)(args)
 * whose thunk inlines the kernel into the loop over threads, and any other
 * launch (through a function pointer, say) into
 *   ::cuemu::launch_dynamic(pointer, grid, block, shmem, stream)(args)
 * which finds the kernel's thunk in the program's registry or, failing that,
 * calls the kernel through the pointer.
 */
#ifndef CUEMU_KERNEL_THUNKS_H
#define CUEMU_KERNEL_THUNKS_H
/* A system header: its C++17 forms that C++14 accepts (if constexpr, inline
 * variables, fold expressions) give no warning in a C++14 build of a .cpp
 * file (docs/dialects.md). */
#pragma GCC system_header

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <tuple>

#include "cuemu_optimized.h"

/* Whether kernels are named from a __cuemu_demangled type (kernel_name()):
 * clang++ with RTTI. */
#if defined(__clang__) && defined(__GXX_RTTI)
#define CUEMU_KERNEL_NAME_DEMANGLED 1
#endif
#ifdef CUEMU_KERNEL_NAME_DEMANGLED
#include <cxxabi.h>
#include <typeinfo>
#endif
#include <type_traits>
#include <utility>

#include <cuemu/cuemu_device.h>

#include "cuda_runtime_api.h"
#include "cuemu_builtin_vars.h"
#include "vector_types.h"

/* CUEMU_STATIC_SHARED_NOTE, what cuemu-cc adds after a static __shared__
 * declaration in a kernel, is in cuemu_qualifiers.h. */
#include "cuemu_qualifiers.h"

/* Marks a template of the shims that is instantiated per kernel (it takes
 * the kernel as a template argument) or holds a function-local static: its
 * instances belong to the module (program or shared library) that
 * instantiates them. A shared library built by cuemu-nvcc -shared hides
 * its kernels, as nvcc 12.8 and later do; without this mark, g++ still
 * exports the guard variable of such a static (as a GNU unique symbol) while
 * the variable itself is hidden, so a second library with a kernel of the
 * same name and type, or a copy of the library loaded after dlclose, took
 * the first one's guard and launched through a null descriptor or the
 * first library's kernel. The mark also keeps the library unloadable. */
#define CUEMU_PER_MODULE __attribute__((visibility("hidden")))

namespace cuemu {

/* The type of a kernel cast, `(TYPE)(ADDRESS)`: the parameter of the
 * function type that CUEMU_KERNEL_CAST_ARGS (cuemu_qualifiers.h) writes,
 * so that a type with commas stays one macro argument there. */
template <typename F_> struct kernel_cast_type;
template <typename P_> struct kernel_cast_type<void(P_)> {
  typedef P_ type;
};

/* What a launch keeps for an lvalue reference parameter (`S &s`): the
 * object's address, as nvcc passes it (its host stub takes the argument's
 * address and the parameter is a 64-bit pointer), so that the kernel reads
 * and writes the caller's object (in managed memory, say), not a copy. One
 * pointer, laid out as nvcc's parameter: cudaLaunchKernel's args[i] for it
 * points to the address. */
template <typename T> struct by_reference {
  T *address;
  by_reference(T &object) : address(&object) {}
  operator T &() const { return *address; }
};

/* The value a launch keeps for a parameter of type P. */
template <typename P_> struct param_value { using type = std::decay_t<P_>; };
template <typename T> struct param_value<T &> { using type = by_reference<T>; };
template <typename P_> using param_value_t = typename param_value<P_>::type;

/* A kept value as the kernel's call takes it: the object itself for a
 * by_reference, else the value (a kernel template launched with deduced
 * arguments is called with these, and deduces from them). */
template <typename T> struct is_by_reference : std::false_type {};
template <typename T>
struct is_by_reference<by_reference<T>> : std::true_type {};
template <typename U>
__attribute__((always_inline)) inline decltype(auto) kept_argument(U &__cuemu_u) {
  if constexpr (is_by_reference<U>::value)
    return *__cuemu_u.address;
  else
    return (__cuemu_u);
}

/* The parameter types of a kernel's function type. */
template <typename F_> struct kernel_traits;
template <typename... P_> struct kernel_traits<void (*)(P_...)> {
  using values = std::tuple<param_value_t<P_>...>;
  static constexpr std::size_t count = sizeof...(P_);
};
/* A noexcept kernel (its type differs from C++17 on). */
#if defined(__cpp_noexcept_function_type)
template <typename... P_>
struct kernel_traits<void (*)(P_...) noexcept> : kernel_traits<void (*)(P_...)> {};
#endif

/* A name built piece by piece, in memory that it keeps for the program's
 * life (the names of kernels and parameter types). C's realloc, which the
 * device pass does not rename to the device heap's, rather than
 * std::string: <string> alone is a sixth of what each pass of a translation
 * unit parses (bench/RESULTS.md). */
struct name_text {
  char *data = nullptr;
  std::size_t length = 0;
  void add(const char *s, std::size_t n) {
    char *grown = static_cast<char *>(std::realloc(data, length + n + 1));
    if (!grown)
      return;
    data = grown;
    std::memcpy(data + length, s, n);
    length += n;
    data[length] = '\0';
  }
  void add(const char *s) { add(s, std::strlen(s)); }
  const char *c_str() const { return data ? data : ""; }
};

/* Adds the n characters of a name at `at`. A kernel of an unnamed
 * namespace keeps the name that cuemu gives that namespace
 * ("cuemu_unnamed_" and the unit's key: CUEMU_UNNAMED_NAMESPACE,
 * cuemu_driver.h): the name is the instance's identity too, and the
 * instances of two units' (or two shared libraries') unnamed namespaces
 * are two kernels (trialpyext's ctypes libraries, one unloaded). */
inline void __cuemu_add_name(name_text &__cuemu_out, const char *at,
                             std::size_t n) {
  __cuemu_out.add(at, n);
}

/* Adds the text between `tag` ("T = ") and the closing bracket of
 * __PRETTY_FUNCTION__ (or its `;`), without a leading `&`; all of `pretty`
 * when the tag is missing. */
inline void pretty_argument(name_text &__cuemu_out, const char *pretty,
                            const char *tag) {
  const char *at = std::strstr(pretty, tag);
  if (!at) {
    __cuemu_out.add(pretty);
    return;
  }
  at += std::strlen(tag);
  const char *end = std::strrchr(pretty, ']');
  const char *semi = std::strchr(at, ';');
  if (semi && (!end || semi < end))
    end = semi;
  std::size_t n = end && end >= at ? static_cast<std::size_t>(end - at)
                                   : std::strlen(at);
  if (n && *at == '&') {
    ++at;
    --n;
  }
  __cuemu_add_name(__cuemu_out, at, n);
}

/* The C++ name of a type, spelled the same by every compiler: fundamental
 * types as in the C standard ("unsigned long long"), pointers as "T *",
 * qualifiers first ("const float *"); other types as the compiler names
 * them. */
template <typename T> struct type_spelling {
  static void add(name_text &__cuemu_out) {
    pretty_argument(__cuemu_out, __PRETTY_FUNCTION__, "T = ");
  }
};
#define CUEMU_TYPE_SPELLING_(type)                                             \
  template <> struct type_spelling<type> {                                     \
    static void add(name_text &__cuemu_out) { __cuemu_out.add(#type); }                        \
  };
CUEMU_TYPE_SPELLING_(void)
CUEMU_TYPE_SPELLING_(bool)
CUEMU_TYPE_SPELLING_(char)
CUEMU_TYPE_SPELLING_(signed char)
CUEMU_TYPE_SPELLING_(unsigned char)
CUEMU_TYPE_SPELLING_(short)
CUEMU_TYPE_SPELLING_(unsigned short)
CUEMU_TYPE_SPELLING_(int)
CUEMU_TYPE_SPELLING_(unsigned int)
CUEMU_TYPE_SPELLING_(long)
CUEMU_TYPE_SPELLING_(unsigned long)
CUEMU_TYPE_SPELLING_(long long)
CUEMU_TYPE_SPELLING_(unsigned long long)
CUEMU_TYPE_SPELLING_(float)
CUEMU_TYPE_SPELLING_(double)
CUEMU_TYPE_SPELLING_(long double)
CUEMU_TYPE_SPELLING_(wchar_t)
CUEMU_TYPE_SPELLING_(char16_t)
CUEMU_TYPE_SPELLING_(char32_t)
#undef CUEMU_TYPE_SPELLING_
template <typename T> struct type_spelling<const T> {
  static void add(name_text &__cuemu_out) {
    __cuemu_out.add("const ");
    type_spelling<T>::add(__cuemu_out);
  }
};
template <typename T> struct type_spelling<volatile T> {
  static void add(name_text &__cuemu_out) {
    __cuemu_out.add("volatile ");
    type_spelling<T>::add(__cuemu_out);
  }
};
template <typename T> struct type_spelling<const volatile T> {
  static void add(name_text &__cuemu_out) {
    __cuemu_out.add("const volatile ");
    type_spelling<T>::add(__cuemu_out);
  }
};
template <typename T> struct type_spelling<T *> {
  static void add(name_text &__cuemu_out) {
    type_spelling<T>::add(__cuemu_out);
    __cuemu_out.add(__cuemu_out.length && __cuemu_out.data[__cuemu_out.length - 1] == '*' ? "*" : " *");
  }
};

template <typename T> struct type_spelling<by_reference<T>> {
  static void add(name_text &__cuemu_out) {
    type_spelling<T>::add(__cuemu_out);
    __cuemu_out.add(" &");
  }
};

template <typename T> name_text spelled() {
  name_text n;
  type_spelling<T>::add(n);
  return n;
}
template <typename T> CUEMU_PER_MODULE const char *type_name() {
  static const name_text name = spelled<T>();
  return name.c_str();
}

/* The name of a kernel given as a template argument. */
inline name_text kernel_argument(const char *pretty) {
  name_text n;
  pretty_argument(n, pretty, "K_ = ");
  return n;
}

#ifdef CUEMU_KERNEL_NAME_DEMANGLED
/* clang++ (which compiles the units that include CCCL) names a function
 * given as a template argument without its template arguments and its
 * inline namespaces (`&tk` for tk<int>, `&a::versioned` for
 * a::v2::versioned<float>), so there the name comes from the mangled name
 * of a type that holds the kernel, demangled ("__cuemu_kernel_tag<void
 * (*)(int*), &(void tk<int>(int*))>"): the kernel's name is what follows
 * "&(" after the tag's first argument, less the return type and the
 * parameters. */
template <typename KT, KT K_> struct __cuemu_kernel_tag {};

/* Adds the kernel's name in `text`, the demangled name of a
 * __cuemu_kernel_tag; false where it is not of that form. */
inline bool __cuemu_kernel_tag_name(name_text &__cuemu_out, const char *text) {
  const char *at = std::strchr(text, '<');
  int depth = 0;
  for (; at && *at; ++at) { /* to the comma after the tag's first argument */
    if (*at == '<' || *at == '(')
      ++depth;
    else if (*at == '>' || *at == ')')
      --depth;
    else if (*at == ',' && depth == 1)
      break;
  }
  if (!at || std::strncmp(at, ", &(", 4) != 0)
    return false;
  at += 4;
  const char *end = at + std::strlen(at);
  if (end - at < 2 || std::strcmp(end - 2, ")>") != 0)
    return false;
  end -= 2; /* after the parameter list */
  if (std::strncmp(at, "void ", 5) == 0) /* a template's instance */
    at += 5;
  depth = 0;
  while (end > at) { /* back to the parameter list's '(' */
    --end;
    if (*end == ')')
      ++depth;
    else if (*end == '(' && --depth == 0)
      break;
  }
  if (end <= at || *end != '(')
    return false;
  __cuemu_add_name(__cuemu_out, at, static_cast<std::size_t>(end - at));
  return true;
}

/* The kernel's name from the mangled name of its __cuemu_kernel_tag, or
 * from __PRETTY_FUNCTION__ where that cannot be demangled. */
inline name_text __cuemu_kernel_tag_argument(const char *__cuemu_mangled,
                                             const char *pretty) {
  name_text n;
  int status = -1;
  char *text = abi::__cxa_demangle(__cuemu_mangled, nullptr, nullptr, &status);
  if (status != 0 || !text || !__cuemu_kernel_tag_name(n, text))
    pretty_argument(n, pretty, "K_ = ");
  /* realloc, not free, which the device pass renames to the device
   * heap's (as name_text does). */
  if (text)
    text = static_cast<char *>(std::realloc(text, 0));
  return n;
}
template <typename KT, KT K_> CUEMU_PER_MODULE const char *kernel_name() {
  static const name_text name = __cuemu_kernel_tag_argument(
      typeid(__cuemu_kernel_tag<KT, K_>).name(), __PRETTY_FUNCTION__);
  return name.c_str();
}
#else
template <typename KT, KT K_> CUEMU_PER_MODULE const char *kernel_name() {
  static const name_text name = kernel_argument(__PRETTY_FUNCTION__);
  return name.c_str();
}
#endif

/* Makes the compiler store threadIdx to memory here, even when the inlined
 * kernel keeps it in a register: the fault handler and gdb read the real
 * variable. It does not stop the kernel from using the register copy. */
#define CUEMU_PUBLISH_THREAD_IDX() __asm__ volatile("" : : "m"(threadIdx))

/* Between two emulated threads of a racecheck build: a compiler barrier,
 * so that no access of one thread is merged with another's, or removed
 * because another's makes it dead (a barrier-free kernel is inlined into
 * the loop over its threads, and at -O2 the stores of every thread to one
 * __shared__ variable became the last thread's one store: a race that
 * racecheck never saw). Elsewhere the compiler may optimize across
 * threads, which only ever removes accesses that a race would make
 * meaningless. */
#ifdef CUEMU_CHECK_ENTRY_RACE
#define CUEMU_THREAD_BOUNDARY() __asm__ volatile("" : : : "memory")
#else
#define CUEMU_THREAD_BOUNDARY() ((void)0)
#endif

/* Writes threadIdx.x, .y or .z (`c` 0, 1 or 2) for the thread about to
 * run. Where threadIdx is declared const (cuemu_builtin_vars.h), the store
 * goes through a cast, and the checkers' instrumentation, which leaves
 * read-only objects alone, does not see it: it is the thunk's bookkeeping,
 * no access of the kernel's. */
template <int c>
__attribute__((always_inline)) inline void set_thread_idx(unsigned v) {
  uint3 &t = const_cast<uint3 &>(threadIdx);
  (c == 0 ? t.x : c == 1 ? t.y : t.z) = v;
}

/* Whether the thread that just returned is one that blocked once (it must
 * finish on its own stack; its runner's range of threads went on
 * elsewhere). A plain load: an assembler compare and branch (asm goto) is
 * one instruction less per thread, but g++ then no longer unswitches the
 * loop on a kernel's invariant barrier condition, and a kernel with a
 * __syncthreads() that most blocks never reach costs twice the
 * barrier-free one (bench row 1, saxpy_rare_barrier_over_barrier_free).
 * Where no call that could block precedes it (a barrier-free kernel
 * inlined whole, or the barrier-free copy of an unswitched loop), cuemu's
 * GCC plugin makes this read 0 (emulator/compile/cuemu_gcc_plugin_detached.cc),
 * which g++ cannot conclude itself: any store of the kernel might have
 * written the flag (-fno-strict-aliasing).
 * In a checked build for x86-64 the load is an assembler move, which the
 * instrumentation does not see: as a plain load it was a third checker call
 * per thread of a saxpy (through every range of cuemu_check_fast_decide()
 * to the skipped built-ins), for the thunk's own bookkeeping. The move
 * names the variable as its input, so g++ orders it after the kernel's
 * calls (a barrier, cuemu_thread_finish) that may change it. */
__attribute__((always_inline)) inline bool thread_detached() {
#if defined(CUEMU_CHECKED_BUILD) && defined(__x86_64__)
  int detached;
  __asm__("movl %1, %0" : "=r"(detached) : "m"(cuemu_thread_detached));
  return detached;
#else
  return cuemu_thread_detached;
#endif
}

/* Runs threads [start, start + count) of the current block with `fn`.
 *
 * A one-dimensional block whose global indices blockIdx.x * blockDim.x +
 * threadIdx.x all fit in an int (every grid of fewer than 2^31 threads)
 * runs as a loop over that index `g`, a signed int that cannot overflow
 * there, and gives the kernel threadIdx.x = g - blockIdx.x * blockDim.x.
 * The kernel's own `int i = blockIdx.x * blockDim.x + threadIdx.x` then
 * folds to g ((b - a) + a is b in unsigned arithmetic), and g++ knows that
 * the 64-bit address of x[i] steps by one element per thread: one
 * induction variable and no sign extension per thread, where the loop over
 * threadIdx.x left the index's 32-bit sum free to wrap, so that its
 * conversion to int and then to a 64-bit offset was redone for every thread
 * beside a second induction variable (bench/RESULTS.md, "saxpy3"). The
 * test is on the 32-bit range [base + start, base + start + count), base
 * being the product blockIdx.x * blockDim.x modulo 2^32: 2-D and 3-D
 * blocks, and blocks whose range reaches past INT_MAX (its end is past
 * INT_MAX, so its last index is INT_MAX or more), take the general loop.
 * A block whose product wraps past 2^32 back below 2^31 takes the loop
 * over global indices, with the wrapped indices a GPU computes. */
template <typename Fn, typename Values, std::size_t... I_>
__attribute__((always_inline)) inline void
run_threads(Fn fn, Values &v, unsigned start, unsigned count,
            std::index_sequence<I_...>) {
  const unsigned __cuemu_bx = blockDim.x, __cuemu_by = blockDim.y;
  /* The first global index of the block as the kernel computes it
   * (modulo 2^32, as its own product is). */
  const unsigned base = blockIdx.x * __cuemu_bx;
  const unsigned long long __cuemu_last =
      static_cast<unsigned long long>(base) + start + count;
  if (__cuemu_by == 1 && blockDim.z == 1 && __cuemu_last <= 0x7fffffffu) {
    set_thread_idx<1>(0);
    set_thread_idx<2>(0);
    /* Unrolled so that the loop's own bookkeeping costs less per thread
     * of a barrier-free kernel inlined here. */
#pragma GCC unroll 4
    for (int __cuemu_g = static_cast<int>(base + start),
             g_end = static_cast<int>(__cuemu_last);
         __cuemu_g < g_end; ++__cuemu_g) {
      set_thread_idx<0>(static_cast<unsigned>(__cuemu_g) - base);
      CUEMU_PUBLISH_THREAD_IDX();
      fn(std::get<I_>(v)...);
      CUEMU_THREAD_BOUNDARY();
      if (thread_detached())
        cuemu_thread_finish();
    }
    return;
  }
  unsigned x = start % __cuemu_bx, rest = start / __cuemu_bx, y = rest % __cuemu_by, z = rest / __cuemu_by;
  for (unsigned __cuemu_i = 0; __cuemu_i < count; ++__cuemu_i) {
    set_thread_idx<0>(x);
    set_thread_idx<1>(y);
    set_thread_idx<2>(z);
    CUEMU_PUBLISH_THREAD_IDX();
    fn(std::get<I_>(v)...);
    CUEMU_THREAD_BOUNDARY();
    if (thread_detached())
      cuemu_thread_finish();
    if (++x == __cuemu_bx) {
      x = 0;
      if (++y == __cuemu_by) {
        y = 0;
        ++z;
      }
    }
  }
}

/* Argument `i` of a launch's argument array. In a checked build the copy
 * is made out of line, where the instrumentation does not see it: the array
 * is the runtime's, and reading it is the thunk's bookkeeping, no access of
 * the kernel's (a thread that starts after others blocked runs a thunk of
 * its own, so a barrier kernel unpacks its arguments once per thread). */
#ifdef CUEMU_CHECKED_BUILD
template <typename T>
__attribute__((noinline, visibility("hidden"),
               no_sanitize("thread", "bounds"))) T
arg_value(void **args, std::size_t __cuemu_i) {
  return *static_cast<T *>(args[__cuemu_i]);
}
#else
template <typename T>
__attribute__((always_inline)) inline T &arg_value(void **args,
                                                   std::size_t __cuemu_i) {
  return *static_cast<T *>(args[__cuemu_i]);
}
#endif

template <typename Values, std::size_t... I_>
inline Values unpack(void **args, std::index_sequence<I_...>) {
  return Values(arg_value<std::tuple_element_t<I_, Values>>(args, I_)...);
}

/* Kernel K's address, from a function whose own address is a constant of
 * the object (it is hidden), for records in data. */
template <typename KT, KT K_>
CUEMU_PER_MODULE const void *kernel_identity() {
  return reinterpret_cast<const void *>(K_);
}

/* The thunk of a kernel known at compile time: the kernel is inlined into
 * the loop over threads where the compiler sees fit. */
template <typename KT, KT K_>
CUEMU_PER_MODULE void thunk(void **args, unsigned start, unsigned count) {
  using traits = kernel_traits<KT>;
  using seq = std::make_index_sequence<traits::count>;
  typename traits::values v =
      unpack<typename traits::values>(args, seq());
  run_threads(K_, v, start, count, seq());
}

/* The thunk of a kernel reached through a pointer, passed in args[count]. */
template <typename F_> void thunk_pointer(void **args, unsigned start,
                                         unsigned count) {
  using traits = kernel_traits<F_>;
  using seq = std::make_index_sequence<traits::count>;
  F_ fn = reinterpret_cast<F_>(args[traits::count]);
  typename traits::values v =
      unpack<typename traits::values>(args, seq());
  run_threads(fn, v, start, count, seq());
}

} // namespace cuemu

/* Parameters of classes with a user copy constructor or destructor. */
#include "cuemu_kernel_params.h"

namespace cuemu {

/* The parameter descriptor of a kernel type. */
template <typename F_> struct param_table;
template <typename... P_> struct param_table<void (*)(P_...)> {
  CUEMU_PER_MODULE static const cuemu_param_desc *get() {
    static const cuemu_param_desc table[sizeof...(P_) + 1] = {
        {type_name<param_value_t<P_>>(), sizeof(param_value_t<P_>),
         alignof(param_value_t<P_>)}...,
        {nullptr, 0, 0}};
    return table;
  }
};
/* A noexcept kernel (its type differs from C++17 on). */
#if defined(__cpp_noexcept_function_type)
template <typename... P_>
struct param_table<void (*)(P_...) noexcept> : param_table<void (*)(P_...)> {};
#endif

/* The values of a kernel's __launch_bounds__(max threads, min blocks per
 * SM, max blocks per cluster), for its descriptor. */
struct bounds {
  unsigned max_threads, min_blocks;
  unsigned cluster[3] = {0, 0, 0}; /* __cluster_dims__; 0: none */
  bool __cuemu_launches = false; /* the kernel's body launches grids */
  constexpr bounds with_cluster(unsigned x, unsigned y = 1,
                                unsigned z = 1) const {
    bounds b = *this;
    b.cluster[0] = x;
    b.cluster[1] = y;
    b.cluster[2] = z;
    return b;
  }
  constexpr bounds __cuemu_with_launches() const {
    bounds b = *this;
    b.__cuemu_launches = true;
    return b;
  }
};
constexpr bounds launch_bounds(unsigned max_threads, unsigned min_blocks = 0,
                               unsigned max_cluster_blocks = 0) {
  return (void)max_cluster_blocks,
         bounds{max_threads, min_blocks, {0, 0, 0}, false};
}

/* One record of the section `cuemu_static_shared`: a static __shared__
 * variable of `bytes` bytes declared in `kernel`'s body
 * (CUEMU_STATIC_SHARED_NOTE, cuemu_qualifiers.h). */
struct static_shared_record {
  const void *(*kernel)(); /* kernel_identity<KT, K> */
  unsigned long long id;
  std::size_t bytes;
};

/* One record of the section `cuemu_static_shared_calls`, which cuemu-cc
 * writes after a device pass's compile (cuemu__elf_shared_calls(),
 * cuemu_elf_instances.c): a static __shared__ variable of `bytes` bytes
 * declared in a function that `function` (a kernel, or another global
 * function) can call. */
struct __cuemu_static_shared_call {
  const void *function;
  unsigned long long id;
  std::size_t bytes;
};
extern "C" const __cuemu_static_shared_call __start_cuemu_static_shared_calls[]
    __attribute__((weak, visibility("hidden")));
extern "C" const __cuemu_static_shared_call __stop_cuemu_static_shared_calls[]
    __attribute__((weak, visibility("hidden")));

/* Tells libcuemu the records of a program's or module's section (what its
 * generated code does when it is loaded), and those of its kernels'
 * callees. */
inline void declare_static_shared(const static_shared_record *start,
                                  const static_shared_record *stop) {
  for (const static_shared_record *__cuemu_r = start; __cuemu_r && __cuemu_r < stop; ++__cuemu_r)
    cuemu_kernel_declare_static_shared(__cuemu_r->kernel(), __cuemu_r->id, __cuemu_r->bytes);
  for (const __cuemu_static_shared_call *__cuemu_c = __start_cuemu_static_shared_calls;
       __cuemu_c && __cuemu_c < __stop_cuemu_static_shared_calls; ++__cuemu_c)
    if (__cuemu_c->function) /* a function the link left out (weak) */
      cuemu_kernel_declare_static_shared(__cuemu_c->function, __cuemu_c->id,
                                         __cuemu_c->bytes);
}

/* Tracks the device passes' string literals of a program (the section
 * cuemu-cc gives them; empty when there are none) as device memory, once. */
inline void declare_device_strings(const char *start, const char *stop) {
  cuemu_rt_allocation known;
  if (start && stop > start && !cuemu_rt_memory_find(start, &known))
    cuemu_rt_memory_track(const_cast<char *>(start),
                          static_cast<std::size_t>(stop - start),
                          CUEMU_RT_MEMORY_SYMBOL);
}

/* A kernel's descriptor, for a module's table or a program's registry. */
template <typename KT, KT K_>
CUEMU_PER_MODULE cuemu_kernel_desc describe(const char *name, const char *file, int line,
                           bounds b = bounds{0, 0}) {
  using F_ = KT;
  cuemu_kernel_desc d;
  /* An NVRTC name expression may name a __device__ or __constant__
   * variable ("&V1"): its entry has no thunk and holds the variable's
   * address, which nvrtcGetLoweredName names; it is not a kernel. */
  if constexpr (!std::is_function<
                    typename std::remove_pointer<KT>::type>::value) {
    std::memset(&d, 0, sizeof d);
    d.name = name;
    d.function = static_cast<const void *>(K_);
    d.file = file;
    d.line = line;
    (void)b;
    return d;
  } else {
  d.name = name;
  d.thunk = kernel_thunk<KT, K_>();
  d.function = reinterpret_cast<const void *>(K_);
  d.param_count = static_cast<int>(kernel_traits<F_>::count);
  d.params = param_table<F_>::get();
  d.file = file;
  d.line = line;
  d.max_threads = b.max_threads;
  d.min_blocks = b.min_blocks;
  d.static_shared = 0;
  if (b.cluster[0])
    cuemu_kernel_set_cluster_dims(d.function, b.cluster[0], b.cluster[1],
                                  b.cluster[2]);
  if (b.__cuemu_launches)
    cuemu_kernel_set_launches_grids(d.function);
#ifdef __CUDA_ARCH__
  /* In a device pass, the kernel's mark in the section
   * `cuemu_kernel_marks` (a record of three words, as those of
   * `cuemu_static_shared`, whose first names the kernel through
   * kernel_identity), which cuemu-cc reads after the pass's compile to
   * hold each kernel to nvcc's limit on static shared memory, its callees'
   * included (cuemu__elf_shared_calls()); the program keeps them, unread
   * (a few bytes a kernel, where objcopy would cost every compile). Here
   * and not in the thunk, whose asm statements would keep the GCC
   * plugin's detached pass from running the kernel's threads without the
   * blocked-thread test (tests/programs_saxpy.sh). */
  __asm__(".pushsection cuemu_kernel_marks,\"aw\"\n\t.balign "
          CUEMU_INSTANCE_DATA_ "%c0, 0, 0\n\t.popsection"
          :
          : "i"(&::cuemu::kernel_identity<KT, K_>));
#endif
#if !CUEMU_OPTIMIZED
  /* Code compiled at -O0 (-g, -G) needs larger stacks. */
  cuemu_kernel_set_unoptimized(d.function);
#endif
  return d;
  }
}

template <typename KT, KT K_> CUEMU_PER_MODULE const cuemu_kernel_desc *static_desc() {
  static const cuemu_kernel_desc d =
      describe<KT, K_>(kernel_name<KT, K_>(), "", 0);
  return &d;
}

/* The descriptor of a kernel of type F reached through a pointer, which
 * its launch passes after the parameters: named `name`. */
template <typename F_>
CUEMU_PER_MODULE cuemu_kernel_desc __cuemu_pointer_desc_named(const char *name) {
  cuemu_kernel_desc __cuemu_r;
  __cuemu_r.name = name;
  __cuemu_r.thunk = pointer_thunk<F_>();
  __cuemu_r.function = nullptr;
  __cuemu_r.param_count = static_cast<int>(kernel_traits<F_>::count);
  __cuemu_r.params = param_table<F_>::get();
  __cuemu_r.file = "";
  __cuemu_r.line = 0;
  __cuemu_r.max_threads = 0;
  __cuemu_r.min_blocks = 0;
  __cuemu_r.static_shared = 0;
  return __cuemu_r;
}

template <typename F_> CUEMU_PER_MODULE const cuemu_kernel_desc *pointer_desc() {
  static const cuemu_kernel_desc d =
      __cuemu_pointer_desc_named<F_>("(kernel called through a pointer)");
  return &d;
}

#if defined(CUEMU_HOST_PASS)
/* The descriptor of a kernel that the device pass has not registered (yet:
 * launch_static, below): its thunk calls the
 * kernel through its address, as that of a kernel reached through a
 * pointer does (the launch passes the address after the parameters, and
 * the descriptor names no function, so that a graph keeps it there too),
 * under the kernel's own name. One thunk per kernel type, not one per
 * kernel, whose instances the host pass would compile for every kernel
 * it launches (bench/RESULTS.md, "compile cost per kernel"). */
template <typename F_>
const cuemu_kernel_desc *__cuemu_unmatched_desc(const char *name) {
  cuemu_kernel_desc *d =
      static_cast<cuemu_kernel_desc *>(std::malloc(sizeof *d));
  if (!d)
    return pointer_desc<F_>();
  *d = __cuemu_pointer_desc_named<F_>(name);
  return d;
}
#endif

/* The object a rewritten <<<...>>> returns; calling it launches
 * (launch_by_value, cuemu_kernel_params.h, calls forwarded() or, for a
 * kernel with a parameter kept as its bytes, launch_pointers()). */
template <typename F_> class launcher;
template <typename... P_>
class launcher<void (*)(P_...)>
    : public launch_by_value<launcher<void (*)(P_...)>, void (*)(P_...)> {
  friend struct launch_by_value<launcher, void (*)(P_...)>;

public:
  launcher(const cuemu_kernel_desc *desc, void *fn, dim3 __cuemu_grid, dim3 __cuemu_block,
           std::size_t __cuemu_shmem, cudaStream_t stream)
      : desc_(desc), fn_(fn), grid_(__cuemu_grid), block_(__cuemu_block), shmem_(__cuemu_shmem),
        stream_(stream) {}

  /* The launch in kernel code (cuemu_launch_rewrite.c), whose checks see
   * the kernel's parameter types (device_side_launcher). */
  auto device_side() const { return device_side_launcher<launcher>(*this); }
  template <typename... A_>
  using device_params = typename abi_traits<void (*)(P_...)>::params;
  template <typename... A_> void device_call(A_ &&...args) const {
    forwarded(std::forward<A_>(args)...);
  }

  /* The launch with arguments forwarded (a deduced launch's). */
  template <typename... A_> void forwarded(A_ &&...args) const {
    static_assert(sizeof...(A_) == sizeof...(P_),
                  "wrong number of arguments in a kernel launch");
    /* Only the assertion above is reported for a wrong count, not the
     * errors of building the arguments that would follow it. */
    if constexpr (sizeof...(A_) == sizeof...(P_)) {
      forward_adapted(std::index_sequence_for<A_...>(),
                      std::forward<A_>(args)...);
    }
  }

private:
  /* The arguments as launch_argument() passes them (a null pointer
   * constant for a pointer parameter becomes the null pointer). */
  template <std::size_t... I_, typename... A_>
  void forward_adapted(std::index_sequence<I_...>, A_ &&...args) const {
#if defined(CUEMU_HOST_PASS)
    __cuemu_host_pass_launch(desc_);
#else
    if (cuemu_thread_in_kernel()) { /* a launch from kernel code */
      device_side_launch<void (*)(P_...)>(
          desc_, fn_, grid_, block_, shmem_, stream_,
          launch_argument<P_>(std::forward<A_>(args), desc_,
                              static_cast<int>(I_) + 1)...);
      return;
    }
#endif
    host_launch(launch_argument<P_>(std::forward<A_>(args), desc_,
                                    static_cast<int>(I_) + 1)...);
  }
#if defined(CUEMU_HOST_PASS)
  /* The launch's values are this function's parameters, made from the
   * arguments as a call of nvcc's stub makes them: one function per
   * kernel type, where a tuple of them instantiated some thirty (the host
   * pass compiles every instance, at -O0 too). */
  void host_launch(launch_value_t<P_>... values) const {
    void *ptrs[sizeof...(P_) + 1] = {static_cast<void *>(&values)..., fn_};
    launch_pointers(ptrs);
  }
#else
  /* Out of line, so that the values it keeps (maybe big) are in no frame
   * of a launch from kernel code. */
  template <typename... A_>
  __attribute__((noinline)) void host_launch(A_ &&...args) const {
    std::tuple<launch_value_t<P_>...> values(std::forward<A_>(args)...);
    call(values, std::make_index_sequence<sizeof...(P_)>());
  }
#endif
  template <typename Values, std::size_t... I_>
  void call(Values &values, std::index_sequence<I_...>) const {
    void *ptrs[sizeof...(P_) + 1] = {static_cast<void *>(&std::get<I_>(values))...,
                                    fn_};
    launch_pointers(ptrs);
  }
  void launch_pointers(void **ptrs) const {
    cuemu_uint3 __cuemu_g = {grid_.x, grid_.y, grid_.z};
    cuemu_uint3 b = {block_.x, block_.y, block_.z};
    cuemu_rt_record_launch(cuemu_program_launch(desc_, __cuemu_g, b, shmem_, stream_, ptrs));
  }

  const cuemu_kernel_desc *desc_;
  void *fn_;
  dim3 grid_, block_;
  std::size_t shmem_;
  cudaStream_t stream_;
};

template <typename KT, KT K_>
CUEMU_PER_MODULE launcher<KT> launch_static(dim3 __cuemu_grid, dim3 __cuemu_block,
                                    std::size_t __cuemu_shmem = 0,
                                    cudaStream_t stream = nullptr) {
  heap_bypass bypass;
#if defined(CUEMU_HOST_PASS)
  /* nvcc's host pass (cuemu-cc defines CUEMU_HOST_PASS there): K is the
   * device pass's kernel (the host pass's definition is weak), and its
   * descriptor is the one the device pass registered (its table's, or a
   * template instance's record), whose thunk inlines the kernel. A unit
   * registers its kernels in its last static initializer: a kernel launched
   * before (from the constructor of a global object of the unit) runs
   * through a thunk that calls it through its address
   * (__cuemu_unmatched_desc), and is looked up again at its next launch,
   * so that the launches after the registration have its descriptor. */
  static const cuemu_kernel_desc *__cuemu_registered;
  const cuemu_kernel_desc *desc = __atomic_load_n(&__cuemu_registered, __ATOMIC_ACQUIRE);
  if (!desc) {
    desc = cuemu_program_find(reinterpret_cast<const void *>(K_));
    if (desc) {
      __atomic_store_n(&__cuemu_registered, desc, __ATOMIC_RELEASE);
    } else {
      static const cuemu_kernel_desc *const __cuemu_unmatched =
          __cuemu_unmatched_desc<KT>(kernel_name<KT, K_>());
      desc = __cuemu_unmatched;
    }
  }
#else
  const cuemu_kernel_desc *desc = static_desc<KT, K_>();
#endif
  return launcher<KT>(desc, reinterpret_cast<void *>(K_), __cuemu_grid, __cuemu_block,
                               __cuemu_shmem, stream);
}

/* The launcher of a launch whose arguments cuemu-cc checked by a call of
 * the kernel in an unevaluated operand, written where the launch is
 * (`__cuemu_launch_checked<sizeof((k(args), 0))>(launch_static<...>(config))
 * (args)`, cuemu_launch_rewrite.c): a wrong argument is then the host compiler's
 * error about that call at the user's line ("cannot convert 'float*' to
 * 'int*'", "too few arguments to function"), as nvcc reports it about the
 * launch. A variable template, so that g++ says no more than that its
 * argument is invalid, and instantiates no launcher with the arguments. */
struct __cuemu_launch_checked_fn {
  template <typename L_> const L_ &operator()(const L_ &launcher) const {
    return launcher;
  }
};
template <std::size_t __cuemu_checked>
inline constexpr __cuemu_launch_checked_fn __cuemu_launch_checked{};
/* A launch whose callee is a function the translation does not know as a
 * kernel (a host function: nvcc's "a host function call cannot be
 * configured") names this type, complete only for callees that are no
 * functions (pointers to kernels), in a sizeof written at the launch: the
 * error is the host compiler's "incomplete type" at the user's line. */
template <bool __cuemu_is_function>
struct __cuemu_a_host_function_call_cannot_be_configured;
template <> struct __cuemu_a_host_function_call_cannot_be_configured<false> {};

/* launch_static of the kernel that a constant names (a kernel_constant,
 * cuemu_kernel_overloads.h): the constant's template argument, which C++14
 * takes as a template argument where it takes no constant's ::value. A
 * launch of a kernel of the unit names it so (`launch_constant(
 * cuemu_kernel_constant_k{}, grid, block)`, cuemu_launch_rewrite.c). */
template <typename KT, KT K_>
CUEMU_PER_MODULE launcher<KT> launch_constant(std::integral_constant<KT, K_>, dim3 __cuemu_grid,
                             dim3 __cuemu_block, std::size_t __cuemu_shmem = 0,
                             cudaStream_t stream = nullptr) {
  return launch_static<KT, K_>(__cuemu_grid, __cuemu_block, __cuemu_shmem, stream);
}

template <typename... P_>
launcher<void (*)(P_...)> launch_dynamic(void (*fn)(P_...), dim3 __cuemu_grid,
                                        dim3 __cuemu_block, std::size_t __cuemu_shmem = 0,
                                        cudaStream_t stream = nullptr) {
  using F_ = void (*)(P_...);
  heap_bypass bypass;
  const cuemu_kernel_desc *d =
      cuemu_program_find(reinterpret_cast<const void *>(fn));
  if (!d)
    d = pointer_desc<F_>();
  return launcher<F_>(d, reinterpret_cast<void *>(fn), __cuemu_grid, __cuemu_block, __cuemu_shmem,
                     stream);
}

/* The thunk of a kernel template launched with deduced template arguments:
 * args[0] is the tuple of argument values, args[1] the lambda that calls
 * the kernel with them (and so deduces its template arguments). */
template <typename L_, typename Values>
CUEMU_PER_MODULE void thunk_deduced(void **args, unsigned start, unsigned count) {
  Values v = *static_cast<Values *>(args[0]);
  L_ &body = *static_cast<L_ *>(args[1]);
  auto call = [&body](auto &...kept) { body(kept_argument(kept)...); };
  run_threads(call, v, start, count,
              std::make_index_sequence<std::tuple_size<Values>::value>());
}

/* `picked`: the kernel that the lambda calls, when known (launch_picked),
 * whose name, place and attributes the launch takes. */
template <typename L_, typename Values>
CUEMU_PER_MODULE const cuemu_kernel_desc *deduced_desc(const char *name, const void *picked) {
  static const cuemu_kernel_desc d = [name, picked] {
    cuemu_kernel_desc __cuemu_r;
    __cuemu_r.name = name;
    __cuemu_r.thunk = &thunk_deduced<L_, Values>;
    __cuemu_r.function = nullptr;
    __cuemu_r.param_count = 0;
    __cuemu_r.params = nullptr;
    __cuemu_r.file = "";
    __cuemu_r.line = 0;
    __cuemu_r.max_threads = 0;
    __cuemu_r.min_blocks = 0;
    __cuemu_r.static_shared = 0;
    if (const cuemu_kernel_desc *__cuemu_k =
            picked ? cuemu_program_find(picked) : nullptr) {
      __cuemu_r.name = __cuemu_k->name;
      __cuemu_r.file = __cuemu_k->file;
      __cuemu_r.line = __cuemu_k->line;
      __cuemu_r.max_threads = __cuemu_k->max_threads;
      __cuemu_r.min_blocks = __cuemu_k->min_blocks;
      __cuemu_r.static_shared = __cuemu_k->static_shared;
    }
    return __cuemu_r;
  }();
  /* So that a graph can keep a copy of the arguments (the tuple) and of the
   * lambda (cuemu_runtime_graph.h); 0: they cannot be copied bytewise. */
  static const int noted = cuemu_rt_graph_note_deduced(
      &d,
      std::is_trivially_copy_constructible<Values>::value &&
              std::is_trivially_copy_constructible<L_>::value
          ? sizeof(Values)
          : 0,
      alignof(Values), sizeof(L_), alignof(L_));
  (void)noted;
  return &d;
}

/* What `tk<<<grid, block>>>(args)` becomes for a kernel template `tk`
 * whose template arguments are deduced from `args`. */
template <typename Set, typename... A_> const void *picked_kernel();
template <typename Set, typename... A_> auto picked_pointer();

/* The values a launch with deduced arguments keeps: by_reference for an
 * lvalue argument of a reference parameter of the kernel that the call
 * picks (F; std::nullptr_t when unknown), a __cuemu_null_or_integer for
 * an integer prvalue of a pointer parameter (a null pointer constant,
 * which the call of the kernel takes as the null pointer), else a copy. */
template <typename F_, typename Seq, typename... A_> struct deduced_values {
  using type = std::tuple<std::decay_t<A_>...>;
};
template <typename... P_, std::size_t... I_, typename... A_>
struct deduced_values<void (*)(P_...), std::index_sequence<I_...>, A_...> {
  using type = std::tuple<std::conditional_t<
      std::is_lvalue_reference<
          std::tuple_element_t<I_, std::tuple<P_...>>>::value &&
          std::is_lvalue_reference<A_>::value,
      by_reference<std::remove_reference_t<A_>>,
      std::conditional_t<
          integer_for_pointer<std::tuple_element_t<I_, std::tuple<P_...>>,
                              A_>::value,
          __cuemu_null_or_integer<std::remove_cv_t<A_>>, std::decay_t<A_>>>...>;
};
namespace overloads {
template <typename P_> struct by_picker;
}

template <typename L_, typename Set = void> class deduced_launcher {
public:
  deduced_launcher(const char *name, L_ body, dim3 __cuemu_grid, dim3 __cuemu_block,
                   std::size_t __cuemu_shmem, cudaStream_t stream)
      : name_(name), body_(body), grid_(__cuemu_grid), block_(__cuemu_block), shmem_(__cuemu_shmem),
        stream_(stream) {}

  /* The launch in kernel code (cuemu_launch_rewrite.c). */
  auto device_side() const {
    return device_side_launcher<deduced_launcher>(*this);
  }
  /* The parameter types of the kernel that the call picks, when cuemu
   * names it (else the arguments' types). */
  template <typename... A_>
  using device_params = typename picked_params<
      typename picked_constant<Set, A_...>::type, A_...>::type;
  template <typename... A_> void device_call(A_ &&...args) const {
    (*this)(std::forward<A_>(args)...);
  }

  template <typename... A_> void operator()(A_ &&...args) const {
    /* A kernel that the launch names (the instance the call picks) is
     * launched by name, as `k<T><<<...>>>` is: its descriptor is the
     * instance's, whose code is the picked pass's (a further device pass's
     * code takes its arguments as the instance's parameters, not as this
     * launch's tuple: docs/nvcc-checks.md), and a parameter passed by
     * address (cuemu_kernel_params.h) is processed as by name. A launch
     * that leaves parameters to their default arguments goes through its
     * tuple below, as before (`forwarded` wants every argument). */
    using Picked = typename picked_constant<Set, A_...>::type;
    if constexpr (!std::is_void<Picked>::value &&
                  std::tuple_size<typename picked_params<Picked, A_...>::type>::value ==
                      sizeof...(A_)) {
      launch_constant(Picked(), grid_, block_, shmem_, stream_)
          .forwarded(std::forward<A_>(args)...);
    } else {
      /* (Where cuemu cannot name the kernel, e.g. a kernel template of a
       * system header, an argument passed by address is copied into each
       * thread with its copy constructor: docs/kernel-parameters.md.) */
      using Values = typename deduced_values<
          decltype(picked_pointer<Set, A_...>()),
          std::index_sequence_for<A_...>, A_...>::type;
      Values values(std::forward<A_>(args)...);
      const cuemu_kernel_desc *desc = [this] {
        heap_bypass bypass;
        return deduced_desc<L_, Values>(name_, picked_kernel<Set, A_...>());
      }();
#if defined(CUEMU_HOST_PASS)
      __cuemu_host_pass_launch(desc);
#else
      if (cuemu_thread_in_kernel()) { /* a launch from kernel code */
        child_launch_deduced(desc, body_, grid_,
                             block_, shmem_, stream_, values);
        return;
      }
#endif
      void *ptrs[2] = {&values, const_cast<L_ *>(&body_)};
      cuemu_uint3 __cuemu_g = {grid_.x, grid_.y, grid_.z};
      cuemu_uint3 b = {block_.x, block_.y, block_.z};
      cuemu_rt_record_launch(
          cuemu_program_launch(desc, __cuemu_g, b, shmem_, stream_, ptrs));
    }
  }

private:
  const char *name_;
  L_ body_;
  dim3 grid_, block_;
  std::size_t shmem_;
  cudaStream_t stream_;
};

template <typename L_>
deduced_launcher<L_> launch_deduced(const char *name, L_ body, dim3 __cuemu_grid,
                                   dim3 __cuemu_block, std::size_t __cuemu_shmem = 0,
                                   cudaStream_t stream = nullptr) {
  return deduced_launcher<L_>(name, body, __cuemu_grid, __cuemu_block, __cuemu_shmem, stream);
}

/* launch_deduced() whose `pick` names the kernel that the call picks
 * (overloads::by_picker, cuemu_kernel_overloads.h), for its attributes. */
template <typename L_, typename P_>
deduced_launcher<L_, overloads::by_picker<P_>>
launch_deduced_with(const char *name, L_ body, P_, dim3 __cuemu_grid, dim3 __cuemu_block,
                    std::size_t __cuemu_shmem = 0, cudaStream_t stream = nullptr) {
  return deduced_launcher<L_, overloads::by_picker<P_>>(name, body, __cuemu_grid, __cuemu_block,
                                                      __cuemu_shmem, stream);
}

/* launch_deduced() for a kernel of the overload set `Set`
 * (overloads::candidates, cuemu_kernel_overloads.h). */
template <typename Set, typename L_>
deduced_launcher<L_, Set> launch_picked(const char *name, L_ body, dim3 __cuemu_grid,
                                       dim3 __cuemu_block, std::size_t __cuemu_shmem = 0,
                                       cudaStream_t stream = nullptr) {
  return deduced_launcher<L_, Set>(name, body, __cuemu_grid, __cuemu_block, __cuemu_shmem, stream);
}

} // namespace cuemu

#include "cuemu_kernel_instances.h"
#include "cuemu_kernel_overloads.h"

#endif /* CUEMU_KERNEL_THUNKS_H */
