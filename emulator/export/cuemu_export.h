/*
 * cuemu_export.h: which functions and variables libcuemu exports.
 *
 * libcuemu is compiled with -fvisibility=hidden, and this header is
 * force-included (-include) into each of its C files before anything else.
 * It declares the installed headers of emulator/include/cuemu/ with default
 * visibility, so that exactly what they declare is exported: the public API
 * and the kernel ABI (cuemu_device.h) that the shims and the code generated
 * by cuemu-cc call. Everything else, and in particular every cuemu__
 * function, stays inside the library. The version script beside this file
 * (libcuemu.map) is the explicit list of what may be exported, and
 * tests/exports.sh fails when libcuemu exports anything outside it.
 *
 * A new installed header must be added here, or its functions are hidden
 * (a program using them then fails to link, with an undefined reference).
 *
 * The checkers' files (emulator/check/, appended to libcuemu_la_SOURCES by
 * checkers.am) are compiled with default visibility instead: they define
 * the entry points whose names the compilers' instrumentation fixes
 * (__tsan_*, __ubsan_handle_*, __wrap_mem*), and the version script keeps
 * their other functions local.
 */
#ifndef CUEMU_EXPORT_H
#define CUEMU_EXPORT_H

#ifndef __ASSEMBLER__

/* Being included first, this header would settle glibc's feature macros
 * before a file's own `#define _GNU_SOURCE`; every file of libcuemu
 * therefore gets it here (an identical later definition is harmless). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#pragma GCC visibility push(default)
#include <cuemu/cuemu.h>
#include <cuemu/cuemu_cache.h>
#include <cuemu/cuemu_device.h>
#include <cuemu/cuemu_warp_step.h>
#include <cuemu/cuemu_device_runtime.h>
#include <cuemu/cuemu_driver_api.h>
#include <cuemu/cuemu_instances.h>
#include <cuemu/cuemu_driver_graph.h>
#include <cuemu/cuemu_driver_library.h>
#include <cuemu/cuemu_driver_link.h>
#include <cuemu/cuemu_external.h>
#include <cuemu/cuemu_host_ids.h>
#include <cuemu/cuemu_pool_ipc.h>
#include <cuemu/cuemu_stream_memops.h>
#include <cuemu/cuemu_vmm.h>
#include <cuemu/cuemu_nvrtc.h>
#include <cuemu/cuemu_rt_errors.h>
#include <cuemu/cuemu_rt_types.h>
#include <cuemu/cuemu_runtime_graph.h>
#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_peer.h>
#include <cuemu/cuemu_runtime_streams.h>
#include <cuemu/cuemu_runtime_host.h>
#include <cuemu/cuemu_rt_texture.h>
#include <cuemu/cuemu_texture_direct.h>
#include <cuemu/cuemu_rt_array_async.h>
#include <cuemu/cuemu_rt_memcpy_batch.h>
#include <cuemu/cuemu_rt_graph_mem.h>
#include <cuemu/cuemu_address_space.h>
#include <cuemu/cuemu_status.h>
#include <cuemu/cuemu_libdevice.h>
#pragma GCC visibility pop

#endif /* __ASSEMBLER__ */

#endif /* CUEMU_EXPORT_H */
