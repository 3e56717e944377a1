"""cuFFT plans as CuPy code uses them: fx.pack.get_fft_plan, the
plan= argument of cupyx.scipy.fftpack's and cupyx.scipy.fft's transforms, and
a plan as a context manager around fx.cupy.fft's (cupy/fft/_fft.py,
cupyx/scipy/fftpack/_fft.py). A program that batches 2-D transforms over a
3-D Fortran-ordered array with one plan raised AttributeError before."""
import types

import numpy
import pytest

import fake_cupy


@pytest.fixture
def fx(cp):
    """cupy, cupyx.scipy.fftpack (pack), cupyx.scipy.fft (sfft) and
    cupy.cuda.cufft, imported by those names as a program imports them."""
    fake_cupy.install()
    try:
        import cupyx.scipy.fft
        import cupyx.scipy.fftpack
        from cupy.cuda import cufft
        yield types.SimpleNamespace(cupy=cp, pack=cupyx.scipy.fftpack,
                                    sfft=cupyx.scipy.fft, cufft=cufft)
    finally:
        fake_cupy.uninstall()


def _data(shape, dtype=numpy.complex64, order="C"):
    rng = numpy.random.default_rng(7)
    host = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape))
    return numpy.asarray(host.astype(dtype), order=order)


def test_batched_2d_plan_on_a_fortran_array_round_trips(fx):
    host = _data((16, 8, 5), order="F")
    plan = fx.pack.get_fft_plan(host, axes=(0, 1),
                                           value_type="C2C")
    assert isinstance(plan, fx.cufft.PlanNd)
    assert plan.shape == (8, 16) and plan.order == "F"
    assert plan.fft_type == fx.cufft.CUFFT_C2C
    dev = fx.cupy.array(host)
    spec = fx.pack.fftn(dev, axes=(0, 1), plan=plan)
    # CuPy's N-D transform keeps the input's order, so the plan fits again.
    assert spec.dtype == numpy.complex64 and spec.flags.f_contiguous
    numpy.testing.assert_allclose(spec.get(), numpy.fft.fftn(host, axes=(0, 1)),
                                  rtol=1e-4, atol=1e-4)
    back = fx.pack.ifftn(spec, axes=(0, 1), plan=plan)
    numpy.testing.assert_allclose(back.get(), host, rtol=1e-5, atol=1e-5)


def test_1d_plan_counts_the_batch_and_checks_the_size(fx):
    dev = fx.cupy.array(_data((4, 32)))
    plan = fx.pack.get_fft_plan(dev, axes=-1)
    assert isinstance(plan, fx.cufft.Plan1d)
    assert (plan.nx, plan.batch, plan.fft_type) == (32, 4, fx.cufft.CUFFT_C2C)
    out = fx.pack.fft(dev, plan=plan)
    numpy.testing.assert_allclose(out.get(), numpy.fft.fft(dev.get()),
                                  rtol=1e-4, atol=1e-4)
    with pytest.raises(ValueError, match="Target array size does not match"):
        fx.pack.fft(dev, n=16, plan=plan)
    with pytest.raises(ValueError, match="Batch size does not match"):
        fx.pack.fft(dev[:2], plan=plan)
    with pytest.raises(ValueError, match="dtype mismatch"):
        fx.pack.fft(dev.astype(numpy.complex128), plan=plan)
    with pytest.raises(ValueError, match="expected plan to have type "
                                         "cufft.Plan1d"):
        fx.pack.fft(
            dev, plan=fx.pack.get_fft_plan(dev))


def test_fft2_plan_batches_over_the_leading_axis(fx):
    # A tomography package caches get_fft_plan(x, axes=(-2, -1)) for fft2 of
    # a stack of slices; fft2's default axes are the last two.
    host = _data((3, 16, 8))
    dev = fx.cupy.array(host)
    plan = fx.pack.get_fft_plan(dev, axes=(-2, -1))
    assert plan.shape == (16, 8)
    spec = fx.pack.fft2(dev, overwrite_x=True, plan=plan)
    numpy.testing.assert_allclose(spec.get(), numpy.fft.fft2(host),
                                  rtol=1e-4, atol=1e-4)
    back = fx.pack.ifft2(spec, plan=plan)
    numpy.testing.assert_allclose(back.get(), host, rtol=1e-5, atol=1e-5)


def test_nd_plan_made_for_another_shape_is_refused(fx):
    dev = fx.cupy.array(_data((8, 8)))
    plan = fx.pack.get_fft_plan(dev)
    with pytest.raises(ValueError, match="do not match"):
        fx.pack.fft2(fx.cupy.array(_data((8, 4))), plan=plan)
    with pytest.raises(ValueError, match="must be contiguous"):
        fx.pack.get_fft_plan(dev[:, ::2])
    with pytest.raises(ValueError, match="Only up to three axes"):
        fx.pack.get_fft_plan(fx.cupy.zeros((2,) * 4, numpy.complex64),
                                         axes=(0, 1, 2, 3))


