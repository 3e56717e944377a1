"""cupy.cuda.texture over libcuemu's arrays and texture objects.

CuPy's classes, with CuPy's constructors: ChannelFormatDescriptor,
CUDAarray (1-, 2- or 3-D, `copy_from`/`copy_to` with a NumPy or CuPy array
of the array's bytes), ResourceDescriptor (an array, linear memory or
pitched 2-D memory), TextureDescriptor, TextureObject and SurfaceObject.
They are thin ctypes wrappers of libcuemu's cudaMalloc3DArray,
cudaMemcpy3D, cudaCreateTextureObject and cudaCreateSurfaceObject
(emulator/include/cuemu/cuemu_rt_texture.h), so a kernel's tex1D/tex2D/
tex3D/tex1Dfetch/surf2Dwrite on the object's `ptr` are libcuemu's fetches
(docs/textures.md). A TextureObject or SurfaceObject passed to a kernel is
its handle (cudaTextureObject_t, an unsigned long long), as in CuPy.
TextureReference (the removed texture references) is not provided.
"""
import ctypes

import numpy

_size_t = ctypes.c_size_t
_vp = ctypes.c_void_p

# CUDA's values (driver_types.h / texture_types.h), which cupy.cuda.runtime
# also names.
CONSTANTS = {
    "cudaChannelFormatKindSigned": 0, "cudaChannelFormatKindUnsigned": 1,
    "cudaChannelFormatKindFloat": 2, "cudaChannelFormatKindNone": 3,
    "cudaResourceTypeArray": 0, "cudaResourceTypeMipmappedArray": 1,
    "cudaResourceTypeLinear": 2, "cudaResourceTypePitch2D": 3,
    "cudaAddressModeWrap": 0, "cudaAddressModeClamp": 1,
    "cudaAddressModeMirror": 2, "cudaAddressModeBorder": 3,
    "cudaFilterModePoint": 0, "cudaFilterModeLinear": 1,
    "cudaReadModeElementType": 0, "cudaReadModeNormalizedFloat": 1,
    "cudaArrayDefault": 0, "cudaArrayLayered": 1,
    "cudaArraySurfaceLoadStore": 2, "cudaArrayCubemap": 4,
    "cudaArrayTextureGather": 8,
}
_MEMCPY_DEFAULT = 4


class _ChannelDesc(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int), ("z", ctypes.c_int),
                ("w", ctypes.c_int), ("f", ctypes.c_int)]


class _Extent(ctypes.Structure):
    _fields_ = [("width", _size_t), ("height", _size_t), ("depth", _size_t)]


class _Pos(ctypes.Structure):
    _fields_ = [("x", _size_t), ("y", _size_t), ("z", _size_t)]


class _PitchedPtr(ctypes.Structure):
    _fields_ = [("ptr", _vp), ("pitch", _size_t), ("xsize", _size_t),
                ("ysize", _size_t)]


class _Memcpy3DParms(ctypes.Structure):
    _fields_ = [("srcArray", _vp), ("srcPos", _Pos), ("srcPtr", _PitchedPtr),
                ("dstArray", _vp), ("dstPos", _Pos), ("dstPtr", _PitchedPtr),
                ("extent", _Extent), ("kind", ctypes.c_int)]


class _Linear(ctypes.Structure):
    _fields_ = [("devPtr", _vp), ("desc", _ChannelDesc),
                ("sizeInBytes", _size_t)]


class _Pitch2D(ctypes.Structure):
    _fields_ = [("devPtr", _vp), ("desc", _ChannelDesc), ("width", _size_t),
                ("height", _size_t), ("pitchInBytes", _size_t)]


class _Res(ctypes.Union):
    _fields_ = [("array", _vp), ("mipmap", _vp), ("linear", _Linear),
                ("pitch2D", _Pitch2D), ("reserved", ctypes.c_int * 32)]


class _ResourceDesc(ctypes.Structure):
    _fields_ = [("resType", ctypes.c_int), ("res", _Res),
                ("flags", ctypes.c_uint)]


class _TextureDesc(ctypes.Structure):
    _fields_ = [("addressMode", ctypes.c_int * 3), ("filterMode", ctypes.c_int),
                ("readMode", ctypes.c_int), ("sRGB", ctypes.c_int),
                ("borderColor", ctypes.c_float * 4),
                ("normalizedCoords", ctypes.c_int),
                ("maxAnisotropy", ctypes.c_uint),
                ("mipmapFilterMode", ctypes.c_int),
                ("mipmapLevelBias", ctypes.c_float),
                ("minMipmapLevelClamp", ctypes.c_float),
                ("maxMipmapLevelClamp", ctypes.c_float),
                ("disableTrilinearOptimization", ctypes.c_int),
                ("seamlessCubemap", ctypes.c_int)]


_lib_cache = []


