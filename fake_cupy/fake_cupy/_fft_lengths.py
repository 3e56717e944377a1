"""cupyx.scipy.fft.next_fast_len of the fake CuPy, as CuPy's
(cupyx/scipy/fft/_helper.py): the smallest length >= target whose prime
factors are 2, 3, 5 and 7, cuFFT's fast radices, whatever `real` says.
SciPy's (pocketfft's) also takes 11 for complex transforms and only 2, 3
and 5 for real ones, so next_fast_len(121) is 121 there and 125 in CuPy,
next_fast_len(7, real=True) 8 there and 7 in CuPy. A negative target is
SciPy's ValueError (CuPy's recursion does not end)."""
import functools

import scipy.fft

_PRIMES = (2, 3, 5, 7)


@functools.lru_cache(maxsize=None)
def _smallest(n, primes):
    """CuPy's _next_fast_len_impl: the smallest product of `primes` >= n."""
    if not primes:
        return float("inf")
    if n == 1:
        return 1
    p = primes[0]
    return min(_smallest((n + p - 1) // p, primes) * p,
               _smallest(n, primes[1:]))


@functools.wraps(scipy.fft.next_fast_len)
def next_fast_len(target, real=False):
    if target == 0:
        return 0
    if target < 0:
        return scipy.fft.next_fast_len(target, real)
    return _smallest(target, _PRIMES)
