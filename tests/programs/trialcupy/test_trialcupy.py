"""A CuPy user's test suite (written for the real CuPy; nothing here knows
about cuemu): RawModules read from .cu files with C++ templates, macros and
name_expressions, float16/complex64/int8 data, non-contiguous views handed
to kernels, ElementwiseKernel and ReductionKernel with type placeholders
and raw arguments, cupy.fuse, two streams with pinned staging buffers and
events, the memory pool's accounting and limit, cupy.testing's decorators
and the errors a user meets. tests/programs_trialcupy.sh runs it with
CUEMU_FAKE_CUPY=1, with immediate and with deferred launches."""
import functools
import os

import numpy
import pytest

import cupy
import cupyx
from cupy import testing
from cupy.cuda.compiler import CompileException
from cupy.cuda.driver import CUDADriverError
from cupy.cuda.runtime import CUDARuntimeError

HERE = os.path.dirname(os.path.abspath(__file__))


def _source(name):
    with open(os.path.join(HERE, name)) as f:
        return f.read()


@functools.lru_cache(maxsize=None)
def _module(name, options=('-std=c++17',), names=()):
    return cupy.RawModule(code=_source(name), options=options,
                          name_expressions=list(names) or None)


QUANT = ('axpy<float, BLOCK>', 'axpy<__half, 128>', 'axpy<complex<float>, 128>',
         'quantize<float>', 'block_sum<__half>')


def quant():
    return _module('quant.cu', ('-std=c++17', '--use_fast_math', '-DBLOCK=128'),
                   QUANT)


def kernels():
    return _module('kernels.cu')


# --- RawModule: templates, macros in name expressions, dtypes -------------

