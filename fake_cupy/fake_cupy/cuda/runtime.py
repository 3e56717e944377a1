"""cupy.cuda.runtime of the fake CuPy: device queries, synchronization,
malloc/free and the memcpy/memset calls."""
import ctypes
import operator

from cuemu import _device
from fake_cupy import _runtime
from fake_cupy._errors import CUDARuntimeError

is_hip = False
cudaErrorInvalidValue = 1
cudaErrorInvalidDevice = 101
cudaErrorInvalidResourceHandle = 400
cudaErrorNotReady = 600


def getDeviceCount():
    """The number of emulated devices (CUEMU_DEVICE_COUNT, default 1)."""
    return _runtime.device_count()


def getDevice():
    return _runtime.current_device_id()


def setDevice(device):
    _runtime.Device(device).use()


def deviceSynchronize():
    _runtime.synchronize_all()


# cudaDeviceProp's fields that libcuemu's device describes, read from it.
_PROPERTIES = ("totalGlobalMem", "sharedMemPerBlock", "sharedMemPerBlockOptin",
               "sharedMemPerMultiprocessor", "regsPerBlock", "warpSize",
               "maxThreadsPerBlock", "maxThreadsPerMultiProcessor",
               "maxBlocksPerMultiProcessor", "clockRate", "totalConstMem",
               "major", "minor", "multiProcessorCount", "l2CacheSize",
               "memoryClockRate", "memoryBusWidth")


def getDeviceProperties(device):
    """A dict shaped like CuPy's, describing the emulated device (libcuemu's
    device model: CUEMU_DEVICE and CUEMU_SM_COUNT)."""
    if not 0 <= device < _runtime.device_count():
        raise CUDARuntimeError(101)
    props = {name: _device.get_property(name) for name in _PROPERTIES}
    props.update({
        "name": b"cuemu emulated device",
        "maxThreadsDim": tuple(_device.get_property(f"maxThreadsDim[{i}]")
                               for i in range(3)),
        "maxGridSize": tuple(_device.get_property(f"maxGridSize[{i}]")
                             for i in range(3)),
        "computeMode": 0,
        "concurrentKernels": 1,
        "pciBusID": device,
        "pciDeviceID": 0,
        "pciDomainID": 0,
        "cooperativeLaunch": 1,
        "managedMemory": 1,
        "unifiedAddressing": 1,
        "ECCEnabled": 0,
        "integrated": 0,
        "canMapHostMemory": 1,
        "uuid": bytes(16),
    })
    return props


# cudaDeviceAttr values (driver_types.h) -> the cudaDeviceProp field that
# holds the same number.
_ATTRIBUTES = {
    1: "maxThreadsPerBlock", 2: "maxThreadsDim[0]", 3: "maxThreadsDim[1]",
    4: "maxThreadsDim[2]", 5: "maxGridSize[0]", 6: "maxGridSize[1]",
    7: "maxGridSize[2]", 8: "sharedMemPerBlock", 9: "totalConstMem",
    10: "warpSize", 12: "regsPerBlock", 13: "clockRate",
    16: "multiProcessorCount", 36: "memoryClockRate", 37: "memoryBusWidth",
    38: "l2CacheSize", 39: "maxThreadsPerMultiProcessor", 75: "major",
    76: "minor", 81: "sharedMemPerMultiprocessor",
    97: "sharedMemPerBlockOptin", 106: "maxBlocksPerMultiProcessor",
}
_FIXED_ATTRIBUTES = {15: 0, 31: 1, 41: 1, 83: 1, 89: 1, 95: 1,
                     115: 1}    # cudaDevAttrMemoryPoolsSupported
