#!/bin/sh
# half_rounding.sh: arithmetic in __half, __half2 and __nv_bfloat16 rounds
# to the narrow format after every operation, as on a GPU. The program
# tests/driver/cc13b/half_rounding.cu accumulates 10000 steps (+=, __hadd,
# __hfma, __hadd2, x * y + acc, and the bfloat16 forms) and prints the bits
# of each result; they are compared with the same sums done on the host in
# software: NumPy's float16 for binary16 (each operation rounded to nearest
# even), and a bfloat16 rounding of a double written here. The fused
# multiply-add is a*b+c computed exactly in double (the operands have 11 or
# 8 significant bits) and rounded once. A float accumulator would give
# 1000 for the sum of 10000 tenths; binary16 stops at 256. Skipped without
# NumPy. Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
nvcc=$builddir_abs/cuemu-nvcc
source=$srcdir/tests/driver/cc13b/half_rounding.cu
python=${PYTHON:-python3}
"$python" -c "import numpy" 2>/dev/null ||
  tool_missing half_rounding.sh "NumPy is missing"
work=$(mktemp -d)
failed=0

if step build "$nvcc" -o half "$source" && step run ./half; then
  "$python" - "$work/run.log" >"$work/compare.log" 2>&1 <<'PY'
import struct, sys
import numpy as np

N = 10000

def half_bits(h):
    return int(np.array(h, dtype=np.float16).view(np.uint16))

def to_bf16(x):
    """The bfloat16 nearest to the double x (ties to even), as a double."""
    # Rounding a double to float first could round twice: this rounds
    # from the double's own bits.
    (d,) = struct.unpack("<Q", struct.pack("<d", x))
    sign, exp, frac = d >> 63, (d >> 52) & 0x7FF, d & ((1 << 52) - 1)
    if exp == 0:
        return 0.0
    keep = 52 - 7
    m = (1 << 52) | frac
    q, r = m >> keep, m & ((1 << keep) - 1)
    half = 1 << (keep - 1)
    if r > half or (r == half and q & 1):
        q += 1
    value = q * 2.0 ** (exp - 1023 - 7)
    return -value if sign else value

def bf16_bits(x):
    (f,) = struct.unpack("<I", struct.pack("<f", np.float32(x)))
    return f >> 16

tenth = np.float16(0.1)
s = np.float16(0)
for i in range(N):
    s = np.float16(s + tenth)
    if i == 999:
        after_1000 = s
x, y = np.float16(0.3), np.float16(0.7)
fma = np.float16(0)
for _ in range(N):
    fma = np.float16(float(x) * float(y) + float(fma))
low, high = np.float16(0), np.float16(0)
for _ in range(N):
    low = np.float16(low + np.float16(0.1))
    high = np.float16(high + np.float16(0.01))
mul_add = np.float16(0)
for _ in range(N):
    mul_add = np.float16(mul_add + np.float16(x * y))
btenth = to_bf16(float(np.float32(0.1)))
bsum = 0.0
for i in range(N):
    bsum = to_bf16(bsum + btenth)
    if i == 99:
        bf16_after_100 = bsum
bx, by = to_bf16(float(np.float32(0.3))), to_bf16(float(np.float32(0.7)))
bfma = 0.0
for _ in range(N):
    bfma = to_bf16(bx * by + bfma)
expected = {
    "half_operator": half_bits(s), "half_hadd": half_bits(s),
    "half_hfma": half_bits(fma), "half2_low": half_bits(low),
    "half2_high": half_bits(high), "half_mul_add": half_bits(mul_add),
    "bf16_sum": bf16_bits(bsum), "bf16_hfma": bf16_bits(bfma),
    "half_tenth": half_bits(tenth), "bf16_tenth": bf16_bits(btenth),
    "half_after_1000": half_bits(after_1000),
    "bf16_after_100": bf16_bits(bf16_after_100),
}
got = {}
for line in open(sys.argv[1]):
    name, bits = line.split()
    got[name] = int(bits, 16)
bad = 0
for name, want in expected.items():
    have = got.get(name)
    if have != want:
        print("%s: cuemu %s, software %04x" % (name, "missing" if have is None else "%04x" % have, want))
        bad = 1
    else:
        print("%s: %04x as expected" % (name, want))
sys.exit(bad)
PY
  if [ $? -eq 0 ]; then
    echo "PASS: narrow-float accumulations round after every operation"
  else
    fail "narrow-float accumulations differ from the software reference:"
  fi
  sed 's/^/  | /' "$work/compare.log"
fi

# The program is CUDA that nvcc compiles.
real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ]; then
  step nvcc "$real" -std=c++17 -arch=sm_90 -c -o half.o "$source" ||
    true
fi

rm -rf "$work"
exit "$failed"
