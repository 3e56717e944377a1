"""Views, `base` and `flags` of the fake ndarray, as CuPy keeps them.

CuPy's views (basic indexing, reshape without a copy, transpose, ravel of a
contiguous array, view, swapaxes) name the first array as their `base`, a
view of a view included (cupy/_core/core.pyx, `_view`); copies and arrays
made by the constructor (`cupy.ndarray(..., memptr=...)`, which CuPy's
`as_strided` uses) have none. `flags` is CuPy's Flags: c_contiguous,
f_contiguous and owndata (`base is None`), with fnc and forc."""
import numpy
import pytest


def test_views_name_their_first_array(cp):
    a = cp.arange(24, dtype=cp.float32).reshape(4, 6)
    # reshape of a fresh array is a view of the arange result.
    owner = a.base
    assert owner is not None and owner.base is None
    b = cp.zeros((4, 6), dtype=cp.float32)
    assert b.base is None and b.flags.owndata
    for view in (b[1], b[:, ::2], b.T, b.reshape(6, 4), b.ravel(),
                 b[:, ::2].reshape(-1),
                 b.swapaxes(0, 1), b.view(), b[1:][:, 2:], b.T[::2]):
        assert view.base is b
        assert not view.flags.owndata
    for copy in (b.copy(), b.T.ravel(), b[:, ::4].reshape(-1), b.flatten(),
                 b[[0, 2]], b + 1, cp.ascontiguousarray(b.T)):
        assert copy.base is None
        assert copy.flags.owndata


def test_as_strided_and_windows_are_made_by_the_constructor(cp):
    b = cp.arange(10, dtype=cp.float64).copy()
    win = cp.lib.stride_tricks.as_strided(b, shape=(4, 3), strides=(16, 8))
    assert win.base is None and win.flags.owndata
    assert win.data.ptr == b.data.ptr
    assert win.get().tolist() == numpy.lib.stride_tricks.as_strided(
        b.get(), shape=(4, 3), strides=(16, 8)).tolist()
    made = cp.ndarray((5,), cp.float64, memptr=b.data + 8 * 5)
    assert made.base is None
    assert made.get().tolist() == [5.0, 6.0, 7.0, 8.0, 9.0]


def test_writes_through_views_reach_the_base(cp):
    b = cp.zeros((3, 4), dtype=cp.int32)
    v = b.T[1:3]
    v += 7
    cp.add(b[:, ::3], 1, out=b[:, ::3])
    expect = numpy.zeros((3, 4), dtype=numpy.int32)
    expect.T[1:3] += 7
    numpy.add(expect[:, ::3], 1, out=expect[:, ::3])
    assert b.get().tolist() == expect.tolist()


def test_flags_are_cupys(cp):
    f = cp.asfortranarray(cp.ones((3, 4)))
    assert f.flags.f_contiguous and not f.flags.c_contiguous
    assert f.flags.fnc and f.flags.forc
    assert f.flags["F_CONTIGUOUS"] and not f.flags["C_CONTIGUOUS"]
    assert f.flags["OWNDATA"]
    strided = cp.ones((4, 8))[:, ::2]
    assert not strided.flags.forc and not strided.flags.fnc
    assert repr(cp.ones(3).flags) == ("  C_CONTIGUOUS : True\n"
                                      "  F_CONTIGUOUS : True\n"
                                      "  OWNDATA : True")
    # NumPy's other flags are not CuPy's: code reading them fails on a GPU.
    with pytest.raises(AttributeError):
        cp.ones(3).flags.writeable
    with pytest.raises(KeyError, match="not defined for cupy.ndarray.flags"):
        cp.ones(3).flags["C"]
    with pytest.raises(AttributeError):
        cp.ones(3).flags.c_contiguous = False


