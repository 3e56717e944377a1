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


def memGetInfo():
    """(free, total) bytes of the current device: its memory less what the
    default pool holds."""
    from fake_cupy import _memory
    total = _runtime.total_memory()
    return total - _memory.get_default_memory_pool().total_bytes(), total


def runtimeGetVersion():
    return 12000


def driverGetVersion():
    return 12000


__all__ = ["CUDARuntimeError", "deviceSynchronize", "getDevice",
           "getDeviceCount", "getDeviceProperties", "memGetInfo",
           "runtimeGetVersion", "setDevice"]
