"""cupy.cuda of the fake CuPy: devices, streams, events, memory pools."""
from fake_cupy._errors import LifetimeError
from fake_cupy._memory import (BaseMemory, ManagedMemory, Memory,
                               MemoryAsync, MemoryAsyncPool, MemoryPointer,
                               MemoryPool, PinnedMemory,
                               PinnedMemoryPointer,
                               PinnedMemoryPool, PooledMemory,
                               PythonFunctionAllocator, UnownedMemory, alloc,
                               alloc_pinned_memory,
                               get_allocator, malloc_async, malloc_managed,
                               set_allocator, set_pinned_memory_allocator,
                               using_allocator)
from fake_cupy._runtime import (Device, Event, ExternalStream, Graph,
                                Stream, get_current_stream, get_elapsed_time,
                                set_async_mode, async_mode)
from fake_cupy.cuda import (compiler, cufft, curand, device, driver, graph, memory,
                            memory_hook, memory_hooks, nvrtc, nvtx,
                            pinned_memory, profiler, runtime, stream)
from fake_cupy.cuda.memory_hook import MemoryHook
from fake_cupy.cuda.compiler import compile_with_cache
from fake_cupy import _texture as texture  # cupy.cuda.texture

Stream.null = Stream(null=True)
Stream.ptds = Stream(ptds=True)


def get_device_id():
    """The current device's id."""
    return Device().id


def is_available():
    return True


def get_nvcc_path():
    """The nvcc CuPy would use (the NVCC variable, else CUDA_PATH's or the
    toolkit's bin/nvcc), or None; the fake runs what NVRTC would build."""
    import os
    import shutil
    from fake_cupy import _nvrtc
    nvcc = os.environ.get("NVCC")
    if nvcc:
        return nvcc
    path = os.path.join(_nvrtc._cuda_path(), "bin", "nvcc")
    return path if os.path.isfile(path) else shutil.which("nvcc")


def get_local_runtime_version():
    """The CUDA runtime version the fake stands for."""
    return runtime.runtimeGetVersion()


def check_pending():
    """Runs the queued work and raises the first error left (a kernel fault
    or a lifetime report), as a device synchronization would."""
    from fake_cupy import _runtime
    _runtime.synchronize_all()


__all__ = ["BaseMemory", "ManagedMemory", "Memory", "MemoryAsync",
           "MemoryAsyncPool", "PooledMemory", "PythonFunctionAllocator",
           "UnownedMemory", "device", "get_allocator",
           "get_local_runtime_version", "malloc_async", "malloc_managed",
           "Device", "Event", "ExternalStream", "Graph", "LifetimeError",
           "MemoryPointer", "alloc", "alloc_pinned_memory", "MemoryPool", "PinnedMemory", "PinnedMemoryPointer",
           "PinnedMemoryPool", "Stream", "async_mode", "check_pending",
           "compile_with_cache", "compiler", "curand", "driver", "get_current_stream", "get_device_id",
           "get_elapsed_time", "get_nvcc_path", "graph", "is_available", "memory", "MemoryHook", "memory_hook", "memory_hooks", "nvrtc", "nvtx", "pinned_memory", "profiler", "runtime",
           "set_allocator", "set_async_mode", "set_pinned_memory_allocator",
           "stream", "using_allocator"]
