"""cupy.cuda.memory_hook of the fake CuPy."""
from fake_cupy._memory_hook import MemoryHook, get_memory_hooks

__all__ = ["MemoryHook", "get_memory_hooks"]
