"""DLPack export and import for fake arrays (device type kDLCUDA = 2).

__dlpack__ returns a real "dltensor" capsule whose DLManagedTensor points at
the array's host memory; from_dlpack accepts fake arrays and capsules made
by them (tracing the pointer back to the owning allocation).
"""
import ctypes
import gc
import sys

import numpy

from fake_cupy import _memory

KDL_CPU = 1
KDL_CUDA = 2
KDL_CUDA_MANAGED = 13
_CODES = {"i": 0, "u": 1, "f": 2, "c": 5, "b": 6}


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice),
                ("ndim", ctypes.c_int32), ("dtype", _DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class _DLManagedTensor(ctypes.Structure):
    pass


_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(_DLManagedTensor))
_DLManagedTensor._fields_ = [("dl_tensor", _DLTensor),
                             ("manager_ctx", ctypes.c_void_p),
                             ("deleter", _DELETER)]

class _DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class _DLManagedTensorVersioned(ctypes.Structure):
    pass


_DELETER_V = ctypes.CFUNCTYPE(None, ctypes.POINTER(_DLManagedTensorVersioned))
_DLManagedTensorVersioned._fields_ = [("version", _DLPackVersion),
                                      ("manager_ctx", ctypes.c_void_p),
                                      ("deleter", _DELETER_V),
                                      ("flags", ctypes.c_uint64),
                                      ("dl_tensor", _DLTensor)]
FLAG_READ_ONLY = 1
FLAG_IS_COPIED = 2

_alive = {}      # address of a DLManagedTensor -> what it keeps alive


def _delete(managed):
    _alive.pop(ctypes.addressof(managed.contents), None)


_deleter = _DELETER(_delete)


def _delete_versioned(managed):
    _alive.pop(ctypes.addressof(managed.contents), None)


_deleter_v = _DELETER_V(_delete_versioned)
_pythonapi = ctypes.pythonapi
_pythonapi.PyCapsule_New.restype = ctypes.py_object
# The destructor (void (*)(PyObject *)) is passed as NULL: see _exported.
_pythonapi.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                                     ctypes.c_void_p]
_pythonapi.PyCapsule_IsValid.restype = ctypes.c_int
_pythonapi.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
_pythonapi.PyCapsule_GetPointer.restype = ctypes.c_void_p
_pythonapi.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_pythonapi.PyCapsule_SetName.restype = ctypes.c_int
_pythonapi.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]

# Capsules made here, with the address of their tensor, until only this
# list holds them. A capsule has no destructor: one written in Python runs
# (through ctypes) while the consumer that drops the capsule has an error
# pending, and swallows it (numpy.from_dlpack of a kDLCUDA tensor then
# raised SystemError instead of its own error). The list is swept when a
# capsule is made and after each garbage collection (never with an error
# pending).
_exported = []


def _release_dropped():
    """Forgets the capsules nobody else holds any more; the tensor of one
    never consumed (still under its first name) is released."""
    kept = []
    for entry in _exported:
        capsule = entry[0]
        # The entry, the name `capsule` and getrefcount's own argument.
        if sys.getrefcount(capsule) > 3:
            kept.append(entry)
            continue
        if any(_pythonapi.PyCapsule_IsValid(capsule, name)
               for name in (b"dltensor", b"dltensor_versioned")):
            _alive.pop(entry[1], None)
    _exported[:] = kept


def _after_collection(phase, info):
    if phase == "stop" and _exported:
        _release_dropped()


gc.callbacks.append(_after_collection)


