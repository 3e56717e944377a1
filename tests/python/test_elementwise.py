"""cupy.ElementwiseKernel, cupy.ReductionKernel and cupy.fuse, from CuPy's
documentation (the user guide's examples first)."""
import numpy
import pytest


def test_documented_squared_diff_broadcasts(cp):
    squared_diff = cp.ElementwiseKernel(
        "float32 x, float32 y", "float32 z",
        "z = (x - y) * (x - y)", "squared_diff")
    x = cp.arange(10, dtype=numpy.float32).reshape(2, 5)
    y = cp.arange(5, dtype=numpy.float32)
    z = squared_diff(x, y)
    expect = (numpy.arange(10).reshape(2, 5) - numpy.arange(5)) ** 2
    assert z.dtype == numpy.float32 and z.shape == (2, 5)
    assert (z.get() == expect).all()
    assert (squared_diff(x, 5).get() == (numpy.arange(10).reshape(2, 5) - 5) ** 2).all()
    out = cp.empty((2, 5), dtype=numpy.float32)
    assert squared_diff(x, y, out) is out
    assert (out.get() == expect).all()


def test_type_placeholders(cp):
    squared_diff_generic = cp.ElementwiseKernel(
        "T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff_generic")
    for dtype in (numpy.float32, numpy.float64, numpy.int32, numpy.int64):
        x = cp.arange(10, dtype=dtype).reshape(2, 5)
        y = cp.arange(5, dtype=dtype)
        z = squared_diff_generic(x, y)
        assert z.dtype == dtype
        assert (z.get() == (numpy.arange(10).reshape(2, 5) - numpy.arange(5)) ** 2).all()
    x32 = cp.arange(5, dtype=numpy.float32)
    with pytest.raises(TypeError, match="Type is mismatched"):
        squared_diff_generic(x32, cp.arange(5, dtype=numpy.float64))
    # A scalar takes the type its placeholder has from the arrays.
    z = squared_diff_generic(x32, 2)
    assert z.dtype == numpy.float32 and (z.get() == (numpy.arange(5) - 2) ** 2).all()
    # Two placeholders, one of them for the output only through a typedef.
    squared_diff_super_generic = cp.ElementwiseKernel(
        "X x, Y y", "Z z", "z = (x - y) * (x - y)", "squared_diff_super_generic")
    z = cp.empty((5,), dtype=numpy.float64)
    squared_diff_super_generic(x32, cp.arange(5, dtype=numpy.int32), z)
    assert (z.get() == 0).all()
    with pytest.raises(TypeError):
        squared_diff_super_generic(x32, x32)     # Z is unbound


def test_raw_arguments_and_ind(cp):
    add_reverse = cp.ElementwiseKernel(
        "T x, raw T y", "T z", "z = x + y[_ind.size() - i - 1]", "add_reverse")
    x = cp.arange(5, dtype=numpy.float32)
    y = cp.arange(5, dtype=numpy.float32) * 10
    assert (add_reverse(x, y).get() == numpy.arange(5) + numpy.arange(5)[::-1] * 10).all()
    with pytest.raises(TypeError, match="Type is mismatched"):
        cp.ElementwiseKernel("raw float32 y", "float32 z", "z = y[i]", "k")(
            cp.arange(5, dtype=numpy.float64), cp.empty(5, numpy.float32))


def test_size_decides_a_loop_without_non_raw_arrays(cp):
    k = cp.ElementwiseKernel("raw T x", "raw T y", "y[i] = x[i] * 2",
                             "double_raw")
    x = cp.arange(6, dtype=numpy.int32)
    y = cp.empty(6, dtype=numpy.int32)
    k(x, y, size=3)
    assert (y.get()[:3] == numpy.arange(3) * 2).all()
    with pytest.raises(ValueError, match="Loop size is undecided"):
        k(x, y)
    with pytest.raises(ValueError):
        cp.ElementwiseKernel("T x", "T y", "y = x", "copy_nonraw")(x, size=6)


