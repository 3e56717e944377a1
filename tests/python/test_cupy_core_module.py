"""cupy._core.core: the module of CuPy where ``ndarray`` is defined (CuPy's
core.pyx). Public code imports the array type from there for annotations
(``from cupy._core.core import ndarray``, in a public image-processing
script, next to cupyx.scipy.ndimage.sobel), so the import must give the
fake's ndarray, the class ``cupy.ndarray`` is."""
import subprocess
import sys

import fake_cupy


def test_import_ndarray_from_cupy_core_core(cp):
    fake_cupy.install()
    try:
        import cupy._core.core
        from cupy._core.core import ndarray
        assert ndarray is cp.ndarray
        assert cupy._core.core is sys.modules["cupy._core"].core
        assert isinstance(cp.zeros(3), ndarray)
    finally:
        fake_cupy.uninstall()


def test_a_program_annotating_with_core_ndarray_runs(tmp_path):
    prog = tmp_path / "prog.py"
    prog.write_text(
        "import cupy as cp\n"
        "from cupy._core.core import ndarray as ndarray_cp\n"
        "def twice(a: ndarray_cp) -> ndarray_cp:\n"
        "    return a * 2\n"
        "r = twice(cp.arange(3))\n"
        "print(type(r) is ndarray_cp, r.get().tolist())\n")
    out = subprocess.run([sys.executable, "-m", "fake_cupy", str(prog)],
                         check=True, capture_output=True, text=True).stdout
    assert out.split() == ["True", "[0,", "2,", "4]"]
