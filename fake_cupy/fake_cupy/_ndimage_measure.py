"""cupyx.scipy.ndimage's measurements over labelled regions (sum_labels,
sum, mean, variance, standard_deviation, center_of_mass,
labeled_comprehension, histogram) with CuPy 13's arguments and results
(cupyx/scipy/ndimage/_measurements.py); the values are SciPy's or NumPy's.

Where SciPy's differ:
- `input` must be a cupy array (TypeError 'input must be cupy.ndarray'),
  complex data is refused, `labels` must be a cupy array (TypeError 'label
  must be cupy.ndarray');
- `index` is None, a Python int or a cupy array: a list, a range or a
  NumPy array is TypeError('index must be cupy.ndarray or a scalar int')
  (mean and variance also take a NumPy scalar); so
  `center_of_mass(img, labels, range(1, n + 1))`, SciPy's idiom, fails on
  a GPU;
- an int index sums in the input's type (a float32 image gives a float32
  sum) and a cupy index gives float64 values of the index's shape (an
  empty one: an empty int64 array);
- center_of_mass gives, for a cupy index, a list of one cupy array of
  coordinates per label (SciPy: a list of tuples), else a tuple of 0-d
  arrays;
- labeled_comprehension calls `func` on cupy arrays (SciPy's hands it
  NumPy arrays, which CuPy functions refuse) and gives a cupy array of
  `out_dtype` (a list for `object`, as histogram's result)."""
import numpy

from fake_cupy._ndarray import ndarray

_INDEX_ERROR = "index must be cupy.ndarray or a scalar int"


def _cupy():
    import fake_cupy
    return fake_cupy


def _scipy_ndimage():
    import scipy.ndimage
    return scipy.ndimage


def _check(input, labels, name, verb="does not support"):
    if not isinstance(input, ndarray):
        raise TypeError("input must be cupy.ndarray")
    if input.dtype.kind == "c":
        raise TypeError(f"cupyx.scipy.ndimage.{name} {verb} "
                        f"%{input.dtype.type}")
    if labels is not None and not isinstance(labels, ndarray):
        raise TypeError("label must be cupy.ndarray")


def _per_label(scipy_function, input, labels, index):
    """SciPy's per-label values for a cupy index, float64 of its shape."""
    values = scipy_function(input.get(), labels.get(), index.get().ravel())
    return _cupy().asarray(
        numpy.asarray(values, dtype=numpy.float64).reshape(index.shape))


def sum_labels(input, labels=None, index=None):
    _check(input, labels, "sum")
    if labels is None:
        return input.sum()
    input, labels = _cupy().broadcast_arrays(input, labels)
    if index is None:
        return input[labels != 0].sum()
    if not isinstance(index, ndarray):
        if not isinstance(index, int):
            raise TypeError(_INDEX_ERROR)
        return input[labels == index].sum()
    if index.size == 0:
        return _cupy().array([], dtype=numpy.int64)
    return _per_label(_scipy_ndimage().sum_labels, input, labels, index)


def sum(input, labels=None, index=None):
    return sum_labels(input, labels, index)


def _mean_of(values):
    return values.sum() / _cupy().asanyarray(values.size).astype(float)


def mean(input, labels=None, index=None):
    _check(input, labels, "mean")
    if labels is None:
        return _mean_of(input)
    input, labels = _cupy().broadcast_arrays(input, labels)
    if index is None:
        return _mean_of(input[labels > 0])
    if numpy.isscalar(index):
        return _mean_of(input[labels == index])
    if not isinstance(index, ndarray):
        raise TypeError(_INDEX_ERROR)
    return _per_label(_scipy_ndimage().mean, input, labels, index)


def _variance_of(values):
    centred = values - values.mean()
    return _cupy().square(centred).sum() / \
        _cupy().asanyarray(centred.size).astype(float)


def variance(input, labels=None, index=None):
    _check(input, labels, "variance", "doesn't support")
    if labels is None:
        return _variance_of(input)
    input, labels = _cupy().broadcast_arrays(input, labels)
    if index is None:
        return _variance_of(input[labels > 0])
    if numpy.isscalar(index):
        return _variance_of(input[labels == index])
    if not isinstance(index, ndarray):
        raise TypeError(_INDEX_ERROR)
    return _per_label(_scipy_ndimage().variance, input, labels, index)


def standard_deviation(input, labels=None, index=None):
    return _cupy().sqrt(variance(input, labels, index))


def center_of_mass(input, labels=None, index=None):
    cupy = _cupy()
    total = sum_labels(input, labels, index)
    grids = cupy.ogrid[[slice(0, n) for n in input.shape]]
    axes = [sum_labels(input * grids[d].astype(float), labels, index) / total
            for d in range(input.ndim)]
    if isinstance(axes[0], ndarray) and axes[0].ndim == 0:
        return tuple(axes)
    return [v for v in cupy.stack(axes, axis=-1)]


def labeled_comprehension(input, labels, index, func, out_dtype, default,
                          pass_positions=False):
    cupy = _cupy()
    as_scalar = numpy.isscalar(index)
    input = cupy.asarray(input)
    positions = cupy.arange(input.size).reshape(input.shape) \
        if pass_positions else None

    def call(selection):
        if pass_positions:
            return func(input[selection], positions[selection])
        return func(input[selection])
    if labels is None:
        if index is not None:
            raise ValueError("index without defined labels")
        return func(input.ravel(), positions.ravel()) if pass_positions \
            else func(input.ravel())
    try:
        input, labels = cupy.broadcast_arrays(input, labels)
    except ValueError:
        raise ValueError("input and labels must have the same shape "
                         "(excepting dimensions with width 1)") from None
    if pass_positions:
        positions = cupy.broadcast_to(positions, input.shape)
    if index is None:
        return call(labels > 0)
    index = cupy.atleast_1d(cupy.asarray(index))
    if bool((index.astype(labels.dtype).astype(index.dtype) != index).any()):
        raise ValueError(
            "Cannot convert index values from <%s> to <%s> (labels.dtype) "
            "without loss of precision" % (index.dtype, labels.dtype))
    index = index.astype(labels.dtype)
    values = index.get().ravel().tolist()
    if out_dtype is object:
        output = [default] * len(values)
    else:
        output = cupy.empty(index.shape, out_dtype)
        if default is None and output.dtype.kind in "fc":
            default = numpy.nan
        output[:] = default
    flat = output if out_dtype is object else output.reshape(-1)
    for i, label in enumerate(values):
        selection = labels == label
        if bool(selection.any()):
            flat[i] = call(selection)
    if as_scalar:
        return output[0]
    return output


def histogram(input, min, max, bins, labels=None, index=None):
    cupy = _cupy()
    edges = cupy.linspace(min, max, bins + 1)
    return labeled_comprehension(
        input, labels, index, lambda v: cupy.histogram(v, edges)[0], object,
        None)


FUNCTIONS = {f.__name__: f for f in (
    sum_labels, sum, mean, variance, standard_deviation, center_of_mass,
    labeled_comprehension, histogram)}
