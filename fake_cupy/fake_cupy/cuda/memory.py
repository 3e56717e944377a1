"""cupy.cuda.memory of the fake CuPy."""
from fake_cupy._errors import OutOfMemoryError
from fake_cupy._memory import (BaseMemory, ManagedMemory, Memory,
                               MemoryAsync, MemoryAsyncPool, MemoryPointer,
                               MemoryPool, PooledMemory,
                               PythonFunctionAllocator, UnownedMemory, alloc,
                               get_allocator, malloc_async, malloc_managed,
                               set_allocator, using_allocator)
from fake_cupy._memory import _unpooled_malloc as _malloc

__all__ = ["BaseMemory", "ManagedMemory", "Memory", "MemoryAsync",
           "MemoryAsyncPool", "MemoryPointer", "MemoryPool",
           "OutOfMemoryError", "PooledMemory", "PythonFunctionAllocator",
           "UnownedMemory", "alloc", "get_allocator", "malloc_async",
           "malloc_managed", "set_allocator", "using_allocator"]
