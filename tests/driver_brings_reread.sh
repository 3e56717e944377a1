#!/bin/sh
# driver_brings_reread.sh: a unit that includes cooperative groups and names
# `cuda::` is preprocessed again with libcu++'s headers
# (CUEMU_CCCL_BRINGS_ALL, docs/nvcc-checks.md, "What a header brings"),
# but not where it has read them all already: a unit with Thrust or CUB
# had, and paid a third preprocessing of both passes for nothing (0.8 s of
# CPU of BGHT's hash tables' 15 s, trialcoll). The host compiler is a
# wrapper that records the preprocessing runs that define the macro. The
# unit that does not include libcu++ itself is still preprocessed again
# (and builds: cuda::atomic_ref is then declared).
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir_abs=$(cd "$builddir" && pwd)
cuemu=$builddir_abs/cuemu-nvcc
[ -x "$cuemu" ] || tool_missing driver_brings_reread.sh "$cuemu is not built"
cccl=
for d in "${CUDA_HOME:-}" /usr/local/cuda; do
  [ -n "$d" ] && [ -d "$d/include/cccl/cuda/std" ] && cccl=$d && break
done
[ -n "$cccl" ] ||
  tool_missing driver_brings_reread.sh "no CUDA toolkit with include/cccl"
command -v g++ >/dev/null 2>&1 ||
  tool_missing driver_brings_reread.sh "g++ is not installed"

work=$(cd "$builddir" && pwd)/tests/tmp/driver_brings_reread.$$
mkdir -p "$work" || exit 1
failed=0
export CUEMU_CACHE_DIR="$work/cache"

# The host compiler: g++, recording each run that defines the macro.
cat >"$work/gxx" <<EOF
#!/bin/sh
for a in "\$@"; do
  [ "\$a" = -DCUEMU_CCCL_BRINGS_ALL=1 ] && echo rerun >>"$work/reruns"
done
exec g++ "\$@"
EOF
chmod +x "$work/gxx"

# unit FILE HEADERS: a kernel that adds through cuda::atomic_ref, after
# <cooperative_groups.h> and the lines HEADERS.
unit() {
  {
    echo '#include <cooperative_groups.h>'
    printf '%s\n' "$2"
    cat <<'EOF'
#include <cstdio>
__global__ void add(int *n) { cuda::atomic_ref<int, cuda::thread_scope_device>(*n).fetch_add(1); }
int main() {
  int *n;
  cudaMallocManaged(&n, sizeof *n);
  *n = 0;
  add<<<2, 64>>>(n);
  cudaDeviceSynchronize();
  std::puts(*n == 128 ? "PASS" : "FAIL");
  return *n == 128 ? 0 : 1;
}
EOF
  } >"$work/$1"
}

# reruns FILE: builds and runs FILE; $n is then the number of its
# preprocessing runs with libcu++'s headers (empty if it did not build).
reruns() {
  rm -f "$work/reruns"
  n=
  step "build-$1" "$cuemu" -ccbin "$work/gxx" -o "${1%.cu}" "$1" || return 1
  passes "${1%.cu} runs" "./${1%.cu}"
  n=0
  [ -f "$work/reruns" ] && n=$(wc -l <"$work/reruns")
}

all='#include <cuda/atomic>
#include <cuda/std/atomic>
#include <cuda/std/cassert>
#include <cuda/std/cfloat>
#include <cuda/std/chrono>
#include <cuda/std/climits>
#include <cuda/std/cstddef>
#include <cuda/std/cstdint>
#include <cuda/std/cstring>
#include <cuda/std/ctime>
#include <cuda/std/limits>
#include <cuda/std/ratio>
#include <cuda/std/type_traits>
#include <cuda/std/version>
#include <chrono>
#include <exception>
#include <iterator>
#include <ratio>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <typeinfo>'
unit read_all.cu "$all"
unit read_none.cu ''

reruns read_all.cu
[ "$n" = 0 ] &&
  echo "PASS: a unit that read libcu++'s headers is not preprocessed again" ||
  fail "read_all.cu: $n preprocessing runs with CUEMU_CCCL_BRINGS_ALL, expected 0"
reruns read_none.cu
[ "${n:-0}" -gt 0 ] &&
  echo "PASS: a unit that names cuda:: alone is preprocessed again ($n runs)" ||
  fail "read_none.cu: $n preprocessing runs with CUEMU_CCCL_BRINGS_ALL, expected some"

rm -rf "$work"
[ "$failed" -eq 0 ]
