"""cupy.cuda.profiler of the fake CuPy: start and stop (see _profiler.py)."""
from fake_cupy._profiler import start, stop

__all__ = ["start", "stop"]
