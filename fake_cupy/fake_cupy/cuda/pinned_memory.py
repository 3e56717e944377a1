"""cupy.cuda.pinned_memory of the fake CuPy: page-locked host memory (plain
host memory here, see _memory.py)."""
from fake_cupy._memory import (PinnedMemory, PinnedMemoryPointer,
                               PinnedMemoryPool,
                               alloc_pinned_memory,
                               set_pinned_memory_allocator)

__all__ = ["PinnedMemory", "PinnedMemoryPointer", "PinnedMemoryPool", "alloc_pinned_memory",
           "set_pinned_memory_allocator"]