# The names (driver_types.h, less the cudaDevAttr prefix) of the attributes
# above: runtime.cudaDevAttrNAME constants, and Device.attributes's keys.
_ATTRIBUTE_NAMES = {
    "MaxThreadsPerBlock": 1, "MaxBlockDimX": 2, "MaxBlockDimY": 3,
    "MaxBlockDimZ": 4, "MaxGridDimX": 5, "MaxGridDimY": 6, "MaxGridDimZ": 7,
    "MaxSharedMemoryPerBlock": 8, "TotalConstantMemory": 9, "WarpSize": 10,
    "MaxRegistersPerBlock": 12, "ClockRate": 13, "GpuOverlap": 15,
    "MultiProcessorCount": 16, "ConcurrentKernels": 31,
    "MemoryClockRate": 36, "GlobalMemoryBusWidth": 37, "L2CacheSize": 38,
    "MaxThreadsPerMultiProcessor": 39, "UnifiedAddressing": 41,
    "ComputeCapabilityMajor": 75, "ComputeCapabilityMinor": 76,
    "MaxSharedMemoryPerMultiprocessor": 81, "ManagedMemory": 83,
    "ConcurrentManagedAccess": 89, "CooperativeLaunch": 95,
    "MaxSharedMemoryPerBlockOptin": 97, "MaxBlocksPerMultiprocessor": 106,
    "MemoryPoolsSupported": 115,
}
globals().update({"cudaDevAttr" + name: code
                  for name, code in _ATTRIBUTE_NAMES.items()})


def deviceGetAttribute(attrib, device):
    """cudaDeviceGetAttribute from libcuemu's device model; an attribute
    the fake does not know raises cudaErrorInvalidValue."""
    if not 0 <= device < _runtime.device_count():
        raise CUDARuntimeError(101)
    if attrib in _ATTRIBUTES:
        return _device.get_property(_ATTRIBUTES[attrib])
    if attrib in _FIXED_ATTRIBUTES:
        return _FIXED_ATTRIBUTES[attrib]
    raise CUDARuntimeError(1)


cudaStreamDefault = 0
cudaStreamNonBlocking = 1
streamLegacy = 1
streamPerThread = 2
_streams = {}


def streamCreate():
    """cudaStreamCreate: the handle of a new blocking stream."""
    return streamCreateWithFlags(cudaStreamDefault)


def streamCreateWithFlags(flags):
    s = _runtime.Stream(non_blocking=bool(flags & cudaStreamNonBlocking))
    _streams[s.ptr] = s
    return s.ptr


def streamDestroy(stream):
    """cudaStreamDestroy: waits for the stream's work, then forgets it; an
    unknown handle raises cudaErrorInvalidResourceHandle."""
    s = _streams.pop(stream, None)
    if s is None:
        raise CUDARuntimeError(400)
    s.synchronize()


def streamSynchronize(stream):
    s = _streams.get(stream)
    if s is None:
        s = _runtime.ExternalStream(stream)
    s.synchronize()


def streamQuery(stream):
    s = _streams.get(stream) or _runtime.ExternalStream(stream)
    if not s.done:
        raise CUDARuntimeError(600)
    return 0


def _stream_of(handle):
    s = _streams.get(handle)
    return s if s is not None else _runtime.ExternalStream(handle)


# cudaEvent flags
eventDefault = 0
eventBlockingSync = 1
eventDisableTiming = 2
eventInterprocess = 4
_events = {}


def eventCreate():
    """cudaEventCreate: the handle of a new event."""
    return eventCreateWithFlags(eventDefault)


def eventCreateWithFlags(flags):
    e = _runtime.Event(block=bool(flags & eventBlockingSync),
                       disable_timing=bool(flags & eventDisableTiming),
                       interprocess=bool(flags & eventInterprocess))
    _events[e.ptr] = e
    return e.ptr


def _event(handle):
    e = _events.get(handle)
    if e is None:
        raise CUDARuntimeError(cudaErrorInvalidResourceHandle)
    return e


def eventDestroy(event):
    """cudaEventDestroy; an unknown handle is cudaErrorInvalidResourceHandle."""
    _event(event)
    del _events[event]


def eventRecord(event, stream):
    _event(event).record(_stream_of(stream))


