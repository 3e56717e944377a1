"""The emulated device as libcuemu describes it: its properties, a kernel's
attributes and the check of a launch's configuration, all read through the
C API, so that Python never keeps a copy of a device limit."""
import ctypes

from cuemu import _binding


class KernelAttributes(ctypes.Structure):
    """cuemu_kernel_attributes (cuemu/cuemu.h)."""
    _fields_ = [("max_threads_per_block", ctypes.c_uint),
                ("static_shared_bytes", ctypes.c_size_t),
                ("max_dynamic_shared_bytes", ctypes.c_size_t),
                ("preferred_carveout", ctypes.c_int),
                ("num_regs", ctypes.c_int),
                ("const_bytes", ctypes.c_size_t),
                ("local_bytes", ctypes.c_size_t),
                ("ptx_version", ctypes.c_int),
                ("binary_version", ctypes.c_int)]


_declared = False


def _lib():
    global _declared
    lib = _binding.library()
    if not _declared:
        vp = ctypes.c_void_p
        lib.cuemu_device_get_property.restype = ctypes.c_int
        lib.cuemu_device_get_property.argtypes = [
            ctypes.c_char_p, ctypes.POINTER(ctypes.c_longlong)]
        lib.cuemu_kernel_get_attributes.restype = ctypes.c_int
        lib.cuemu_kernel_get_attributes.argtypes = [
            vp, ctypes.POINTER(KernelAttributes)]
        lib.cuemu_kernel_set_carveout.restype = ctypes.c_int
        lib.cuemu_kernel_set_carveout.argtypes = [vp, ctypes.c_int]
        lib.cuemu_kernel_check_launch.restype = ctypes.c_int
        lib.cuemu_kernel_check_launch.argtypes = [
            vp, _binding.Dim3, _binding.Dim3, ctypes.c_size_t, ctypes.c_int,
            ctypes.c_int]
        _declared = True
    return lib


def get_property(name):
    """The value of the cudaDeviceProp field `name` ("maxThreadsDim[1]" for
    an element of an array); raises CuemuError for an unknown name."""
    value = ctypes.c_longlong(0)
    _binding.check(_lib().cuemu_device_get_property(name.encode(),
                                                    ctypes.byref(value)))
    return value.value


def kernel_attributes(kernel):
    """The attributes of a cuemu._binding.Kernel, as a dict of
    cudaFuncGetAttributes' fields in CuPy's spelling."""
    a = KernelAttributes()
    _binding.check(_lib().cuemu_kernel_get_attributes(kernel.handle,
                                                      ctypes.byref(a)))
    return {"max_threads_per_block": a.max_threads_per_block,
            "shared_size_bytes": a.static_shared_bytes,
            "const_size_bytes": a.const_bytes,
            "local_size_bytes": a.local_bytes,
            "num_regs": a.num_regs,
            "ptx_version": a.ptx_version,
            "binary_version": a.binary_version,
            "cache_mode_ca": 0,
            "max_dynamic_shared_size_bytes": a.max_dynamic_shared_bytes,
            "preferred_shared_memory_carveout": a.preferred_carveout}


def set_carveout(kernel, percent):
    """cudaFuncAttributePreferredSharedMemoryCarveout of a kernel (-1 or 0
    to 100); raises CuemuError for another value."""
    _binding.check(_lib().cuemu_kernel_set_carveout(kernel.handle,
                                                    int(percent)))


def check_launch(kernel, grid, block, shared_mem, nargs, cooperative=False):
    """Raises CuemuError when libcuemu would refuse this launch's
    configuration."""
    _binding.check(_lib().cuemu_kernel_check_launch(
        kernel.handle, _binding.Dim3(*grid), _binding.Dim3(*block),
        int(shared_mem), int(nargs), int(bool(cooperative))))
