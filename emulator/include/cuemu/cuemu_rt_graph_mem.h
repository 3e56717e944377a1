/*
 * cuemu_rt_graph_mem.h: a device's graph memory (the memory of graphs'
 * allocation nodes): cudaDeviceGetGraphMemAttribute,
 * cudaDeviceSetGraphMemAttribute and cudaDeviceGraphMemTrim, and the
 * driver's cuDeviceGetGraphMemAttribute, cuDeviceSetGraphMemAttribute and
 * cuDeviceGraphMemTrim. Implemented by
 * emulator/runtime/cuemu_rt_graph_memory.c.
 *
 * The counters, as CUDA defines them: used memory is the memory of the
 * device's graph allocations that an executable graph holds or that are
 * allocated (their node ran and nothing freed them yet); reserved memory
 * is used memory and the memory that executable graphs held and that no
 * cudaDeviceGraphMemTrim has given back since (it stays reserved after the
 * executable graph, and even the graph, is destroyed). The high marks are
 * the most each has been since they were last reset.
 */
#ifndef CUEMU_RT_GRAPH_MEM_H
#define CUEMU_RT_GRAPH_MEM_H

#ifdef __cplusplus
extern "C" {
#endif

/* `attribute` is a cudaGraphMemAttributeType: UsedMemCurrent (0),
 * UsedMemHigh (1), ReservedMemCurrent (2), ReservedMemHigh (3). Returns a
 * CUDA code: cudaErrorInvalidDevice, cudaErrorInvalidValue. */
int cuemu_rt_device_get_graph_mem_attribute(int device, int attribute,
                                            unsigned long long *value);

/* Resets a high mark (UsedMemHigh or ReservedMemHigh; *value must be 0)
 * to the current value. */
int cuemu_rt_device_set_graph_mem_attribute(int device, int attribute,
                                            const unsigned long long *value);

/* Gives back the device's reserved graph memory that is not used. */
int cuemu_rt_device_graph_mem_trim(int device);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_RT_GRAPH_MEM_H */
