/*
 * cuemu_default_stream.h: `--default-stream per-thread`. nvcc defines
 * CUDA_API_PER_THREAD_DEFAULT_STREAM for such a program, and CUDA's
 * headers then pick entry points for which stream 0 is the calling host
 * thread's default stream. Here a translation unit built so tells libcuemu
 * when the program starts (docs/streams.md): from then on stream 0 is
 * cudaStreamPerThread in every call, the driver API's included.
 */
#ifndef CUEMU_DEFAULT_STREAM_H
#define CUEMU_DEFAULT_STREAM_H

#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
#include <cuemu/cuemu_runtime_streams.h>

namespace cuemu_detail {
/* Set before main() runs (one per translation unit; all set the same). */
__attribute__((unused)) static const int default_stream_per_thread =
    (cuemu_rt_default_stream_per_thread(), 1);
} // namespace cuemu_detail
#endif

#endif /* CUEMU_DEFAULT_STREAM_H */
