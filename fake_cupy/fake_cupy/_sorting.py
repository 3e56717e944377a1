"""CuPy's sorting and repeating functions whose arguments are narrower than
NumPy's (cupy/_sorting/sort.py, cupy/_manipulation/tiling.py).

cupy.lexsort reads `keys.ndim` first: its keys are one cupy.ndarray of rank
one or two, so a tuple or list of key arrays, which NumPy takes, raises
AttributeError, and keys of rank three or more raise NotImplementedError.
cupy.repeat is `a.repeat(repeats, axis)`: a list or a number has no such
method, a NumPy array answers with its own, and a cupy array refuses a
cupy.ndarray of repeats (ndarray.repeat in _ndarray.py)."""
import numpy

from fake_cupy import _functions
from fake_cupy._ndarray import ndarray

_numpy_lexsort = _functions.delegate(numpy.lexsort)


def lexsort(keys):
    """cupy.lexsort: indices sorting the rows of `keys`, the last row first."""
    if not isinstance(keys, (ndarray, numpy.ndarray)):
        raise AttributeError(f"'{type(keys).__name__}' object has no attribute 'ndim'")
    if keys.ndim > 2:
        raise NotImplementedError("Keys with the rank of three or more is not "
                                  "supported in lexsort")
    return _numpy_lexsort(keys)


def repeat(a, repeats, axis=None):
    """cupy.repeat: the elements of `a` repeated, through `a.repeat`."""
    return a.repeat(repeats, axis)