def to_capsule(array, versioned=False, copied=False, host=None):
    """A "dltensor" capsule, or a "dltensor_versioned" one (DLPack 1.0,
    for a consumer that asked with max_version >= (1, 0)). With `host` (a
    NumPy array, or True for the array's own managed memory) the tensor is
    on the CPU (kDLCPU), as CuPy exports to dl_device=(1, 0)."""
    a = array._a if host is None or host is True else host
    kind = a.dtype.kind
    if kind not in _CODES:
        raise BufferError(f"dtype {a.dtype} cannot be exported through DLPack")
    managed = _DLManagedTensorVersioned() if versioned else _DLManagedTensor()
    if versioned:
        managed.version = _DLPackVersion(1, 0)
        managed.flags = FLAG_IS_COPIED if copied else 0
    shape = (ctypes.c_int64 * max(1, a.ndim))(*a.shape)
    strides = (ctypes.c_int64 * max(1, a.ndim))(*(s // a.itemsize for s in a.strides))
    t = managed.dl_tensor
    if host is None:
        t.data = array.data.ptr
        t.device = _DLDevice(KDL_CUDA, array._mem.device_id)
    else:
        t.data = array.data.ptr if host is True else a.ctypes.data
        t.device = _DLDevice(KDL_CPU, 0)
    t.ndim = a.ndim
    lanes = 1
    bits = a.itemsize * 8
    t.dtype = _DLDataType(_CODES[kind], bits, lanes)
    t.shape = ctypes.cast(shape, ctypes.POINTER(ctypes.c_int64))
    t.strides = ctypes.cast(strides, ctypes.POINTER(ctypes.c_int64))
    t.byte_offset = 0
    managed.deleter = _deleter_v if versioned else _deleter
    address = ctypes.addressof(managed)
    _release_dropped()
    _alive[address] = (managed, shape, strides, array, a)
    capsule = _pythonapi.PyCapsule_New(
        address, b"dltensor_versioned" if versioned else b"dltensor", None)
    _exported.append((capsule, address))
    return capsule


def from_capsule(capsule):
    """A fake array viewing the memory a kDLCUDA capsule describes."""
    from fake_cupy._ndarray import ndarray
    if _pythonapi.PyCapsule_IsValid(capsule, b"dltensor_versioned"):
        name, cls = b"dltensor_versioned", _DLManagedTensorVersioned
    elif _pythonapi.PyCapsule_IsValid(capsule, b"dltensor"):
        name, cls = b"dltensor", _DLManagedTensor
    else:
        raise ValueError("A DLPack tensor object cannot be consumed multiple times")
    address = _pythonapi.PyCapsule_GetPointer(capsule, name)
    managed = cls.from_address(address)
    if cls is _DLManagedTensorVersioned and managed.version.major > 1:
        raise BufferError(f"DLPack version {managed.version.major}."
                          f"{managed.version.minor} is not supported")
    t = managed.dl_tensor
    if t.device.device_type != KDL_CUDA:
        raise TypeError("the fake CuPy only accepts DLPack tensors on CUDA "
                        f"devices (kDLCUDA), not device type {t.device.device_type}")
    code = {v: k for k, v in _CODES.items()}[t.dtype.code]
    dtype = numpy.dtype(f"{code}{t.dtype.bits // 8}" if code != "b" else "?")
    shape = tuple(t.shape[i] for i in range(t.ndim))
    strides = (tuple(t.strides[i] * dtype.itemsize for i in range(t.ndim))
               if t.strides else None)
    ptr = (t.data or 0) + t.byte_offset
    mem = _memory.owner_of(ptr)
    if mem is None:
        raise ValueError("the DLPack tensor's memory is not fake CuPy memory")
    _pythonapi.PyCapsule_SetName(
        capsule, b"used_dltensor_versioned" if cls is _DLManagedTensorVersioned
        else b"used_dltensor")
    view = numpy.ndarray(shape, dtype=dtype, buffer=mem.block.buffer,
                         offset=ptr - mem.ptr, strides=strides)
    result = ndarray._wrap(view, mem)
    if managed.deleter:
        managed.deleter(ctypes.pointer(managed))
    return result


def from_dlpack(obj, *, device=None, copy=None):
    """cupy.from_dlpack(obj, *, device=None, copy=None), as CuPy 13's: a
    fake array sharing the memory of `obj`, whose __dlpack__ is asked for a
    versioned (DLPack 1.0) capsule with `copy` (a producer without those
    keywords is asked again without them when copy is None); a capsule is
    taken as it is. `device` is not supported yet (NotImplementedError),
    and a CPU array is refused with CuPy's TypeError."""
    if not hasattr(obj, "__dlpack_device__"):
        return from_capsule(obj)
    device_type, _ = obj.__dlpack_device__()
    if device is not None:
        raise NotImplementedError("from_dlpack() does not support device yet.")
    if device_type == KDL_CPU:
        raise TypeError("CPU arrays cannot be directly imported to CuPy. "
                        "Use `cupy.array(numpy.from_dlpack(input))` instead.")
    if device_type not in (KDL_CUDA, KDL_CUDA_MANAGED):
        raise TypeError(f"Unsupported array type: {device_type}")
    try:
        capsule = obj.__dlpack__(max_version=(1, 0), copy=copy)
    except TypeError:
        if copy is not None:
            raise
        capsule = obj.__dlpack__()
    return from_capsule(capsule)


def export(array, max_version=None, dl_device=None, copy=None):
    """ndarray.__dlpack__, as CuPy 13's: on the array's own device copy=True
    is a BufferError; dl_device=(1, 0) (kDLCPU) exports a host copy (or,
    for managed memory without copy=True, the memory itself; other memory
    with copy=False is a ValueError); another device is a BufferError."""
    from fake_cupy import _memory
    versioned = max_version is not None and tuple(max_version) >= (1, 0)
    if dl_device is None or tuple(dl_device) == array.__dlpack_device__():
        if copy is True:
            raise BufferError("copy=True only supported for copy to CPU.")
        return to_capsule(array, versioned)
    if tuple(dl_device) != (KDL_CPU, 0):
        raise BufferError("unsupported device requested.")
    managed = _memory.is_managed(array._mem)
    if copy is False and not managed:
        raise ValueError("GPU memory cannot be exported to CPU without copy.")
    if managed and copy is not True:
        return to_capsule(array, versioned, host=True)
    return to_capsule(array, versioned, copied=True, host=array.get())


def fromDlpack(capsule):
    """cupy.fromDlpack (deprecated in CuPy: use cupy.from_dlpack)."""
    import warnings
    from fake_cupy._exceptions import VisibleDeprecationWarning
    warnings.warn("This function is deprecated and will be removed in a "
                  "future release. Use the cupy.from_dlpack() array "
                  "constructor instead.", VisibleDeprecationWarning,
                  stacklevel=2)
    return from_capsule(capsule)
