#!/bin/sh
# driver_pch.sh: the precompiled prelude of a whole program's passes
# (emulator/compile/cuemu_pch.c). The compiler is a wrapper around g++ that
# adds -H to the compiles that force-include a precompiled prelude and logs
# what g++ says of it ("!" used, "x" refused), so that each scenario sees
# whether the precompiled header was really used, not just built:
#   0. by default a prelude is precompiled at its fourth compile, not
#      before (CUEMU_PCH_AFTER=3); the scenarios below set
#      CUEMU_PCH_AFTER=1 (precompiled at the second);
#   1. a first compile (which marks the preludes as seen) uses none; one
#      whose precompiling fails for a reason of the compiler's run (out of
#      memory) uses none and stores nothing; an edited one (which
#      precompiles them) uses both, the programs run;
#   2. another flag (which leaves the prelude's text as it is): a prelude
#      of its own, so none (its first sighting);
#   3. a header the user force-includes (-include), one that warns and one
#      that silences a warning with #pragma GCC diagnostic (which GCC's
#      precompiled headers lose): no precompiled prelude, and every
#      compile says (or does not say) what the header's text says;
#   4. a flipped byte in the cached precompiled header: not used, and
#      rewritten;
#   5. at most CUEMU_PCH_ENTRIES precompiled headers stay in the cache;
#   6. CUEMU_NO_CACHE=1, CUEMU_NO_PCH=1, and a cache folder writable by
#      others (which tests/cache_exact.sh shows is handled as one of another
#      user or a read-only one): none, and nothing left there;
#   7. a unit's prefix of headers (the text of the headers it includes
#      before its first tokens) is precompiled with the prelude, from the
#      prefix's second compile ("P": a precompiled header that holds it,
#      as in the scenarios above, whose program includes <cstdio> and
#      <vector>); a compile error in those headers' templates says what
#      the compile without precompiled headers says, "In file included
#      from" lines included; a unit whose first tokens are a user header's
#      has none (the prelude alone, "!"), nor has a compile with
#      CUEMU_NO_PCH_PREFIX=1; a prefix is precompiled once: one whose
#      precompiled header the bounds dropped is not made again;
#   8. with clang++ (when installed): the prelude is precompiled ("!"
#      where a compile force-includes a precompiled header of clang's and
#      succeeds: clang++ fails on one it refuses), the programs run; the
#      prefix is not precompiled (clang's messages about its lines would
#      name a temporary file), so a compile error in a header's template
#      says what the compile without precompiled headers says; the
#      qualifiers header rewritten with the same text (a new copy of the
#      shims, with new times) still uses it; a flipped byte: not used, and
#      rewritten; the bound on their number counts clang's with g++'s.
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
unset CUEMU_NO_CACHE CUEMU_NO_PCH CUEMU_PCH_ENTRIES CUEMU_PCH_AFTER

failed=0

cat >"$work/gxx" <<EOF
#!/bin/sh
# g++, with -H where the compile force-includes a precompiled prelude; with
# GXX_FAIL_PCH set, a precompiling that runs out of memory.
case " \$* " in
*" c++-header "*)
  if [ -n "\$GXX_FAIL_PCH" ]; then
    echo "cc1plus: out of memory allocating 65536 bytes" >&2
    exit 1
  fi ;;
*".pch.h "*)
  # "P" for "!" where the precompiled header holds the unit's prefix of
  # headers too (its text names the .cu file).
  mark=!
  for a in "\$@"; do
    case \$a in *.pch.h) grep -q '^# [0-9]* "[^"]*\\.cu"' "\$a" && mark=P ;; esac
  done
  g++ "\$@" -H 2>"$work/gxx.\$\$.err"
  rc=\$?
  grep '^[!x] .*\\.pch\\.h\\.gch' "$work/gxx.\$\$.err" | cut -c1 |
    sed "s/!/\$mark/" >>"$work/pch.log"
  # Only what -H prints goes: its tree, its verdicts, and its list of
  # headers without guards (bare paths, where a diagnostic has spaces).
  grep -v '^\\(\\.\\+ \\|[!x] \\|Multiple include guards\\|/[^ ]*\$\\)' "$work/gxx.\$\$.err" >&2
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

