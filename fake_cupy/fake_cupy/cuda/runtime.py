"""cupy.cuda.runtime of the fake CuPy: device queries and synchronization."""
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
cudaDevAttrMaxThreadsPerBlock = 1
cudaDevAttrWarpSize = 10
cudaDevAttrMultiProcessorCount = 16
cudaDevAttrComputeCapabilityMajor = 75
cudaDevAttrComputeCapabilityMinor = 76
cudaDevAttrMaxSharedMemoryPerBlockOptin = 97
cudaDevAttrMemoryPoolsSupported = 115


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


def runtimeGetVersion():
    return 12000


def driverGetVersion():
    return 12000


__all__ = ["CUDARuntimeError", "deviceGetAttribute", "deviceSynchronize",
           "getDevice", "streamCreate", "streamCreateWithFlags",
           "streamDestroy", "streamQuery", "streamSynchronize",
           "getDeviceCount", "getDeviceProperties", "memGetInfo",
           "runtimeGetVersion", "setDevice"]