def test_real_transforms_take_r2c_and_c2r_plans(fx):
    host = numpy.random.default_rng(3).standard_normal((6, 16)).astype(
        numpy.float32)
    dev = fx.cupy.array(host)
    r2c = fx.sfft.get_fft_plan(dev, axes=(-1,), value_type="R2C")
    assert r2c.fft_type == fx.cufft.CUFFT_R2C and r2c.nx == 16
    spec = fx.sfft.rfft(dev, plan=r2c)
    assert spec.dtype == numpy.complex64
    numpy.testing.assert_allclose(spec.get(), numpy.fft.rfft(host),
                                  rtol=1e-4, atol=1e-4)
    c2r = fx.sfft.get_fft_plan(spec, axes=(-1,), value_type="C2R")
    assert c2r.fft_type == fx.cufft.CUFFT_C2R and c2r.nx == 16
    numpy.testing.assert_allclose(fx.sfft.irfft(spec, plan=c2r).get(),
                                  host, rtol=1e-4, atol=1e-4)
    with pytest.raises(ValueError, match="dtype mismatch"):
        fx.sfft.rfft(dev, plan=fx.sfft.get_fft_plan(
            dev.astype(numpy.complex64), axes=(-1,)))


def test_real_transforms_take_the_real_part_of_complex_input(fx):
    # CuPy's _convert_dtype casts a real transform's complex input to its
    # real dtype; NumPy's and SciPy's rfft refuse it, so code that passes a
    # complex field to rfft2 stopped on the fake and ran on a GPU.
    host = _data((4, 8))
    dev = fx.cupy.array(host)
    with pytest.warns(numpy.exceptions.ComplexWarning):
        for transform, ref in ((fx.cupy.fft.rfft, numpy.fft.rfft),
                               (fx.cupy.fft.rfft2, numpy.fft.rfft2),
                               (fx.sfft.rfftn, numpy.fft.rfftn),
                               (fx.cupy.fft.ihfft, numpy.fft.ihfft)):
            got = transform(dev)
            assert got.dtype == numpy.complex64
            numpy.testing.assert_allclose(got.get(), ref(host.real),
                                          rtol=1e-4, atol=1e-4)
        plan = fx.sfft.get_fft_plan(dev.real.copy(), axes=(-1,), value_type="R2C")
        assert fx.sfft.rfft(dev, plan=plan).shape == (4, 5)


def test_plan_as_context_manager_around_cupy_fft(fx):
    dev = fx.cupy.array(_data((8, 8)))
    plan = fx.pack.get_fft_plan(dev)
    assert fx.cufft.get_current_plan() is None
    with plan:
        assert fx.cufft.get_current_plan() is plan
        out = fx.cupy.fft.fftn(dev)
        with pytest.raises(ValueError, match="do not match"):
            fx.cupy.fft.fftn(fx.cupy.zeros((4, 4), numpy.complex64))
        with pytest.raises(ValueError, match="either as a context manager "
                                             "or as an argument"):
            fx.pack.fftn(dev, plan=plan)
    assert fx.cufft.get_current_plan() is None
    numpy.testing.assert_allclose(out.get(), numpy.fft.fftn(dev.get()),
                                  rtol=1e-4, atol=1e-4)
    # Without a plan the transforms are CuPy's as before, NumPy arrays refused.
    fx.cupy.fft.fftn(fx.cupy.zeros((4, 4), numpy.complex64))
    with pytest.raises(TypeError):
        fx.cupy.fft.fft(dev, plan=plan)


def test_overwrite_x_writes_where_cupys_transforms_write(fx):
    # CuPy gives cuFFT the input as the output of a complex transform with
    # overwrite_x=True when no conversion is needed: along the last axis
    # of a C-contiguous array that owns its memory (one axis at a time),
    # or into any contiguous input of one N-D plan. The fake ignored the
    # flag (SciPy's own rules decided).
    host = _data((3, 4), numpy.complex128)
    for mod in (fx.sfft, fx.pack):
        x = fx.cupy.asarray(host)
        assert mod.fft(x, overwrite_x=True) is x
        numpy.testing.assert_allclose(x.get(), numpy.fft.fft(host))
        x = fx.cupy.asarray(host)
        y = mod.ifft(x)                          # the default: untouched
        assert y is not x and (x.get() == host).all()
        numpy.testing.assert_allclose(y.get(), numpy.fft.ifft(host))
        for kwargs in ({"axis": 0}, {"n": 6}):   # a swapped or padded copy
            y = mod.fft(x, overwrite_x=True, **kwargs)
            assert y is not x and (x.get() == host).all()
        v = x[1:]                                # a view is copied ...
        mod.fft(v, overwrite_x=True)
        assert (x.get() == host).all()
        y = mod.fft2(v, overwrite_x=True)        # ... but not by an N-D plan
        assert y is v
        numpy.testing.assert_allclose(x.get()[1:], numpy.fft.fft2(host[1:]))
        assert (x.get()[0] == host[0]).all()
    x = fx.cupy.asarray(host)
    assert fx.sfft.ifftn(x, overwrite_x=True) is x
    numpy.testing.assert_allclose(x.get(), numpy.fft.ifftn(host))
    x = fx.cupy.asarray(host.real.copy())         # real: converted first
    fx.sfft.fft(x, overwrite_x=True)
    assert (x.get() == host.real).all()
    # With N-D planning off, fft2 runs axis by axis: the last axis first is
    # not possible (axes (-2, -1) start with a copy), so x is untouched;
    # axes (1, 0) transform the last axis in place, then axis 0 in a copy.
    fx.cupy.fft.config.enable_nd_planning = False
    try:
        x = fx.cupy.asarray(host)
        y = fx.sfft.fft2(x, overwrite_x=True)
        assert y is not x and (x.get() == host).all()
        y = fx.sfft.fft2(x, axes=(1, 0), overwrite_x=True)
        numpy.testing.assert_allclose(y.get(), numpy.fft.fft2(host))
        numpy.testing.assert_allclose(x.get(), numpy.fft.fft(host, axis=1))
    finally:
        fx.cupy.fft.config.enable_nd_planning = True