def test_copyto_sources_as_cupys(cp):
    dst = cp.zeros((2, 3), dtype=cp.float32)
    # Host data is never copied implicitly: a NumPy array of more than one
    # element is refused, one element is its scalar.
    with pytest.raises(ValueError, match="non-scalar numpy.ndarray cannot "
                                         "be used for copyto"):
        cp.copyto(dst, numpy.ones((2, 3), dtype=numpy.float32))
    cp.copyto(dst, numpy.array([4.0], dtype=numpy.float32))
    assert dst.get().tolist() == [[4.0] * 3] * 2
    with pytest.raises(AttributeError):
        cp.copyto(dst, [1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match="Cannot cast float64 to int32 in "
                                        "same_kind casting mode"):
        cp.copyto(cp.zeros(3, dtype=cp.int32), cp.ones(3))
    with pytest.raises(ValueError, match=r"could not broadcast input array "
                                         r"from shape \(4,\) into shape \(2, 3\)"):
        cp.copyto(dst, cp.ones(4, dtype=cp.float32))
    # Into strided views (the real part of a complex array, every other
    # column), broadcast, with a mask, and with leading unit axes dropped.
    z = cp.zeros((2, 3), dtype=cp.complex64)
    cp.copyto(z.real, cp.arange(6, dtype=cp.float32).reshape(2, 3))
    cp.copyto(z.imag, cp.full((3,), -1, cp.float32))
    expect = numpy.arange(6, dtype=numpy.float32).reshape(2, 3) - 1j
    assert z.get().tolist() == expect.tolist()
    wide = cp.zeros((2, 6), dtype=cp.int64)
    cp.copyto(wide[:, ::2], cp.arange(1, 4).reshape(1, 1, 3))
    cp.copyto(wide, 9, where=wide == 0)
    assert wide.get().tolist() == [[1, 9, 2, 9, 3, 9]] * 2


@pytest.mark.parametrize("name,args", [("empty_like", ()), ("zeros_like", ()),
                                       ("ones_like", ()), ("full_like", (3,))])
def test_like_functions_keep_the_layout(cp, name, args):
    # order='K' (the default) keeps the operand's layout, as in NumPy and
    # CuPy: a kernel that writes the result in its input's Fortran order
    # (output = cupy.empty_like(input)) reads back what it wrote.
    func = getattr(cp, name)
    f = cp.asfortranarray(cp.arange(12, dtype=cp.float32).reshape(3, 4))
    out = func(f, *args)
    assert out.flags.f_contiguous and not out.flags.c_contiguous
    assert out.strides == (4, 12) and out.base is None
    permuted = cp.zeros((2, 3, 4)).transpose(1, 0, 2)
    host = getattr(numpy, name)(numpy.zeros((2, 3, 4)).transpose(1, 0, 2), *args)
    assert func(permuted, *args).strides == host.strides
    assert func(f, *args, order="C").flags.c_contiguous
    assert func(f, *args, order="A").flags.f_contiguous
    # A new shape keeps the layout when its rank is the operand's.
    assert func(f, *args, shape=(2, 5)).flags.fnc
    assert func(f, *args, shape=(2, 5, 1)).flags.c_contiguous
    assert func(f, *args, dtype=cp.float64).strides == (8, 24)
    if name != "empty_like":
        assert func(f, *args).get().tolist() == \
            getattr(numpy, name)(f.get(), *args).tolist()


def test_contiguous_conversions_return_the_array_itself(cp):
    # CuPy's ascontiguousarray and asfortranarray give the array itself when
    # it is laid out so (writes through the result reach it), a 0-d array
    # as one of shape (1,).
    f = cp.asfortranarray(cp.arange(6.0).reshape(2, 3))
    assert f.flags.fnc and f.base is None
    assert cp.asfortranarray(f) is f
    assert cp.asfortranarray(f, dtype=cp.float64) is f
    c = cp.ascontiguousarray(f)
    assert c.flags.c_contiguous and cp.ascontiguousarray(c) is c
    converted = cp.asfortranarray(f, dtype=cp.float32)
    assert converted.flags.fnc and converted.dtype == cp.float32
    assert converted.get().tolist() == f.get().tolist()
    scalar = cp.array(2.5)
    for func in (cp.ascontiguousarray, cp.asfortranarray):
        one = func(scalar)
        assert one.shape == (1,) and one.base is scalar
        assert func(scalar, dtype=cp.float32).shape == (1,)
    # Their argument is a typed cupy array: host data is refused.
    for func in (cp.ascontiguousarray, cp.asfortranarray):
        with pytest.raises(TypeError, match="Argument 'a' has incorrect type "
                                            r"\(expected cupy._core.core."
                                            "_ndarray_base, got list"):
            func([[1.0, 2.0]])
        with pytest.raises(TypeError, match="got numpy.ndarray"):
            func(numpy.ones((2, 2)))


def test_real_and_imag_parts(cp):
    # The real parts of a real array are the array itself (its conjugate
    # too); assigning to .real and .imag writes through, as in CuPy.
    a = cp.arange(3.0)
    assert a.real is a and a.conj() is a and a.conjugate() is a
    z = cp.zeros((2, 3), dtype=cp.complex64)
    assert z.real.base is z and z.imag.base is z
    z.real = cp.arange(3, dtype=cp.float32)
    z.imag = 2
    assert z.get().tolist() == [[0 + 2j, 1 + 2j, 2 + 2j]] * 2
    assert z.conj().get().tolist() == [[0 - 2j, 1 - 2j, 2 - 2j]] * 2
    a.real = 7
    assert a.get().tolist() == [7.0, 7.0, 7.0]
    with pytest.raises(TypeError, match="cupy.ndarray does not have "
                                        "imaginary part to set"):
        a.imag = 1
    with pytest.raises(TypeError, match="Unsupported type"):
        z.real = [1, 2, 3]
    zeros = a.imag
    assert zeros.base is None and zeros.get().tolist() == [0.0] * 3


def test_conversions_honour_the_order(cp):
    # CuPy's array(obj, copy=False, order=...) is obj.astype(dtype,
    # order=order, copy=False): the array itself when its layout already
    # satisfies the order, else a copy laid out so; ndmin adds leading axes
    # to a view. asarray(a, order=...) is array(a, copy=False, order=...).
    c = cp.arange(12.0).reshape(3, 4).copy()
    f = cp.asfortranarray(c)
    as_f = cp.asarray(c, order="F")
    assert as_f.flags.fnc and as_f.get().tolist() == c.get().tolist()
    assert cp.asarray(f, order="F") is f and cp.asarray(c, order="C") is c
    assert cp.asarray(f, order="A") is f and cp.asarray(f) is f
    assert cp.array(c, copy=False, order="F").flags.fnc
    assert cp.array(f, copy=False, order="K") is f
    assert cp.array(f, copy=True).flags.fnc        # order K keeps it
    assert c.astype(c.dtype, order="F", copy=False).flags.fnc
    assert f.astype(f.dtype, order="A", copy=False) is f
    assert f.astype(f.dtype, order="C", copy=False).flags.c_contiguous
    deep = cp.array(c, copy=False, ndmin=3)
    assert deep.shape == (1, 3, 4) and deep.base is c
    fresh = cp.array(c, ndmin=3)
    assert fresh.shape == (1, 3, 4) and fresh.base is None