def test_wrong_arguments(cp):
    k = cp.ElementwiseKernel("float32 x", "float32 y", "y = x", "copy")
    x = cp.arange(3, dtype=numpy.float32)
    with pytest.raises(TypeError, match="Wrong number of arguments"):
        k(x, x, x)
    with pytest.raises(TypeError):
        k(numpy.arange(3, dtype=numpy.float32))
    # CuPy's _decide_params_type: an output of a named type has that dtype.
    with pytest.raises(TypeError, match="Type is mismatched. y"):
        k(x, cp.empty(3, dtype=numpy.int32))
    with pytest.raises(ValueError):
        k(x, cp.empty(4, dtype=numpy.float32))


def test_preamble_loop_prep_after_loop_options_and_no_return(cp):
    k = cp.ElementwiseKernel(
        "T x", "T y", "y = twice(x) + OFFSET", "with_preamble",
        preamble="template <typename U> __device__ U twice(U v) { return 2 * v; }",
        loop_prep="int unused_prep = 0; (void)unused_prep;",
        after_loop="/* after */", options=("-DOFFSET=1",))
    x = cp.arange(4, dtype=numpy.float64)
    assert (k(x).get() == 2 * numpy.arange(4) + 1).all()
    nr = cp.ElementwiseKernel("T x", "raw T y", "y[i] = x", "fill_raw",
                              no_return=True)
    y = cp.zeros(4, dtype=numpy.float64)
    assert nr(x, y) is None
    assert (y.get() == numpy.arange(4)).all()
    rt = cp.ElementwiseKernel("T x", "T y", "y = x", "copy_tuple",
                              return_tuple=True)
    assert isinstance(rt(x), tuple)


def test_two_outputs_and_complex(cp):
    k = cp.ElementwiseKernel("complex128 z", "float64 re, float64 im",
                             "re = z.real(); im = z.imag()", "split")
    z = cp.asarray(numpy.array([1 + 2j, -3 + 0.5j]))
    re, im = k(z)
    assert (re.get() == [1, -3]).all() and (im.get() == [2, 0.5]).all()
    sq = cp.ElementwiseKernel("T z", "T w", "w = z * z", "square")
    assert numpy.allclose(sq(z).get(), numpy.array([1 + 2j, -3 + 0.5j]) ** 2)


def test_non_contiguous_inputs_and_outputs(cp):
    k = cp.ElementwiseKernel("T x", "T y", "y = x + 1", "plus_one")
    a = cp.arange(12, dtype=numpy.float32).reshape(3, 4)
    out = cp.zeros((4, 3), dtype=numpy.float32)
    k(a.T, out)
    assert (out.get() == numpy.arange(12).reshape(3, 4).T + 1).all()
    view = cp.zeros((3, 8), dtype=numpy.float32)[:, ::2]
    k(a, view)
    assert (view.get() == numpy.arange(12).reshape(3, 4) + 1).all()


def test_documented_l2norm_reduction(cp):
    l2norm_kernel = cp.ReductionKernel(
        "T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
    x = cp.arange(10, dtype=numpy.float32).reshape(2, 5)
    host = numpy.arange(10, dtype=numpy.float32).reshape(2, 5)
    numpy.testing.assert_allclose(l2norm_kernel(x, axis=1).get(),
                                  numpy.sqrt((host ** 2).sum(axis=1)), rtol=1e-6)
    total = l2norm_kernel(x)
    assert total.shape == () and total.dtype == numpy.float32
    numpy.testing.assert_allclose(float(total), numpy.sqrt((host ** 2).sum()),
                                  rtol=1e-6)
    kept = l2norm_kernel(x, axis=0, keepdims=True)
    assert kept.shape == (1, 5)
    out = cp.empty(2, dtype=numpy.float32)
    assert l2norm_kernel(x, axis=1, out=out) is out


def test_reduction_type_identity_and_axes(cp):
    # A max over an int array with reduce_type, and a mean via post_map.
    rmax = cp.ReductionKernel("T x", "T y", "x", "max(a, b)", "y = a", None,
                              "my_max")
    x = cp.asarray(numpy.array([[3, -7, 2], [9, 0, -1]], numpy.int32))
    assert rmax(x).item() == 9
    assert rmax(x, axis=1).get().tolist() == [3, 9]
    mean = cp.ReductionKernel("T x", "float64 y", "x", "a + b",
                              "y = a / _in_count", "0", "my_mean",
                              reduce_type="float64",
                              preamble="#define _in_count 3.0")
    numpy.testing.assert_allclose(mean(x, axis=1).get(), [-2 / 3, 8 / 3])
    s = cp.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "my_sum")
    x3 = cp.arange(24, dtype=numpy.float64).reshape(2, 3, 4)
    h3 = numpy.arange(24, dtype=numpy.float64).reshape(2, 3, 4)
    for axis in (0, 1, 2, (0, 2), (1, 2), -1):
        assert numpy.allclose(s(x3, axis=axis).get(), h3.sum(axis=axis))
    # A reduction of nothing is its identity.
    assert s(cp.zeros((0,), numpy.float64)).item() == 0
    with pytest.raises(ValueError):
        rmax(cp.zeros((0,), numpy.int32))


