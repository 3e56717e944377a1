"""cupy.sign and cupy.angle as CuPy 13's ufuncs compute them (cupy_sign in
cupy/_math/misc.py, cupy_angle in cupy/_core/_routines_math.pyx), where the
fake answered with NumPy 2's functions: complex soft-thresholding
(sign(z) * maximum(abs(z) - t, 0), common in compressed sensing) got z/|z|,
and phase-retrieval code passing a (field, None) tuple to angle got NumPy's
conversion instead of CuPy's TypeError."""
import numpy
import pytest


def test_sign_of_complex_values_is_the_sign_of_the_real_part(cp):
    z = cp.array([1 + 1j, -2 + 0j, 0 - 3j, 0j, numpy.nan + 1j], dtype=numpy.complex64)
    s = cp.sign(z)
    assert s.dtype == numpy.complex64
    assert s.get().tolist() == [1, -1, -1, 0, 0]
    shrunk = cp.sign(z[:4]) * cp.maximum(cp.abs(z[:4]) - 0.5, 0)
    assert numpy.allclose(shrunk.get(), [numpy.sqrt(2) - 0.5, -1.5, -2.5, 0])


def test_sign_of_real_values_is_zero_for_nan_and_int8_for_bool(cp):
    x = cp.array([numpy.nan, -2.0, 0.0, 3.0], dtype=numpy.float32)
    assert cp.sign(x).get().tolist() == [0, -1, 0, 1]
    b = cp.sign(cp.array([True, False]))
    assert b.dtype == numpy.int8 and b.get().tolist() == [1, 0]
    out = cp.empty(4)
    assert cp.sign(x, out=out) is out and out.get().tolist() == [0, -1, 0, 1]
    with pytest.raises(TypeError, match="Unsupported type <class 'list'>"):
        cp.sign([1.0, -1.0])


def test_angle_is_cupys_ufunc(cp):
    z = cp.array([1 + 1j, -1 + 0j, -3j], dtype=numpy.complex64)
    a = cp.angle(z)
    assert a.dtype == numpy.float32
    assert numpy.allclose(a.get(), [numpy.pi / 4, numpy.pi, -numpy.pi / 2])
    assert cp.angle(z, deg=True).get().tolist() == [45, 180, -90]
    # A real value is 0 where it is >= 0, else pi: NaN gives pi, -0.0 gives 0.
    r = cp.angle(cp.array([numpy.nan, -0.0, -1.0, 2.0]))
    assert r.dtype == numpy.float64 and r.get().tolist() == [numpy.pi, 0, numpy.pi, 0]
    assert cp.angle(cp.array([-1.0], dtype=numpy.float32), deg=True).get().tolist() == [180]
    assert cp.angle(cp.array([1, -1], dtype=numpy.int8)).dtype == numpy.float16
    assert cp.angle(cp.array([True])).dtype == numpy.float64
    for bad in ([1.0, -1.0], (z, None)):
        with pytest.raises(TypeError, match="Unsupported type"):
            cp.angle(bad)


def test_fused_forms_are_the_same_as_unfused(cp):
    # CuPy's fusion takes its sign, angle, angle_deg and power ufuncs; the
    # fake refused angle there, its fused sign was NumPy's for NaN and had
    # no complex form, and its fused integer power gave 0 for a base of
    # +-1. One kernel (one compile) checks them all.
    @cp.fuse()
    def forms(z, x, base, exponent):
        return (cp.sign(z), cp.angle(z, deg=True), cp.sign(x), cp.angle(x),
                base ** exponent)

    z = cp.array([1 + 1j, -2 + 0j, -3j, 0j], dtype=numpy.complex128)
    x = cp.array([numpy.nan, -0.0, -1.0, 2.0])
    base = cp.array([-1, 1, 2, -1], dtype=numpy.int32)
    exponent = cp.array([-1, -2, -1, -2], dtype=numpy.int32)
    plain = (cp.sign(z), cp.angle(z, deg=True), cp.sign(x), cp.angle(x),
             base ** exponent)
    for got, want in zip(forms(z, x, base, exponent), plain):
        assert got.dtype == want.dtype
        numpy.testing.assert_allclose(got.get(), want.get(), rtol=1e-12)
    assert plain[2].get().tolist() == [0, 0, -1, 1]
    assert plain[4].get().tolist() == [-1, 1, 0, 1]


def test_numpy_functions_on_cupy_arrays_dispatch_to_cupys(cp):
    # CuPy's __array_ufunc__ and __array_function__ call its own function of
    # the same name, so numpy.sign(x) on a cupy array is CuPy's sign (code
    # shared between NumPy and CuPy calls numpy's names on either array);
    # the fake ran NumPy's there.
    z = cp.array([1 + 1j, -2j], dtype=numpy.complex64)
    s = numpy.sign(z)
    assert isinstance(s, cp.ndarray) and s.get().tolist() == [1, -1]
    assert numpy.angle(cp.array([numpy.nan, -0.0])).get().tolist() == [numpy.pi, 0]
    assert numpy.clip(cp.arange(4.0), 1, 2).get().tolist() == [1, 1, 2, 2]
    assert numpy.power(cp.array([2, -1]), -1).get().tolist() == [0, -1]
