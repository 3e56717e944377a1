/*
 * cuemu_toolkit.h: the parts of the user's CUDA toolkit that cuemu-cc
 * uses, and what they ask of the host compiler. Internal to libcuemu.
 *
 * cuemu-cc never compiles against the toolkit's own runtime headers (the
 * shims replace cuda_runtime.h and its friends, and come first), but it
 * does use the toolkit's CCCL (CUB, Thrust and libcu++, under include/cccl
 * since CUDA 13) and the rest of its include folder (the libraries'
 * headers, cuda_pipeline.h, nvtx3/...), as nvcc puts them on the include
 * path. See docs/cccl.md.
 */
#ifndef CUEMU_TOOLKIT_H
#define CUEMU_TOOLKIT_H

#include <stddef.h>

/* Finds the CCCL headers of the toolkit in use, as nvcc's users expect it
 * to be found: `cuda_path` (cuemu-cc's --cuda-path) when not NULL, else
 * $CUDA_HOME, else $CUDA_PATH, else the folder above the `nvcc` found on
 * $PATH, else /usr/local/cuda. Writes TOOLKIT/include/cccl into out and
 * returns 1 when that folder holds cub/ or cuda/std/; returns 0 otherwise
 * (a toolkit without CCCL there: Debian's libcub-dev and libthrust-dev,
 * in the compiler's own include path, are then what <cub/...> finds). */
int cuemu__toolkit_cccl(const char *cuda_path, char *out, size_t cap);

/* Finds the include folder of NVIDIA's own runtime headers, which compile
 * as C (cuemu's shims are C++): TOOLKIT/include with cuda_runtime_api.h
 * and crt/host_config.h, for the first TOOLKIT of `cuda_path`, $CUDA_HOME,
 * $CUDA_PATH, the folder above the `nvcc` on $PATH and /usr/local/cuda
 * that has them. Writes it into out and returns 1; returns 0 when none
 * has. cuemu-nvcc compiles a .c file against it, as nvcc does, and the
 * C symbols of libcuemu_cudart.so serve its calls (docs/runtime.md). */
int cuemu__toolkit_c_headers(const char *cuda_path, char *out, size_t cap);

/* The toolkit's include folder (cuemu__toolkit_c_headers()) that a C++
 * compile searches after the user's folders and the shims, as nvcc always
 * searches its own (so <cublas_v2.h>, <curand_kernel.h>,
 * <cuda_pipeline.h> and <nvtx3/...> are found without -I): writes it into
 * out and returns 1, unless there is none or one of the include options
 * among argv[0..argc) names that folder already (the user's -I or
 * -isystem keeps its place). */
int cuemu__toolkit_include(const char *cuda_path, int argc,
                           const char *const *argv, char *out, size_t cap);

/* Where a unit's CCCL headers come from (cuemu__cccl_headers()). */
enum cuemu_cccl_source {
  CUEMU_CCCL_NONE = 0,    /* no CCCL anywhere */
  CUEMU_CCCL_TOOLKIT = 1, /* the toolkit's include/cccl (above) */
  CUEMU_CCCL_DEBIAN = 2   /* Debian's libcub-dev / libthrust-dev */
};

/* The folder of the CCCL headers a unit gets: the toolkit's (as
 * cuemu__toolkit_cccl()), else Debian's libcub-dev and libthrust-dev in
 * $CUEMU_DEBIAN_CCCL_DIR (default /usr/include: cub/cub.cuh or
 * thrust/version.h there). Writes the folder to put on the include path
 * into out ("" for /usr/include, which the compiler searches already). */
enum cuemu_cccl_source cuemu__cccl_headers(const char *cuda_path, char *out,
                                           size_t cap);

/* The note printed when a unit that includes CCCL headers (`cub/`,
 * `thrust/`, `cuda/std/`, ...) fails to compile and none were found. */
#define CUEMU_NO_CCCL_NOTE                                                       "no CUB/Thrust/libcu++ headers were found: no CUDA toolkit with "             "include/cccl (--cuda-path, $CUDA_HOME, $CUDA_PATH, the nvcc on $PATH, "       "/usr/local/cuda) and no Debian libcub-dev or libthrust-dev (in "              "/usr/include, or $CUEMU_DEBIAN_CCCL_DIR); see docs/cccl.md"