def _cupy_fold(values, out_size, block_stride, fold, identity):
    """A model of CuPy's reduction kernel, written from its structure: for
    each output i, 512 / block_stride threads; thread v folds values[J][i]
    for J = v, v + V, ... from identity; the block halves the partial
    results (v with v + V/2, v + V/4...) and thread 0 holds the result."""
    threads = 512 // block_stride
    result = []
    for i in range(out_size):
        parts = []
        for v in range(threads):
            acc = identity
            for J in range(v, len(values), threads):
                acc = fold(acc, values[J][i])
            parts.append(acc)
        half = threads // 2
        while half >= 1:
            for v in range(half):
                parts[v] = fold(parts[v], parts[v + half])
            half //= 2
        result.append(parts[0])
    return result


def test_reduction_folds_in_cupys_order(cp):
    # A fold that is neither commutative nor associative (a * 31 + b,
    # wrapping in 64 bits) tells every order apart: the fake computes each
    # output with CuPy's operations in CuPy's order, so that floating-point
    # results are CuPy's to the bit.
    mask = (1 << 64) - 1

    def fold(a, b):
        return (a * 31 + b) & mask
    k = cp.ReductionKernel("T x", "T y", "x", "a * 31 + b", "y = a", "0",
                           "order_fold")
    rng = numpy.random.default_rng(5)
    # (array, axis, CuPy's block_stride, the values in CuPy's _J order)
    x1 = rng.integers(0, 1000, 3000).astype(numpy.uint64)
    x2 = rng.integers(0, 1000, (5, 7)).astype(numpy.uint64)
    x3 = rng.integers(0, 1000, (40, 64)).astype(numpy.uint64)
    x4 = rng.integers(0, 1000, (6, 9)).astype(numpy.uint64)
    cases = [
        (cp.asarray(x1), None, 1, x1.reshape(-1, 1)),
        (cp.asarray(x2), 1, 64, x2.T),
        # 64 contiguous outputs of 40 elements: 32 outputs a block.
        (cp.asarray(x3), 0, 32, x3),
        # A transposed input is walked in its memory order (CuPy sorts the
        # reduced axes by stride): x4.T's elements in x4's order.
        (cp.asarray(x4).T, None, 8, x4.reshape(-1, 1)),
    ]
    for array, axis, stride, values in cases:
        got = k(array, axis=axis).get()
        expect = _cupy_fold([[int(v) for v in row] for row in values],
                            values.shape[1], stride, fold, 0)
        assert got.ravel().tolist() == expect, (array.shape, axis)


def test_reduction_float16_sum_is_cupys(cp):
    # 3,000 float16 ones: CuPy's 512 threads fold 5 or 6 each and halve
    # exactly to 3000; one sequential sum would stop at 2048.
    k = cp.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "hsum")
    got = k(cp.ones(3000, dtype=numpy.float16))
    assert got.dtype == numpy.float16 and float(got) == 3000.0


def test_reduction_without_identity_starts_from_default(cp):
    # CuPy starts each thread's fold from _type_reduce() when identity is
    # None: a max over negative numbers is 0 on CuPy, and so here; its own
    # min/max wrap the value in a type whose default means "no value".
    rmax = cp.ReductionKernel("T x", "T y", "x", "max(a, b)", "y = a", None,
                              "max_no_identity")
    x = cp.asarray(numpy.array([-5.0, -2.0, -9.0]))
    assert float(rmax(x)) == 0.0
    # cupy.max itself (here in a fused kernel) leaves the threads that
    # folded nothing out, as CuPy's min_max_st does.

    @cp.fuse()
    def fused_max(v):
        return cp.max(v * 2)
    assert float(fused_max(x)) == -4.0