def _lib():
    if not _lib_cache:
        from cuemu import _binding
        lib = _binding.library()
        lib.cuemu_rt_malloc_3d_array.argtypes = [
            ctypes.POINTER(_vp), ctypes.POINTER(_ChannelDesc), _Extent,
            ctypes.c_uint]
        lib.cuemu_rt_free_array.argtypes = [_vp]
        lib.cuemu_rt_memcpy_3d.argtypes = [ctypes.POINTER(_Memcpy3DParms)]
        lib.cuemu_rt_create_texture_object.argtypes = [
            ctypes.POINTER(ctypes.c_ulonglong), ctypes.POINTER(_ResourceDesc),
            ctypes.POINTER(_TextureDesc), _vp]
        lib.cuemu_rt_destroy_texture_object.argtypes = [ctypes.c_ulonglong]
        lib.cuemu_rt_create_surface_object.argtypes = [
            ctypes.POINTER(ctypes.c_ulonglong), ctypes.POINTER(_ResourceDesc)]
        lib.cuemu_rt_destroy_surface_object.argtypes = [ctypes.c_ulonglong]
        for name in ("cuemu_rt_malloc_3d_array", "cuemu_rt_free_array",
                     "cuemu_rt_memcpy_3d", "cuemu_rt_create_texture_object",
                     "cuemu_rt_destroy_texture_object",
                     "cuemu_rt_create_surface_object",
                     "cuemu_rt_destroy_surface_object"):
            getattr(lib, name).restype = ctypes.c_int
        _lib_cache.append(lib)
    return _lib_cache[0]


def _check(code):
    if code:
        from fake_cupy._errors import CUDARuntimeError
        raise CUDARuntimeError(code)


class ChannelFormatDescriptor:
    """cupy.cuda.texture.ChannelFormatDescriptor(x, y, z, w, f): the bits of
    each channel and their kind (cudaChannelFormatKind*)."""

    def __init__(self, int_x, int_y, int_z, int_w, int_f):
        self._desc = _ChannelDesc(int_x, int_y, int_z, int_w, int_f)
        self.ptr = ctypes.addressof(self._desc)

    def get_channel_format(self):
        d = self._desc
        return {"x": d.x, "y": d.y, "z": d.z, "w": d.w, "f": d.f}

    def _itemsize(self):
        d = self._desc
        return (d.x + d.y + d.z + d.w) // 8


class CUDAarray:
    """cupy.cuda.texture.CUDAarray(desc, width, height=0, depth=0,
    flags=0): a CUDA array of 1 (height 0), 2 (depth 0) or 3 dimensions."""

    def __init__(self, desc, width, height=0, depth=0, flags=0):
        if width == 0:
            raise ValueError("To create a CUDA array, width must be nonzero.")
        if height == 0 and depth > 0:
            raise ValueError
        self.desc = desc
        self.width, self.height, self.depth = width, height, depth
        self.flags = flags
        self.ndim = 3 if depth else 2 if height else 1
        ptr = _vp()
        _check(_lib().cuemu_rt_malloc_3d_array(
            ctypes.byref(ptr), ctypes.byref(desc._desc),
            _Extent(width, height, depth), flags))
        self.ptr = ptr.value

    def __del__(self):
        ptr, self.ptr = getattr(self, "ptr", None), None
        if ptr:
            try:
                _lib().cuemu_rt_free_array(ptr)
            except Exception:
                pass

    def _copy(self, arr, to_array, stream):
        from fake_cupy._ndarray import ndarray
        from fake_cupy import _runtime
        width_bytes = self.width * self.desc._itemsize()
        rows = max(self.height, 1) * max(self.depth, 1)
        if isinstance(arr, ndarray):
            if not arr.flags.c_contiguous:
                raise ValueError("The array must be C-contiguous")
            ptr, nbytes = arr.data.ptr, arr.nbytes
        elif isinstance(arr, numpy.ndarray):
            if not arr.flags.c_contiguous:
                raise ValueError("The array must be C-contiguous")
            ptr, nbytes = arr.ctypes.data, arr.nbytes
        else:
            raise TypeError(f"Unsupported type {type(arr)}")
        if nbytes != width_bytes * rows:
            raise ValueError(f"The array holds {nbytes} bytes, the CUDA "
                             f"array {width_bytes * rows}")
        host = _PitchedPtr(ptr, width_bytes, self.width, max(self.height, 1))
        p = _Memcpy3DParms()
        # With an array on one side, the extent's width counts elements.
        p.extent = _Extent(self.width, max(self.height, 1), max(self.depth, 1))
        p.kind = _MEMCPY_DEFAULT
        if to_array:
            p.srcPtr, p.dstArray = host, self.ptr
        else:
            p.srcArray, p.dstPtr = self.ptr, host
        # In order with the stream's (or the current stream's) work.
        if stream is None:
            _runtime.synchronize_current()
        else:
            stream.synchronize()
        _check(_lib().cuemu_rt_memcpy_3d(ctypes.byref(p)))

    def copy_from(self, in_arr, stream=None):
        """Copies a NumPy or CuPy array holding the CUDA array's bytes in."""
        self._copy(in_arr, True, stream)

    def copy_to(self, out_arr, stream=None):
        """Copies the CUDA array's bytes out, into a NumPy or CuPy array."""
        self._copy(out_arr, False, stream)


