"""cupyx.errstate, cupyx.seterr and cupyx.geterr, and what cupy.linalg does
with a singular matrix under them.

Public code wraps its solves in ``with cupyx.errstate(linalg="raise"):`` to
get numpy.linalg.LinAlgError from a singular matrix (a rank check before a
fallback to lstsq, an initial Gram matrix checked for definiteness); the fake
had no errstate, so such code stopped with AttributeError. CuPy's default
is linalg='ignore': cuSOLVER's status is not read back, and the solve of a
singular matrix runs through its zero pivot, giving inf and nan, where NumPy
raises. Only linalg and fallback_mode are settable; CuPy raises
NotImplementedError for divide, over, under and invalid."""
import numpy
import pytest

import fake_cupy
from fake_cupy import _cupyx as cupyx

SINGULAR = [[1.0, 2.0], [2.0, 4.0]]


def test_default_state_is_cupys():
    state = cupyx.geterr()
    assert state == {"divide": None, "over": None, "under": None,
                     "invalid": None, "linalg": "ignore",
                     "fallback_mode": "ignore"}


def test_errstate_sets_linalg_and_restores_it():
    with cupyx.errstate(linalg="raise"):
        assert cupyx.geterr()["linalg"] == "raise"
        with cupyx.errstate(linalg="ignore"):
            assert cupyx.geterr()["linalg"] == "ignore"
        assert cupyx.geterr()["linalg"] == "raise"
    assert cupyx.geterr()["linalg"] == "ignore"


def test_seterr_returns_the_old_state():
    old = cupyx.seterr(linalg="raise")
    try:
        assert old["linalg"] == "ignore"
        assert cupyx.geterr()["linalg"] == "raise"
    finally:
        cupyx.seterr(**old)
    assert cupyx.geterr() == old


@pytest.mark.parametrize("name", ["divide", "over", "under", "invalid"])
def test_floating_point_modes_are_not_implemented(name):
    with pytest.raises(NotImplementedError):
        cupyx.seterr(**{name: "raise"})
    with pytest.raises(NotImplementedError):
        with cupyx.errstate(**{name: "ignore"}):
            pass
    assert cupyx.geterr()["linalg"] == "ignore"


def test_bad_values_are_refused():
    with pytest.raises(NotImplementedError):
        cupyx.seterr(linalg="warn")
    with pytest.raises(ValueError):
        cupyx.seterr(fallback_mode="loud")
    with pytest.raises(TypeError):
        cupyx.seterr("raise")          # keyword-only, as CuPy's
    assert cupyx.geterr()["linalg"] == "ignore"


def test_state_is_per_thread():
    import threading
    seen = []
    with cupyx.errstate(linalg="raise"):
        thread = threading.Thread(target=lambda: seen.append(cupyx.geterr()["linalg"]))
        thread.start()
        thread.join()
    assert seen == ["ignore"]


def test_raise_mode_raises_linalgerror_on_singular_matrices(cp):
    a = cp.asarray(SINGULAR)
    with cupyx.errstate(linalg="raise"):
        with pytest.raises(numpy.linalg.LinAlgError):
            cp.linalg.inv(a)
        with pytest.raises(cp.linalg.LinAlgError):
            cp.linalg.solve(a, cp.asarray([1.0, 1.0]))


def test_ignore_mode_solves_through_the_zero_pivot(cp):
    a = cp.asarray(SINGULAR)
    inv = cp.linalg.inv(a)
    assert isinstance(inv, cp.ndarray) and inv.shape == (2, 2)
    assert inv.dtype == numpy.float64
    assert not numpy.isfinite(inv.get()).all()
    x = cp.linalg.solve(a, cp.asarray([1.0, 1.0]))
    assert x.shape == (2,) and not numpy.isfinite(x.get()).all()
    # A float32 matrix keeps its dtype; a batch is solved matrix by matrix.
    batch = cp.asarray(numpy.stack([numpy.eye(2), SINGULAR]).astype(numpy.float32))
    inv = cp.linalg.inv(batch)
    assert inv.dtype == numpy.float32
    numpy.testing.assert_array_equal(inv.get()[0], numpy.eye(2))
    assert not numpy.isfinite(inv.get()[1]).all()


