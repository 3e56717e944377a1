#!/bin/sh
# context_aarch64.sh: builds tests/context_switch_test.c for every context
# backend and runs it:
#   - native, asm backend (x86-64 on an x86-64 host, aarch64 on an aarch64 one);
#   - native, ucontext backend (the portable fallback);
#   - on an x86-64 host, aarch64 asm and ucontext backends built with
#     aarch64-linux-gnu-gcc (static, -O2) and run under qemu-aarch64.
# The native runs come first; when the cross compiler or qemu (or clang) is
# missing the script then exits 77 (skip), saying what is missing, or 1
# where CI=true, since set-up installs them (see test_tools.sh).
#
# Debian packages for the aarch64 part: gcc-aarch64-linux-gnu,
# libc6-dev-arm64-cross, qemu-user (or qemu-user-static).
#
# Environment: CUEMU_SRCDIR (the source tree; default: this script's parent
# folder), CC (the native compiler; default gcc), CLANG (also builds the
# native runs with it when set or when clang is on PATH; CLANG=no skips it),
# AARCH64_CC (default aarch64-linux-gnu-gcc), QEMU_AARCH64 (default
# qemu-aarch64, then qemu-aarch64-static).

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
ctxdir=$srcdir/emulator/context
test_c=$srcdir/tests/context_switch_test.c
. "$srcdir/tests/test_tools.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cuemu-ctx.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

# The context sources include "config.h" for CUEMU_CONTEXT_UCONTEXT; each
# build passes the value with -D.
cat >"$tmp/config.h" <<'EOF'
/* config.h for context_aarch64.sh: the backend comes from -D. */
#ifndef CUEMU_CONTEXT_UCONTEXT
#define CUEMU_CONTEXT_UCONTEXT 0
#endif
EOF

failed=0

# build_and_run NAME COMPILER ARCH UCONTEXT RUNNER [EXTRA CFLAGS...]
# ARCH names the .S file (x86_64 or aarch64); RUNNER is empty or qemu.
build_and_run() {
  name=$1 cc=$2 arch=$3 uctx=$4 runner=$5
  shift 5
  exe=$tmp/context_switch_test.$name
  echo "== $name: $cc -O2${*:+ $*} -DCUEMU_CONTEXT_UCONTEXT=$uctx${runner:+ (run with $runner)}"
  if ! $cc -std=c11 -O2 -Wall -Wextra "$@" -DCUEMU_CONTEXT_UCONTEXT="$uctx" \
      -I"$tmp" -I"$ctxdir" -o "$exe" "$test_c" "$ctxdir/cuemu_context.c" \
      "$ctxdir/cuemu_arch_$arch.c" \
      "$ctxdir/cuemu_context_$arch.S" -lm; then
    echo "FAIL $name: build failed"
    failed=1
    return
  fi
  if $runner "$exe"; then
    echo "PASS $name"
  else
    echo "FAIL $name: exit status $?"
    failed=1
  fi
}

host=$(uname -m)
case $host in
  x86_64|aarch64) ;;
  *) echo "no asm context switch for $host; nothing to test here"; exit 77 ;;
esac

native_cc=${CC:-gcc}
build_and_run "native-asm-$host" "$native_cc" "$host" 0 ""
build_and_run "native-ucontext-$host" "$native_cc" "$host" 1 ""
clang=${CLANG:-$(command -v clang || true)}
if [ -n "$clang" ] && [ "$clang" != no ]; then
  build_and_run "native-asm-$host-clang" "$clang" "$host" 0 ""
elif [ -z "$clang" ] && [ "${CI:-}" = true ]; then
  tool_missing context_aarch64.sh "clang not found"
fi

if [ "$host" = aarch64 ]; then
  # The native runs above were the aarch64 ones.
  exit $failed
fi

aarch64_cc=${AARCH64_CC:-aarch64-linux-gnu-gcc}
qemu=${QEMU_AARCH64:-}
if [ -z "$qemu" ]; then
  for q in qemu-aarch64 qemu-aarch64-static; do
    if command -v "$q" >/dev/null 2>&1; then
      qemu=$q
      break
    fi
  done
fi
missing=
command -v "$aarch64_cc" >/dev/null 2>&1 || missing="$aarch64_cc"
[ -n "$qemu" ] && command -v "$qemu" >/dev/null 2>&1 ||
  missing="$missing${missing:+ and }${qemu:-qemu-aarch64}"
if [ -n "$missing" ]; then
  if [ $failed -ne 0 ]; then
    exit 1
  fi
  tool_missing context_aarch64.sh "aarch64: $missing not found (Debian:" \
    "gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user)"
fi

build_and_run aarch64-asm "$aarch64_cc" aarch64 0 "$qemu" -static
build_and_run aarch64-ucontext "$aarch64_cc" aarch64 1 "$qemu" -static
# clang's integrated assembler reads the .S file differently from gas; it
# links with the cross toolchain's libc and linker found above.
if [ -n "$clang" ] && [ "$clang" != no ]; then
  build_and_run aarch64-asm-clang "$clang" aarch64 0 "$qemu" \
    --target=aarch64-linux-gnu -static
fi

exit $failed
