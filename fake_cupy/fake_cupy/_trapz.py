"""cupy.trapz, the trapezoidal rule CuPy keeps (cupy/_math/sumprod.py)
after NumPy 2.4 removed numpy.trapz for numpy.trapezoid: the fake, which
takes NumPy's names, had none (AttributeError)."""


def trapz(y, x=None, dx=1.0, axis=-1):
    """The integral of y along `axis` by the trapezoidal rule, with sample
    points x (a cupy array: 1-D along `axis`, or of y's shape) or a spacing
    dx. As in CuPy, y and x must be cupy arrays (TypeError otherwise), and
    the result is d * (y[1:] + y[:-1]) / 2.0 summed along the axis."""
    import fake_cupy
    if not isinstance(y, fake_cupy.ndarray):
        raise TypeError("`y` should be of type cupy.ndarray")
    if x is None:
        spacing = dx
    else:
        if not isinstance(x, fake_cupy.ndarray):
            raise TypeError("`x` should be of type cupy.ndarray")
        if x.ndim == 1:
            shape = [1] * y.ndim
            shape[axis] = x.shape[0] - 1
            spacing = fake_cupy.diff(x).reshape(shape)
        else:
            spacing = fake_cupy.diff(x, axis=axis)
    upper = [slice(None)] * y.ndim
    lower = [slice(None)] * y.ndim
    upper[axis] = slice(1, None)
    lower[axis] = slice(None, -1)
    return (spacing * (y[tuple(upper)] + y[tuple(lower)]) / 2.0).sum(axis)