def eventSynchronize(event):
    _event(event).synchronize()


def eventQuery(event):
    """cudaEventQuery: 0 when the event's work is done, else
    cudaErrorNotReady."""
    if not _event(event).done:
        raise CUDARuntimeError(cudaErrorNotReady)
    return 0


def eventElapsedTime(start, end):
    """cudaEventElapsedTime in milliseconds (an event without timing is
    cudaErrorInvalidResourceHandle, as in CUDA)."""
    return _runtime.get_elapsed_time(_event(start), _event(end))


def streamWaitEvent(stream, event, flags=0):
    """cudaStreamWaitEvent: the stream's later work waits for the event."""
    _stream_of(stream).wait_event(_event(event))


def deviceCanAccessPeer(device, peerDevice):
    """cudaDeviceCanAccessPeer: the emulated devices share the host's
    memory, so each reaches every other (not itself, as CUDA answers)."""
    count = getDeviceCount()
    if not (0 <= device < count and 0 <= peerDevice < count):
        raise CUDARuntimeError(cudaErrorInvalidDevice)
    return int(device != peerDevice)


# cudaMemoryType
memoryTypeUnregistered = 0
memoryTypeHost = 1
memoryTypeDevice = 2
memoryTypeManaged = 3


class PointerAttributes:
    """What cudaPointerGetAttributes answers: `type`, `device`,
    `devicePointer`, `hostPointer`."""

    def __init__(self, device, devicePointer, hostPointer, type):
        self.device, self.devicePointer = device, devicePointer
        self.hostPointer, self.type = hostPointer, type


def pointerGetAttributes(ptr):
    """cudaPointerGetAttributes: device (or managed) memory of the fake
    names its device; any other address is unregistered host memory."""
    from fake_cupy import _memory
    mem = _memory.owner_of(int(ptr))
    if mem is None:
        return PointerAttributes(-2, 0, int(ptr), memoryTypeUnregistered)
    if isinstance(mem, _memory.ManagedMemory):
        return PointerAttributes(mem.device_id, int(ptr), int(ptr),
                                 memoryTypeManaged)
    return PointerAttributes(mem.device_id, int(ptr), 0, memoryTypeDevice)


def memGetInfo():
    """(free, total) bytes of the current device: its memory less what the
    default pool holds."""
    from fake_cupy import _memory
    total = _runtime.total_memory()
    return total - _memory.get_default_memory_pool().total_bytes(), total


_mallocs = {}      # cudaMalloc'd address -> its MemoryPointer, until free


def malloc(size):
    """cudaMalloc: the address of `size` bytes of (the fake's) device
    memory on the current device, kept until free()."""
    from fake_cupy import _memory
    pointer = _memory._unpooled_malloc(size)
    if pointer.ptr:
        _mallocs[pointer.ptr] = pointer
    return pointer.ptr


def free(ptr):
    """cudaFree: an address malloc did not give is cudaErrorInvalidValue
    (0 is accepted, as CUDA's)."""
    if ptr and _mallocs.pop(int(ptr), None) is None:
        raise CUDARuntimeError(1)


# cudaMemAttach flags and cudaMemoryAdvise values, as CuPy names them
cudaMemAttachGlobal = 1
cudaMemAttachHost = 2
cudaMemAttachSingle = 4
cudaMemAdviseSetReadMostly = 1
cudaMemAdviseUnsetReadMostly = 2
cudaMemAdviseSetPreferredLocation = 3
cudaMemAdviseUnsetPreferredLocation = 4
cudaMemAdviseSetAccessedBy = 5
cudaMemAdviseUnsetAccessedBy = 6
_CPU_DEVICE_ID = -1  # cudaCpuDeviceId (CuPy has no name for it)


