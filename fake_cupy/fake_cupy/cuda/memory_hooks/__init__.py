"""cupy.cuda.memory_hooks of the fake CuPy: DebugPrintHook and
LineProfileHook (fake_cupy._memory_hook)."""
from fake_cupy._memory_hook import DebugPrintHook, LineProfileHook

__all__ = ["DebugPrintHook", "LineProfileHook"]
