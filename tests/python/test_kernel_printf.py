"""printf in a RawKernel, as CUDA does it: the output appears when the
launch ends, and a printf of a string through a bad pointer is a kernel
fault raised as CUDADriverError, never a hang or the end of the
interpreter."""
import pytest


PRINTING = r'''
extern "C" __global__ void say(int n, unsigned long long bad) {
    if (threadIdx.x < n)
        printf("thread %d says %s\n", (int)threadIdx.x, "hi");
    if (bad != 0 && threadIdx.x == 5)
        printf("%s\n", (const char *)bad);
}
'''


def test_kernel_printf_output(cp, capfd):
    import numpy
    k = cp.RawKernel(PRINTING, "say")
    k((1,), (8,), (numpy.int32(2), numpy.uintp(0)))
    cp.cuda.Device().synchronize()
    out = capfd.readouterr().out
    assert "thread 0 says hi\n" in out and "thread 1 says hi\n" in out


@pytest.mark.parametrize("workers", ["1", "2"])
def test_kernel_printf_of_a_bad_string_is_a_fault(cp, capfd, monkeypatch,
                                                  workers):
    monkeypatch.setenv("CUEMU_WORKERS", workers)
    import numpy
    k = cp.RawKernel(PRINTING, "say")
    with pytest.raises(cp.cuda.driver.CUDADriverError) as e:
        k((4,), (32,), (numpy.int32(0), numpy.uintp(16)))
        cp.cuda.Device().synchronize()
    assert "invalid memory access" in str(e.value)
    # The interpreter goes on, and so do kernels.
    k((1,), (2,), (numpy.int32(2), numpy.uintp(0)))
    cp.cuda.Device().synchronize()
    assert "thread 1 says hi" in capfd.readouterr().out
