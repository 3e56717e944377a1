"""CuPy's reductions that are `return a.METHOD(...)` of their argument, and
its rounding functions that convert theirs first.

`cupy.sum`, `prod`, `amax`/`max`, `amin`/`min`, `mean`, `var`, `std`,
`argmax`, `argmin`, `clip`, `ptp`, `trace` and `diagonal` call the method of
the same name on their first argument (CuPy's source leaves the type
unchecked): a list or a Python number has none, so
`cupy.sum([cupy.sum(a), cupy.sum(b)])` raises `AttributeError: 'list'
object has no attribute 'sum'` on a GPU; a NumPy array or scalar answers
with NumPy's method. `cupy.around`/`round`/`round_` begin with
`_core.array(a, copy=False)` and give a cupy array for a NumPy array, a
list or a scalar; so do `cupy.real` and `cupy.imag`
(`cupy/_math/arithmetic.py`: `if not isinstance(val, _core.ndarray): val =
_core.array(val)`), which an iTEBD program applies to the `.get()` of a
contraction. The fake computed the reductions of lists and scalars with
NumPy and refused a NumPy array in `around`, `real` and `imag`."""
import numpy
import pytest


@pytest.mark.parametrize("name", ["sum", "prod", "max", "amax", "min", "amin",
                                  "mean", "var", "std", "argmax", "argmin"])
def test_reduction_of_a_list_has_no_method(cp, name):
    method = {"amax": "max", "amin": "min"}.get(name, name)
    with pytest.raises(AttributeError,
                       match=f"^'list' object has no attribute '{method}'$"):
        getattr(cp, name)([cp.asarray(1.0), cp.asarray(2.0)])
    with pytest.raises(AttributeError,
                       match=f"^'float' object has no attribute '{method}'$"):
        getattr(cp, name)(2.5)


def test_clip_and_trace_of_a_list(cp):
    with pytest.raises(AttributeError, match="'list' object has no attribute 'clip'"):
        cp.clip([1, 5], 0, 2)
    with pytest.raises(AttributeError, match="'list' object has no attribute 'trace'"):
        cp.trace([[1, 0], [0, 1]])


def test_numpy_scalars_and_arrays_answer_with_their_own_method(cp):
    r = cp.mean(numpy.float64(2.0))
    assert type(r) is numpy.float64 and r == 2.0
    s = cp.sum(numpy.arange(4))
    assert type(s) is numpy.int64 and s == 6


def test_rounding_converts_its_argument(cp):
    r = cp.around(numpy.array([0.25, 1.75]), 1)
    assert isinstance(r, cp.ndarray) and r.get().tolist() == [0.2, 1.8]
    assert isinstance(cp.round(2.567, 1), cp.ndarray)
    assert float(cp.round(2.567, 1)) == 2.6
    assert cp.around([1.26], 1).get().tolist() == [1.3]


def test_real_and_imag_convert_their_argument(cp):
    host = numpy.array([1.5 + 2.0j, -3.0 - 0.5j])
    r = cp.real(host)
    assert isinstance(r, cp.ndarray) and r.dtype == numpy.float64
    assert r.get().tolist() == [1.5, -3.0]
    i = cp.imag(host)
    assert isinstance(i, cp.ndarray) and i.get().tolist() == [2.0, -0.5]
    # A 0-d NumPy array (a contraction's .get()), a list and a Python number.
    z = cp.real(numpy.array(2.0 - 1.0j))
    assert isinstance(z, cp.ndarray) and z.shape == () and float(z) == 2.0
    assert cp.imag([1j, 2.0]).get().tolist() == [1.0, 0.0]
    assert isinstance(cp.real(4.0), cp.ndarray) and float(cp.real(4.0)) == 4.0
    # A cupy array gives its own `real`: a view of a complex one's real
    # parts, and a real array itself (CuPy's `return val.real`).
    d = cp.asarray(host)
    r = cp.real(d)
    r[0] = 7.0
    assert d.get().tolist() == [7.0 + 2.0j, -3.0 - 0.5j]
    x = cp.arange(3.0)
    assert cp.real(x) is x
    assert cp.imag(x).get().tolist() == [0.0, 0.0, 0.0] and cp.imag(x) is not x


def test_cupy_arrays_are_unchanged(cp):
    x = cp.arange(6.0).reshape(2, 3)
    assert isinstance(cp.sum(x), cp.ndarray) and float(cp.sum(x)) == 15.0
    assert cp.amax(x, axis=0).get().tolist() == [3.0, 4.0, 5.0]
    assert cp.clip(x, 1, 4).get().tolist() == [[1, 1, 2], [3, 4, 4]]
    assert float(cp.trace(cp.eye(3))) == 3.0


def test_clip_takes_cupys_arguments_only(cp):
    # Projected-gradient steps clip with cupy.clip(x, lo, hi, out=x);
    # CuPy's clip(a, a_min, a_max, out=None) and ndarray.clip(min, max, out)
    # have none of NumPy 2.1's min=/max= keywords for the function nor
    # NumPy's ufunc keywords, which the fake took from NumPy.
    x = cp.arange(6.0) - 2
    with pytest.raises(TypeError, match="unexpected keyword argument 'min'"):
        cp.clip(x, min=0)
    with pytest.raises(TypeError, match="unexpected keyword argument 'dtype'"):
        cp.clip(x, 0, 1, dtype=numpy.float32)
    with pytest.raises(TypeError, match=r"^clip\(\) got an unexpected keyword argument 'a_min'$"):
        x.clip(a_min=0)
    assert x.clip(max=1).get().tolist() == [-2, -1, 0, 1, 1, 1]
    assert cp.clip(x, 0, None).get().tolist() == [0, 0, 0, 1, 2, 3]
    assert cp.clip(x, cp.zeros(6), 2.0).get().tolist() == [0, 0, 0, 1, 2, 2]
    assert cp.clip(x, 0, 1, out=x) is x and x.get().tolist() == [0, 0, 0, 1, 1, 1]
