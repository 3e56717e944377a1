"""CuPy's set-membership functions (cupy/_logic/truth.py), whose arguments
are narrower than NumPy's.

cupy.in1d, which CuPy keeps and NumPy 2.4 removed, ravels both arguments
with their own `.ravel()`: a list or a Python number raises AttributeError
where NumPy takes any array-like. It answers with one bool per element of
the first argument (all False, or all True with invert=True, when either
operand is empty); assume_unique is taken and ignored, as CuPy documents.
It tests membership as CuPy does, with searchsorted on the sorted `ar2`,
so a NaN is a member of an array holding a NaN (NumPy's == finds it in
nothing). cupy.isin is in1d reshaped to the shape of `element`; it has no `kind=`
keyword (NumPy 1.24's), so passing one raises TypeError. cupy.unique
(cupy/_manipulation/add_remove.py) has no `sorted=` keyword (NumPy 2.3's):
TypeError; its values are NumPy's, and its inverse without an axis is
flat, as CuPy 13's (NumPy 2's has the input's shape)."""
import numpy

from fake_cupy import _functions

_numpy_unique = _functions.delegate(numpy.unique)


def _membership(ar1, ar2, invert):
    """CuPy's test of membership: ar2 sorted, then each element of ar1 is in
    it where searchsorted's 'left' and 'right' positions differ. Sorting
    and searchsorted place NaN after every number, equal to NaN, so a NaN is
    a member of an array holding a NaN (NumPy's isin compares with ==)."""
    ar2 = numpy.sort(ar2)
    left = numpy.searchsorted(ar2, ar1, "left")
    right = numpy.searchsorted(ar2, ar1, "right")
    return left == right if invert else left != right


_device_membership = _functions.delegate(_membership)


def in1d(ar1, ar2, assume_unique=False, invert=False):
    """cupy.in1d: whether each element of the raveled `ar1` is in `ar2`."""
    ar1 = ar1.ravel()
    ar2 = ar2.ravel()
    return _device_membership(ar1, ar2, invert)


def isin(element, test_elements, assume_unique=False, invert=False):
    """cupy.isin: in1d in the shape of `element`."""
    return in1d(element, test_elements, assume_unique=assume_unique,
                invert=invert).reshape(element.shape)


def unique(ar, return_index=False, return_inverse=False, return_counts=False,
           axis=None, *, equal_nan=True):
    """cupy.unique: the sorted unique values of `ar`, with CuPy's keywords.
    Without an axis the inverse indexes the flattened `ar`, as in every
    CuPy 13 release (CuPy 14.0.0 and NumPy 2 give it `ar`'s shape)."""
    result = _numpy_unique(ar, return_index=return_index,
                           return_inverse=return_inverse,
                           return_counts=return_counts, axis=axis,
                           equal_nan=equal_nan)
    if not (return_inverse and axis is None):
        return result
    result = list(result)
    where = 2 if return_index else 1
    result[where] = result[where].ravel()
    return tuple(result)