def test_name_expression_with_a_macro():
    n = 1000
    x = cupy.arange(n, dtype=cupy.float32)
    y = cupy.ones(n, dtype=cupy.float32)
    quant().get_function('axpy<float, BLOCK>')(
        ((n + 127) // 128,), (128,), (x, y, cupy.float32(2), n))
    testing.assert_array_equal(y, 2 * cupy.arange(n, dtype=cupy.float32) + 1)


def test_float16_and_complex64_scalars():
    n = 300
    rng = numpy.random.default_rng(0)
    xh = rng.standard_normal(n).astype(numpy.float16)
    yh = rng.standard_normal(n).astype(numpy.float16)
    dx, dy = cupy.asarray(xh), cupy.asarray(yh)
    quant().get_function('axpy<__half, 128>')(
        (3,), (128,), (dx, dy, numpy.float16(0.5), numpy.int32(n)))
    got = cupy.asnumpy(dy)
    assert got.dtype == numpy.float16
    numpy.testing.assert_allclose(
        got.astype(numpy.float32),
        0.5 * xh.astype(numpy.float32) + yh.astype(numpy.float32),
        rtol=2e-3, atol=2e-3)

    xc = (cupy.arange(n) + 1j * cupy.arange(n)).astype(cupy.complex64)
    yc = cupy.zeros(n, dtype=cupy.complex64)
    quant().get_function('axpy<complex<float>, 128>')(
        (3,), (128,), (xc, yc, numpy.complex64(1 - 1j), numpy.int32(n)))
    assert yc.dtype == cupy.complex64
    testing.assert_allclose(yc, xc * (1 - 1j), rtol=1e-6)


def test_int8_quantization_round_trip():
    n = 777
    x = cupy.asarray(numpy.random.default_rng(1).uniform(-3, 3, n)
                     .astype(numpy.float32))
    scale = float(cupy.abs(x).max()) / 127.0
    q = cupy.empty(n, dtype=cupy.int8)
    quant().get_function('quantize<float>')(
        ((n + 255) // 256,), (256,), (x, q, numpy.float32(1 / scale),
                                      numpy.int64(n)))
    ref = numpy.clip(numpy.rint(cupy.asnumpy(x) * numpy.float32(1 / scale)),
                     -127, 127).astype(numpy.int8)
    testing.assert_array_equal(q, ref)
    out = cupy.empty(n, dtype=cupy.float32)
    quant().get_function('dequantize')(
        ((n + 255) // 256,), (256,), (q, out, numpy.float32(scale),
                                      numpy.int32(n)))
    testing.assert_allclose(out, x, atol=scale)


def test_block_sum_of_float16_with_dynamic_shared_memory():
    n, threads = 1000, 256
    blocks = (n + 2 * threads - 1) // (2 * threads)
    x = cupy.asarray(numpy.linspace(-1, 2, n).astype(numpy.float16))
    partial = cupy.zeros(blocks, dtype=cupy.float32)
    k = quant().get_function('block_sum<__half>')
    assert k.max_threads_per_block >= threads
    k((blocks,), (threads,), (x, partial, n), shared_mem=threads * 4)
    numpy.testing.assert_allclose(
        float(partial.sum()), cupy.asnumpy(x).astype(numpy.float32).sum(),
        rtol=1e-4)


# --- cupy.testing decorators around a templated softmax ------------------

def softmax(x):
    xp = cupy.get_array_module(x)
    if xp is numpy:
        e = numpy.exp(x.astype(numpy.float32) - x.max(axis=1, keepdims=True))
        return (e / e.sum(axis=1, keepdims=True)).astype(x.dtype)
    names = {numpy.float16: '__half', numpy.float32: 'float',
             numpy.float64: 'double'}
    mod = _module('softmax.cu', ('-std=c++17', '--use_fast_math'),
                  tuple('row_softmax<%s, 64>' % t for t in names.values()))
    x = cupy.ascontiguousarray(x)
    y = cupy.empty_like(x)
    mod.get_function('row_softmax<%s, 64>' % names[x.dtype.type])(
        (x.shape[0],), (64,), (x, y, numpy.int32(x.shape[1])))
    return y


@testing.for_float_dtypes()
@testing.numpy_cupy_allclose(rtol={numpy.float16: 5e-3, 'default': 1e-5},
                             atol=1e-6)
def test_softmax(xp, dtype):
    return softmax(testing.shaped_random((5, 37), xp, dtype=dtype, scale=4))


@testing.for_float_dtypes(no_float16=True)
def test_softmax_of_a_strided_view(dtype):
    x = testing.shaped_arange((6, 20), cupy, dtype)[:, ::2]
    assert not x.flags.c_contiguous
    y = softmax(x)
    testing.assert_allclose(y.sum(axis=1), cupy.ones(6, dtype=dtype), rtol=1e-5)
    testing.assert_array_almost_equal(y, softmax(cupy.asnumpy(x)), decimal=5)


@testing.for_dtypes_combination(['b', 'h', 'i'], names=['src', 'dst'])
@testing.numpy_cupy_array_equal()
def test_integer_casts(xp, src, dst):
    return (testing.shaped_arange((3, 4), xp, src) * 3).astype(dst)


@testing.for_CF_orders()
@testing.for_int_dtypes(no_bool=True)
@testing.numpy_cupy_array_equal()
def test_orders(xp, dtype, order):
    a = xp.asarray(testing.shaped_arange((2, 3, 4), numpy, dtype), order=order)
    assert a.flags.c_contiguous == (order in ('C', 'c', None))
    return a.sum(axis=1)


# CuPy 13 types a scalar operand by its value where its kind is not above
# the arrays' (NumPy 1's rule): a float32 scalar keeps a float16 or complex64
# array's type, and makes an int8 array's product float32.
@pytest.mark.parametrize('dtype, product', [(numpy.int8, numpy.float32),
                                            (numpy.float16, numpy.float16),
                                            (numpy.complex64, numpy.complex64)])
def test_round_trips_keep_the_dtype(dtype, product):
    h = numpy.arange(-5, 5).astype(dtype)
    d = cupy.asarray(h)
    assert d.dtype == dtype
    numpy.testing.assert_array_equal(cupy.asnumpy(d), h)
    numpy.testing.assert_array_equal(d.get(order='F'), h)
    assert (d * numpy.float32(2)).dtype == product


# --- kernels on non-contiguous views ---------------------------------------

def test_column_slice_through_its_leading_dimension():
    a = cupy.arange(80, dtype=cupy.float32).reshape(8, 10)
    view = a[:, 2:9]
    s = cupy.arange(1, 9, dtype=cupy.float32)
    kernels().get_function('row_scale')(
        (1, 1), (16, 8), (view, s, numpy.int32(8), numpy.int32(7),
                          view.strides[0] // view.itemsize))
    ref = numpy.arange(80, dtype=numpy.float32).reshape(8, 10)
    ref[:, 2:9] *= numpy.arange(1, 9, dtype=numpy.float32)[:, None]
    testing.assert_array_equal(a, ref)


def test_elementwise_kernels_on_views():
    stencil = cupy.ElementwiseKernel(
        'raw T x, int32 n', 'T y',
        '''
        T left = (i > 0) ? x[i - 1] : x[i];
        T right = (i < n - 1) ? x[i + 1] : x[i];
        y = (left + x[i] + right) / (T)3;
        ''', 'stencil3')
    x = cupy.arange(20, dtype=cupy.float64)[::2]
    xn = numpy.arange(20, dtype=numpy.float64)[::2]
    left = numpy.concatenate([xn[:1], xn[:-1]])
    right = numpy.concatenate([xn[1:], xn[-1:]])
    testing.assert_allclose(stencil(x, numpy.int32(x.size), size=x.size),
                            (left + xn + right) / 3)

    clip_cast = cupy.ElementwiseKernel(
        'T x, T lo, T hi', 'U y', 'y = static_cast<U>(clampv(x, lo, hi));',
        'clip_cast', preamble='''
        template <typename V> __device__ V clampv(V v, V a, V b) {
          return v < a ? a : (v > b ? b : v);
        }''')
    m = cupy.linspace(-2, 2, 12, dtype=cupy.float32).reshape(3, 4).T
    out = cupy.empty((4, 3), dtype=cupy.int8)
    clip_cast(m, cupy.float32(-1), cupy.float32(1.5), out)
    mn = numpy.linspace(-2, 2, 12, dtype=numpy.float32).reshape(3, 4).T
    testing.assert_array_equal(out, numpy.clip(mn, -1, 1.5).astype(numpy.int8))


# --- float16 and complex64 in generated kernels ----------------------------

def test_float16_arithmetic_rounds_once_as_cupy_does():
    # CuPy's float16 converts to float: x * y - w is computed in float and
    # rounded to half once, when stored (half arithmetic would give 0).
    # w is a NumPy float16 scalar: a float16 parameter by value.
    fms = cupy.ElementwiseKernel('float16 x, float16 y, float16 w',
                                 'float16 z', 'z = x * y - w', 'fms_half')
    x = cupy.full(4, 1 + 2 ** -10, dtype=cupy.float16)
    w = numpy.float16(1 + 2 ** -9)
    exact = numpy.float16(numpy.float32(x[0].get()) ** 2 - numpy.float32(w))
    assert exact != 0
    testing.assert_array_equal(fms(x, x, w), numpy.full(4, exact))

    scatter = cupy.ElementwiseKernel(
        'int32 idx, float16 v', 'raw float16 out', 'atomicAdd(&out[idx], v);',
        'scatter_add_half', no_return=True)
    out = cupy.zeros(4, dtype=cupy.float16)
    scatter(cupy.asarray(numpy.array([0, 1, 1, 3, 1], numpy.int32)),
            cupy.asarray(numpy.array([1, 2, 3, 4, 0.5], numpy.float16)), out)
    testing.assert_array_equal(out, numpy.array([1, 5.5, 0, 4], numpy.float16))

    absmax = cupy.ReductionKernel(
        'T x', 'float32 y', 'fabsf((float)x)', 'max(a, b)', 'y = a', '0',
        'absmax', reduce_type='float')
    h = cupy.asarray(numpy.array([[1, -7, 3], [2, 5, -4]], dtype=numpy.float16))
    r = absmax(h, axis=1)
    assert r.dtype == cupy.float32
    testing.assert_array_equal(r, numpy.array([7, 5], dtype=numpy.float32))


def test_complex64_elementwise():
    conj_mul = cupy.ElementwiseKernel('complex64 x, complex64 y',
                                      'complex64 z', 'z = x * conj(y)',
                                      'conj_mul')
    a = (cupy.arange(5) + 1j).astype(cupy.complex64)
    b = (1 - 2j) * cupy.ones(5, dtype=cupy.complex64)
    z = conj_mul(a, b)
    assert z.dtype == cupy.complex64
    testing.assert_allclose(z, cupy.asnumpy(a) * numpy.conj(cupy.asnumpy(b)),
                            rtol=1e-6)


def test_fuse_over_float16():
    @cupy.fuse(kernel_name='leaky_relu')
    def leaky(x, alpha):
        return cupy.where(x > 0, x, x * alpha)

    hn = numpy.linspace(-1, 1, 9).astype(numpy.float16)
    ref = numpy.where(hn > 0, hn, hn * 0.1)
    got = leaky(cupy.asarray(hn), 0.1)
    assert got.dtype == ref.dtype
    testing.assert_allclose(got, ref, rtol=1e-3)


def test_libcudacxx_headers_and_if_constexpr():
    mod = _module('traits.cu', ('-std=c++17',),
                  ('saturate_cast<int8_t>', 'saturate_cast<cuda::std::uint8_t>'))
    x = cupy.asarray(numpy.array([-300, -1.6, 0.4, 2.5, 127.6, 400],
                                 dtype=numpy.float32))
    y8 = cupy.empty(6, dtype=cupy.int8)
    mod.get_function('saturate_cast<int8_t>')((1,), (32,), (x, y8, numpy.int32(6)))
    testing.assert_array_equal(y8, numpy.array([-128, -2, 0, 2, 127, 127],
                                               dtype=numpy.int8))
    u8 = cupy.empty(6, dtype=cupy.uint8)
    mod.get_function('saturate_cast<cuda::std::uint8_t>')(
        (1,), (32,), (x, u8, numpy.int32(6)))
    testing.assert_array_equal(u8, numpy.array([0, 0, 0, 2, 128, 255],
                                               dtype=numpy.uint8))


# --- streams, pinned memory, events, the pool -------------------------------

def test_two_stream_pipeline_with_pinned_buffers():
    scale_add = kernels().get_function('scale_add')
    pool = cupy.get_default_memory_pool()
    base = pool.used_bytes()
    n, chunks = 4096, 4
    host_in = cupyx.empty_pinned((chunks, n), dtype=numpy.float64)
    host_in[...] = numpy.arange(chunks * n, dtype=numpy.float64).reshape(chunks, n)
    host_out = cupyx.zeros_pinned((chunks, n), dtype=numpy.float64)
    streams = [cupy.cuda.Stream(non_blocking=True) for _ in range(2)]
    start, stop = cupy.cuda.Event(), cupy.cuda.Event()
    start.record()
    live = []
    for c in range(chunks):
        s = streams[c % 2]
        with s:
            d_in = cupy.empty(n, dtype=cupy.float64)
            d_in.set(host_in[c], stream=s)
            d_out = cupy.empty_like(d_in)
            scale_add((8,), (128,), (d_in, d_out, 2.0, numpy.uint64(n)))
            d_out.get(stream=s, out=host_out[c])
            live.append((d_in, d_out))
    for s in streams:
        cupy.cuda.get_current_stream().wait_event(s.record())
    stop.record()
    stop.synchronize()
    assert stop.done
    assert cupy.cuda.get_elapsed_time(start, stop) >= 0
    numpy.testing.assert_allclose(host_out, 2 * host_in + 1)
    assert pool.used_bytes() - base >= chunks * 2 * n * 8
    del live, d_in, d_out
    assert pool.used_bytes() == base
    assert pool.total_bytes() >= pool.used_bytes()

    s = cupy.cuda.Stream()
    a = cupy.arange(10, dtype=cupy.int8)
    out = cupyx.empty_pinned(a.shape, a.dtype)
    assert cupy.asnumpy(a, stream=s, out=out, blocking=False) is out
    s.synchronize()
    numpy.testing.assert_array_equal(out, numpy.arange(10, dtype=numpy.int8))


def test_pool_limit_raises_out_of_memory():
    pool = cupy.get_default_memory_pool()
    pool.set_limit(size=1 << 20)
    try:
        assert pool.get_limit() == 1 << 20
        with pytest.raises(cupy.cuda.memory.OutOfMemoryError):
            cupy.empty(1 << 20, dtype=cupy.float64)
    finally:
        pool.set_limit(size=0)
    pool.free_all_blocks()
    assert pool.n_free_blocks() == 0


def test_more_dynamic_shared_memory_than_the_default():
    n = 16384
    k = kernels().get_function('tile_reverse')
    k.max_dynamic_shared_size_bytes = n * 4
    assert k.max_dynamic_shared_size_bytes == n * 4
    x = cupy.arange(n, dtype=cupy.float32)
    y = cupy.empty_like(x)
    k((1,), (256,), (x, y, numpy.int32(n)), shared_mem=n * 4)
    testing.assert_array_equal(y, x[::-1])


# --- errors ---------------------------------------------------------------------

def test_errors_a_user_meets():
    broken = cupy.RawKernel(r'''
    extern "C" __global__ void broken(float *x) { x[threadIdx.x] = undefined_symbol; }
    ''', 'broken')
    with pytest.raises(CompileException, match='undefined_symbol'):
        broken((1,), (32,), (cupy.zeros(32, dtype=cupy.float32),))

    check = kernels().get_function('check_positive')
    x = cupy.asarray(numpy.array([1, 2, -3, 4], dtype=numpy.int32))
    with pytest.raises(CUDADriverError):
        check((1,), (4,), (x, numpy.int32(4)))
        cupy.cuda.Device().synchronize()
    check((1,), (4,), (cupy.abs(x), numpy.int32(4)))   # still usable
    cupy.cuda.Device().synchronize()
    with pytest.raises(CUDADriverError, match='CUDA_ERROR_INVALID_VALUE'):
        check((1,), (2048,), (x, numpy.int32(4)))
        cupy.cuda.Device().synchronize()
    with pytest.raises(TypeError):
        check(1, (32,), (x, numpy.int32(4)))
    with pytest.raises(CUDARuntimeError):
        cupy.cuda.runtime.setDevice(99)

    add = cupy.ElementwiseKernel('T x, T y', 'T z', 'z = x + y', 'add_k')
    with pytest.raises(ValueError):
        add(cupy.zeros(3), cupy.zeros(4))
    with pytest.raises(TypeError):
        add(cupy.zeros(3, dtype=cupy.float32), cupy.zeros(3, dtype=cupy.int8))
