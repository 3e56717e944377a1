#!/bin/sh
# cuemu_run.sh: the cuemu-run command. A small program is written to a
# temporary folder and run through cuemu-run, which must pass it its
# arguments (with the .cu path as argv[0]) and a -D option, and exit with its
# exit status; a second run must be a cache hit (-v); a compile error must
# exit 2 and show the compiler's message pointing at the .cu file and line;
# a missing file and an unknown option must exit 2 with a clear message;
# nvcc's -rdc=true and --expt-relaxed-constexpr are taken, with one source
# and with several.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
run=$builddir/cuemu-run

. "$srcdir/tests/test_tools.sh"
[ -x "$run" ] || tool_missing cuemu_run.sh "$run is not built"

work=$builddir/tests/tmp/cuemu_run.$$
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT

failed=0

# A program that prints its arguments and a kernel's result, and exits with
# the status given as its first argument.
cat >"$work/args.cu" <<'EOF'
#include <cstdio>
#include <cstdlib>

__global__ void add(int *values, int amount) {
  values[threadIdx.x] += amount;
}

int main(int argc, char **argv) {
  int *values = nullptr;
  if (cudaMallocManaged(&values, 32 * sizeof(int)) != cudaSuccess)
    return 1;
  for (int i = 0; i < 32; ++i)
    values[i] = i;
  add<<<1, 32>>>(values, ADDEND);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 1;
  std::printf("argc=%d argv0=%s", argc, argv[0]);
  for (int i = 1; i < argc; ++i)
    std::printf(" [%s]", argv[i]);
  std::printf(" last=%d\n", values[31]);
  cudaFree(values);
  return argc > 1 ? std::atoi(argv[1]) : 0;
}
EOF

# Arguments (including ones that look like options) reach the program, and
# its exit status comes back.
"$run" -v -DADDEND=11 "$work/args.cu" 42 "two words" -g \
  >"$work/out1" 2>"$work/err1"
rc=$?
expected="argc=4 argv0=$work/args.cu [42] [two words] [-g] last=42"
[ "$rc" -eq 42 ] || fail "the program's exit status 42 came back as $rc"
if [ "$(cat "$work/out1")" != "$expected" ]; then
  fail "first run printed:"
  cat "$work/out1" "$work/err1"
fi
grep -q "cuemu-run: .*args.cu: \(compiled\|cache hit\)" "$work/err1" ||
  fail "-v said nothing on the first run: $(cat "$work/err1")"

# The same run again is a cache hit, and status 0 comes back as 0.
"$run" -v -DADDEND=11 "$work/args.cu" 0 >"$work/out2" 2>"$work/err2"
rc=$?
[ "$rc" -eq 0 ] || fail "the second run exited with $rc"
grep -q "cuemu-run: .*args.cu: cache hit" "$work/err2" ||
  fail "the second run was not a cache hit: $(cat "$work/err2")"
grep -q "^argc=2 argv0=.*args.cu \[0\] last=42$" "$work/out2" ||
  fail "second run printed: $(cat "$work/out2")"

# A compile error: status 2 and the compiler's message at the .cu line.
cat >"$work/broken.cu" <<'EOF'
__global__ void k(int *p) {
  p[0] = not_declared_anywhere;
}
int main() { return 0; }
EOF
"$run" "$work/broken.cu" >"$work/out3" 2>"$work/err3"
rc=$?
[ "$rc" -eq 2 ] || fail "a compile error exited with $rc, not 2"
grep -q "broken.cu:2:.*not_declared_anywhere" "$work/err3" ||
  fail "the compile error does not point at broken.cu:2: $(cat "$work/err3")"
grep -q "^cuemu-run: .*broken.cu did not compile" "$work/err3" ||
  fail "no cuemu-run message after the compile error: $(cat "$work/err3")"

# A missing file: status 2 and a message naming it.
"$run" "$work/missing.cu" >"$work/out4" 2>"$work/err4"
rc=$?
[ "$rc" -eq 2 ] || fail "a missing file exited with $rc, not 2"
grep -q "^cuemu-run: cannot read .*missing.cu: No such file" "$work/err4" ||
  fail "no clear message for a missing file: $(cat "$work/err4")"

# An unknown option before the file: status 2.
"$run" --no-such-option "$work/args.cu" >"$work/out5" 2>"$work/err5"
rc=$?
[ "$rc" -eq 2 ] || fail "an unknown option exited with $rc, not 2"
grep -q "unknown option --no-such-option" "$work/err5" ||
  fail "no clear message for an unknown option: $(cat "$work/err5")"

# --check=LIST builds the checkers in: the forgotten barrier of a buggy
# kernel is reported with its line, and the program's launch fails.
CUEMU_QUIET=0 "$run" --check=race \
  "$srcdir/tests/buggy/race_shared_reduce_loop.cu" \
  >"$work/out6" 2>"$work/err6"
grep -q "racecheck: race.*race_shared_reduce_loop.cu:15" "$work/out6" "$work/err6" ||
  fail "--check=race did not report the race: $(cat "$work/err6")"

# Two files whose kernels call each other's extern __device__ function and
# read an extern __constant__, which need -rdc=true (cuemu-run's message
# without it says so), and a constexpr host function called in device code
# (--expt-relaxed-constexpr): cuemu-run takes nvcc's two options, with one
# source and with several.
cat >"$work/rdc_main.cu" <<'EOF2'
#include <cstdio>
extern __device__ float scaled(float x);
extern __constant__ float factor;
constexpr float twice(float x) { return 2.0f * x; }
__global__ void apply(float *x) { x[threadIdx.x] = twice(scaled(x[threadIdx.x])); }
int main() {
  float *x, f = 3.0f;
  cudaMallocManaged(&x, 4 * sizeof(float));
  for (int i = 0; i < 4; ++i) x[i] = (float)i;
  cudaMemcpyToSymbol(factor, &f, sizeof f);
  apply<<<1, 4>>>(x);
  cudaDeviceSynchronize();
  std::printf("%s\n", x[3] == 18.0f ? "PASS" : "FAIL");
  return x[3] == 18.0f ? 0 : 1;
}
EOF2
cat >"$work/rdc_lib.cu" <<'EOF2'
__constant__ float factor;
__device__ float scaled(float x) { return factor * x; }
EOF2
"$run" -rdc=true --expt-relaxed-constexpr "$work/rdc_main.cu" \
  "$work/rdc_lib.cu" >"$work/out7" 2>"$work/err7" &&
  grep -qx PASS "$work/out7" ||
  fail "-rdc=true --expt-relaxed-constexpr with two sources: $(cat "$work/out7" "$work/err7")"
cat "$work/rdc_lib.cu" >>"$work/rdc_main.cu"
"$run" --relocatable-device-code=true -expt-relaxed-constexpr \
  "$work/rdc_main.cu" >"$work/out8" 2>"$work/err8" &&
  grep -qx PASS "$work/out8" ||
  fail "--relocatable-device-code=true -expt-relaxed-constexpr with one source: $(cat "$work/out8" "$work/err8")"

if [ "$failed" -ne 0 ]; then
  echo "cuemu_run.sh: $failed checks failed"
  exit 1
fi
echo "cuemu_run.sh: all checks passed"
