"""CuPy's checks before cupyx.scipy.ndimage's binary erosion, dilation,
opening and closing (cupyx/scipy/ndimage/_morphology.py), whose values the
fake takes from SciPy.

- CuPy iterates its erosion kernel only in brute-force mode: more than one
  iteration (or iterations < 1, "until nothing changes") with the default
  brute_force=False raises NotImplementedError('only brute_force iteration
  has been implemented') whenever the structure's centre is set (always for
  the default structure). So `binary_opening(mask, iterations=2)`, SciPy's
  idiom for removing specks, ran on the fake and stops on a GPU;
  binary_fill_holes and binary_propagation pass brute_force=True and run.
- `iterations` must be an integer (TypeError 'iterations parameter should
  be an integer'), and a structure is converted with `structure.astype`, so
  a list is AttributeError."""
import functools
import inspect
import operator

import numpy

from fake_cupy._ndarray import ndarray


def _origins(origin, ndim):
    if numpy.ndim(origin) == 0:
        return [int(origin)] * ndim
    return [int(o) for o in origin]


def _center_is_set(structure, origin, ndim, dilation):
    """Whether CuPy's kernel sees the structure's centre as set."""
    if structure is None:
        return True
    s = structure.get().astype(bool)
    origin = _origins(origin, ndim)
    if dilation:
        # CuPy dilates by eroding with the reflected structure and origin.
        s = s[(slice(None, None, -1),) * s.ndim]
        origin = [-o - (0 if n & 1 else 1) for o, n in zip(origin, s.shape)]
    if s.all():
        return True
    return bool(s[tuple(o + n // 2 for o, n in zip(origin, s.shape))])


def checked(func, first_step_is_dilation):
    """`func` (the fake's delegate of SciPy's binary_erosion, ...) after
    CuPy's checks; first_step_is_dilation tells which of CuPy's kernels
    `func` runs first (closing and dilation dilate first)."""
    import scipy.ndimage
    signature = inspect.signature(getattr(scipy.ndimage, func.__name__))

    @functools.wraps(func)
    def call(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        arguments = bound.arguments
        try:
            iterations = operator.index(arguments["iterations"])
        except TypeError:
            raise TypeError("iterations parameter should be an integer") \
                from None
        structure = arguments["structure"]
        if structure is not None and not hasattr(structure, "astype"):
            raise AttributeError(f"'{type(structure).__name__}' object has "
                                 "no attribute 'astype'")
        ndim = numpy.ndim(arguments["input"])
        # A host structure is refused by CuPy's kernels first (TypeError,
        # as the fake's delegate refuses it).
        device = structure is None or isinstance(structure, ndarray)
        if iterations != 1 and not arguments["brute_force"] and device and \
                _center_is_set(structure, arguments["origin"], ndim,
                               first_step_is_dilation):
            raise NotImplementedError(
                "only brute_force iteration has been implemented")
        return func(*args, **kwargs)
    return call


# Each function, and whether its first kernel is a dilation.
FUNCTIONS = {"binary_erosion": False, "binary_dilation": True,
             "binary_opening": False, "binary_closing": True}
