"""cupy.cuda.runtime of the fake CuPy: device queries and synchronization."""
import os

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


def _sm_count():
    spec = os.environ.get("CUEMU_DEVICE", "")
    for item in spec.split(","):
        key, _, value = item.partition("=")
        if key.strip() == "sms" and value.strip().isdigit():
            return int(value)
    value = os.environ.get("CUEMU_SM_COUNT", "")
    return int(value) if value.isdigit() and int(value) > 0 else 8


def getDeviceProperties(device):
    """A dict shaped like CuPy's, describing the emulated device."""
    if not 0 <= device < _runtime.device_count():
        raise CUDARuntimeError(101)
    major, minor = _runtime.compute_capability()
    return {
        "name": b"cuemu emulated device",
        "totalGlobalMem": _runtime.total_memory(),
        "sharedMemPerBlock": 48 * 1024,
        "sharedMemPerBlockOptin": 227 * 1024,
        "sharedMemPerMultiprocessor": 228 * 1024,
        "regsPerBlock": 65536,
        "warpSize": 32,
        "maxThreadsPerBlock": 1024,
        "maxThreadsDim": (1024, 1024, 64),
        "maxGridSize": (2147483647, 65535, 65535),
        "maxThreadsPerMultiProcessor": 2048,
        "maxBlocksPerMultiProcessor": 32,
        "clockRate": 1500000,
        "totalConstMem": 65536,
        "major": major,
        "minor": minor,
        "multiProcessorCount": _sm_count(),
        "computeMode": 0,
        "concurrentKernels": 1,
        "pciBusID": device,
        "pciDeviceID": 0,
        "pciDomainID": 0,
        "cooperativeLaunch": 1,
        "managedMemory": 1,
        "unifiedAddressing": 1,
        "l2CacheSize": 50 * 1024 * 1024,
        "memoryClockRate": 2619000,
        "memoryBusWidth": 5120,
        "ECCEnabled": 0,
        "integrated": 0,
        "canMapHostMemory": 1,
        "uuid": bytes(16),
    }


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
