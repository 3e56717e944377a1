"""cupy.add.at and the other scatter operations as CuPy 13 runs them
(ndarray._scatter_op in cupy/_core/_routines_indexing.pyx). A Difference Map
ptychography engine scatter-adds each scan's update into the object with
xp.add.at(num, (yy, xx), values); on the fake, NumPy's ufunc.at took any
dtype and raised IndexError for an index past the end, where CuPy's atomic
kernels refuse the dtypes they lack and wrap the index around."""
import numpy
import pytest


def test_integer_array_index_takes_only_the_atomic_kernels_dtypes(cp):
    for dtype in (numpy.int64, numpy.complex64, numpy.complex128, numpy.int16):
        a = cp.zeros(4, dtype=dtype)
        with pytest.raises(TypeError, match=r"^cupy\.add\.at only supports int32, "
                           r"float16, float32, float64, uint32, uint64, as data type$"):
            cp.add.at(a, cp.array([0, 1, 1]), 1)
        assert not a.get().any()                 # nothing was written
    with pytest.raises(TypeError, match=r"^cupy\.subtract\.at only supports int32, uint32"):
        cp.subtract.at(cp.zeros(3), [0, 0], 1.0)
    with pytest.raises(TypeError, match=r"^cupy\.bitwise_xor\.at only supports int32, int64"):
        cp.bitwise_xor.at(cp.zeros(3, dtype=numpy.uint8), cp.array([1]), 1)
    # The check is on the array's dtype: the value is taken in it first.
    a = cp.zeros(3, dtype=numpy.float32)
    cp.add.at(a, cp.array([2, 2]), cp.array([1, 2], dtype=numpy.int64))
    assert a.get().tolist() == [0, 0, 3]
    c = cp.zeros(3, dtype=numpy.int32)
    cp.subtract.at(c, [1, 1], 2)
    assert c.get().tolist() == [0, -4, 0]


def test_mask_and_basic_indexes_take_any_dtype(cp):
    a = cp.zeros(4, dtype=numpy.complex64)
    cp.add.at(a, cp.array([True, False, True, False]), 1j)
    cp.add.at(a, slice(0, 2), 1)
    assert a.get().tolist() == [1 + 1j, 1, 1j, 0]


def test_integer_indices_wrap_around_as_cupy_indexing(cp):
    a = cp.zeros((3, 4), dtype=numpy.float32)
    cp.add.at(a, (cp.array([0, 3, -1]), cp.array([5, 0, -5])), 1)
    assert a.get().tolist() == [[1, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]]
    import fake_cupy._cupyx as cupyx
    m = cp.zeros(2, dtype=numpy.int32)
    cupyx.scatter_max(m, cp.array([3, 2]), cp.array([7, 4], dtype=numpy.int32))
    assert m.get().tolist() == [4, 7]
    with pytest.raises(TypeError, match=r"^cupy\.add\.at only supports"):
        cupyx.scatter_add(cp.zeros(2, dtype=numpy.int64), [0], 1)


def test_at_of_a_numpy_array_is_cupys_attribute_error(cp):
    with pytest.raises(AttributeError, match="_scatter_op"):
        cp.add.at(numpy.zeros(3), cp.array([0]), 1.0)
