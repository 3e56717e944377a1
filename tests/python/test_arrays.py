"""The fake ndarray: strictness, transfers, NumPy delegation, views,
__cuda_array_interface__ and DLPack."""
import pickle

import numpy
import pytest

NO_NUMPY = ("Implicit conversion to a NumPy array is not allowed. "
            "Please use `.get()` to construct a NumPy array explicitly.")


def test_distinct_type_and_implicit_conversion_refused(cp):
    a = cp.arange(5)
    assert isinstance(a, cp.ndarray)
    assert not isinstance(a, numpy.ndarray)
    with pytest.raises(TypeError) as info:
        numpy.asarray(a)
    assert str(info.value) == NO_NUMPY
    with pytest.raises(TypeError, match="Implicit conversion"):
        numpy.array(a)


def test_mixing_with_numpy_arrays_raises(cp):
    a = cp.arange(3)
    h = numpy.arange(3)
    for op in (lambda: a + h, lambda: h + a, lambda: a * h, lambda: cp.add(a, h),
               lambda: numpy.add(h, a), lambda: cp.concatenate([a, h])):
        with pytest.raises(TypeError):
            op()
    # Assignment goes through CuPy's fill, which raises a ValueError.
    with pytest.raises(ValueError, match="non-scalar numpy.ndarray"):
        a[:] = h
    # NumPy scalars and Python numbers mix fine, as in CuPy.
    assert (a + numpy.int64(1)).get().tolist() == [1, 2, 3]
    assert (2 * a).get().tolist() == [0, 2, 4]


def test_get_set_asnumpy_asarray_array(cp):
    h = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    a = cp.asarray(h)
    assert cp.asarray(a) is a
    assert cp.array(a) is not a
    got = a.get()
    assert isinstance(got, numpy.ndarray) and (got == h).all()
    assert (cp.asnumpy(a) == h).all()
    out = numpy.empty_like(h)
    a.get(out=out)
    assert (out == h).all()
    a.set(h * 2)
    assert (a.get() == h * 2).all()
    with pytest.raises(ValueError):
        a.set(numpy.zeros(3, numpy.float32))
    assert cp.array([1, 2, 3], dtype=cp.int16).dtype == numpy.int16


def test_creation_ufuncs_and_reductions(cp):
    assert cp.zeros((2, 3)).shape == (2, 3)
    assert cp.ones(4, dtype=cp.int32).get().tolist() == [1, 1, 1, 1]
    assert cp.full(3, 7.0).get().tolist() == [7.0, 7.0, 7.0]
    assert cp.empty_like(cp.zeros((2, 2), cp.float32)).dtype == numpy.float32
    assert cp.linspace(0, 1, 5).get().tolist() == [0, 0.25, 0.5, 0.75, 1]
    a = cp.arange(10, dtype=cp.float64)
    s = a.sum()
    assert isinstance(s, cp.ndarray) and s.ndim == 0 and float(s) == 45.0
    m = cp.max(a)
    assert isinstance(m, cp.ndarray) and m.shape == () and int(m) == 9
    assert isinstance(numpy.sum(a), cp.ndarray)     # __array_function__
    assert isinstance(numpy.sqrt(a), cp.ndarray)    # __array_ufunc__
    assert cp.sqrt(a)[4].item() == 2.0
    assert cp.allclose(cp.exp(cp.log(a + 1)), a + 1).item()
    assert float(a.mean()) == 4.5 and float(a.std()) > 0
    assert cp.linalg.norm(cp.ones(4)).item() == 2.0


