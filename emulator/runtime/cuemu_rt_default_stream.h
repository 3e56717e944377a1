/*
 * cuemu_rt_default_stream.h: what stream 0 names. By default it is the
 * legacy default stream; in a program built with
 * `--default-stream per-thread` (CUDA_API_PER_THREAD_DEFAULT_STREAM, which
 * the shims turn into a call of cuemu_rt_default_stream_per_thread() when
 * the program starts) it is the calling host thread's default stream, as
 * cudaStreamPerThread is. Internal to libcuemu; host code, any thread.
 */
#ifndef CUEMU_RT_DEFAULT_STREAM_H
#define CUEMU_RT_DEFAULT_STREAM_H

/* `stream`, with stream 0 replaced by cudaStreamPerThread when the
 * program uses per-thread default streams. */
void *cuemu__stream_resolve(void *stream);

#endif /* CUEMU_RT_DEFAULT_STREAM_H */