def mallocManaged(size, flags=cudaMemAttachGlobal):
    """cudaMallocManaged: the address of `size` bytes of managed memory
    (host memory in the fake), kept until free()."""
    from fake_cupy import _memory
    if int(flags) not in (cudaMemAttachGlobal, cudaMemAttachHost):
        raise CUDARuntimeError(cudaErrorInvalidValue)
    pointer = _memory.malloc_managed(size)
    if pointer.ptr:
        _mallocs[pointer.ptr] = pointer
    return pointer.ptr


def mallocAsync(size, stream):
    """cudaMallocAsync: memory ordered on the stream whose pointer is
    `stream`, kept until freeAsync() (or free())."""
    from fake_cupy import _memory
    pointer = _memory.malloc_async(size, _stream_of(int(stream)))
    if pointer.ptr:
        _mallocs[pointer.ptr] = pointer
    return pointer.ptr


def freeAsync(ptr, stream):
    """cudaFreeAsync: the memory goes once the stream's earlier work is
    done; an address malloc did not give is cudaErrorInvalidValue."""
    from fake_cupy import _memory
    if not ptr:
        return
    if int(ptr) not in _mallocs:
        raise CUDARuntimeError(cudaErrorInvalidValue)
    _memory.MemoryPointer._queued(_stream_of(int(stream)), _mallocs.pop,
                                  int(ptr), None)


def _check_managed_range(ptr, count):
    """cudaErrorInvalidValue unless [ptr, ptr + count) is managed memory."""
    from fake_cupy import _memory
    _check_device_range(ptr, count)
    if not _memory.is_managed(_memory.owner_of(int(ptr))):
        raise CUDARuntimeError(cudaErrorInvalidValue)


def memPrefetchAsync(devPtr, count, dstDevice, stream):
    """cudaMemPrefetchAsync: managed memory is host memory in the fake, so
    nothing moves; the range and the device are checked."""
    _check_managed_range(devPtr, count)
    if int(dstDevice) != _CPU_DEVICE_ID:
        _check_device_id(dstDevice)


def memAdvise(devPtr, count, advice, device):
    """cudaMemAdvise: checked, and without effect on the fake's memory."""
    _check_managed_range(devPtr, count)
    if int(advice) not in range(cudaMemAdviseSetReadMostly,
                                cudaMemAdviseUnsetAccessedBy + 1):
        raise CUDARuntimeError(cudaErrorInvalidValue)


def _check_device_id(device):
    if not 0 <= int(device) < getDeviceCount():
        raise CUDARuntimeError(cudaErrorInvalidDevice)


def memcpyPeer(dst, dstDevice, src, srcDevice, size):
    """cudaMemcpyPeer: `size` bytes between two devices' memory."""
    _check_device_id(dstDevice)
    _check_device_id(srcDevice)
    memcpy(dst, src, size, memcpyDeviceToDevice)


def memcpyPeerAsync(dst, dstDevice, src, srcDevice, size, stream):
    """cudaMemcpyPeerAsync on the stream whose pointer is `stream`."""
    _check_device_id(dstDevice)
    _check_device_id(srcDevice)
    memcpyAsync(dst, src, size, memcpyDeviceToDevice, stream)


cudaErrorHostMemoryAlreadyRegistered = 712
cudaErrorHostMemoryNotRegistered = 713
_host_registered = {}  # address -> size, until hostUnregister


def hostRegister(ptr, size, flags):
    """cudaHostRegister: page-locks host memory (already usable by the
    fake's kernels); an address registered twice is
    cudaErrorHostMemoryAlreadyRegistered."""
    if not ptr or not size:
        raise CUDARuntimeError(cudaErrorInvalidValue)
    if int(ptr) in _host_registered:
        raise CUDARuntimeError(cudaErrorHostMemoryAlreadyRegistered)
    _host_registered[int(ptr)] = int(size)


def hostUnregister(ptr):
    """cudaHostUnregister: an address not registered is
    cudaErrorHostMemoryNotRegistered."""
    if _host_registered.pop(int(ptr), None) is None:
        raise CUDARuntimeError(cudaErrorHostMemoryNotRegistered)