def test_reduction_post_map_reads_its_output(cp):
    # An output parameter is a reference to the output element (CuPy's
    # `T &y = _raw_y[...]`): post_map_expr may read it.
    acc = cp.ReductionKernel("T x", "T y", "x", "a + b", "y += a", "0",
                             "accumulate")
    x = cp.arange(12, dtype=numpy.float32).reshape(3, 4)
    out = cp.full(3, 100.0, dtype=numpy.float32)
    acc(x, out, axis=1)
    acc(x, out, axis=1)
    assert out.get().tolist() == [112.0, 144.0, 176.0]


def test_reduction_of_two_inputs(cp):
    dot = cp.ReductionKernel("T x, T y", "T z", "x * y", "a + b", "z = a",
                             "0", "my_dot")
    x = cp.arange(5, dtype=numpy.float64)
    assert dot(x, x).item() == 30.0
    assert dot(x, 2.0).item() == 20.0


PAIR = """
template <typename A, typename B> struct idx_pair { A value; B index; };
template <typename A, typename B>
__device__ idx_pair<A, B> make_idx_pair(A v, B i) {
  idx_pair<A, B> p; p.value = v; p.index = i; return p;
}
"""


def test_reduction_names_of_cupys_generated_code(cp):
    # CuPy's reduction loop: output element _i, the _J-th element of its
    # reduction, input element _j = _J * _out_ind.size() + _i over the
    # input's shape with the reduced axes first (_in_ind.get()), the
    # output's index (_out_ind.get()); a reduce_type naming a type of the
    # preamble, as CuPy's argmax pairs a value with _J. CuPy gives these 5
    # outputs of 7 elements 64 outputs a block (_block_stride) and 8
    # threads each: thread 0, which writes, folds _J = 0 alone and ends
    # with _J = 8.
    x = numpy.random.default_rng(3).random((5, 7)).astype(numpy.float32)
    argmax = cp.ReductionKernel(
        "T x", "int64 y", "make_idx_pair(x, (long long)_J)",
        "(b.value > a.value ? b : a)", "y = a.index",
        "make_idx_pair(T(-1), -1LL)", "argmax_j",
        reduce_type="idx_pair<T, long long>", preamble=PAIR)
    assert (argmax(cp.asarray(x), axis=1).get() == x.argmax(axis=1)).all()
    assert (argmax(cp.asarray(x), axis=0).get() == x.argmax(axis=0)).all()
    where = cp.ReductionKernel(
        "T x", "int64 y",
        "_in_ind.get()[0] * 100 + _in_ind.get()[1]"
        " - 1000000000 * (_j != _J * _out_ind.size() + _i)",
        "a + b",
        "y = a + 10000 * _out_ind.get()[0] + 1000000 * _i"
        " + 100000000 * (_J == 8 && _block_stride == 64)",
        "0", "where_j", reduce_type="long long")
    got = where(cp.asarray(x), axis=1).get()
    i = numpy.arange(5)
    assert (got == 2100 + 7 * i + 1010000 * i + 100000000).all(), got


def test_fuse(cp):
    @cp.fuse()
    def squared_diff(x, y):
        return (x - y) * (x - y)

    @cp.fuse(kernel_name="squared_diff_named")
    def named(x, y):
        return (x - y) * (x - y)

    @cp.fuse
    def sum_of_squares(x):
        return cp.sum(x * x, axis=-1)

    x = cp.arange(10, dtype=numpy.float32)
    y = x[::-1]
    expect = (numpy.arange(10) - numpy.arange(10)[::-1]) ** 2
    assert (squared_diff(x, y).get() == expect).all()
    assert (named(x, y).get() == expect).all()
    assert squared_diff(3, 1) == 4               # scalars work too
    assert float(sum_of_squares(x)) == float((numpy.arange(10) ** 2).sum())
    # CuPy calls the function itself when no cupy.ndarray is passed.
    assert (squared_diff(numpy.arange(3), numpy.ones(3)) == [1, 0, 1]).all()


