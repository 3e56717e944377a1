"""NumPy 1's scalar-type helpers that NumPy 2 removed and CuPy 13 defines
itself (cupy/__init__.py): obj2sctype, issctype, issubsctype, issubclass_
and sctype2char, with NumPy 1.26's behaviour; and byte_bounds
(cupy/_misc/byte_bounds.py), which reads a device array's pointer."""
import numpy


def issubclass_(arg1, arg2):
    """issubclass(arg1, arg2), False where either is not a class."""
    try:
        return issubclass(arg1, arg2)
    except TypeError:
        return False


def obj2sctype(rep, default=None):
    """The scalar type of `rep` (a scalar type, a NumPy array or anything
    numpy.dtype takes), or `default` where it has none."""
    if isinstance(rep, type) and issubclass(rep, numpy.generic):
        # Abstract types such as numpy.floating stay as they are.
        return rep
    if isinstance(rep, numpy.ndarray):
        return rep.dtype.type
    try:
        return numpy.dtype(rep).type
    except Exception:
        return default


def issubsctype(arg1, arg2):
    """Whether the scalar type of `arg1` derives from that of `arg2`."""
    return issubclass(obj2sctype(arg1), obj2sctype(arg2))


def sctype2char(sctype):
    """The type character of the scalar type `sctype` names."""
    scalar_type = obj2sctype(sctype)
    if scalar_type is None:
        raise ValueError("unrecognized type")
    return numpy.dtype(scalar_type).char


def issctype(rep):
    """Whether `rep` (a type or a dtype) names a scalar type other than
    object."""
    if not isinstance(rep, (type, numpy.dtype)):
        return False
    try:
        scalar_type = obj2sctype(rep)
    except Exception:
        return False
    return bool(scalar_type) and scalar_type is not numpy.object_


def byte_bounds(a):
    """The device addresses of the first byte of `a`'s lowest element and
    of the byte after its highest: (low, high)."""
    low = high = a.data.ptr
    for extent, stride in zip(a.shape, a.strides):
        if stride < 0:
            low += (extent - 1) * stride
        else:
            high += (extent - 1) * stride
    return low, high + a.itemsize
