"""cupy.einsum of the fake CuPy, with CuPy's arguments.

CuPy's einsum (cupy/linalg/_einsum.py) takes two keywords, `dtype` and
`optimize` (True, False, 'greedy', 'optimal' or an 'einsum_path' list);
any other (NumPy's `out`, `order`, `casting`) raises TypeError (CuPy means
"Did not understand the following kwargs: [...]"; its formatting of that
message fails with TypeError "'builtin_function_or_method' object is not
iterable").  The result type is `cupy.result_type` of the operands unless
`dtype` is given, so a list operand is refused there (NumPy's result_type
takes no list) while a NumPy array or a Python number is taken; then every
operand is copied to the device with `cupy.asanyarray`, and cast to the
result type without a casting rule (dtype=float32 of float64 operands is
taken, where NumPy's einsum wants a safe cast).  Both the subscripts-string
form and the interleaved form (a, [0, 1], b, [1, 2], [0, 2]) are taken.
"""
import numpy

from fake_cupy import _functions
from fake_cupy._ndarray import ndarray


def _operand_positions(args):
    """The positions of the operands in einsum's positional arguments."""
    if args and isinstance(args[0], str):
        return list(range(1, len(args)))
    # Interleaved: operand, its subscripts, operand, ..., [output subscripts].
    return list(range(0, len(args) - 1, 2))


def einsum(*args, **kwargs):
    """Evaluates the Einstein summation convention, as CuPy's einsum."""
    dtype = kwargs.pop("dtype", None)
    optimize = kwargs.pop("optimize", False)
    if kwargs:
        raise TypeError("Did not understand the following kwargs: %s" % list(kwargs))
    if not args:
        raise ValueError("must specify the einstein sum subscripts string and at "
                         "least one operand, or at least one operand and its "
                         "corresponding subscripts list")
    positions = _operand_positions(args)
    operands = [args[i] for i in positions]
    if dtype is None:
        dtype = numpy.result_type(*[o.dtype if isinstance(o, ndarray) else o
                                    for o in operands])
    args = list(args)
    for i in positions:
        args[i] = _functions.asanyarray(args[i])
    return _functions.delegate(numpy.einsum)(*args, dtype=dtype, casting="unsafe",
                                             optimize=optimize)
