/*
 * cuemu_toolkit.h: the parts of the user's CUDA toolkit that cuemu-cc
 * uses, and what they ask of the host compiler. Internal to libcuemu.
 *
 * cuemu-cc never compiles against the toolkit's own runtime headers (the
 * shims replace cuda_runtime.h and its friends), but it does use the
 * toolkit's CCCL (CUB, Thrust and libcu++, under include/cccl since CUDA
 * 13), as nvcc puts it on the include path. See docs/cccl.md.
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

/* Non-zero when the make-style dependency file `depfile` lists a header of
 * CUB or Thrust, which g++ 12 refuses to compile (CUB declares
 * `using X = X<...>;` inside classes, which g++ rejects as "changes
 * meaning" unless given -fpermissive, which would also quietly accept
 * other errors): the compile then uses clang++. */
int cuemu__deps_need_clang(const char *depfile);

/* The message printed when g++ was chosen explicitly for such a unit. */
#define CUEMU_CLANG_HINT                                                       \
  "CUB and Thrust need clang++ (g++ 12 rejects their `using X = X<...>;` "     \
  "members); cuemu-cc picks clang++ itself unless a compiler is chosen "       \
  "(--cxx, -ccbin, $CXX): see docs/cccl.md"

#endif /* CUEMU_TOOLKIT_H */