def test_regular_matrices_are_unchanged_in_both_modes(cp):
    rs = numpy.random.RandomState(0)
    m = rs.randn(4, 4) + 4 * numpy.eye(4)
    b = rs.randn(4, 3)
    for mode in ("ignore", "raise"):
        with cupyx.errstate(linalg=mode):
            numpy.testing.assert_allclose(cp.linalg.inv(cp.asarray(m)).get(),
                                          numpy.linalg.inv(m))
            numpy.testing.assert_allclose(
                cp.linalg.solve(cp.asarray(m), cp.asarray(b)).get(),
                numpy.linalg.solve(m, b))


def test_public_pattern_falls_back_to_lstsq(cp):
    # The pattern of a public filter-design routine: solve, and on a
    # rank-deficient system fall back to least squares.
    q = cp.asarray(SINGULAR)
    b = cp.asarray([1.0, 2.0])
    with cupyx.errstate(linalg="raise"):
        try:
            a = cp.linalg.solve(q, b)
        except numpy.linalg.LinAlgError:
            a = cp.linalg.lstsq(q, b, rcond=None)[0]
    numpy.testing.assert_allclose((q @ a).get(), b.get())


def test_installed_cupyx_has_them():
    fake_cupy.install()
    try:
        import cupyx
        assert cupyx.errstate is not None and cupyx.seterr and cupyx.geterr
    finally:
        fake_cupy.uninstall()


NOT_POSITIVE = [[4.0, 2.0, 0.0], [2.0, 1.0, 3.0], [0.0, 3.0, 5.0]]


def test_cholesky_follows_the_mode_as_cupys_potrf(cp):
    # CuPy factors with cuSOLVER's potrf and reads its devInfo back only
    # under linalg='raise' (LinAlgError naming the routine and devInfo);
    # under 'ignore' it returns the lower triangle potrf left, no error: the
    # columns before the failing minor factored, NaN from its column on
    # ("some diagonal elements of L are not real"). The fake raised NumPy's
    # "Matrix is not positive definite" in both modes.
    a = cp.asarray(NOT_POSITIVE)
    with cupyx.errstate(linalg="raise"):
        with pytest.raises(numpy.linalg.LinAlgError,
                           match=r"Error reported by dpotrf in cuSOLVER\. "
                                 r"devInfo = \[2\]"):
            cp.linalg.cholesky(a)
        with pytest.raises(numpy.linalg.LinAlgError, match=r"spotrfBatched.*"
                           r"devInfo = \[0 2\]"):
            cp.linalg.cholesky(cp.asarray(numpy.stack(
                [numpy.eye(3), NOT_POSITIVE]).astype(numpy.float32)))
    low = cp.linalg.cholesky(a)
    assert isinstance(low, cp.ndarray) and low.dtype == numpy.float64
    got = low.get()
    assert (numpy.triu(got, 1) == 0).all()
    numpy.testing.assert_allclose(got[:, 0], [2.0, 1.0, 0.0])   # column 1
    assert numpy.isnan(got[1:, 1:][numpy.tril_indices(2)]).all()  # column 2 on
    # A positive definite matrix is factored alike in both modes, and the
    # dtype is CuPy's: float32 and float64 kept, others promoted with float32.
    spd = numpy.array([[4.0, 2.0], [2.0, 5.0]])
    for mode in ("ignore", "raise"):
        with cupyx.errstate(linalg=mode):
            numpy.testing.assert_allclose(
                cp.linalg.cholesky(cp.asarray(spd)).get(),
                numpy.linalg.cholesky(spd))
    assert cp.linalg.cholesky(cp.asarray(spd, numpy.int8)).dtype == numpy.float32
    assert cp.linalg.cholesky(cp.asarray(spd, numpy.int32)).dtype == numpy.float64
    assert cp.linalg.cholesky(cp.asarray(spd, numpy.float16)).dtype == numpy.float32


@pytest.mark.parametrize("name", ["errstate", "seterr", "geterr", "seterrcall", "geterrcall"])
def test_cupy_itself_has_no_errstate(name):
    # CuPy's floating-point error state is cupyx's; `cupy.errstate` is
    # AttributeError (the fake gave NumPy's, which governs no kernel).
    with pytest.raises(AttributeError, match=f"has no attribute '{name}'.*cupyx"):
        getattr(fake_cupy, name)
