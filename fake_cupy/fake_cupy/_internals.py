"""CuPy's private modules that CuPy's own test files import: cupy._core,
cupy._core.core (where public code also finds ndarray), cupy._core._accelerator, cupy._util, cupy._creation.from_data,
cupy.cuda.texture and cupy_backends.cuda (api.driver, api.runtime, stream,
libs.nvrtc). Each holds what those tests use, with CuPy's behaviour where
the fake has it (the accelerator lists are kept and ignored, as CuPy
ignores an accelerator it was built without); cupy.cuda.texture is the
fake's _texture module (libcuemu's texture objects), and
cupy_backends.cuda.libs.nvrtc is cupy.cuda.nvrtc, as in CuPy."""
import functools
import sys
import types


def _module(name, doc, **attrs):
    module = types.ModuleType(name, doc)
    module.__dict__.update(attrs)
    return module


ACCELERATOR_CUB = 1
ACCELERATOR_CUTENSOR = 2
ACCELERATOR_CUTENSORNET = 3
_accelerators = {"routine": [], "reduction": []}


def _setter(kind):
    def set_accelerators(accelerators):
        _accelerators[kind] = list(accelerators)
    return set_accelerators


def _getter(kind):
    def get_accelerators():
        return list(_accelerators[kind])
    return get_accelerators


def elementwise_copy(src, dst, *args, **kwargs):
    """cupy._core.elementwise_copy(src, dst): copies with 'unsafe' casting
    and broadcasting."""
    dst[...] = src
    return dst


def memoize(for_each_device=False):
    """cupy.memoize (cupy._util.memoize): caches a function's results by its
    arguments, and by the current device when `for_each_device` (a kernel
    loaded for one device is not another device's)."""
    def decorator(func):
        if not for_each_device:
            cached = functools.lru_cache(maxsize=None)(func)
            _memos.append(cached)
            return functools.wraps(func)(cached)
        from fake_cupy import _runtime

        @functools.lru_cache(maxsize=None)
        def on_device(device_id, *args, **kwargs):
            return func(*args, **kwargs)
        _memos.append(on_device)

        @functools.wraps(func)
        def call(*args, **kwargs):
            return on_device(_runtime.current_device_id(), *args, **kwargs)
        return call
    return decorator


_memos = []


def clear_memo():
    """cupy._util.clear_memo: forgets what memoize cached."""
    for cached in _memos:
        cached.cache_clear()


def modules():
    """The stand-in modules by their names in sys.modules."""
    import fake_cupy
    from fake_cupy import _elementwise, _functions, _runtime
    from fake_cupy._ndarray import ndarray
    accelerator = _module(
        "cupy._core._accelerator", "Routine and reduction accelerators.",
        ACCELERATOR_CUB=ACCELERATOR_CUB,
        ACCELERATOR_CUTENSOR=ACCELERATOR_CUTENSOR,
        ACCELERATOR_CUTENSORNET=ACCELERATOR_CUTENSORNET,
        get_routine_accelerators=_getter("routine"),
        set_routine_accelerators=_setter("routine"),
        get_reduction_accelerators=_getter("reduction"),
        set_reduction_accelerators=_setter("reduction"))
    from fake_cupy import _fusion
    fusion_trace = _module("cupy._core._fusion_trace",
                           "cupy.fuse's tracer (the fake's).",
                           TraceImpl=_fusion._Trace)
    fusion_kernel = _module("cupy._core._fusion_kernel",
                            "cupy.fuse's kernel (the fake's).",
                            FusedKernel=_fusion._Compiled)
    core = _module(
        "cupy._core", "CuPy's core (the parts its tests use).",
        ndarray=ndarray, ElementwiseKernel=_elementwise.ElementwiseKernel,
        ReductionKernel=_elementwise.ReductionKernel,
        elementwise_copy=elementwise_copy, _accelerator=accelerator,
        _fusion_trace=fusion_trace, _fusion_kernel=fusion_kernel,
        create_reduction_func=_elementwise.create_reduction_func,
        _get_warpsize=lambda: 32,
        get_routine_accelerators=accelerator.get_routine_accelerators,
        set_routine_accelerators=accelerator.set_routine_accelerators,
        get_reduction_accelerators=accelerator.get_reduction_accelerators,
        set_reduction_accelerators=accelerator.set_reduction_accelerators)
    core.__path__ = []
    # CuPy's core.pyx, where ndarray is defined: public code imports the
    # array type from there for annotations (from cupy._core.core import
    # ndarray); _ndarray_base is CuPy's base class of ndarray.
    core_core = _module("cupy._core.core", "CuPy's ndarray module.",
                        ndarray=ndarray, _ndarray_base=ndarray)
    core.core = core_core
    util = _module("cupy._util", "CuPy's utilities.", memoize=memoize,
                   clear_memo=clear_memo)
    from_data = _module(
        "cupy._creation.from_data", "Arrays from data.",
        array=_functions.array, asarray=_functions.asarray,
        asanyarray=_functions.asanyarray,
        ascontiguousarray=_functions.ascontiguousarray,
        asfortranarray=_functions.asfortranarray)
    creation = _module("cupy._creation", "Creation routines.",
                       from_data=from_data)
    creation.__path__ = []
    from fake_cupy import _texture
    texture = _module(
        "cupy.cuda.texture", "Textures over libcuemu's texture objects.",
        **{n: getattr(_texture, n) for n in (
            "ChannelFormatDescriptor", "CUDAarray", "ResourceDescriptor",
            "TextureDescriptor", "TextureObject", "SurfaceObject",
            "TextureReference")})

    def default_stream_ptr():
        # cudaStreamLegacy, as CuPy built without per-thread default
        # streams gives it (and exports it for the null stream).
        return 1

    def current_stream_ptr():
        return fake_cupy.cuda.get_current_stream().ptr

    backend_stream = _module(
        "cupy_backends.cuda.stream", "The current stream's pointer.",
        get_default_stream_ptr=default_stream_ptr,
        get_current_stream_ptr=current_stream_ptr,
        is_ptds_enabled=lambda: False)
    nvrtc = fake_cupy.cuda.nvrtc
    api = _module("cupy_backends.cuda.api", "CUDA's APIs.",
                  driver=fake_cupy.cuda.driver, runtime=fake_cupy.cuda.runtime)
    libs = _module("cupy_backends.cuda.libs", "CUDA's libraries.",
                   nvrtc=nvrtc)
    cuda = _module("cupy_backends.cuda", "CUDA.", api=api, libs=libs,
                   stream=backend_stream)
    backends = _module("cupy_backends", "CuPy's backends.", cuda=cuda)
    for m in (api, libs, cuda, backends):
        m.__path__ = []
    del _runtime
    return {
        "cupy._core": core, "cupy._core.core": core_core,
        "cupy._core._accelerator": accelerator,
        "cupy._core._fusion_trace": fusion_trace,
        "cupy._core._fusion_kernel": fusion_kernel,
        "cupy._util": util, "cupy._creation": creation,
        "cupy._creation.from_data": from_data, "cupy.cuda.texture": texture,
        "cupy_backends": backends, "cupy_backends.cuda": cuda,
        "cupy_backends.cuda.api": api,
        "cupy_backends.cuda.api.driver": fake_cupy.cuda.driver,
        "cupy_backends.cuda.api.runtime": fake_cupy.cuda.runtime,
        "cupy_backends.cuda.stream": backend_stream,
        "cupy_backends.cuda.libs": libs,
        "cupy_backends.cuda.libs.nvrtc": nvrtc,
    }
