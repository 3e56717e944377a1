"""CuPy's set-membership functions (cupy/_logic/truth.py), whose arguments
are narrower than NumPy's.

cupy.in1d, which CuPy keeps and NumPy 2.4 removed, ravels both arguments
with their own `.ravel()`: a list or a Python number raises AttributeError
where NumPy takes any array-like. It answers with one bool per element of
the first argument (all False, or all True with invert=True, when either
operand is empty); assume_unique is taken and ignored, as CuPy documents.
cupy.isin is in1d reshaped to the shape of `element`; it has no `kind=`
keyword (NumPy 1.24's), so passing one raises TypeError. cupy.unique
(cupy/_manipulation/add_remove.py) has no `sorted=` keyword (NumPy 2.3's):
TypeError; its values are NumPy's."""
import numpy

from fake_cupy import _functions

_numpy_isin = _functions.delegate(numpy.isin)
_numpy_unique = _functions.delegate(numpy.unique)


def in1d(ar1, ar2, assume_unique=False, invert=False):
    """cupy.in1d: whether each element of the raveled `ar1` is in `ar2`."""
    ar1 = ar1.ravel()
    ar2 = ar2.ravel()
    return _numpy_isin(ar1, ar2, invert=invert)


def isin(element, test_elements, assume_unique=False, invert=False):
    """cupy.isin: in1d in the shape of `element`."""
    return in1d(element, test_elements, assume_unique=assume_unique,
                invert=invert).reshape(element.shape)


def unique(ar, return_index=False, return_inverse=False, return_counts=False,
           axis=None, *, equal_nan=True):
    """cupy.unique: the sorted unique values of `ar`, with CuPy's keywords."""
    return _numpy_unique(ar, return_index=return_index,
                         return_inverse=return_inverse,
                         return_counts=return_counts, axis=axis,
                         equal_nan=equal_nan)
