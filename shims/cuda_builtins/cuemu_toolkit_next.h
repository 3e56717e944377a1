/*
 * cuemu_toolkit_next.h: goes on to the header CUEMU_TOOLKIT_NEXT ("name.h":
 * a string, which no macro of the user's changes) of NVIDIA's toolkit, the
 * next one of that name on the include path.
 *
 * The toolkit's library headers (cuBLAS's, cuFFT's, cuSOLVER's, NVBLAS's)
 * include the runtime's type headers by quotes ("driver_types.h",
 * "cuComplex.h", "library_types.h"), which the compiler looks for first in
 * the toolkit's own folder: in a .cpp file that includes one of them
 * before <cuda_runtime.h>, NVIDIA's types would come first and the shims'
 * would then clash with them. A shim of the same name (cublas_v2.h, ...)
 * therefore includes the shims' versions of the headers its toolkit header
 * includes, whose include guards are CUDA's, and then this header, which
 * goes on to the toolkit's: it finds the types in. Reached again through
 * the #include_next (the cuemu toolkit's include folder links each shim),
 * a shim passes on at once (CUEMU_TOOLKIT_PASSING).
 *
 * Not guarded: each shim includes it once, with its own CUEMU_TOOLKIT_NEXT
 * (without one, it does nothing).
 */
#ifndef CUEMU_TOOLKIT_NEXT
#elif !__has_include_next(CUEMU_TOOLKIT_NEXT)
#error "cuemu: this header is the CUDA toolkit's (see the include stack): no CUDA toolkit's include folder was found (--cuda-path, $CUDA_HOME, $CUDA_PATH, the nvcc on $PATH, /usr/local/cuda), or put it on the include path (e.g. -isystem /usr/local/cuda/include)"
#else
#define CUEMU_TOOLKIT_PASSING
#include_next CUEMU_TOOLKIT_NEXT
#undef CUEMU_TOOLKIT_PASSING
#endif
#undef CUEMU_TOOLKIT_NEXT
