"""cupy.exceptions: the exception and warning types CuPy shares with
NumPy (numpy.exceptions where NumPy has it)."""
import numpy

try:
    from numpy.exceptions import (AxisError, ComplexWarning,  # noqa: F401
                                  DTypePromotionError,
                                  ModuleDeprecationWarning, RankWarning,
                                  TooHardError, VisibleDeprecationWarning)
except ImportError:     # NumPy before 1.25
    AxisError = numpy.AxisError
    ComplexWarning = numpy.ComplexWarning
    ModuleDeprecationWarning = numpy.ModuleDeprecationWarning
    RankWarning = numpy.RankWarning
    TooHardError = numpy.TooHardError
    VisibleDeprecationWarning = numpy.VisibleDeprecationWarning

    class DTypePromotionError(TypeError):
        pass

__all__ = ["AxisError", "ComplexWarning", "DTypePromotionError",
           "ModuleDeprecationWarning", "RankWarning", "TooHardError",
           "VisibleDeprecationWarning"]