def test_indexing_views_and_stable_addresses(cp):
    a = cp.arange(12, dtype=cp.int32)
    ptr = a.data.ptr
    assert ptr % 256 == 0
    b = a[2:6]
    assert b.data.ptr == ptr + 2 * 4
    b[:] = -1
    assert a.get()[2:6].tolist() == [-1] * 4
    r = a.reshape(3, 4)
    assert r.data.ptr == ptr and r.shape == (3, 4)
    assert r.ravel().data.ptr == ptr
    t = r.T
    assert t.data.ptr == ptr and t.strides == (4, 16)
    c = a.copy()
    assert c.data.ptr != ptr and (c.get() == a.get()).all()
    f = a.astype(cp.float32)
    assert f.dtype == numpy.float32 and f.data.ptr != ptr
    a += 1
    assert a.data.ptr == ptr
    mask = a > 5
    assert isinstance(mask, cp.ndarray)
    assert a[mask].get().tolist() == [7, 8, 9, 10, 11, 12]
    assert a[cp.asarray(numpy.array([0, 1]))].get().tolist() == [1, 2]
    # CuPy copies a NumPy index array to the device (_prepare_slice_list).
    assert a[numpy.array([0, 1])].get().tolist() == [1, 2]


def test_integer_index_gives_a_zero_dim_view(cp):
    # CuPy's basic indexing always gives a view: a[i] of a 1-D array is a
    # 0-d array on a's memory (NumPy gives a scalar copy), and iterating
    # gives such views; a write through one reaches a.
    a = cp.arange(6, dtype=cp.float32).reshape(2, 3)
    e = a[1, 2]
    assert e.shape == () and e.data.ptr == a.data.ptr + 5 * 4
    e[...] = 50
    assert a.get()[1, 2] == 50
    v = a[1][0]
    assert v.data.ptr == a.data.ptr + 3 * 4
    items = list(a[0])
    assert [x.data.ptr - a.data.ptr for x in items] == [0, 4, 8]
    assert float(items[2]) == 2.0 and int(a[numpy.int64(1), 1]) == 4
    # An advanced index still copies, as in CuPy.
    assert a[cp.asarray([1]), 0].data.ptr != a.data.ptr + 3 * 4


def test_dot_of_numpy_arrays_is_numpys(cp):
    # cupy.dot(a, b, out) is a.dot(b, out): two NumPy arrays give NumPy's
    # product (a program multiplied host copies this way); a cupy array
    # with a NumPy one is refused, as in CuPy.
    a = numpy.arange(4.0).reshape(2, 2)
    r = cp.dot(a, a)
    assert type(r) is numpy.ndarray and r.tolist() == (a @ a).tolist()
    with pytest.raises(TypeError):
        cp.dot(cp.asarray(a), a)


def test_get_and_set_check_as_cupy_does(cp):
    # ndarray.get(out=) and set(): the dtype is checked first (TypeError),
    # then the shape (ValueError); `out` neither C- nor F-contiguous, or a
    # set() into a non-contiguous array, is CuPy's RuntimeError (a program
    # that copied into a strided host view would fail on a GPU).
    a = cp.arange(6, dtype=cp.float32).reshape(2, 3)
    with pytest.raises(TypeError, match="float64 array cannot be obtained"):
        a.get(out=numpy.zeros((3, 2)))
    with pytest.raises(ValueError, match="Shape mismatch"):
        a.get(out=numpy.zeros((3, 2), numpy.float32))
    with pytest.raises(RuntimeError, match="non-contiguous"):
        a.get(out=numpy.zeros((2, 6), numpy.float32)[:, ::2])
    f = numpy.zeros((2, 3), numpy.float32, order="F")
    assert a.get(out=f) is f and f.tolist() == a.get().tolist()
    with pytest.raises(TypeError, match="float64 array cannot be set"):
        a.set(numpy.zeros((3, 2)))
    with pytest.raises(RuntimeError, match="Cannot set to non-contiguous"):
        a[:, ::2].set(numpy.zeros((2, 2), numpy.float32))
    a.set(numpy.arange(12, dtype=numpy.float32).reshape(2, 6)[:, ::2])
    assert a.get().tolist() == [[0, 2, 4], [6, 8, 10]]