/* Non-zero when the source text includes a header of CCCL. */
int cuemu__source_includes_cccl(const char *text, size_t size);

/* Non-zero when the make-style dependency file `depfile` lists a header of
 * CUB or Thrust, or CUTLASS's or CuTe's own (`cutlass/cutlass.h`,
 * `cute/config.hpp`, which all of theirs include), which g++ 12 refuses to
 * compile (they declare `using X = X<...>;` inside classes, which g++
 * rejects as "changes meaning" unless given -fpermissive, which would also
 * quietly accept other errors): the compile then uses clang++. */
int cuemu__deps_need_clang(const char *depfile);

/* "CUB", "Thrust" or "libcu++" when the make-style dependency file
 * `depfile` lists a header of that part of CCCL, else NULL (the host pass
 * of such a unit reads the whole shim prelude). */
const char *cuemu__deps_cccl_library(const char *depfile);

/* The macro that cuemu-nvcc defines when -std names a dialect older than
 * C++14 (compiled as C++14): its value is the dialect's year ("11"). */
#define CUEMU_OLD_DIALECT_MACRO "CUEMU_REQUESTED_DIALECT"

/* The header that cuemu-nvcc then force-includes before everything else,
 * the user's -include options included
 * (shims/cuda_builtins/cuemu_old_dialect.h). nvcc force-includes
 * cuda_runtime.h after the headers of -Xcompiler -include and before those
 * of its own -include (--pre-include), so that these may use CUDA's types
 * and CCCL's headers find the toolkit's version: cuemu-nvcc passes that
 * place to cuemu_compile() (cuemu_compile_options.runtime_header_at). */
#define CUEMU_OLD_DIALECT_HEADER "cuemu_old_dialect.h"

/* Non-zero when the folder `dir` holds a CUDA toolkit's own runtime
 * headers (cuda_runtime_api.h) and is not cuemu's shims folder `shims`:
 * Makefiles pass -I$(CUDA_DIR)/include, which with nvcc names the headers
 * nvcc uses anyway; cuemu's shims replace those headers, so cuemu-nvcc
 * names the shims with -I just before the first such folder. The folder
 * keeps its -I and its place among the user's, as with nvcc: its other
 * headers (nvtx3/) are found there before those of later folders and are
 * listed by -M; and /usr/include (Debian's toolkit) stays a system folder
 * (GCC ignores -I of one), so libstdc++'s #include_next still works. */
int cuemu__toolkit_headers_dir(const char *dir, const char *shims);

/* Non-zero when the folder `dir` is cuemu's own toolkit include folder
 * (cuemu-toolkit/include, emulator/export/toolkit.am), whose headers are
 * links to the shims in `shims`: FindCUDA's CUDA_INCLUDE_DIRS and
 * CUDA::cudart name it. cuemu-nvcc searches the shims in its place, since
 * a shim's #include_next (<cuda/barrier> reaching CCCL's) found through
 * that folder would find the same shim again, behind its include guard,
 * instead of the header after it. */
int cuemu__toolkit_shim_links_dir(const char *dir, const char *shims);

/* The macro that cuemu-nvcc defines for
 * -device-entity-has-hidden-visibility=false: the unit's kernels and
 * device variables keep default visibility (cuemu_compile.c). */
#define CUEMU_VISIBLE_DEVICE_MACRO "CUEMU_VISIBLE_DEVICE_ENTITIES"

/* The message printed when g++ was chosen explicitly for such a unit. */
#define CUEMU_CLANG_HINT                                                       \
  "CUB, Thrust and CUTLASS need clang++ (g++ 12 rejects their `using X = X<...>;` "     \
  "members); cuemu-cc picks clang++ itself unless a compiler other than "      \
  "g++ is chosen (--cxx, -ccbin, $CXX): see docs/cccl.md"

#endif /* CUEMU_TOOLKIT_H */
