"""cupy.cuda.memory of the fake CuPy."""
from fake_cupy._errors import OutOfMemoryError
from fake_cupy._memory import (Memory, MemoryPointer, MemoryPool,
                               alloc, set_allocator)
from fake_cupy._memory import _unpooled_malloc as _malloc

__all__ = ["Memory", "MemoryPointer", "MemoryPool", "OutOfMemoryError",
           "alloc", "set_allocator"]
