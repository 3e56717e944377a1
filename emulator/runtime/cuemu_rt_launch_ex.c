/*
 * cuemu_rt_launch_ex.c: cudaLaunchKernelEx: a launch configuration with
 * attributes (see cuemu_runtime_host.h). Each attribute CUDA 13 defines is
 * validated as CUDA does and then either changes the launch request of the
 * one launch path (cooperative, cluster dimension) or is accepted as what
 * it means on an emulator where a stream's operations run one after the
 * other as they are issued:
 *
 * - programmatic stream serialization: the launch may overlap with the
 *   previous kernel of the stream, which has already finished, so
 *   cudaGridDependencySynchronize() returns at once;
 * - programmatic and launch-completion events: recorded when the kernel
 *   has finished, which is after every block triggered or began;
 * - priority, access-policy window, synchronization policy, memory sync
 *   domain (map), cluster scheduling policy, preferred cluster dimension
 *   (the regular cluster is used, as CUDA may), shared memory carveout and
 *   NVLink-centric scheduling: hints that change no result.
 */
#include <cuemu/cuemu_device_runtime.h>
#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_host.h>
#include <cuemu/cuemu_runtime_streams.h>

#include "device/cuemu_device_launch.h"
#include "device/cuemu_device_model.h"
#include "device/cuemu_functions.h"
#include "device/cuemu_handles.h"
#include "runtime/cuemu_rt_internal.h"

/* The events to record once the kernel has run. */
typedef struct launch_events {
  void *event[2];
  int count;
} launch_events;

/* An event of the programmatic or launch-completion attributes: a live
 * event that does not time (cudaEventDisableTiming) and is no interprocess
 * event. */
static int check_event(void *event) {
  cuemu_handle_state state;
  if (!event || !cuemu__handle_get(CUEMU_HANDLE_EVENT, event, &state))
    return cudaErrorInvalidResourceHandle;
  if (!(state.flags & 0x02u) || (state.flags & 0x04u))
    return cudaErrorInvalidValue;
  return 0;
}

/* A preferred cluster: a whole multiple of the regular cluster in each
 * dimension, dividing the grid. */
static int check_preferred(cuemu_dim3 p, cuemu_dim3 c, cuemu_dim3 g) {
  if (!c.x || !c.y || !c.z)
    return cudaErrorInvalidValue;
  if (!p.x || !p.y || !p.z || p.x % c.x || p.y % c.y || p.z % c.z ||
      g.x % p.x || g.y % p.y || g.z % p.z)
    return cudaErrorInvalidClusterSize;
  return 0;
}

/* Applies one attribute to the request; 0 or a CUDA error. */
static int apply(const cudaLaunchAttribute *a, cuemu_launch_request *r,
                 launch_events *events, cuemu_dim3 *preferred) {
  const cudaLaunchAttributeValue *v = &a->val;
  switch (a->id) {
  case cudaLaunchAttributeIgnore:
    return 0;
  case cudaLaunchAttributeAccessPolicyWindow:
    return cuemu__rt_check_access_policy(&v->accessPolicyWindow);
  case cudaLaunchAttributeCooperative:
    r->cooperative = v->cooperative != 0;
    return 0;
  case cudaLaunchAttributeSynchronizationPolicy:
    return cuemu__rt_check_sync_policy(v->syncPolicy);
  case cudaLaunchAttributeClusterDimension:
    r->cluster = (cuemu_dim3){v->clusterDim.x, v->clusterDim.y,
                              v->clusterDim.z};
    return 0;
  case cudaLaunchAttributeClusterSchedulingPolicyPreference:
    return v->clusterSchedulingPolicyPreference >=
                       cudaClusterSchedulingPolicyDefault &&
                   v->clusterSchedulingPolicyPreference <=
                       cudaClusterSchedulingPolicyLoadBalancing
               ? 0
               : cudaErrorInvalidValue;
  case cudaLaunchAttributeProgrammaticStreamSerialization:
  case cudaLaunchAttributePriority:
    return 0;
  case cudaLaunchAttributeProgrammaticEvent:
  case cudaLaunchAttributeLaunchCompletionEvent: {
    void *event = a->id == cudaLaunchAttributeProgrammaticEvent
                      ? (void *)v->programmaticEvent.event
                      : (void *)v->launchCompletionEvent.event;
    int code = check_event(event);
    if (!code && events->count < 2)
      events->event[events->count++] = event;
    return code;
  }
  case cudaLaunchAttributeMemSyncDomainMap:
    return cuemu__rt_check_domain_map(v->memSyncDomainMap);
  case cudaLaunchAttributeMemSyncDomain:
    return cuemu__rt_check_sync_domain(v->memSyncDomain);
  case cudaLaunchAttributePreferredClusterDimension:
    *preferred = (cuemu_dim3){v->preferredClusterDim.x,
                              v->preferredClusterDim.y,
                              v->preferredClusterDim.z};
    return 0;
  case cudaLaunchAttributeDeviceUpdatableKernelNode:
    /* Only for kernel nodes of graphs: a launch into a stream that is not
     * capturing is an error, as in CUDA. */
    return cudaErrorInvalidValue;
  case cudaLaunchAttributePreferredSharedMemoryCarveout:
    return v->sharedMemCarveout <= 100 ? 0 : cudaErrorInvalidValue;
  case cudaLaunchAttributeNvlinkUtilCentricScheduling:
    return v->nvlinkUtilCentricScheduling <= 1 ? 0 : cudaErrorInvalidValue;
  default:
    return cudaErrorInvalidValue;
  }
}