def test_named_type_parameters_take_arrays_of_that_dtype_only(cp):
    # CuPy's _decide_params_type: an array given for a parameter of a named
    # type (raw or not, input or output) must have that very dtype, else
    # TypeError "Type is mismatched"; a scalar is converted. A program that
    # passed a float64 array of whole numbers for an "int32 n" input ran on
    # the fake and failed on CuPy.
    scale = cp.ElementwiseKernel("float64 x, int32 n", "float64 y",
                                 "y = x * n", "scale_by_n")
    x = cp.arange(4, dtype=numpy.float64)
    assert (scale(x, 3).get() == numpy.arange(4) * 3).all()
    n = cp.full(4, 2, dtype=numpy.int32)
    assert (scale(x, n).get() == numpy.arange(4) * 2).all()
    with pytest.raises(TypeError, match="Type is mismatched. n"):
        scale(x, cp.full(4, 2.0))
    with pytest.raises(TypeError, match="Type is mismatched. y"):
        scale(x, n, cp.empty(4, dtype=numpy.float32))
    total = cp.ReductionKernel("float32 x", "float32 y", "x", "a + b",
                               "y = a", "0", "sum_f32")
    assert float(total(cp.ones(5, dtype=numpy.float32))) == 5.0
    with pytest.raises(TypeError, match="Type is mismatched. x"):
        total(cp.ones(5, dtype=numpy.float64))
    with pytest.raises(TypeError, match="Type is mismatched. y"):
        total(cp.ones(5, dtype=numpy.float32), cp.empty((), numpy.float64))
    # CuPy's own reductions keep NumPy's casting of out=.
    out = cp.empty((), dtype=numpy.float32)
    cp.sum(cp.ones(5, dtype=numpy.float64), out=out)
    assert float(out) == 5.0


def test_kernels_may_use_m_pi_as_cupys_carray_defines_it(cp):
    # CuPy's cupy/carray.cuh defines M_PI (NVRTC has no <math.h>); a signal
    # processing library's kernels use it, and NVRTC refused them here.
    to_turns = cp.ElementwiseKernel("T angle", "T turns",
                                    "turns = angle / (2 * M_PI)", "to_turns")
    x = cp.asarray(numpy.array([0.0, numpy.pi, 3 * numpy.pi]))
    assert numpy.allclose(to_turns(x).get(), [0.0, 0.5, 1.5])
    arc = cp.ReductionKernel("T r", "T y", "r * M_PI", "a + b", "y = a", "0",
                             "half_circumferences")
    assert numpy.isclose(float(arc(cp.ones(4))), 4 * numpy.pi)


def test_cupys_checks_of_the_loop_index_and_raw_outputs(cp):
    # CuPy reserves i for the loop index: ValueError at construction.
    with pytest.raises(ValueError, match="Can not use 'i' as a parameter"):
        cp.ElementwiseKernel("float32 i", "float32 y", "y = i", "uses_i")
    # A raw output has no shape of its own: CuPy allocates it only for a
    # loop of size=; with non-raw inputs deciding the loop it must be given.
    scatter = cp.ElementwiseKernel("T x", "raw T z", "z[i] = x", "scatter")
    with pytest.raises(ValueError, match="Output array size is Undecided"):
        scatter(cp.ones(3))
    z = cp.zeros(3)
    scatter(cp.ones(3), z)
    assert (z.get() == 1).all()
    copy = cp.ElementwiseKernel("raw T x", "raw T z", "z[i] = x[i]", "copy_raw")
    got = copy(cp.arange(3.0), size=3)
    assert got.shape == (3,) and (got.get() == [0, 1, 2]).all()


def test_arguments_other_than_arrays_and_numbers_are_refused(cp):
    # CuPy's _preprocess_args: a list, None or a string given to an
    # ElementwiseKernel or a ReductionKernel raises TypeError("Unsupported
    # type <class 'list'>"); the fake ran None as NaN and named a list a
    # NumPy array passed by value.
    add = cp.ElementwiseKernel("T x, T y", "T z", "z = x + y", "add_xy")
    total = cp.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0",
                               "total_x")
    x = cp.ones(2)
    for bad in ([1.0, 2.0], None, "a", numpy.ones(2)):
        with pytest.raises(TypeError, match=f"Unsupported type {type(bad)}"):
            add(x, bad)
        with pytest.raises(TypeError, match=f"Unsupported type {type(bad)}"):
            total(bad)
    # Numbers and NumPy scalars of numeric types are scalars.
    assert (add(x, 2).get() == 3).all() and (add(x, numpy.float64(1)).get() == 2).all()
    assert (add(x, True).get() == 2).all()
