"""CuPy 13's typing of scalar operands in ufuncs and the operators.

CuPy 13 types a ufunc's scalar operands by their values, as NumPy 1 did
(cupy/_core/_kernel.pyx: _check_should_use_min_scalar, _min_scalar_type,
_Ops.guess_routine). A Python scalar becomes a NumPy scalar first (bool,
int64 or uint64 past int64's range, float64, complex128), and NumPy scalars
are treated exactly as Python ones. When the call has an array operand and
no scalar is of a higher kind than the arrays (kinds scored bool 0, integer
1, floating and complex 2), each scalar counts as numpy.min_scalar_type of
its value, a non-negative integer that fits the signed type of that size
as either type; otherwise each scalar counts as its dtype. The ufunc's
first loop to which every operand casts safely is taken, and the scalars
are cast to the loop's types. NumPy 2 (NEP 50) keeps a NumPy scalar's
dtype and a Python scalar's kind: `complex64_array / numpy.float64(2)` is
complex128 there and complex64 in CuPy 13, `int8_array + 1000` an
OverflowError there and int16 in CuPy 13.

Here each scalar operand is replaced by a NumPy scalar of the loop's type
CuPy 13 picks, so that NumPy 2 computes in that loop. The loops searched
are NumPy's (those of CuPy's types), which CuPy's ufuncs mirror. An explicit
dtype= or signature= is left to NumPy, as are calls without an array or a
scalar operand (a 0-d cupy array is an array here as in CuPy). cupy.fuse
keeps its own typing (_fusion.py).
"""
import functools

import numpy

_KIND_SCORE = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 2}
_CUPY_TYPES = frozenset("?bBhHiIlLqQefdFD")
_PYTHON_SCALARS = (bool, int, float, complex)

# numpy.ndarray's operators and the ufunc each computes; a reflected one
# takes its operands the other way round (the same loop search here, as the
# scalar is typed alike in either place).
_OPERATORS = {}
for _name, _ufunc in (
        ("add", numpy.add), ("sub", numpy.subtract), ("mul", numpy.multiply),
        ("truediv", numpy.true_divide), ("floordiv", numpy.floor_divide),
        ("mod", numpy.remainder), ("pow", numpy.power),
        ("and", numpy.bitwise_and), ("or", numpy.bitwise_or),
        ("xor", numpy.bitwise_xor), ("lshift", numpy.left_shift),
        ("rshift", numpy.right_shift)):
    for _prefix in ("__", "__r", "__i"):
        _OPERATORS[getattr(numpy.ndarray, f"{_prefix}{_name}__")] = _ufunc
for _name, _ufunc in (("eq", numpy.equal), ("ne", numpy.not_equal),
                      ("lt", numpy.less), ("le", numpy.less_equal),
                      ("gt", numpy.greater), ("ge", numpy.greater_equal)):
    _OPERATORS[getattr(numpy.ndarray, f"__{_name}__")] = _ufunc


def _is_scalar(x):
    return type(x) in _PYTHON_SCALARS or isinstance(x, numpy.generic)


def _numpy_scalar(x):
    """The NumPy scalar CuPy makes of a Python scalar (a NumPy one as is)."""
    if isinstance(x, numpy.generic):
        return x
    if type(x) is bool:
        return numpy.bool_(x)
    if type(x) is int:
        return numpy.uint64(x) if x >= 2 ** 63 else numpy.int64(x)
    return numpy.float64(x) if type(x) is float else numpy.complex128(x)


def _min_scalar_types(x):
    """numpy.min_scalar_type of `x`, with the signed type of the same size
    too for a non-negative integer that fits it (either may be cast)."""
    t = numpy.min_scalar_type(x)
    if t.kind == "u":
        signed = numpy.dtype(t.char.lower())
        if x <= numpy.iinfo(signed).max:
            return (t, signed)
    return (t,)


@functools.lru_cache(maxsize=None)
def _loop(ufunc, types):
    """The first of `ufunc`'s loops over CuPy's types to which each operand
    (a tuple of dtypes, any of which may cast) casts safely; remembered for
    each ufunc and operands' types (the search costs more than the
    operation on a small array)."""
    for loop in ufunc.types:
        ins = loop.split("->")[0]
        if not _CUPY_TYPES.issuperset(loop.replace("->", "")):
            continue
        if all(any(numpy.can_cast(t, numpy.dtype(c)) for t in ts)
               for ts, c in zip(types, ins)):
            return ins
    return None


def cupy_operands(func, args, kwargs):
    """`args` with each scalar operand of a ufunc call or an operator made a
    NumPy scalar of the type CuPy 13's loop gives it; `args` itself where
    the call is not such a one."""
    ufunc = _OPERATORS.get(func)
    if ufunc is None:
        if not isinstance(func, numpy.ufunc) or "dtype" in kwargs or \
                "signature" in kwargs:
            return args
        ufunc = func
    inputs = args[:ufunc.nin]
    if len(inputs) < 2 or not any(_is_scalar(x) for x in inputs) or \
            not any(isinstance(x, numpy.ndarray) for x in inputs):
        return args
    scalars = {i: _numpy_scalar(x) for i, x in enumerate(inputs) if _is_scalar(x)}
    array_kind = max(_KIND_SCORE.get(x.dtype.kind, -1) for x in inputs
                     if isinstance(x, numpy.ndarray))
    scalar_kind = max(_KIND_SCORE.get(s.dtype.kind, -1) for s in scalars.values())
    by_value = array_kind >= scalar_kind
    types = []
    for i, x in enumerate(inputs):
        if i not in scalars:
            types.append((x.dtype,) if hasattr(x, "dtype") else (None,))
        elif by_value:
            types.append(_min_scalar_types(scalars[i]))
        else:
            types.append((scalars[i].dtype,))
    if any(t is None for ts in types for t in ts):
        return args
    ins = _loop(ufunc, tuple(types))
    if ins is None:
        return args
    typed = list(args)
    for i, s in scalars.items():
        typed[i] = numpy.dtype(ins[i]).type(s)
    return tuple(typed)