int cuemu__rt_launch_attr_check(const cudaLaunchAttribute *a) {
  cuemu_launch_request r = {0};
  launch_events events = {{0, 0}, 0};
  cuemu_dim3 preferred = {0, 0, 0};
  return apply(a, &r, &events, &preferred);
}

__thread const cudaLaunchAttribute *cuemu__rt_launch_attrs;
__thread unsigned cuemu__rt_launch_nattrs;

int cuemu_rt_launch_kernel_ex(const void *function,
                              const cuemu_kernel_desc *fallback,
                              cuemu_uint3 grid, cuemu_uint3 block,
                              size_t dynamic_shared, void *stream,
                              const cudaLaunchAttribute *attrs,
                              unsigned nattrs, void **args, int *status) {
  if (status)
    *status = CUEMU_SUCCESS;
  if (nattrs && !attrs)
    return cuemu_rt_error(cudaErrorInvalidValue);
  cuemu_launch_request r =
      cuemu__rt_request(grid, block, dynamic_shared, stream, args);
  launch_events events = {{0, 0}, 0};
  cuemu_dim3 preferred = {0, 0, 0};
  for (unsigned i = 0; i < nattrs; ++i) {
    int code = apply(&attrs[i], &r, &events, &preferred);
    if (code)
      return cuemu_rt_error(code);
  }
  if (preferred.x || preferred.y || preferred.z) {
    int code = check_preferred(preferred, r.cluster, r.grid);
    if (code)
      return cuemu_rt_error(code);
  }
  cuemu__rt_launch_attrs = attrs;
  cuemu__rt_launch_nattrs = nattrs;
  int code = cuemu__rt_launch(function, fallback, &r, status);
  cuemu__rt_launch_attrs = NULL;
  cuemu__rt_launch_nattrs = 0;
  if (code)
    return code;
  for (int i = 0; i < events.count; ++i)
    cuemu_rt_event_record(events.event[i], stream);
  return cudaSuccess;
}

int cuemu_rt_occupancy_clusters(int *out, const void *function, int known,
                                cuemu_uint3 block, size_t dynamic_shared,
                                const cudaLaunchAttribute *attrs,
                                unsigned nattrs, int active) {
  if (!out || (nattrs && !attrs))
    return cuemu_rt_error(cudaErrorInvalidValue);
  unsigned long long threads = (unsigned long long)block.x * block.y * block.z;
  if (threads == 0 || threads > 0x7fffffff)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int per_sm = 0;
  int code = cuemu_rt_occupancy_max_active_blocks(
      &per_sm, function, (int)threads, dynamic_shared, 0, known);
  if (code)
    return code;
  const cuemu_device_model *m = cuemu__device_model();
  unsigned most = cuemu__function_cluster_nonportable(function)
                      ? m->max_cluster_nonportable
                      : m->max_cluster_portable;
  unsigned long long resident = (unsigned long long)per_sm * m->sms;
  if (!active) {
    /* The cluster dimensions of the configuration are ignored. */
    *out = m->major < 9 ? 0 : (int)(resident < most ? resident : most);
    return cudaSuccess;
  }
  unsigned long long size = 0;
  for (unsigned i = 0; i < nattrs; ++i)
    if (attrs[i].id == cudaLaunchAttributeClusterDimension)
      size = (unsigned long long)attrs[i].val.clusterDim.x *
             attrs[i].val.clusterDim.y * attrs[i].val.clusterDim.z;
  cuemu_uint3 compiled;
  if (size == 0 && cuemu_kernel_get_cluster_dims(function, &compiled))
    size = (unsigned long long)compiled.x * compiled.y * compiled.z;
  if (size == 0 || size > most || m->major < 9)
    return cuemu_rt_error(cudaErrorInvalidClusterSize);
  *out = (int)(resident / size);
  return cudaSuccess;
}
