"""Racecheck of CuPy's own kernels whose output overlaps an input.

What CuPy does on a GPU decides what the fake reports: a reduction with
`out=` reads its inputs without copying them, copyto of contiguous views is
one cudaMemcpyAsync (whose ranges may not overlap), dot and matmul compute
into a new array when `out` shares memory with an operand, and an assignment
through an integer array index has one thread write each indexed element.
"""
import pytest


@pytest.fixture
def racecheck(cp, monkeypatch):
    import cuemu
    monkeypatch.setenv("CUEMU_FAKE_CUPY_CHECK", "race")
    cuemu.check_reports_clear()
    yield cuemu
    cuemu.check_reports_clear()


def test_reduction_into_its_own_inputs_is_no_race(cp, racecheck):
    # Each output element is written by the block that read all its inputs,
    # after the block's barrier: out=a[0] with axis=0 sums each column into
    # its first element correctly on a GPU.
    a = cp.arange(12.0).reshape(3, 4)
    cp.sum(a, axis=0, out=a[0])
    assert a[0].get().tolist() == [12.0, 15.0, 18.0, 21.0]
    b = cp.arange(12.0).reshape(3, 4)
    b.max(axis=1, out=b[:, 0])
    assert b[:, 0].get().tolist() == [3.0, 7.0, 11.0]
    c = cp.arange(6.0)
    cp.sum(c, out=c[2])
    assert float(c[2]) == 15.0
    assert racecheck.check_reports()[0] == 0


def test_reduction_into_other_outputs_inputs_is_a_race(cp, racecheck):
    # Row sums written over row 0: a[0, j] is read by the threads summing
    # row 0 and written by those summing row j, in other blocks.
    a = cp.arange(16.0).reshape(4, 4)
    cp.sum(a, axis=1, out=a[0])
    count, last = racecheck.check_reports()
    assert count == 1
    assert "cupy.sum" in last and "RAW" in last
    assert "test_overlap_races.py:" in last
    # The fake keeps NumPy's result, one of those a GPU may give.
    assert a[0].get().tolist() == [6.0, 22.0, 38.0, 54.0]
    b = cp.arange(16.0).reshape(4, 4)
    b.mean(1, None, b[1])
    cp.amax(b, 1, b[0].reshape(4, 1), True)
    assert racecheck.check_reports()[0] == 3


def test_reduction_overlap_is_silent_without_racecheck(cp):
    import cuemu
    cuemu.check_reports_clear()
    a = cp.arange(16.0).reshape(4, 4)
    cp.sum(a, axis=1, out=a[0])
    assert cuemu.check_reports()[0] == 0


def test_copyto_between_overlapping_contiguous_views_is_a_race(cp, racecheck):
    # Both views are contiguous with one dtype: CuPy copies with one
    # cudaMemcpyAsync, whose memory areas may not overlap.
    a = cp.arange(8.0)
    cp.copyto(a[1:], a[:-1])
    count, last = racecheck.check_reports()
    assert count == 1
    assert "cudaMemcpyAsync" in last and "cupy.copyto" in last
    assert a.get().tolist() == [0.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]


def test_copyto_through_its_copy_kernel_is_no_race(cp, racecheck):
    # Views that are not contiguous (or a `where` mask) go through CuPy's
    # copy ufunc, which copies an input sharing memory with its output first.
    a = cp.arange(16.0).reshape(4, 4)
    cp.copyto(a[1:, :2], a[:-1, :2])
    assert a[:, 0].get().tolist() == [0.0, 0.0, 4.0, 8.0]
    b = cp.arange(6.0)
    cp.copyto(b[1:], b[:-1], where=b[1:] > 2)
    assert b.get().tolist() == [0.0, 1.0, 2.0, 2.0, 3.0, 4.0]
    cp.copyto(b, b)
    assert racecheck.check_reports()[0] == 0


def test_dot_and_matmul_into_an_operand_compute_apart(cp, racecheck):
    # CuPy's tensordot_core and matmul give cuBLAS a new output when `out`
    # may share memory with an operand, then copy it into `out`.
    m = cp.arange(4.0).reshape(2, 2)
    cp.dot(m, m, out=m)
    assert m.get().tolist() == [[2.0, 3.0], [6.0, 11.0]]
    n = cp.arange(4.0).reshape(2, 2)
    cp.matmul(n, n.T, out=n)
    assert n.get().tolist() == [[1.0, 3.0], [3.0, 13.0]]
    assert racecheck.check_reports()[0] == 0


def test_repeated_indices_with_different_values_are_a_race(cp, racecheck):
    # CuPy's documentation: with repeated integer indices, which value is
    # stored is undefined (one thread writes each index's value).
    a = cp.zeros(4)
    a[cp.array([1, 1, 2])] = cp.array([5.0, 6.0, 7.0])
    count, last = racecheck.check_reports()
    assert count == 1
    assert "WAW" in last and "cupy.ndarray.__setitem__" in last
    assert "test_overlap_races.py:" in last
    # An index that wraps onto another (-3 is 1 here) repeats it too.
    a[[1, -3]] = cp.array([1.0, 2.0])
    b = cp.zeros((2, 3))
    b[[0, 0], [1, 1]] = cp.array([1.0, 2.0])
    assert racecheck.check_reports()[0] == 3


def test_repeated_indices_with_one_value_and_distinct_indices_are_no_race(
        cp, racecheck):
    a = cp.zeros(4)
    a[cp.array([1, 1, 2])] = 3.0
    a[cp.array([0, 0])] = cp.array([2.0, 2.0])
    a[cp.array([0, 3])] = cp.array([1.0, 2.0])
    a[a > 1] = cp.array([7.0, 8.0, 9.0])
    assert a.get().tolist() == [1.0, 7.0, 8.0, 9.0]
    assert racecheck.check_reports()[0] == 0


def test_a_wrong_out_is_numpys_error_under_racecheck(cp, racecheck):
    # The check leaves an `out` of the wrong shape to the reduction's error.
    a = cp.arange(16.0).reshape(4, 4)
    with pytest.raises(ValueError, match="could not be broadcast"):
        cp.sum(a, axis=1, out=a[0, :2])
    assert racecheck.check_reports()[0] == 0