# build NAME [cuemu-cc args...]: compiles $work/NAME.cu into NAME.out with
# the compiler $cxx (the g++ wrapper unless set) and runs it; $used is what the wrapper logged ("PP" for both passes' use),
# $value what the program printed.
build() {
  name=$1
  shift
  rm -f "$work/pch.log" "$work/$name.out"
  if CXX=${cxx:-$work/gxx} "$cc" -o "$work/$name.out" "$@" "$work/$name.cu" \
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
    # What the cache held then (a failure seen once in CI, not here):
    # each entry's size, time and first bytes.
    for e in "${CUEMU_CACHE_DIR:-$work/cache}"/*; do
      echo "  cache: $(stat -c '%s %y' "$e") $(basename "$e") $(head -c 24 "$e" | tr -c '[:print:]' '.')"
    done
  fi
}

# gch_list: the precompiled headers' entries in the cache, with their
# inodes (a rewritten entry has a new one); gch_entries: their number.
gch_list() {
  for e in $(grep -la '^gpch' "$work/cache"/*.entry 2>/dev/null); do
    echo "$e $(stat -c %i "$e")"
  done
}
gch_entries() {
  grep -la '^gpch' "$work/cache"/*.entry 2>/dev/null | wc -l
}
# damage ENTRY...: flips a byte of each entry; $damaged lists them with
# their checksums then. rewritten WHAT: each of them was written again.
damage() {
  damaged=
  for entry in "$@"; do
    printf 'Z' | dd of="$entry" bs=1 seek=1000000 conv=notrunc 2>/dev/null
    damaged="$damaged $entry:$(cksum <"$entry" | cut -d' ' -f1)"
  done
  [ -n "$damaged" ] || fail "no precompiled header in the cache to damage"
}
rewritten() {
  for d in $damaged; do
    [ "$(cksum <"${d%:*}" 2>/dev/null | cut -d' ' -f1)" != "${d##*:}" ] ||
      fail "$1: the damaged entry ${d%:*} was not rewritten"
  done
}
# entries: the number of entries in the cache but the preprocessed preludes
# (emulator/compile/cuemu_pp_prelude.c; tests/driver_pp_prelude.sh).
entries() {
  for e in "$work/cache"/*.entry; do
    grep -qa '^cuemu-cc prelude 1' "$e" || echo "$e"
  done | wc -l
}

# ---- 0. By default, precompiled at the fourth compile --------------------------
export CUEMU_CACHE_DIR=$work/cache0
for v in 1 2 3; do
  program "$work/p.cu" $v
  build p
  expect "compile $v of the default prelude" "" "$v $v"
done
program "$work/p.cu" 4
build p
expect "compile 4 of the default prelude" "PP" "4 4"
export CUEMU_CACHE_DIR=$work/cache CUEMU_PCH_AFTER=1

# ---- 1. A first compile, a failed precompiling, then an edited one ---------
program "$work/p.cu" 2
build p
expect "first compile" "" "2 2"
program "$work/p.cu" 9
GXX_FAIL_PCH=1 build p
expect "a precompiling out of memory" "" "9 9"
[ "$(entries)" = 6 ] ||
  fail "a failed precompiling stored something: $(ls "$work/cache")"
program "$work/p.cu" 3
build p
expect "edited source" "PP" "3 3"
[ "$(entries)" = 11 ] ||
  fail "wanted 11 cache entries (3 programs, 2 preludes with their prefixes, 4 marks, 2 marks of their making), got: $(ls "$work/cache")"

# ---- 2. Another flag, the same prelude text: a prelude of its own -------------
program "$work/p.cu" 4
build p -Xcompiler -fno-math-errno
expect "-Xcompiler -fno-math-errno" "" "4 4"

# ---- 3. Headers the user force-includes ----------------------------------------
# One that warns: every compile warns (the host pass; the device pass has
# -w). One that silences a warning with #pragma GCC diagnostic: no compile
# warns, even with -Werror.
cat >"$work/warn.h" <<'EOF'
[[deprecated]] void old_api();
inline void calls_old_api() { old_api(); }
EOF
cat >"$work/quiet.h" <<'EOF'
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
[[deprecated]] inline int old_api() { return 1; }
EOF
for v in 5 6; do
  program "$work/p.cu" $v
  build p -include "$work/warn.h"
  expect "-include of a header that warns ($v)" "" "$v $v"
  grep -q "warn.h:2:.*old_api.*deprecated" "$work/p.log" ||
    fail "the warning of warn.h is not printed ($v)"
  cat >"$work/q.cu" <<EOF
#include <cstdio>
__global__ void twice(int *x) { x[threadIdx.x] *= 2; }
int main() {
  int *d = nullptr, h[4] = {1, 2, 3, 4};
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  twice<<<1, 4>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d\n", h[3] + old_api(), $v);
  return 0;
}
EOF
  build q -include "$work/quiet.h" -Xcompiler -Werror
  expect "-include of a header with #pragma GCC diagnostic ($v)" "" "9 $v"
  ! grep -q "deprecated" "$work/q.log" ||
    fail "the warning that quiet.h silences is printed ($v)"
done

# ---- 4. A flipped byte in a cached precompiled header ------------------------
damage $(grep -la '^gpch' "$work/cache"/*.entry)
program "$work/p.cu" 7
build p
expect "damaged precompiled headers" "PP" "7 7"
rewritten "g++"

# ---- 5. At most CUEMU_PCH_ENTRIES precompiled headers --------------------------
# Two (the default flags') are there; the second compile with another flag
# precompiles two more, and the two least recently used go.
[ "$(gch_entries)" = 2 ] || fail "wanted 2 precompiled headers, got $(gch_entries)"
program "$work/p.cu" 8
CUEMU_PCH_ENTRIES=2 build p -Xcompiler -fno-math-errno
expect "CUEMU_PCH_ENTRIES=2" "PP" "8 8"
[ "$(gch_entries)" = 2 ] ||
  fail "CUEMU_PCH_ENTRIES=2 left $(gch_entries) precompiled headers"
kept=$(gch_list)
program "$work/p.cu" 9
build p -Xcompiler -fno-math-errno
expect "the most recently used precompiled headers stay" "PP" "9 9"
[ "$(gch_list)" = "$kept" ] ||
  fail "the precompiled headers kept are not the most recent ones: $kept, then $(gch_list)"

# ---- 6. No cache: no precompiled header ----------------------------------------
program "$work/p.cu" 8
CUEMU_NO_CACHE=1 build p -Xcompiler -fno-math-errno
expect "CUEMU_NO_CACHE=1" "" "8 8"
CUEMU_NO_PCH=1 build p -Xcompiler -fno-math-errno
expect "CUEMU_NO_PCH=1" "" "8 8"
mkdir -p "$work/open"
chmod 777 "$work/open"
CUEMU_CACHE_DIR=$work/open build p
expect "a cache folder writable by others" "" "8 8"
[ -z "$(ls "$work/open")" ] || fail "files left in $work/open: $(ls "$work/open")"
# ---- 7. The prefix of headers -------------------------------------------------
export CUEMU_CACHE_DIR=$work/cache
cat >"$work/t.cu" <<'EOF'
// <thread> is not in the prelude: its text is in the unit's prefix.
#include <cstdio>
#include <thread>

__global__ void k(int *x) { x[threadIdx.x] = __COUNTER__ + __LINE__; }
int main() {
  std::thread t(5);
  printf("%d\n", __COUNTER__);
  return 0;
}
EOF
CUEMU_NO_PCH=1 build t
cp "$work/t.log" "$work/t.ref"
grep -q "^ *from $work/t.cu:3:" "$work/t.ref" ||
  fail "the error in <thread> names no include line: $(cat "$work/t.ref")"
# Its first compile marks the prefix and uses the prelude alone (whose
# precompiled form scenario 5 dropped: made again); the second uses both.
build t
case $used$value in
!*failed) ;;
*) fail "the first compile of a prefix: wanted the prelude alone, got '$used'" ;;
esac
build t
case $used$value in
P*failed) ;;
*) fail "the precompiled prefix is not used: '$used'" ;;
esac
cmp -s "$work/t.ref" "$work/t.log" ||
  fail "a precompiled prefix changes the messages: $(diff "$work/t.ref" "$work/t.log")"
echo 'inline int twice(int v) { return 2 * v; }' >"$work/u.h"
program "$work/u.cu" 5
sed -i '1i #include "u.h"' "$work/u.cu"
build u
expect "a user header first" "!!" "5 5"
program "$work/p.cu" 11
CUEMU_NO_PCH_PREFIX=1 build p
expect "CUEMU_NO_PCH_PREFIX=1" "!!" "11 11"
# p.cu's prefix was precompiled (scenario 1), then dropped for more recent
# ones (scenario 5): it is not made again, the prelude alone is used.
program "$work/p.cu" 12
build p
expect "a prefix dropped by the bounds" "!!" "12 12"

# ---- 8. clang++ -----------------------------------------------------------------
if command -v clang++ >/dev/null 2>&1; then
  cat >"$work/clangxx" <<EOF
#!/bin/sh
# clang++; "!" logged for a compile that force-includes a precompiled
# prelude of clang's and succeeds (clang++ fails on one it refuses).
case " \$* " in
*".pch.h "*)
  clang++ "\$@"
  rc=\$?
  for a in "\$@"; do
    case \$a in
    *.pch.h) [ \$rc = 0 ] && [ "\$(head -c 4 "\$a.gch" 2>/dev/null)" = CPCH ] &&
      echo ! >>"$work/pch.log" ;;
    esac
  done
  exit \$rc ;;
esac
exec clang++ "\$@"
EOF
  chmod +x "$work/clangxx"
  # A copy of the shims, whose times the scenario changes.
  cp -a "${CUEMU_SHIMS_DIR:-$srcdir/shims/cuda_builtins}" "$work/shims"
  export CUEMU_SHIMS_DIR=$work/shims
  build_clang() { # NAME [cuemu-cc args...]
    cxx=$work/clangxx
    build "$@"
    cxx=
  }
  clang_entries() {
    grep -la '^CPCH' "$work/cache8"/*.entry 2>/dev/null | wc -l
  }
  export CUEMU_CACHE_DIR=$work/cache8
  program "$work/p.cu" 2
  build_clang p
  expect "clang++: first compile" "" "2 2"
  program "$work/p.cu" 3
  build_clang p
  expect "clang++: second compile" "!!" "3 3"
  [ "$(clang_entries)" = 2 ] ||
    fail "clang++: wanted 2 precompiled headers, got $(clang_entries)"
  # An error in <thread>'s templates (t.cu of scenario 7, whose prefix it
  # is): the same messages.
  CUEMU_NO_PCH=1 build_clang t
  cp "$work/t.log" "$work/t.ref"
  grep -q "^In file included from $work/t.cu:3:" "$work/t.ref" ||
    fail "clang++: the error in <thread> names no include line: $(cat "$work/t.ref")"
  for i in 1 2; do
    build_clang t
    cmp -s "$work/t.ref" "$work/t.log" ||
      fail "clang++: a precompiled prelude changes the messages ($i): $(diff "$work/t.ref" "$work/t.log")"
  done
  # The qualifiers written again with their text: used all the same.
  q=$work/shims/cuemu_qualifiers.h
  cp "$q" "$q.new" && touch -d '2020-01-01' "$q.new" && mv "$q.new" "$q"
  program "$work/p.cu" 4
  build_clang p
  expect "clang++: the qualifiers with new times" "!!" "4 4"
  # A flipped byte: the entry is not used, and is rewritten.
  damage $(grep -la '^CPCH' "$work/cache8"/*.entry)
  program "$work/p.cu" 5
  build_clang p
  expect "clang++: damaged precompiled headers" "!!" "5 5"
  rewritten "clang++"
  # g++'s preludes in the same cache, beyond CUEMU_PCH_ENTRIES=2: the
  # least recently used, clang's, go.
  program "$work/p.cu" 6
  build p
  program "$work/p.cu" 7
  CUEMU_PCH_ENTRIES=2 build p
  expect "g++ beside clang++'s" "PP" "7 7"
  [ "$(clang_entries)" = 0 ] ||
    fail "CUEMU_PCH_ENTRIES=2 left $(clang_entries) of clang's beside g++'s two"
else
  echo "driver_pch.sh: no clang++: scenario 8 not run"
fi
[ $failed -eq 0 ] && echo "PASS: driver_pch.sh"
exit $failed
