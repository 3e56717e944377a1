"""ndarray.astype in CuPy takes no `casting` and no `subok`.

CuPy's `_ndarray_base._astype` begins with `if casting is not None: raise
TypeError('casting is not supported yet')` and the same for `subok`, so
`x.astype(cupy.int8, casting='safe')`, which NumPy checks and refuses with
its own TypeError only when the cast is unsafe, is refused on a GPU for any
value. The fake ignored both arguments, so such code ran on the fake (even
an unsafe cast, silently wrapped) and failed on a GPU."""
import numpy
import pytest


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
def test_any_casting_argument_is_refused(cp, casting):
    with pytest.raises(TypeError, match="^casting is not supported yet$"):
        cp.arange(3).astype(cp.float64, casting=casting)


def test_subok_is_refused(cp):
    with pytest.raises(TypeError, match="^subok is not supported yet$"):
        cp.arange(3).astype(cp.float32, subok=True)


def test_astype_wraps_and_rounds_as_numpy_without_casting(cp):
    x = cp.asarray([300, -129, 127], dtype=cp.int32)
    assert x.astype(cp.int8).get().tolist() == [44, 127, 127]
    y = cp.asarray([1.5, 65520.0], dtype=cp.float32).astype(cp.float16)
    assert y.dtype == numpy.float16 and y.get()[0] == numpy.float16(1.5)
    assert numpy.isinf(y.get()[1])
    z = cp.asarray([1 + 2j], dtype=cp.complex64)
    assert z.astype(cp.complex128, copy=False).dtype == numpy.complex128
    assert z.astype(cp.complex64, copy=False) is z
