"""cupy.typing of the fake CuPy: the names CuPy's module exports.

As in CuPy, ``NDArray[T]`` is the array type parametrized by a NumPy dtype
(``cupy.ndarray[Any, numpy.dtype[T]]``), ``DTypeLike`` is NumPy's, and
``ArrayLike`` is what CuPy's functions take as arrays: a cupy array, a NumPy
array-like value, or nested sequences of them. ``NBitBase`` (in some CuPy
versions) is NumPy's, looked up only when asked for.
"""
import typing

import numpy
import numpy.typing

from fake_cupy._ndarray import ndarray

__all__ = ["ArrayLike", "DTypeLike", "NDArray"]

_ScalarType_co = typing.TypeVar("_ScalarType_co", bound=numpy.generic,
                                covariant=True)

NDArray = ndarray[typing.Any, numpy.dtype[_ScalarType_co]]
DTypeLike = numpy.typing.DTypeLike
ArrayLike = typing.Union[ndarray, typing.Sequence[ndarray],
                         numpy.typing.ArrayLike]


def __getattr__(name):
    if name == "NBitBase":
        return numpy.typing.NBitBase
    raise AttributeError(f"module 'cupy.typing' has no attribute {name!r}")