# cudaLimit, as CuPy names them
cudaLimitStackSize = 0
cudaLimitPrintfFifoSize = 1
cudaLimitMallocHeapSize = 2
cudaLimitDevRuntimeSyncDepth = 3
cudaLimitDevRuntimePendingLaunchCount = 4
cudaLimitMaxL2FetchGranularity = 5


def _limit_calls():
    from cuemu import _binding
    lib = _binding.library()
    lib.cuemu_rt_device_get_limit.restype = ctypes.c_int
    lib.cuemu_rt_device_get_limit.argtypes = [
        ctypes.POINTER(ctypes.c_size_t), ctypes.c_int]
    lib.cuemu_rt_device_set_limit.restype = ctypes.c_int
    lib.cuemu_rt_device_set_limit.argtypes = [ctypes.c_int, ctypes.c_size_t]
    return lib


def deviceGetLimit(limit):
    """cudaDeviceGetLimit: libcuemu's limit (the device heap of malloc in
    kernels, printf's buffer, the stack, ...)."""
    value = ctypes.c_size_t()
    status = _limit_calls().cuemu_rt_device_get_limit(ctypes.byref(value),
                                                      int(limit))
    if status:
        raise CUDARuntimeError(status)
    return value.value


def deviceSetLimit(limit, value):
    """cudaDeviceSetLimit: sets libcuemu's limit, which the next kernels
    see (an unknown limit is cudaErrorUnsupportedLimit)."""
    status = _limit_calls().cuemu_rt_device_set_limit(int(limit), int(value))
    if status:
        raise CUDARuntimeError(status)


def streamAddCallback(stream, callback, arg, flags=0):
    """cudaStreamAddCallback: callback(stream, status, arg) once the
    stream's earlier work is done, as CuPy calls it (status is cudaSuccess:
    an error is raised by the synchronization instead); flags must be 0.
    As in CuPy, `arg` is an intptr_t: another object is a TypeError."""
    arg = operator.index(arg)
    if flags:
        raise CUDARuntimeError(cudaErrorInvalidValue)
    _stream_of(int(stream)).synchronize()
    callback(int(stream), 0, arg)


def launchHostFunc(stream, callback, arg):
    """cudaLaunchHostFunc: callback(arg) once the stream's earlier work is
    done (`arg` an intptr_t, as in CuPy)."""
    arg = operator.index(arg)
    _stream_of(int(stream)).launch_host_func(callback, arg)


# cudaStreamCaptureMode, as CuPy names them (CuPy's capture default is
# the relaxed mode)
streamCaptureModeGlobal = 0
streamCaptureModeThreadLocal = 1
streamCaptureModeRelaxed = 2
_graphs = {}       # graph handle -> its cupy.cuda.Graph
_graph_execs = {}  # executable-graph handle -> [its cupy.cuda.Graph]


def streamBeginCapture(stream, mode=streamCaptureModeRelaxed):
    """cudaStreamBeginCapture on the stream whose pointer is `stream`."""
    _stream_of(int(stream)).begin_capture(mode)


def streamEndCapture(stream):
    """cudaStreamEndCapture: the handle of the captured graph."""
    graph = _stream_of(int(stream)).end_capture()
    _graphs[id(graph)] = graph
    return id(graph)


def streamIsCapturing(stream):
    """cudaStreamIsCapturing, as CuPy returns it (a bool)."""
    return _stream_of(int(stream)).is_capturing()


def _handle(table, handle):
    entry = table.get(int(handle))
    if entry is None:
        raise CUDARuntimeError(cudaErrorInvalidValue)
    return entry


def graphInstantiate(graph):
    """cudaGraphInstantiate: the handle of an executable graph, which
    outlives the graph (the fake runs the captured work as it is)."""
    executable = [_handle(_graphs, graph)]
    _graph_execs[id(executable)] = executable
    return id(executable)


def graphLaunch(graphExec, stream):
    """cudaGraphLaunch on the stream whose pointer is `stream`."""
    _handle(_graph_execs, graphExec)[0].launch(_stream_of(int(stream)))