class ResourceDescriptor:
    """cupy.cuda.texture.ResourceDescriptor(restype, cuArr=None, arr=None,
    chDesc=None, sizeInBytes=0, width=0, height=0, pitchInBytes=0)."""

    def __init__(self, restype, cuArr=None, arr=None, chDesc=None,
                 sizeInBytes=0, width=0, height=0, pitchInBytes=0):
        if restype == CONSTANTS["cudaResourceTypeMipmappedArray"]:
            raise NotImplementedError("mipmapped arrays are not supported "
                                      "by CuPy's ResourceDescriptor")
        self.cuArr, self.arr, self.chDesc = cuArr, arr, chDesc
        self._desc = _ResourceDesc()
        self._desc.resType = restype
        if restype == CONSTANTS["cudaResourceTypeArray"]:
            self._desc.res.array = cuArr.ptr
        elif restype == CONSTANTS["cudaResourceTypeLinear"]:
            self._desc.res.linear = _Linear(arr.data.ptr, chDesc._desc,
                                            sizeInBytes)
        elif restype == CONSTANTS["cudaResourceTypePitch2D"]:
            self._desc.res.pitch2D = _Pitch2D(arr.data.ptr, chDesc._desc,
                                              width, height, pitchInBytes)
        self.ptr = ctypes.addressof(self._desc)

    def get_resource_desc(self):
        d = self._desc
        out = {"resType": d.resType}
        if d.resType == CONSTANTS["cudaResourceTypeArray"]:
            out["array"] = {"array": d.res.array}
        elif d.resType == CONSTANTS["cudaResourceTypeLinear"]:
            out["linear"] = {"devPtr": d.res.linear.devPtr,
                             "desc": self.chDesc.get_channel_format(),
                             "sizeInBytes": d.res.linear.sizeInBytes}
        else:
            p = d.res.pitch2D
            out["pitch2D"] = {"devPtr": p.devPtr,
                              "desc": self.chDesc.get_channel_format(),
                              "width": p.width, "height": p.height,
                              "pitchInBytes": p.pitchInBytes}
        return out


class TextureDescriptor:
    """cupy.cuda.texture.TextureDescriptor(addressModes=None, filterMode=0,
    readMode=0, sRGB=None, borderColors=None, normalizedCoords=None,
    maxAnisotropy=None)."""

    def __init__(self, addressModes=None, filterMode=0, readMode=0,
                 sRGB=None, borderColors=None, normalizedCoords=None,
                 maxAnisotropy=None):
        d = self._desc = _TextureDesc()
        for i, mode in enumerate(addressModes or ()):
            d.addressMode[i] = mode
        d.filterMode, d.readMode = filterMode, readMode
        if sRGB is not None:
            d.sRGB = sRGB
        for i, c in enumerate(borderColors or ()):
            d.borderColor[i] = c
        if normalizedCoords is not None:
            d.normalizedCoords = normalizedCoords
        if maxAnisotropy is not None:
            d.maxAnisotropy = maxAnisotropy
        self.ptr = ctypes.addressof(d)

    def get_texture_desc(self):
        d = self._desc
        return {"addressMode": tuple(d.addressMode),
                "filterMode": d.filterMode, "readMode": d.readMode,
                "sRGB": d.sRGB, "borderColor": tuple(d.borderColor),
                "normalizedCoords": d.normalizedCoords,
                "maxAnisotropy": d.maxAnisotropy}


class TextureObject:
    """cupy.cuda.texture.TextureObject(ResDesc, TexDesc): a texture object;
    `ptr` is the handle a kernel's cudaTextureObject_t parameter gets."""

    def __init__(self, ResDesc, TexDesc):
        self.ResDesc, self.TexDesc = ResDesc, TexDesc
        handle = ctypes.c_ulonglong()
        _check(_lib().cuemu_rt_create_texture_object(
            ctypes.byref(handle), ctypes.byref(ResDesc._desc),
            ctypes.byref(TexDesc._desc), None))
        self.ptr = handle.value

    def __del__(self):
        ptr, self.ptr = getattr(self, "ptr", 0), 0
        if ptr:
            try:
                _lib().cuemu_rt_destroy_texture_object(ptr)
            except Exception:
                pass


class SurfaceObject:
    """cupy.cuda.texture.SurfaceObject(ResDesc): a surface object over a
    CUDA array made with cudaArraySurfaceLoadStore."""

    def __init__(self, ResDesc):
        self.ResDesc = ResDesc
        handle = ctypes.c_ulonglong()
        _check(_lib().cuemu_rt_create_surface_object(
            ctypes.byref(handle), ctypes.byref(ResDesc._desc)))
        self.ptr = handle.value

    def __del__(self):
        ptr, self.ptr = getattr(self, "ptr", 0), 0
        if ptr:
            try:
                _lib().cuemu_rt_destroy_surface_object(ptr)
            except Exception:
                pass


class TextureReference:
    """Texture references were removed in CUDA 12 (and from CuPy 13)."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError("texture references were removed in "
                                  "CUDA 12: use TextureObject")
