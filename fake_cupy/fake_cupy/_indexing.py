"""CuPy's extract and compress (cupy/_indexing/indexing.py and
_routines_indexing.pyx), which take the nonzero indices of a condition with
`take`, so that indices past the array wrap as CuPy's take wraps them
(_index_wrap.py), where NumPy raises IndexError.

- extract: `a` must be a cupy.ndarray (TypeError), the condition may be host
  data (copied to the device); `a.ravel().take(condition.ravel().nonzero()[0])`.
- ndarray.compress: a scalar condition, or host data of other than one
  dimension, raises ValueError("condition must be a 1-d array"); the length
  of the condition is not tested. cupy.compress is `a.compress(condition,
  axis, out)`."""
import numpy

from fake_cupy._functions import array
from fake_cupy._ndarray import ndarray


def extract(condition, a):
    """cupy.extract: the elements of `a` where `condition` is nonzero."""
    if not isinstance(a, ndarray):
        raise TypeError("extract requires input array to be cupy.ndarray")
    if not isinstance(condition, ndarray):
        condition = array(condition)
    return a.ravel().take(condition.ravel().nonzero()[0])


def _compress(self, condition, axis=None, out=None):
    """ndarray.compress: the slices along `axis` where `condition` is nonzero."""
    if numpy.isscalar(condition):
        raise ValueError("condition must be a 1-d array")
    if not isinstance(condition, ndarray):
        condition = array(condition, dtype=int)
        if condition.ndim != 1:
            raise ValueError("condition must be a 1-d array")
    return self.take(condition.nonzero()[0], axis=axis, out=out)


def compress(condition, a, axis=None, out=None):
    """cupy.compress: `a.compress(condition, axis, out)`."""
    return a.compress(condition, axis, out)


ndarray.compress = _compress