def graphUpload(graphExec, stream):
    """cudaGraphUpload: checked; nothing to upload in the fake."""
    _handle(_graph_execs, graphExec)[0].upload(_stream_of(int(stream)))


def graphDestroy(graph):
    """cudaGraphDestroy: the handle is forgotten."""
    _handle(_graphs, graph)
    del _graphs[int(graph)]


def graphExecDestroy(graphExec):
    """cudaGraphExecDestroy: the handle is forgotten."""
    _handle(_graph_execs, graphExec)
    del _graph_execs[int(graphExec)]


def profilerStart():
    """cudaProfilerStart: no profiler here, as without one."""


def profilerStop():
    """cudaProfilerStop: no profiler here, as without one."""


# cudaHostAlloc flags
hostAllocDefault = 0
hostAllocPortable = 1
hostAllocMapped = 2
hostAllocWriteCombined = 4

_host_allocs = {}  # cudaHostAlloc'd address -> its block, until freeHost


def hostAlloc(size, flags):
    """cudaHostAlloc: the address of `size` bytes of page-locked host
    memory (plain host memory here, which kernels reach too, as they reach
    mapped memory under unified addressing), kept until freeHost()."""
    from fake_cupy import _memory
    if int(flags) & ~(hostAllocPortable | hostAllocMapped |
                      hostAllocWriteCombined):
        raise CUDARuntimeError(cudaErrorInvalidValue)
    block = _memory._Block(_memory._round_size(max(int(size), 1)))
    _host_allocs[block.ptr] = block
    return block.ptr


def freeHost(ptr):
    """cudaFreeHost: an address hostAlloc did not give is
    cudaErrorInvalidValue (0 is accepted, as CUDA's)."""
    if ptr and _host_allocs.pop(int(ptr), None) is None:
        raise CUDARuntimeError(cudaErrorInvalidValue)


# cudaMemcpyKind
memcpyHostToHost = 0
memcpyHostToDevice = 1
memcpyDeviceToHost = 2
memcpyDeviceToDevice = 3
memcpyDefault = 4
cudaErrorInvalidMemcpyDirection = 21


def _check_device_range(ptr, size):
    """cudaErrorInvalidValue unless [ptr, ptr + size) lies in one live
    allocation of the fake's device memory (an array, a malloc, a module's
    global): the fake's device memory is host memory, so a wrong pointer
    would otherwise be written as the interpreter's own."""
    from fake_cupy import _memory
    mem = _memory.owner_of(int(ptr))
    if mem is None or int(ptr) + size > mem.ptr + mem.size:
        raise CUDARuntimeError(cudaErrorInvalidValue)


def _check_copy(dst, src, size, kind, src_size=None):
    """A copy's checks; `size` bytes at `dst` and `src_size` (else `size`)
    at `src`."""
    if kind not in (memcpyHostToHost, memcpyHostToDevice, memcpyDeviceToHost,
                    memcpyDeviceToDevice, memcpyDefault):
        raise CUDARuntimeError(cudaErrorInvalidMemcpyDirection)
    if size == 0:
        return
    if kind in (memcpyHostToDevice, memcpyDeviceToDevice):
        _check_device_range(dst, size)
    if kind in (memcpyDeviceToHost, memcpyDeviceToDevice):
        _check_device_range(src, size if src_size is None else src_size)
    if not dst or not src:
        raise CUDARuntimeError(cudaErrorInvalidValue)


def memcpy(dst, src, size, kind):
    """cudaMemcpy: `size` bytes from address `src` to address `dst`, after
    the current device's queued work (host addresses are taken as they
    are; a device-side one must lie in the fake's device memory)."""
    from fake_cupy import _memory
    _check_copy(dst, src, size, kind)
    if size:
        _memory.MemoryPointer._now(_memory._memmove, int(dst), int(src), size)


