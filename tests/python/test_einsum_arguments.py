"""cupy.einsum's arguments, as CuPy's einsum (cupy/linalg/_einsum.py) takes them.

Its keywords are `dtype` and `optimize`; NumPy's `out`, `order` and
`casting` raise TypeError.  The result type is `cupy.result_type` of the
operands (NumPy's result_type, which refuses a list) unless `dtype` is
given, and each operand is then copied to the device (`cupy.asanyarray`):
a NumPy array is taken, and so is a list when `dtype` is given.  The cast
to `dtype` has no casting rule.  The fake delegated to NumPy's einsum, so
it refused NumPy operands and took lists, `out=` and `casting=`, as NumPy
does and CuPy does not (found while trying tensor-network programs whose
contractions are einsum calls)."""
import numpy
import pytest


def test_numpy_operands_are_copied_to_the_device(cp):
    a = numpy.arange(6.0).reshape(2, 3)
    b = cp.arange(12.0).reshape(3, 4)
    r = cp.einsum("ij,jk->ik", a, b)
    assert isinstance(r, cp.ndarray)
    numpy.testing.assert_allclose(r.get(), a @ b.get())


def test_a_list_operand_needs_dtype(cp):
    b = cp.eye(2)
    with pytest.raises(TypeError):
        cp.einsum("ij,jk->ik", [[1.0, 2.0], [3.0, 4.0]], b)
    r = cp.einsum("ij,jk->ik", [[1.0, 2.0], [3.0, 4.0]], b, dtype=cp.float64)
    assert r.get().tolist() == [[1.0, 2.0], [3.0, 4.0]]


@pytest.mark.parametrize("keyword", [{"out": None}, {"order": "C"}, {"casting": "safe"}])
def test_numpy_only_keywords_are_refused(cp, keyword):
    a = cp.ones((2, 2))
    if "out" in keyword:
        keyword = {"out": cp.empty((2, 2))}
    with pytest.raises(TypeError):
        cp.einsum("ij,jk->ik", a, a, **keyword)


def test_dtype_casts_without_a_casting_rule_and_optimize(cp):
    a = cp.full((2, 2), 1.5)
    r = cp.einsum("ij,jk->ik", a, a, dtype=cp.float32)
    assert r.dtype == numpy.float32 and r.get().tolist() == [[4.5, 4.5], [4.5, 4.5]]
    for optimize in (True, False, "greedy", "optimal"):
        assert float(cp.einsum("ij,ij->", a, a, optimize=optimize)) == 9.0


def test_partial_trace_and_interleaved_form(cp):
    rho = cp.arange(16.0).reshape(2, 2, 2, 2).astype(cp.complex128)
    r = cp.einsum("ijkj->ik", rho)
    numpy.testing.assert_allclose(r.get(), numpy.einsum("ijkj->ik", rho.get()))
    x, y = cp.arange(6.0).reshape(2, 3), cp.arange(3.0)
    assert cp.einsum(x, [0, 1], y, [1], [0]).get().tolist() == [5.0, 14.0]
