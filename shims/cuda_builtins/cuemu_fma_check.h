/*
 * cuemu_fma_check.h: force-included in the host pass (or a module's only
 * pass) of a unit whose device pass is compiled with -fmad=true on an
 * x86-64 CPU with FMA (emulator/compile/cuemu_compile.c, -mfma): the
 * program checks, before main, that the CPU
 * it runs on has FMA and AVX, and otherwise stops with a message (status
 * 1) instead of an illegal instruction in a kernel. Not for user code.
 * The compiler reads it before the translated unit, whose text holds its
 * system headers without their include guards: so it includes nothing and
 * writes its message with the write and exit_group system calls.
 */
#ifndef CUEMU_FMA_CHECK_H
#define CUEMU_FMA_CHECK_H
#pragma GCC system_header

#if defined(__x86_64__) && defined(__linux__)
namespace {
__attribute__((constructor(101), used)) void cuemu_fma_check() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("fma") && __builtin_cpu_supports("avx"))
    return;
  static const char message[] =
      "cuemu: this program's device code was compiled with -fmad=true on a "
      "CPU with FMA instructions (-mfma), and this CPU has none: compile it "
      "again here, or with -fmad=false\n";
  long result;
  __asm__ volatile("syscall"
                   : "=a"(result)
                   : "0"(1L), "D"(2L), "S"(message), "d"(sizeof message - 1)
                   : "rcx", "r11", "memory");
  __asm__ volatile("syscall" : : "a"(231L), "D"(1L) : "rcx", "r11", "memory");
  __builtin_unreachable();
}
} // namespace
#endif

#endif /* CUEMU_FMA_CHECK_H */