def memcpyAsync(dst, src, size, kind, stream):
    """cudaMemcpyAsync on the stream whose pointer is `stream`."""
    from fake_cupy import _memory
    _check_copy(dst, src, size, kind)
    if size:
        _memory.MemoryPointer._queued(_stream_of(int(stream)),
                                      _memory._memmove,
                                      int(dst), int(src), size)


cudaErrorInvalidPitchValue = 12


def _check_copy_2d(dst, dpitch, src, spitch, width, height, kind):
    """cudaMemcpy2D's checks: a row wider than either pitch is
    cudaErrorInvalidPitchValue; then a copy's, over the span of the rows
    (the last one ends `width` bytes after its start)."""
    if width > dpitch or width > spitch:
        raise CUDARuntimeError(cudaErrorInvalidPitchValue)
    if width and height:
        _check_copy(dst, src, dpitch * (height - 1) + width, kind,
                    spitch * (height - 1) + width)
    else:
        _check_copy(dst, src, 0, kind)


def _copy_rows(dst, dpitch, src, spitch, width, height):
    from fake_cupy import _memory
    for row in range(height):
        _memory._memmove(dst + row * dpitch, src + row * spitch, width)


def memcpy2D(dst, dpitch, src, spitch, width, height, kind):
    """cudaMemcpy2D: `height` rows of `width` bytes from `src` to `dst`,
    whose rows are `spitch` and `dpitch` bytes apart, after the current
    device's queued work."""
    from fake_cupy import _memory
    _check_copy_2d(dst, dpitch, src, spitch, width, height, kind)
    if width and height:
        _memory.MemoryPointer._now(_copy_rows, int(dst), int(dpitch),
                                   int(src), int(spitch), width, height)


def memcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, stream):
    """cudaMemcpy2DAsync on the stream whose pointer is `stream`."""
    from fake_cupy import _memory
    _check_copy_2d(dst, dpitch, src, spitch, width, height, kind)
    if width and height:
        _memory.MemoryPointer._queued(_stream_of(int(stream)), _copy_rows,
                                      int(dst), int(dpitch), int(src),
                                      int(spitch), width, height)


def memset(ptr, value, size):
    """cudaMemset: `size` bytes of device memory at `ptr` set to `value`."""
    from fake_cupy import _memory
    if size:
        _check_device_range(ptr, size)
        _memory.MemoryPointer._now(_memory._memset, int(ptr), value, size)


def memsetAsync(ptr, value, size, stream):
    """cudaMemsetAsync on the stream whose pointer is `stream`."""
    from fake_cupy import _memory
    if size:
        _check_device_range(ptr, size)
        _memory.MemoryPointer._queued(_stream_of(int(stream)),
                                      _memory._memset,
                                      int(ptr), value, size)


def runtimeGetVersion():
    return 12000


def driverGetVersion():
    return 12000


__all__ = ["CUDARuntimeError", "deviceGetAttribute", "deviceSynchronize",
           "getDevice", "streamCreate", "streamCreateWithFlags",
           "streamDestroy", "streamQuery", "streamSynchronize",
           "getDeviceCount", "getDeviceProperties", "memGetInfo",
           "runtimeGetVersion", "setDevice", "malloc", "free", "memcpy",
           "memcpyAsync", "memset", "memsetAsync", "memcpyHostToHost",
           "memcpyHostToDevice", "memcpyDeviceToHost", "memcpyDeviceToDevice",
           "memcpyDefault", "eventCreate", "eventCreateWithFlags",
           "eventDestroy", "eventRecord", "eventSynchronize", "eventQuery",
           "eventElapsedTime", "streamWaitEvent", "deviceCanAccessPeer",
           "pointerGetAttributes", "PointerAttributes"]


# The texture, array and resource constants (cudaChannelFormatKindFloat,
# cudaResourceTypeArray, cudaAddressModeClamp, ...) of cupy.cuda.texture.
def _texture_constants():
    from fake_cupy import _texture
    globals().update(_texture.CONSTANTS)


_texture_constants()
