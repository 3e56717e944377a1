"""cupy.cuda.compiler of the fake CuPy (its error type)."""
from fake_cupy._errors import CompileException

__all__ = ["CompileException"]
