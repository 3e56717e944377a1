"""cupy.fft.config, which public CuPy code calls to free memory or limit
cuFFT's plan cache (cp.fft.config.get_plan_cache().clear(), .set_size(0),
.get_size()), often outside any try: the fake's cupy.fft was NumPy's, so
cp.fft.config raised AttributeError. Its transforms keep no plans, so the
cache stays empty; its limits are kept and checked as CuPy's."""
import pytest

import fake_cupy


def test_plan_cache_calls_of_public_code(cp):
    cache = cp.fft.config.get_plan_cache()
    assert cache is cp.fft.config.get_plan_cache()
    assert cache.get_size() == 16 and cache.get_memsize() == -1
    cp.fft.fft(cp.arange(8.0))
    cache.clear()
    cache.set_size(0)
    assert cache.get_size() == 0 and cache.get_curr_size() == 0
    cache.set_memsize(1 << 20)
    assert cache.get_memsize() == 1 << 20 and cache.get_curr_memsize() == 0
    with pytest.raises(ValueError):
        cache.set_size(-2)
    cache.set_size(16)
    cache.set_memsize(-1)
    assert "cuFFT plan cache" in repr(cache)
    cp.fft.config.show_plan_cache_info()


def test_config_switches_and_import_forms(cp):
    assert cp.fft.config.enable_nd_planning is True
    assert cp.fft.config.use_multi_gpus is False
    fake_cupy.install()
    try:
        from cupy.fft import config
        import cupy.fft.config as config2
        assert config is config2 is cp.fft.config
    finally:
        fake_cupy.uninstall()
