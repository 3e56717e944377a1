#!/bin/sh
# cache_exact.sh: the compile cache is exact or it is not used (issue 13).
# Each scenario builds small whole programs with cuemu-cc -v (which says
# "compiled" or "cache hit") in a cache folder of its own, and runs them to
# see which build they are:
#   1. the same relative -I from two working folders;
#   2. a changed CPLUS_INCLUDE_PATH;
#   3. a new header that shadows the one used before, in the source's folder
#      and in an earlier -I folder;
#   4. #include "../inc/x.h" beside a decoy ../inc/x.h of the cache folder;
#   5. a flipped byte in an entry;
#   6. a cache folder owned by another user, or writable by others;
#   7. a cache folder that cannot be written (also with CUEMU_NO_CACHE=1);
#   8. a FIFO at an entry's path;
#   9. a compile killed mid-way (its temporary files must go);
#  10. two concurrent compiles of one source (one compiler run).
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
cc=$(cd "$builddir" && pwd)/cuemu-cc
[ -x "$cc" ] || { echo "FAIL: $cc is not built"; exit 1; }
case $builddir in /*) ;; *) builddir=$(cd "$builddir" && pwd) ;; esac

work=$builddir/tests/tmp/cache_exact.$$
rm -rf "$work"
mkdir -p "$work" || exit 1
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
unset CUEMU_NO_CACHE

failed=0

# A program printing VALUE, which its header defines.
program() { # FILE HEADER-INCLUDE
  cat >"$1" <<EOF
#include <cstdio>
#include $2
__global__ void k(int *out) { *out = VALUE; }
int main() {
  int *d = nullptr, h = 0;
  cudaMalloc(&d, sizeof(int));
  k<<<1, 1>>>(d);
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  printf("%d\n", h);
  return 0;
}
EOF
}
header() { # FILE VALUE
  mkdir -p "$(dirname "$1")"
  echo "#define VALUE $2" >"$1"
  touch -d '-1 minute' "$1"
}

# build NAME CACHE [cuemu-cc args...]: compiles into $work/NAME.out, and sets
# $how to "compiled", "cache hit" or "failed" and $value to what it prints.
build() {
  name=$1 cache=$2
  shift 2
  rm -f "$work/$name.out"
  if CUEMU_CACHE_DIR=$cache "$cc" -v -o "$work/$name.out" "$@" \
      >"$work/$name.log" 2>&1; then
    how=compiled
    grep -q 'cache hit' "$work/$name.log" && how="cache hit"
    value=$("$work/$name.out" 2>&1)
  else
    how=failed value=
  fi
}

expect() { # WHAT HOW VALUE
  if [ "$how" != "$2" ] || [ "$value" != "$3" ]; then
    fail "$1: wanted '$2' printing '$3', got '$how' printing '$value'"
    sed 's/^/  | /' "$work/$name.log"
  fi
}

# ---- 1. A relative -I from two working folders -----------------------------
mkdir -p "$work/s1/src"
program "$work/s1/src/main.cu" '"v.h"'
header "$work/s1/a/inc/v.h" 1
header "$work/s1/b/inc/v.h" 2
c=$work/cache1
cd "$work/s1/a" || exit 1
build one "$c" -I inc ../src/main.cu
expect "relative -I, first folder" compiled 1
build one "$c" -I inc ../src/main.cu
expect "relative -I, first folder again" "cache hit" 1
cd "$work/s1/b" || exit 1
build one "$c" -I inc ../src/main.cu
expect "relative -I, second folder" compiled 2
cd "$work" || exit 1

# ---- 2. The include path of the environment ----------------------------------
mkdir -p "$work/s2"
program "$work/s2/main.cu" '<w.h>'
header "$work/s2/x/w.h" 10
header "$work/s2/y/w.h" 20
c=$work/cache2
CPLUS_INCLUDE_PATH=$work/s2/x build env "$c" "$work/s2/main.cu"
expect "CPLUS_INCLUDE_PATH x" compiled 10
CPLUS_INCLUDE_PATH=$work/s2/y build env "$c" "$work/s2/main.cu"
expect "CPLUS_INCLUDE_PATH y" compiled 20
CPATH=$work/s2/x build env "$c" "$work/s2/main.cu"
expect "CPATH x" compiled 10

# ---- 3. A new header that shadows the one used before ---------------------------
mkdir -p "$work/s3/src"
program "$work/s3/src/main.cu" '"s.h"'
header "$work/s3/lib2/s.h" 1
mkdir -p "$work/s3/lib1"
c=$work/cache3
build shadow "$c" -I "$work/s3/lib1" -I "$work/s3/lib2" "$work/s3/src/main.cu"
expect "shadowing: first build" compiled 1
build shadow "$c" -I "$work/s3/lib1" -I "$work/s3/lib2" "$work/s3/src/main.cu"
expect "shadowing: unchanged" "cache hit" 1
header "$work/s3/lib1/s.h" 2
build shadow "$c" -I "$work/s3/lib1" -I "$work/s3/lib2" "$work/s3/src/main.cu"
expect "shadowing: new header in an earlier -I folder" compiled 2
header "$work/s3/src/s.h" 3
build shadow "$c" -I "$work/s3/lib1" -I "$work/s3/lib2" "$work/s3/src/main.cu"
expect "shadowing: new header beside the source" compiled 3

# A header of the toolkit's include folder (searched after the shims, as
# nvcc searches its own), then a shim of that name: a new shim header that
# now shadows a toolkit header (cuda_gl_interop.h, trialcbe) is a miss too.
# A copy of the shims and a toolkit of two marker files keep the real ones
# untouched.
mkdir -p "$work/s3t/src" "$work/s3t/tk/include/crt"
cp -R "${CUEMU_SHIMS_DIR:-$srcdir/shims/cuda_builtins}" "$work/s3t/shims"
: >"$work/s3t/tk/include/cuda_runtime_api.h"
: >"$work/s3t/tk/include/crt/host_config.h"
program "$work/s3t/src/main.cu" '"tkonly.h"'
header "$work/s3t/tk/include/tkonly.h" 4
c=$work/cache3t
CUDA_HOME=$work/s3t/tk CUEMU_SHIMS_DIR=$work/s3t/shims \
  build shadow "$c" "$work/s3t/src/main.cu"
expect "shadowing: toolkit header" compiled 4
header "$work/s3t/shims/tkonly.h" 5
CUDA_HOME=$work/s3t/tk CUEMU_SHIMS_DIR=$work/s3t/shims \
  build shadow "$c" "$work/s3t/src/main.cu"
expect "shadowing: new shim header before the toolkit's" compiled 5

# ---- 4. "../inc/x.h" beside a decoy of the cache folder ---------------------------
mkdir -p "$work/s4/proj/src" "$work/s4/c/cache"
program "$work/s4/proj/src/main.cu" '"../inc/x.h"'
header "$work/s4/proj/inc/x.h" 7
header "$work/s4/c/inc/x.h" 666
build relative "$work/s4/c/cache" "$work/s4/proj/src/main.cu"
expect "../inc/x.h is the source's, not the cache folder's" compiled 7

# program_entry CACHE: the program's entry, the largest but the preprocessed
# preludes (emulator/compile/cuemu_pp_prelude.c).
program_entry() {
  for e in $(ls -S "$1"/*.entry 2>/dev/null); do
    grep -qa '^cuemu-cc prelude 1' "$e" || { echo "$e"; break; }
  done
}

# ---- 5. A flipped byte in an entry ------------------------------------------------
mkdir -p "$work/s5"
program "$work/s5/main.cu" '"f.h"'
header "$work/s5/f.h" 5
c=$work/cache5
build flip "$c" "$work/s5/main.cu"
expect "flipped byte: first build" compiled 5
entry=$(program_entry "$c")
if [ -z "$entry" ]; then
  fail "flipped byte: no entry was stored"
else
  size=$(wc -c <"$entry")
  python3 - "$entry" "$size" <<'EOF'
import sys
path, size = sys.argv[1], int(sys.argv[2])
with open(path, "r+b") as f:
    f.seek(size - size // 3)
    b = f.read(1)
    f.seek(size - size // 3)
    f.write(bytes([b[0] ^ 0x40]))
EOF
  build flip "$c" "$work/s5/main.cu"
  expect "flipped byte: the entry is not used" compiled 5
  build flip "$c" "$work/s5/main.cu"
  expect "flipped byte: the rebuilt entry is used" "cache hit" 5
fi

# ---- 6. A cache folder of another user, or writable by others ---------------------
mkdir -p "$work/s6"
program "$work/s6/main.cu" '"o.h"'
header "$work/s6/o.h" 6
if [ "$(id -u)" = 0 ]; then
  foreign=$work/foreign
  mkdir -p "$foreign"
  chown 65534 "$foreign"
else
  foreign=/
fi
build foreign "$foreign" "$work/s6/main.cu"
expect "a folder of another user is not used" compiled 6
grep -q 'owned by another user' "$work/foreign.log" ||
  fail "no note about the folder of another user: $(cat "$work/foreign.log")"
[ -z "$(ls "$foreign" | grep entry)" ] || fail "an entry was stored in $foreign"
open=$work/open
mkdir -p "$open"
chmod 777 "$open"
build open "$open" "$work/s6/main.cu"
expect "a folder writable by others is not used" compiled 6
build open "$open" "$work/s6/main.cu"
expect "a folder writable by others is never hit" compiled 6
grep -q 'writable by other users' "$work/open.log" ||
  fail "no note about the folder writable by others: $(cat "$work/open.log")"
# An entry writable by others is not used either.
c=$work/cache6
build mine "$c" "$work/s6/main.cu"
chmod 666 "$c"/*.entry
build mine "$c" "$work/s6/main.cu"
expect "an entry writable by others is not used" compiled 6

# ---- 7. A cache folder that cannot be written ---------------------------------------
mkdir -p "$work/s7"
program "$work/s7/main.cu" '"r.h"'
header "$work/s7/r.h" 9
: >"$work/s7/plain-file"
# The private build folders go to a TMPDIR of this test's own, so that
# other programs' folders in /tmp cannot be taken for leftovers.
mkdir -p "$work/s7/tmp"
saved_tmpdir=${TMPDIR:-/tmp}
TMPDIR=$work/s7/tmp
export TMPDIR
build readonly "$work/s7/plain-file/cache" "$work/s7/main.cu"
expect "no cache folder can be made" compiled 9
grep -q 'building without the cache' "$work/readonly.log" ||
  fail "no note about building without the cache: $(cat "$work/readonly.log")"
CUEMU_NO_CACHE=1 build readonly "$work/s7/plain-file/cache" "$work/s7/main.cu"
expect "no cache folder, CUEMU_NO_CACHE=1" compiled 9
if [ "$(id -u)" != 0 ]; then
  mkdir -p "$work/s7/ro"
  chmod 555 "$work/s7/ro"
  build readonly "$work/s7/ro" "$work/s7/main.cu"
  expect "a read-only cache folder" compiled 9
fi
[ -n "$(ls -A "$work/s7/tmp")" ] &&
  fail "the private build folder was left in \$TMPDIR: $(ls "$work/s7/tmp")"
TMPDIR=$saved_tmpdir
export TMPDIR

# ---- 8. A FIFO at an entry's path -------------------------------------------------
mkdir -p "$work/s8"
program "$work/s8/main.cu" '"q.h"'
header "$work/s8/q.h" 8
c=$work/cache8
build fifo "$c" "$work/s8/main.cu"
# The program's entry (the others are its preludes' marks and preprocessed
# forms, which a cache hit of the program does not read).
entry=$(program_entry "$c")
if [ -z "$entry" ]; then
  fail "FIFO: no entry was stored"
else
  rm -f "$entry"
  mkfifo "$entry"
  CUEMU_CACHE_DIR=$c timeout 120 "$cc" -v -o "$work/fifo.out" \
    "$work/s8/main.cu" >"$work/fifo.log" 2>&1
  status=$?
  if [ $status -eq 124 ]; then
    fail "FIFO: the compile hangs"
  elif [ $status -ne 0 ] || [ "$("$work/fifo.out")" != 8 ]; then
    fail "FIFO: the compile failed: $(cat "$work/fifo.log")"
  elif [ ! -f "$entry" ] || [ -p "$entry" ]; then
    fail "FIFO: the entry was not replaced by a regular file"
  fi
fi

# ---- 9. A compile killed mid-way --------------------------------------------------
mkdir -p "$work/s9"
program "$work/s9/main.cu" '"k.h"'
header "$work/s9/k.h" 4
# Slow at the compile, after the preprocessing pass and the translation
# have written their files.
cat >"$work/s9/slow-cxx" <<EOF
#!/bin/sh
case " \$* " in *" -E "*) ;; *) sleep 60 ;; esac
exec c++ "\$@"
EOF
chmod +x "$work/s9/slow-cxx"
c=$work/cache9
mkdir -p "$c"
CUEMU_CACHE_DIR=$c CXX=$work/s9/slow-cxx setsid "$cc" -o "$work/s9/k.out" \
  "$work/s9/main.cu" >/dev/null 2>&1 &
killed=$!
for i in $(seq 1 100); do
  [ -n "$(ls "$c" | grep '\.cpp$')" ] && break
  sleep 0.1
done
[ -n "$(ls "$c" | grep '\.cpp$')" ] || fail "killed compile: it never started"
kill -9 -- -"$killed" 2>/dev/null || kill -9 "$killed"
wait "$killed" 2>/dev/null
[ -n "$(ls "$c" | grep '\.[0-9][0-9]*\.[0-9][0-9]*\.[0-9]')" ] ||
  fail "killed compile: it left nothing to clean (the test is wrong)"
header "$work/s9/k2.h" 4
program "$work/s9/other.cu" '"k2.h"'
build after "$c" "$work/s9/other.cu"
expect "a compile after a killed one" compiled 4
left=$(ls "$c" | grep '\.[0-9][0-9]*\.[0-9][0-9]*\.[0-9]')
[ -z "$left" ] || fail "killed compile: its files stay: $left"

# ---- 10. Two concurrent compiles of one source build once ---------------------------
mkdir -p "$work/s10"
program "$work/s10/main.cu" '"t.h"'
header "$work/s10/t.h" 3
# Counts the builds: one preprocessing of the device pass's source each.
cat >"$work/s10/counting-cxx" <<EOF
#!/bin/sh
case " \$* " in
  *" -E "*"$work/s10/main.cu"*)
    case " \$* " in *-D__CUDA_ARCH__=*) echo run >>"$work/s10/runs" ;; esac ;;
esac
sleep 2
exec c++ "\$@"
EOF
chmod +x "$work/s10/counting-cxx"
c=$work/cache10
CUEMU_CACHE_DIR=$c CXX=$work/s10/counting-cxx "$cc" -o "$work/s10/a.out" \
  "$work/s10/main.cu" >"$work/s10/a.log" 2>&1 &
first=$!
CUEMU_CACHE_DIR=$c CXX=$work/s10/counting-cxx "$cc" -o "$work/s10/b.out" \
  "$work/s10/main.cu" >"$work/s10/b.log" 2>&1
wait $first
runs=$(wc -l <"$work/s10/runs")
[ "$runs" -eq 1 ] || fail "concurrent compiles ran the compiler $runs times"
[ "$("$work/s10/a.out")" = 3 ] && [ "$("$work/s10/b.out")" = 3 ] ||
  fail "concurrent compiles: a program does not work"
[ -z "$(ls "$c" | grep '\.lock$')" ] || fail "a lock file stays"

if [ $failed -eq 0 ]; then
  echo "PASS: the compile cache is exact and safe in every scenario"
  exit 0
fi
exit 1
