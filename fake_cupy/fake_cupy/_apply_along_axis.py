"""cupy.apply_along_axis, as CuPy's (cupy/lib/_shape_base.py).

NumPy's apply_along_axis hands func1d NumPy slices, so a func1d that calls
cupy functions on its slice (`cupy.isnan(v)`, `cupy.median(v)`) met the
fake's refusal of host arrays where CuPy runs it. CuPy's gives func1d each
1-D slice as a cupy view of the input, copies each result to the device with
cupy.asarray (a Python or NumPy scalar, a NumPy array), and stores the
results in a new array of the first result's dtype, whose last axes (the
result's) are moved back to where the sliced axis was. The input is read as
CuPy reads it: `arr.ndim` first (a list raises AttributeError), then
cupy.moveaxis (an axis out of range is NumPy's AxisError)."""
import numpy


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """Calls func1d on each 1-D slice of arr along axis (a cupy view) and
    gives the results as one cupy array."""
    import fake_cupy as cupy
    ndim = arr.ndim
    axis = numpy.lib.array_utils.normalize_axis_index(axis, ndim)
    slices = cupy.moveaxis(arr, axis, -1)
    # Each index ends in an Ellipsis, so that a slice is a 1-D view and a
    # 0-d result keeps its place in the output.
    indices = (index + (Ellipsis,) for index in numpy.ndindex(slices.shape[:-1]))
    first_index = next(indices, None)
    if first_index is None:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    first = cupy.asarray(func1d(slices[first_index], *args, **kwargs))
    out = cupy.empty(slices.shape[:-1] + first.shape, first.dtype)
    out[first_index] = first
    for index in indices:
        out[index] = cupy.asarray(func1d(slices[index], *args, **kwargs))
    for _ in range(first.ndim):
        out = cupy.moveaxis(out, -1, axis)
    return out
