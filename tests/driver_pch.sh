#!/bin/sh
# driver_pch.sh: the precompiled prelude of a whole program's passes
# (emulator/compile/cuemu_pch.c). The compiler is a wrapper around g++ that
# adds -H to the compiles that force-include a precompiled prelude and logs
# what g++ says of it ("!" used, "x" refused), so that each scenario sees
# whether the precompiled header was really used, not just built:
#   1. a first compile (which marks the preludes as seen) uses none, an
#      edited one (which precompiles them) uses both, the programs run;
#   2. a changed -std: a prelude of its own, so none (its first sighting);
#   3. a warning in a header the user force-includes (-include) is printed
#      by every compile, as without a precompiled header (whose build said
#      something: that pass compiles the prelude's text);
#   4. a flipped byte in the cached precompiled header: not used (rebuilt);
#   5. CUEMU_NO_CACHE=1, and a cache folder writable by others (which
#      tests/cache_exact.sh shows is handled as one of another user or a
#      read-only one): none, and nothing left there.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
case $builddir in /*) ;; *) builddir=$(cd "$builddir" && pwd) ;; esac
cc=$builddir/cuemu-cc
[ -x "$cc" ] || { echo "FAIL: $cc is not built"; exit 1; }
command -v g++ >/dev/null 2>&1 || tool_missing driver_pch.sh "g++ not found"

work=$builddir/tests/tmp/driver_pch.$$
rm -rf "$work"
mkdir -p "$work" || exit 1
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
unset CUEMU_NO_CACHE CUEMU_NO_PCH

failed=0

cat >"$work/gxx" <<EOF
#!/bin/sh
# g++, with -H where the compile force-includes a precompiled prelude.
case " \$* " in
*" -Winvalid-pch "*)
  g++ "\$@" -H 2>"$work/gxx.\$\$.err"
  rc=\$?
  grep '^[!x] .*\\.pch\\.h\\.gch' "$work/gxx.\$\$.err" | cut -c1 >>"$work/pch.log"
  grep -v '^\\(\\.\\|[!x] \\|Multiple include guards\\|/\\)' "$work/gxx.\$\$.err" >&2
  rm -f "$work/gxx.\$\$.err"
  exit \$rc ;;
esac
exec g++ "\$@"
EOF
chmod +x "$work/gxx"

# The program: a kernel and host code, with its expected output.
program() { # FILE VALUE
  cat >"$1" <<EOF
#include <cstdio>
#include <vector>
__global__ void scale(float *x, float f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= f;
}
int main() {
  const int n = 300;
  std::vector<float> h(n, 1.0f);
  float *d = nullptr;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<(n + 127) / 128, 128>>>(d, $2.0f, n);
  cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%g %g\n", h[0], h[n - 1]);
  return 0;
}
EOF
}

# build NAME [cuemu-cc args...]: compiles $work/NAME.cu into NAME.out and
# runs it; $used is what the wrapper logged ("!!" for both passes' use),
# $value what the program printed.
build() {
  name=$1
  shift
  rm -f "$work/pch.log" "$work/$name.out"
  if CXX=$work/gxx "$cc" -o "$work/$name.out" "$@" "$work/$name.cu" \
      >"$work/$name.log" 2>&1; then
    value=$("$work/$name.out" 2>&1)
  else
    value=failed
  fi
  used=
  [ -f "$work/pch.log" ] && used=$(tr -d '\n' <"$work/pch.log")
}

expect() { # WHAT USED VALUE
  if [ "$used" != "$2" ] || [ "$value" != "$3" ]; then
    fail "$1: wanted '$2' printing '$3', got '$used' printing '$value'"
    sed 's/^/  | /' "$work/$name.log"
  fi
}

export CUEMU_CACHE_DIR=$work/cache

# ---- 1. A first compile, then an edited one ------------------------------------
program "$work/p.cu" 2
build p
expect "first compile" "" "2 2"
program "$work/p.cu" 3
build p
expect "edited source" "!!" "3 3"
[ "$(ls "$work/cache"/*.entry | wc -l)" = 6 ] ||
  fail "wanted 6 cache entries (2 programs, 2 preludes, 2 marks), got: $(ls "$work/cache")"

# ---- 2. Another dialect: a prelude of its own --------------------------------------
program "$work/p.cu" 4
build p -std=c++20
expect "-std=c++20" "" "4 4"

# ---- 3. A warning in a force-included header ----------------------------------
# The host pass's prelude does not compile silently: that pass compiles its
# text (and warns) every time, the device pass (-w) uses its own (from the
# second compile on).
cat >"$work/warn.h" <<'EOF'
[[deprecated]] void old_api();
inline void calls_old_api() { old_api(); }
EOF
for v in 5 6; do
  program "$work/p.cu" $v
  build p -include "$work/warn.h"
  [ $v = 5 ] && want= || want=!
  expect "-include of a header that warns ($v)" "$want" "$v $v"
  grep -q "warn.h:2:.*old_api.*deprecated" "$work/p.log" ||
    fail "the warning of warn.h is not printed ($v)"
done

# ---- 4. A flipped byte in a cached precompiled header ------------------------
for entry in "$work/cache"/*.entry; do
  [ "$(wc -c <"$entry")" -gt 4000000 ] &&
    printf 'Z' | dd of="$entry" bs=1 seek=4000000 conv=notrunc 2>/dev/null
done
program "$work/p.cu" 7
build p
expect "damaged precompiled headers" "!!" "7 7"

# ---- 5. No cache: no precompiled header ----------------------------------------
program "$work/p.cu" 8
CUEMU_NO_CACHE=1 build p
expect "CUEMU_NO_CACHE=1" "" "8 8"
mkdir -p "$work/open"
chmod 777 "$work/open"
CUEMU_CACHE_DIR=$work/open build p
expect "a cache folder writable by others" "" "8 8"
[ -z "$(ls "$work/open")" ] || fail "files left in $work/open: $(ls "$work/open")"
[ $failed -eq 0 ] && echo "PASS: driver_pch.sh"
exit $failed
