"""cupy.cuda.device of the fake CuPy."""
from fake_cupy._runtime import Device


def get_device_id():
    """The current device's id."""
    return Device().id


def get_compute_capability():
    """The current device's compute capability, as "90"."""
    return Device().compute_capability


def from_pointer(ptr):
    """The Device whose memory holds the address `ptr` (CuPy:
    cupy.cuda.device.from_pointer)."""
    from fake_cupy import _memory
    from fake_cupy._errors import CUDARuntimeError
    mem = _memory.owner_of(int(ptr))
    if mem is None:
        raise CUDARuntimeError(1)     # cudaErrorInvalidValue
    return Device(mem.device_id)


__all__ = ["Device", "from_pointer", "get_compute_capability",
           "get_device_id"]
