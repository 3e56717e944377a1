"""cupyx.scipy.ndimage's sums of per-axis derivatives (generic_laplace,
laplace, gaussian_laplace, generic_gradient_magnitude,
gaussian_gradient_magnitude) as CuPy 13 runs them
(cupyx/scipy/ndimage/_filters.py), on the fake's arrays.

The derivative along each axis is written to a cupy array of the output's
type and the axes are added (squared first for the magnitude, whose
square root is taken last) with the output's arithmetic, as CuPy's
`output += tmp` does: a float32 image adds in float32, where SciPy's
delegate passed NumPy arrays to the user's derivative function. The
derivatives themselves are the fake's filters (fake_cupy._ndimage_filters)."""
import numpy

from fake_cupy import _functions, _ndimage_filters

_correlate1d = _functions.delegate(_ndimage_filters.correlate1d)
_gaussian_filter = _functions.delegate(_ndimage_filters.gaussian_filter)


def _output(output, input):
    """CuPy's _util._get_output, as a cupy array."""
    import fake_cupy
    if isinstance(output, fake_cupy.ndarray):
        if output.shape != input.shape:
            raise RuntimeError("output shape not correct")
        return output
    return fake_cupy.empty(input.shape, input.dtype if output is None
                           else numpy.dtype(output))


def _modes(mode, ndim):
    return _ndimage_filters.per_axis(mode, ndim, "mode",
                                     _ndimage_filters.check_mode)


def generic_laplace(input, derivative2, output=None, mode="reflect",
                    cval=0.0, extra_arguments=(), extra_keywords=None):
    extra_keywords = extra_keywords or {}
    modes = _modes(mode, input.ndim)
    output = _output(output, input)
    if input.ndim == 0:
        output[...] = input
        return output
    derivative2(input, 0, output, modes[0], cval, *extra_arguments,
                **extra_keywords)
    if input.ndim > 1:
        tmp = _output(output.dtype, input)
        for axis in range(1, input.ndim):
            derivative2(input, axis, tmp, modes[axis], cval,
                        *extra_arguments, **extra_keywords)
            output += tmp
    return output


def generic_gradient_magnitude(input, derivative, output=None,
                               mode="reflect", cval=0.0, extra_arguments=(),
                               extra_keywords=None):
    import fake_cupy
    extra_keywords = extra_keywords or {}
    modes = _modes(mode, input.ndim)
    output = _output(output, input)
    if input.ndim == 0:
        output[...] = input
        return output
    derivative(input, 0, output, modes[0], cval, *extra_arguments,
               **extra_keywords)
    output *= output
    if input.ndim > 1:
        tmp = _output(output.dtype, input)
        for axis in range(1, input.ndim):
            derivative(input, axis, tmp, modes[axis], cval,
                       *extra_arguments, **extra_keywords)
            tmp *= tmp
            output += tmp
    return fake_cupy.sqrt(output, output, casting="unsafe")


def laplace(input, output=None, mode="reflect", cval=0.0):
    weights = numpy.array([1, -2, 1], _ndimage_filters.init_weights_dtype(
        numpy.empty(0, input.dtype)))

    def derivative2(input, axis, output, mode, cval):
        import fake_cupy
        return _correlate1d(input, fake_cupy.asarray(weights), axis, output,
                            mode, cval)
    return generic_laplace(input, derivative2, output, mode, cval)


def _gaussian_derivative(sigma, order_along, kwargs):
    def derivative(input, axis, output, mode, cval):
        order = [0] * input.ndim
        order[axis] = order_along
        return _gaussian_filter(input, sigma, order, output, mode, cval,
                                **kwargs)
    return derivative


def gaussian_laplace(input, sigma, output=None, mode="reflect", cval=0.0,
                     **kwargs):
    return generic_laplace(input, _gaussian_derivative(sigma, 2, kwargs),
                           output, mode, cval)


def gaussian_gradient_magnitude(input, sigma, output=None, mode="reflect",
                                cval=0.0, **kwargs):
    return generic_gradient_magnitude(
        input, _gaussian_derivative(sigma, 1, kwargs), output, mode, cval)


FUNCTIONS = {f.__name__: f for f in (
    generic_laplace, generic_gradient_magnitude, laplace, gaussian_laplace,
    gaussian_gradient_magnitude)}