def test_cuda_array_interface_version_3(cp):
    a = cp.arange(6, dtype=cp.float32).reshape(2, 3)
    desc = a.__cuda_array_interface__
    assert desc["version"] == 3
    assert desc["shape"] == (2, 3)
    assert desc["typestr"] == "<f4"
    assert desc["data"] == (a.data.ptr, False)
    assert desc["strides"] is None
    assert desc["stream"] == 1      # the legacy default stream
    t = a.T.__cuda_array_interface__
    assert t["strides"] == (4, 12)
    s = cp.cuda.Stream()
    with s:
        assert a.__cuda_array_interface__["stream"] == s.ptr

    class Foreign:
        __cuda_array_interface__ = desc
    view = cp.asarray(Foreign())
    assert view.data.ptr == a.data.ptr and (view.get() == a.get()).all()


def test_dlpack(cp):
    a = cp.arange(5, dtype=cp.float64)
    assert a.__dlpack_device__() == (2, 0)   # kDLCUDA, device 0
    capsule = a.__dlpack__()
    assert type(capsule).__name__ == "PyCapsule"
    b = cp.from_dlpack(capsule)
    assert b.data.ptr == a.data.ptr
    b[0] = 42
    assert a.get()[0] == 42
    c = cp.from_dlpack(a)
    assert c.data.ptr == a.data.ptr
    with pytest.raises(TypeError):
        cp.from_dlpack(numpy.arange(3))
    with pytest.raises(ValueError):
        cp.from_dlpack(capsule)      # a capsule is consumed once


def test_pickle_and_repr(cp):
    a = cp.arange(3)
    b = pickle.loads(pickle.dumps(a))
    assert isinstance(b, cp.ndarray) and b.get().tolist() == [0, 1, 2]
    assert repr(a) == "array([0, 1, 2])"


def test_get_array_module(cp):
    assert cp.get_array_module(cp.arange(2)) is cp
    assert cp.get_array_module(numpy.arange(2)) is numpy


def test_random_generators_return_fake_arrays_and_keep_numpy_alone(cp):
    numpy.random.seed(5)
    expected = numpy.random.rand(3)
    numpy.random.seed(5)
    cp.random.seed(1)                       # CuPy's own generator only
    assert (numpy.random.rand(3) == expected).all()
    a = cp.random.rand(3, dtype=cp.float32)
    assert isinstance(a, cp.ndarray) and a.dtype == cp.float32
    cp.random.seed(1)
    assert (cp.random.rand(3, dtype=cp.float32) == a).all().item()
    rs = cp.random.RandomState(7)
    b = rs.normal(size=4, dtype=cp.float32)
    assert isinstance(b, cp.ndarray) and b.dtype == cp.float32
    rng = cp.random.default_rng(0)
    c = rng.standard_normal(5)
    assert isinstance(c, cp.ndarray)
    assert (c.get() == numpy.random.default_rng(0).standard_normal(5)).all()
    assert isinstance(rng.integers(0, 10, size=3), cp.ndarray)


def test_cumsum_and_cumprod_accumulate_as_cupys_scan(cp):
    # cupy/_core/_routines_math.pyx, scan_core: without dtype, bool and
    # signed integers narrower than int64 give int64, unsigned ones uint64,
    # and every other dtype its own: float16 stays float16, and the scan
    # kernel keeps its partial sums in float16 (2048 + 1 rounds to 2048),
    # where a float32 accumulation would give 2049.
    for dtype, expected in (("?", "int64"), ("b", "int64"), ("h", "int64"),
                            ("B", "uint64"), ("I", "uint64"), ("e", "float16"),
                            ("f", "float32")):
        x = cp.ones(3, dtype=dtype)
        assert cp.cumsum(x).dtype == expected and x.cumprod().dtype == expected
    halves = cp.asarray([2048.0, 1.0, 1.0], dtype=numpy.float16)
    assert cp.cumsum(halves).get().tolist() == [2048.0, 2048.0, 2048.0]
    assert cp.cumsum(halves, axis=0).dtype == numpy.float16
    assert cp.cumprod(cp.asarray([300.0, 300.0], dtype=numpy.float16)).get().tolist() == \
        [300.0, numpy.inf]
