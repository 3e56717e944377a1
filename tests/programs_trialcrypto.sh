#!/bin/sh
# programs_trialcrypto.sh: the project of tests/programs/trialcrypto, from a
# trial of code in the style of public CUDA cryptography and number-theory
# projects (hash crackers and miners, big-integer libraries, NTT for
# lattice crypto), built unmodified by its own Makefile with
# `make NVCC=cuemu-nvcc`: a static library of relocatable device code
# (-rdc=true objects, nvcc -lib) whose __constant__ tables and __device__
# functions the program's kernels use from another file, and one program
# of eight self-checking parts (cryptolib/apps/crypto_tests.cu):
# - hashes: SHA-256 of 1000 messages (one thread each, round constants in
#   __constant__ memory, __byte_perm/__funnelshift_r), an MD5 brute-force
#   search, the library's tables read back by symbol;
# - miner: a double-SHA-256 nonce search from a midstate that stops every
#   thread early through a volatile flag and atomicCAS;
# - aes: AES-128 ECB (the FIPS-197 vector) and CTR with T-tables staged in
#   shared memory and uint4 loads;
# - modexp: 256-bit Montgomery exponentiation over secp256k1's prime in
#   inline PTX carry chains of one instruction per asm volatile statement
#   (add.cc/addc.cc/addc, mad.lo.cc/madc.hi.cc, sub.cc/subc, add.cc.u64),
#   against a host big integer on unsigned __int128;
# - ntt: forward and inverse NTT over the Goldilocks prime in shared
#   memory with __brev bit reversal, a polynomial product;
# - hashtable: a warp-cooperative table of 64-bit keys (__ballot_sync,
#   __shfl_sync of 64-bit values, __ffs, atomicCAS) and lookups through
#   cooperative-groups tiles of 32 and 16;
# - bitops: funnel shifts, byte permutes, prmt, lop3, bfe, shf, counts,
#   high products and video intrinsics against host models, and
#   warp-aggregated atomics through coalesced_threads();
# - keccak: SHA3-256 of 700 messages on uint2 lanes in the style of GPU
#   miners (static __device__ operators on uint2, operator^= among them,
#   rotations by funnel shifts and shf.r.wrap, mov.b64 packing) and a nonce
#   search whose result a host thread reads through mapped pinned memory,
#   driven by a C file (host/keccak_driver.c) through extern "C".
# The program runs in the default order and in a random one. The build is
# at -Xcompiler -O0, which reaches the device passes too (the project's -O3
# costs half as much again in processor time).
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir=$(cd "$builddir" && pwd)
nvcc=$builddir/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing programs_trialcrypto.sh "$nvcc is not built"
command -v make >/dev/null 2>&1 || tool_missing programs_trialcrypto.sh "make is missing"
work=$builddir/tests/tmp/programs_trialcrypto.$$
failed=0
mkdir -p "$work" || exit 1
cp -R "$srcdir/tests/programs/trialcrypto/cryptolib" "$work/" || exit 1
chmod -R u+w "$work"

if step make make -C cryptolib "NVCC=$nvcc" "NVCCFLAGS=-Xcompiler -O0 -std=c++17 -arch=sm_80"; then
  passes "cryptolib: SHA-256, MD5, a miner, AES, Montgomery in PTX carry chains, NTT, a warp hash table, bit intrinsics, Keccak" \
    env CUEMU_QUIET=1 ./cryptolib/build/crypto_tests
  passes "cryptolib: the same in a random thread order" \
    env CUEMU_QUIET=1 CUEMU_SCHEDULE=random:7 ./cryptolib/build/crypto_tests
fi
rm -rf "$work"
exit "$failed"
