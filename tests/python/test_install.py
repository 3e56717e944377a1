"""Installing the fake as cupy/cupyx, and refusing to when the real CuPy
was imported first."""
import os
import subprocess
import sys
import types

import numpy

import pytest

import fake_cupy

_NAMES = ("cupy", "cupy.cuda", "cupy.cuda.runtime", "cupy.cuda.driver",
          "cupy.cuda.memory", "cupy.cuda.compiler", "cupy.cuda.stream",
          "cupy.testing", "cupy.random", "cupy.linalg", "cupy.fft", "cupyx",
          "cupyx.scipy", "cupyx.scipy.special")


@pytest.fixture
def clean_modules():
    saved = {name: sys.modules.pop(name) for name in _NAMES if name in sys.modules}
    yield
    for name in _NAMES:
        sys.modules.pop(name, None)
    sys.modules.update(saved)


def test_install_makes_import_cupy_return_the_fake(clean_modules):
    fake_cupy.install()
    assert fake_cupy.installed()
    import cupy
    import cupyx
    from cupy.cuda import driver, runtime
    assert cupy is fake_cupy
    assert driver.CUDADriverError is fake_cupy.cuda.driver.CUDADriverError
    assert runtime.getDeviceCount() >= 1
    assert cupyx.zeros_pinned(3).shape == (3,)
    import cupy.cuda.nvtx
    import cupy.cuda.profiler
    import cupy.cuda.pinned_memory
    from cupyx.profiler import benchmark
    assert cupy.cuda.nvtx.RangePop is fake_cupy.cuda.nvtx.RangePop
    assert benchmark is cupyx.profiler.benchmark
    fake_cupy.install()                 # installing twice is harmless
    fake_cupy.uninstall()
    assert "cupy" not in sys.modules


def test_install_refuses_when_the_real_cupy_was_imported(clean_modules):
    real = types.ModuleType("cupy")
    real.__file__ = "/site-packages/cupy/__init__.py"
    sys.modules["cupy"] = real
    with pytest.raises(RuntimeError, match=r"the real CuPy \(/site-packages/cupy/"
                                           r"__init__.py\) was imported already"):
        fake_cupy.install()
    assert sys.modules["cupy"] is real


def test_environment_variable_installs_through_the_plugin():
    env = dict(os.environ, CUEMU_FAKE_CUPY="1")
    code = ("import cuemu.pytest_plugin, cupy, cupyx; "
            "print(cupy.IS_FAKE, cupy.cuda.get_current_stream().ptr)")
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                         capture_output=True, text=True).stdout
    assert out.split() == ["True", "0"]


def test_module_runner_puts_the_scripts_folder_on_sys_path(tmp_path):
    (tmp_path / "helper.py").write_text("import cupy\nVALUE = int(cupy.arange(4).sum())\n",
                                        encoding="utf-8")
    (tmp_path / "main.py").write_text("import helper\nprint(helper.VALUE)\n",
                                      encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "fake_cupy",
                          str(tmp_path / "main.py")], cwd="/",
                         check=True, capture_output=True, text=True).stdout
    assert out.split() == ["6"]


def test_install_provides_linalg_fft_and_cupyx_scipy(clean_modules):
    import importlib.util
    fake_cupy.install()
    try:
        import cupy.fft
        import cupy.linalg
        import cupyx.scipy
        a = cupy.asarray(numpy.eye(3) * 2)
        assert isinstance(cupy.linalg.inv(a), cupy.ndarray)
        assert float(cupy.linalg.inv(a)[0, 0]) == 0.5
        assert isinstance(cupy.fft.fft(cupy.ones(4)), cupy.ndarray)
        if importlib.util.find_spec("scipy") is None:
            with pytest.raises(ImportError, match="delegates to scipy.special"):
                import cupyx.scipy.special  # noqa: F401
        else:
            import cupyx.scipy.special
            assert isinstance(cupyx.scipy.special.erf(cupy.zeros(2)), cupy.ndarray)
    finally:
        fake_cupy.uninstall()
