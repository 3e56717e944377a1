"""What CuPy leaves unsaid, the fake leaves unsaid too (issue 13): device
arithmetic emits no NumPy floating-point RuntimeWarning (a suite run with
`-W error` passes on CuPy), and a successful kernel compile prints nothing
(CuPy shows NVRTC's log only on failure or through log_stream=)."""
import io
import warnings

import numpy
import pytest


def test_device_arithmetic_emits_no_floating_point_warnings(cp):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        zero = cp.zeros(4, cp.float32)
        big = cp.full(4, 3e38, cp.float32)
        ints = cp.arange(4)
        assert bool(cp.isnan(zero / zero).all())             # operator
        assert bool(cp.isinf(cp.log(zero)).all())            # ufunc
        assert bool(cp.isnan(cp.sqrt(zero - 1)).all())
        assert bool(cp.isinf(big * 10).all())                 # overflow
        assert bool(cp.isinf(cp.multiply(big, big)).all())
        assert (ints // 0).get().tolist() == [0, 0, 0, 0]     # integer / 0
        assert (ints % 0).get().tolist() == [0, 0, 0, 0]
        q = zero.copy()
        q /= zero                                             # in place
        total = cp.nansum(q)                                  # reduction
        assert bool(cp.isnan(q / total).all())
        assert bool(cp.isnan((q / total).sum()))
        assert bool(cp.isnan(cp.true_divide(zero, zero, out=q)).all())
        nan_ints = (zero / zero).astype(cp.int32)              # casts
        assert nan_ints.shape == (4,)
        target = cp.zeros(4, cp.int32)
        target[...] = zero / zero
        assert bool(cp.isnan(cp.divide.outer(zero, zero)).all())
        assert float(cp.linalg.norm(zero / zero)) != 0.0


def test_host_numpy_still_warns(cp):
    before = numpy.geterr()
    (cp.zeros(2) / cp.zeros(2)).get()
    assert numpy.geterr() == before
    with pytest.warns(RuntimeWarning):
        numpy.zeros(2) / numpy.zeros(2)


# A kernel that defines its own FLT_MAX, as NVRTC code may (NVRTC has no
# <float.h> and defines none of its macros, also through libcu++'s
# <cuda/std/cfloat>), after libcu++ headers that reach <cuda/std/cfloat>.
OWN_FLT_MAX = r'''
#include <cuda/std/cmath>
#include <cuda/std/limits>
#define FLT_MAX 3.402823466e+38F
#ifdef DBL_MAX
#error DBL_MAX: the host <float.h> reached the module
#endif
extern "C" __global__ void biggest(float *x) {
  x[0] = FLT_MAX;
  x[1] = cuda::std::numeric_limits<float>::max();
}
'''


def test_a_kernel_defining_flt_max_compiles_silently(cp, capfd):
    capfd.readouterr()
    m = cp.RawModule(code=OWN_FLT_MAX, options=("-std=c++17",))
    x = cp.zeros(2, cp.float32)
    m.get_function("biggest")((1,), (1,), (x,))
    assert x.get().tolist() == [numpy.finfo(numpy.float32).max] * 2
    captured = capfd.readouterr()
    assert captured.err == "" and captured.out == ""


NOTE_AND_WARNING = r'''
extern "C" __global__ void noisy(int *x) {
  int unused_variable;
  x[0] = 7;
}
'''


def test_a_successful_compile_prints_nothing(cp, capfd):
    # -std=c++11 makes cuemu's compiler note that it compiles C++14, and
    # -Wall-like warnings are the compiler's: the log, not stderr's.
    capfd.readouterr()
    k = cp.RawKernel(NOTE_AND_WARNING, "noisy", options=("-std=c++11",))
    x = cp.zeros(1, cp.int32)
    k((1,), (1,), (x,))
    assert int(x.get()[0]) == 7
    assert capfd.readouterr().err == ""
    log = io.StringIO()
    cp.RawModule(code=NOTE_AND_WARNING + "// again\n",
                 options=("-std=c++11",)).compile(log_stream=log)
    assert "C++14" in log.getvalue()
    assert capfd.readouterr().err == ""


@pytest.mark.parametrize("with_nvrtc", [True, False])
def test_a_failed_compile_keeps_its_log_in_the_exception(cp, capfd,
                                                         monkeypatch,
                                                         with_nvrtc):
    from fake_cupy import _nvrtc
    if not with_nvrtc:
        monkeypatch.setattr(_nvrtc, "library", lambda: None)
    capfd.readouterr()
    bad = r'''extern "C" __global__ void bad(int *x) { x[0] = no_such_name; }'''
    with pytest.raises(cp.cuda.compiler.CompileException) as info:
        cp.RawKernel(bad, "bad", options=("-std=c++11",)).compile()
    assert "no_such_name" in str(info.value)
    if not with_nvrtc:
        assert "C++14" in str(info.value)    # cuemu's note, in the log
    assert capfd.readouterr().err == ""


def test_the_first_checked_compile_is_stored_in_the_cache(cp, monkeypatch,
                                                          tmp_path):
    # A checked build links the checkers' entry points from an object that
    # libcuemu compiles once into the cache; the first compile of it, in a
    # fresh cache, said "...entry.o was not stored in the cache" (its
    # generated source was recorded as a dependency) and every process
    # compiled it again.
    monkeypatch.setenv("CUEMU_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("CUEMU_QUIET", raising=False)
    monkeypatch.setenv("CUEMU_FAKE_CUPY_CHECK", "race")
    for value in (1, 2):
        k = cp.RawKernel(r'''extern "C" __global__ void k(int *x) {
          x[threadIdx.x] = %d; }''' % value, "k", options=("-DV=%d" % value,))
        log = io.StringIO()
        k.compile(log_stream=log)
        assert "not stored" not in log.getvalue(), log.getvalue()
        x = cp.zeros(4, cp.int32)
        k((1,), (4,), (x,))
        assert x.get().tolist() == [value] * 4
