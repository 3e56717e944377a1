/*
 * cuemu_rt_managed_guard.c: on a device without concurrent managed access
 * (CUEMU_DEVICE's cma=0), a host thread that touches managed memory after
 * launching a kernel and before synchronising faults on a GPU. cuemu's
 * kernels run in the same process, on other threads, so the memory itself
 * cannot be taken away; a protection key (Linux's pkeys, per thread) can:
 * managed memory attached globally gets a key of its own when such a
 * device exists, the launching thread loses access to that key when its
 * launch is issued and gets it back at its next synchronisation (any
 * cuemu__rt_sync_point: cudaDeviceSynchronize, cudaStreamSynchronize,
 * cudaEventSynchronize, cudaMemcpy, ...). Its touch is then a protection
 * fault, which the fault handler (cuemu_fault.c) hands here: the address,
 * the kernel and the device are reported and the program ends with the
 * segmentation fault a GPU's host gets. With synchronous streams
 * (CUEMU_STREAMS=sync) the kernel has run when its launch returns, but the
 * device is active to the host until it synchronises, as on a GPU: the
 * thread loses access then. A graph's launch with kernel nodes counts as
 * a launch. Without pkeys (the CPU or the kernel lacks them), nothing is
 * checked; nor are other host threads (a thread's access to a key is its
 * own), nor __managed__ variables (they share their pages with the
 * program's other variables, which a key would take away too).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/cuemu_config.h"
#include "core/cuemu_worker.h"
#include "device/cuemu_device_model.h"
#include "device/cuemu_handles.h"
#include "runtime/cuemu_rt_managed_guard.h"
#include "runtime/cuemu_rt_stream_queue.h"

/* The key: -2 not yet looked at, -1 none (no device lacks concurrent
 * managed access, or no pkeys). */
static atomic_int key = -2;
/* What the calling thread launched last while it had no access. */
static _Thread_local const char *denied_kernel;
static _Thread_local int denied_device = -1;

static int host_fault(void *address);

static int the_key(void) {
  int k = atomic_load(&key);
  if (k != -2)
    return k;
  int any = 0;
  for (int d = 0; d < cuemu__device_count(); ++d)
    any |= !cuemu__config_device_of(d)->concurrent_managed;
  k = any ? pkey_alloc(0, 0) : -1;
  int expected = -2;
  if (!atomic_compare_exchange_strong(&key, &expected, k)) {
    if (k >= 0)
      pkey_free(k);
    return expected;
  }
  if (k >= 0)
    cuemu__fault_set_host_hook(host_fault, k);
  return k;
}

static size_t pages(size_t size) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  return (size + page - 1) / page * page;
}

void cuemu__managed_guard_add(void *base, size_t size, int global) {
  int k = the_key();
  if (k >= 0 && global)
    pkey_mprotect(base, pages(size), PROT_READ | PROT_WRITE, k);
}

void cuemu__managed_guard_remove(void *base, size_t size) {
  if (atomic_load(&key) >= 0)
    pkey_mprotect(base, pages(size), PROT_READ | PROT_WRITE, 0);
}

void cuemu__managed_guard_before_launch(void) {
  int k = atomic_load(&key);
  if (k >= 0)
    pkey_set(k, 0); /* threads the launch starts inherit this */
}

void cuemu__managed_guard_after_launch(int device, const char *kernel) {
  int k = atomic_load(&key);
  if (k < 0 || device < 0 || device >= cuemu__device_count() ||
      cuemu__config_device_of(device)->concurrent_managed ||
      cuemu__stream_executing() || cuemu_thread_in_kernel())
    return;
  denied_kernel = kernel;
  denied_device = device;
  pkey_set(k, PKEY_DISABLE_ACCESS);
}

void cuemu__managed_guard_launched(void *stream, const char *kernel) {
  if (atomic_load(&key) < 0)
    return;
  cuemu__managed_guard_after_launch(
      cuemu__handle_is_default_stream(stream)
          ? cuemu__device_current()
          : cuemu__handle_stream_device(stream),
      kernel);
}

void cuemu__managed_guard_sync(void) {
  int k = atomic_load(&key);
  if (k >= 0 && denied_device >= 0) {
    denied_device = -1;
    pkey_set(k, 0);
  }
}

/* A protection-key fault of a host thread: ours when that thread has
 * launched on such a device since it last synchronised. */
static int host_fault(void *address) {
  if (denied_device < 0)
    return 0;
  char text[512];
  int n = snprintf(text, sizeof text,
                   "cuemu: the host touched managed memory at %p while "
                   "kernel %s, launched on device %d, may run: the device "
                   "has no concurrent managed access (CUEMU_DEVICE cma=0), "
                   "so the host must synchronise first (a GPU faults "
                   "here)\n",
                   address, denied_kernel ? denied_kernel : "?",
                   denied_device);
  if (n > 0)
    (void)!write(2, text, (size_t)n < sizeof text ? (size_t)n : sizeof text - 1);
  /* The access again, without a handler: the segmentation fault a GPU's
   * host gets. */
  signal(SIGSEGV, SIG_DFL);
  return 1;
}
