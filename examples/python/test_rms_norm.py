"""Parity test of rms_norm.py: the host implementation against the kernel,
emulated (and on the GPU when the real CuPy sees one). Run it with the fake
CuPy: CUEMU_FAKE_CUPY=1 python -m pytest -p cuemu.pytest_plugin ."""
import numpy
import pytest

import cuemu
import cupy
import rms_norm

KERNEL = cuemu.KernelPair(rms_norm.rms_norm_host, (rms_norm.SOURCE, "rms_norm"))


def make_args(backend, seed):
    # Sizes that are not multiples of the block; one row of zeros (eps only).
    x = numpy.random.default_rng(seed).standard_normal((37, 300))
    x[5] = 0.0
    return (x, numpy.zeros_like(x), numpy.int32(x.shape[1]), 1e-6)


@pytest.mark.parametrize("seed", [0, 1])
def test_kernel_agrees_with_host(seed):
    cuemu.assert_kernels_agree(KERNEL, make_args, grid=37, block=rms_norm.BLOCK,
                               shared_mem=rms_norm.BLOCK * 8, rtol=1e-12,
                               outputs=[1], seed=seed)


def test_wrapper_matches_host():
    host = numpy.random.default_rng(2).standard_normal((8, 1000))
    expected = numpy.empty_like(host)
    rms_norm.rms_norm_host(host, expected, host.shape[1], 1e-6)
    got = rms_norm.rms_norm(cupy.asarray(host))
    cupy.testing.assert_allclose(got, expected, rtol=1e-12)
