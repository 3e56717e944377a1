"""cupy.cuda.memory of the fake CuPy."""
from fake_cupy._errors import OutOfMemoryError
from fake_cupy._memory import (BaseMemory, ManagedMemory, Memory,
                               MemoryAsync, MemoryAsyncPool, MemoryPointer,
                               MemoryPool, PooledMemory,
                               PythonFunctionAllocator,
                               SingleDeviceMemoryPool, UnownedMemory, alloc,
                               get_allocator, malloc_async, malloc_managed,
                               set_allocator, using_allocator)
from fake_cupy._memory import _unpooled_malloc as _malloc
from fake_cupy._memory import _round_size, _UNIT as _allocation_unit_size  # noqa: F401,E501 (CuPy's names)
from fake_cupy._memory import _parse_limit_string  # noqa: F401

__all__ = ["BaseMemory", "ManagedMemory", "Memory", "MemoryAsync",
           "MemoryAsyncPool", "MemoryPointer", "MemoryPool",
           "OutOfMemoryError", "PooledMemory", "PythonFunctionAllocator",
           "SingleDeviceMemoryPool",
           "UnownedMemory", "alloc", "get_allocator", "malloc_async",
           "malloc_managed", "set_allocator", "using_allocator"]
