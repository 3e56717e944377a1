/*
 * check_ptx.c: tests of cuemu-cc's inline-PTX translator
 * (emulator/compile/cuemu_ptx.h): how statements are parsed and operands
 * bound, which templates are PTX, the errors that name an instruction,
 * modifier, register, operand or constraint with its line, the rewriter's
 * part (asm labels left alone, line counts kept), and the kernels of
 * tests/kernels/ptx_traps.cu and of a file refused at compile time. What the instructions compute
 * is tested by the self-test kernels tests/kernels/selftest_ptx_*.cu.
 */
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "cuemu_ptx.h"
#include "cuemu_rewrite.h"
#include "cuemu_test_util.h"

/* ---- Helpers ------------------------------------------------------------- */

/* Translates src, which must be PTX and translate; returns the code. */
static char *translate_ok(const char *src) {
  cuemu_ptx_result r;
  cuemu_status st = cuemu__ptx_translate(src, strlen(src), 0, &r);
  ck_assert_msg(st == CUEMU_SUCCESS, "%s: status %d: %s", src, (int)st,
                r.message);
  ck_assert_msg(r.is_ptx && r.code, "%s: not taken as PTX", src);
  ck_assert_uint_eq(strlen(r.code), r.length);
  ck_assert_msg(strchr(r.code, '\n') == NULL, "the code has a newline: %s",
                r.code);
  return r.code;
}

static void expect_in(const char *code, const char *part) {
  ck_assert_msg(strstr(code, part) != NULL, "no \"%s\" in:\n%s", part, code);
}

static void translate_expect(const char *src, const char *const *parts) {
  char *code = translate_ok(src);
  for (; *parts; ++parts) expect_in(code, *parts);
  free(code);
}

/* Translating src fails at statement line `line` with `message`. */
static void translate_error(const char *src, int line, const char *message) {
  cuemu_ptx_result r;
  cuemu_status st = cuemu__ptx_translate(src, strlen(src), 0, &r);
  ck_assert_msg(st == CUEMU_COMPILE, "%s: status %d", src, (int)st);
  ck_assert_ptr_null(r.code);
  ck_assert_str_eq(r.message, message);
  ck_assert_int_eq(r.error_line, line);
}

static void not_ptx(const char *src) {
  cuemu_ptx_result r;
  cuemu_status st = cuemu__ptx_translate(src, strlen(src), 0, &r);
  ck_assert_msg(st == CUEMU_SUCCESS, "%s: status %d: %s", src, (int)st,
                r.message);
  ck_assert_msg(!r.is_ptx && r.code == NULL, "%s: taken as PTX", src);
}

static size_t count_newlines(const char *s) {
  size_t n = 0;
  for (; *s; ++s) n += *s == '\n';
  return n;
}

/* ---- Parsing and binding ------------------------------------------------- */

START_TEST(ptx_outputs_and_special_registers) {
  const char *const parts[] = {
      "namespace cuemu_p = ::cuemu::ptx;",
      "unsigned long long cuemu_ptx_0 = 0;",
      "cuemu_p::mov<cuemu_p::u32>(cuemu_ptx_0, cuemu_p::sreg_laneid());",
      "cuemu_p::__cuemu_out<'r'>(x, cuemu_ptx_0);", NULL};
  translate_expect("asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(x));", parts);
  const char *const tid[] = {"(unsigned long long)threadIdx.y", NULL};
  translate_expect("asm(\"mov.u32 %0, %%tid.y;\" : \"=r\"(x));", tid);
  /* ret leaves the function of the statement; the bulk copies name the
   * direction of the copy by their emulation function. */
  const char *const ret[] = {"if (cuemu_ptx_v0) { return; }", NULL};
  translate_expect("asm(\"{ .reg .pred p; setp.ne.u32 p, %0, 0; @p ret; }\" :: \"r\"(x));",
                   ret);
  const char *const wide[] = {"unsigned __int128 cuemu_ptx_0 = 0;",
                              "unsigned __int128 cuemu_ptx_1 = cuemu_p::inq(y);",
                              "unsigned __int128 cuemu_ptx_v0 = 0;",
                              "cuemu_p::pack<cuemu_p::b128>(cuemu_ptx_v0, ",
                              "cuemu_p::outq(x, cuemu_ptx_0);", NULL};
  translate_expect("asm(\"{ .reg .b128 t; mov.b128 t, {%2, %2}; mov.b128 %0, %1; }\" "
                   ": \"=q\"(x) : \"q\"(y), \"l\"(z));",
                   wide);
  const char *const bulk[] = {"cuemu_p::bulk_g2s<>(", "cuemu_p::bulk_s2g<>(", NULL};
  translate_expect("asm(\"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                   "[%0], [%1], %2, [%3];\\n\\t"
                   "cp.async.bulk.global.shared::cta.bulk_group [%1], [%0], %2;\" "
                   ":: \"r\"(d), \"l\"(s), \"r\"(n), \"r\"(b));",
                   bulk);
  const char *const tensor[] = {
      "cuemu_p::__cuemu_tensor_g2s<2>(cuemu_ptx_0, cuemu_ptx_1, cuemu_ptx_4, ~0ULL, __FILE__, "
      "__LINE__, cuemu_ptx_2, cuemu_ptx_3);",
      "cuemu_p::__cuemu_tensor_s2g<2>(cuemu_ptx_1, cuemu_ptx_0, __FILE__, __LINE__, cuemu_ptx_2, "
      "cuemu_ptx_3);",
      "cuemu_p::__cuemu_tensor_reduce<cuemu_p::m_add, 2>(", "cuemu_p::__cuemu_bulk_g2s_multicast(", NULL};
  translate_expect("asm(\"cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::"
                   "complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\\n\\t"
                   "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group "
                   "[%1, {%2, %3}], [%0];\\n\\t"
                   "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group "
                   "[%1, {%2, %3}], [%0]; // 1b.\\n\\t"
                   "cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%1, {%2, %3}];\\n\\t"
                   "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                   ".multicast::cluster [%0], [%1], 16, [%4], %5;\" "
                   ":: \"r\"(d), \"l\"(m), \"r\"(x), \"r\"(y), \"r\"(b), \"h\"(k));",
                   tensor);
  const char *const fences[] = {"({ ", NULL};
  translate_expect("asm volatile(\"fence.proxy.tensormap::generic.acquire.gpu [%0], 128;\\n\\t"
                   "fence.proxy.tensormap::generic.release.gpu;\\n\\t"
                   "prefetch.param.tensormap [%0];\\n\\t"
                   "fence.mbarrier_init.release.cluster;\" :: \"l\"(m) : \"memory\");",
                   fences);
}
END_TEST

START_TEST(ptx_inputs_names_and_immediates) {
  const char *const parts[] = {
      "unsigned long long cuemu_ptx_1 = cuemu_p::in<'r'>(b + 1);",
      "const unsigned long long cuemu_ptx_2 = cuemu_p::in<'n'>(4);",
      "cuemu_p::add<cuemu_p::u32>(cuemu_ptx_0, cuemu_ptx_1, cuemu_ptx_2, cuemu_ptx_cc);",
      NULL};
  translate_expect("asm volatile(\"add.u32 %0, %1, %[k];\" : \"=r\"(a) : "
                   "\"r\"(b + 1), [k] \"n\"(4));",
                   parts);
  /* `::` is an empty output list; negative and hex immediates. */
  const char *const st[] = {
      "*cuemu_p::at<cuemu_p::u32>((cuemu_ptx_0 + 0x8ULL), 0) = "
      "cuemu_p::st<cuemu_p::u32>(cuemu_ptx_1);",
      "cuemu_p::add<cuemu_p::s32>(cuemu_ptx_sink, cuemu_ptx_1, 0xffffffffffffffffULL, "
      "cuemu_ptx_cc);",
      NULL};
  translate_expect("__asm__ __volatile__(\"st.global.u32 [%0+8], %1;\\n\\t"
                   "add.s32 _, %1, -1;\" :: \"l\"(p), \"r\"(v) : \"memory\");",
                   st);
  /* A "memory" clobber makes a compiler barrier before and after. */
  const char *const mem[] = {"__atomic_signal_fence(__ATOMIC_SEQ_CST); cuemu_p::bar_sync<>("
                             "0x0ULL, __FILE__, __LINE__); __atomic_signal_fence(__ATOMIC_SEQ_CST); })",
                             NULL};
  translate_expect("asm volatile(\"bar.sync 0;\" ::: \"memory\")", mem);
  /* "+l": read at the start, written at the end. */
  const char *const rw[] = {"unsigned long long cuemu_ptx_0 = cuemu_p::in<'l'>(x);",
                            "cuemu_p::__cuemu_out<'l'>(x, cuemu_ptx_0);", NULL};
  translate_expect("asm(\"add.u64 %0, %0, 0x10;\" : \"+l\"(x));", rw);
  /* Float literals: hex bits, or a decimal of the instruction's type. */
  const char *const fl[] = {"0x3f800000ULL", "cuemu_p::fimm<cuemu_p::f32>(0.5)", NULL};
  translate_expect("asm(\"fma.rn.f32 %0, %1, 0f3F800000, 0.5;\" : \"=f\"(y) : \"f\"(x));", fl);
}
END_TEST

START_TEST(ptx_scopes_predicates_and_labels) {
  const char *const parts[] = {
      "({ __label__ cuemu_ptx_L_DONE; namespace cuemu_p",
      "unsigned long long cuemu_ptx_v0 = 0;",
      "cuemu_p::setp<cuemu_p::m_lt, cuemu_p::s32>(cuemu_ptx_v0, cuemu_ptx_sink, cuemu_ptx_1, 0x0ULL);",
      "if ((unsigned long long)!(cuemu_ptx_v0)) { goto cuemu_ptx_L_DONE; }",
      "cuemu_ptx_L_DONE:;", NULL};
  translate_expect("asm(\"{ .reg .pred p; setp.lt.s32 p, %1, 0; @!p bra DONE;\\n"
                   "neg.s32 %0, %1;\\nDONE: }\" : \"+r\"(x) : \"r\"(y));",
                   parts);
  /* name<N> declares N registers; an inner scope shadows. */
  const char *const regs[] = {
      "unsigned long long cuemu_ptx_v0 = 0; unsigned long long cuemu_ptx_v1 = 0; "
      "unsigned long long cuemu_ptx_v2 = 0;",
      "cuemu_p::mov<cuemu_p::u32>(cuemu_ptx_v2, 0x1ULL);",
      "cuemu_p::mov<cuemu_p::u32>(cuemu_ptx_v1, 0x2ULL);", NULL};
  translate_expect("asm(\"{ .reg .u32 r<2>; { .reg .u32 r1; mov.u32 r1, 1; } "
                   "mov.u32 r1, 2; mov.u32 %0, r0; }\" : \"=r\"(x));",
                   regs);
  /* d|p pairs, vectors, and the call site of a collective. */
  const char *const pipe[] = {
      "cuemu_p::shfl<cuemu_p::m_down, cuemu_p::b32>(cuemu_ptx_0, cuemu_ptx_v0, "
      "cuemu_ptx_1, 0x1ULL, 0x1fULL, 0xffffffffULL, __FILE__, __LINE__);",
      "cuemu_p::unpack<cuemu_p::b64>(cuemu_ptx_2, cuemu_ptx_0, cuemu_ptx_1);",
      "cuemu_p::ld<cuemu_p::m_v2, cuemu_p::u32>(cuemu_ptx_0, "
      "*cuemu_p::at<cuemu_p::m_v2, cuemu_p::u32>(cuemu_ptx_3, 0)); "
      "cuemu_p::ld<cuemu_p::m_v2, cuemu_p::u32>(cuemu_ptx_1, "
      "*cuemu_p::at<cuemu_p::m_v2, cuemu_p::u32>(cuemu_ptx_3, 1));",
      "cuemu_p::ld_ordered<cuemu_p::m_acquire, cuemu_p::u64>(cuemu_ptx_0, cuemu_ptx_3, 0);",
      /* An ordered vector is one access of the whole vector. */
      "cuemu_p::ld_ordered_v<cuemu_p::m_relaxed, cuemu_p::m_v2, cuemu_p::u64>("
      "cuemu_ptx_3, cuemu_ptx_0, cuemu_ptx_1);",
      "cuemu_p::st_ordered_v<cuemu_p::m_release, cuemu_p::m_v2, cuemu_p::u64>("
      "cuemu_ptx_3, cuemu_ptx_0, cuemu_ptx_1);",
      /* The shared destination is an address of the shared state space. */
      "std::memcpy(reinterpret_cast<void *>(cuemu_p::shared_at(cuemu_ptx_3)), "
      "reinterpret_cast<const void *>(cuemu_ptx_2), cuemu_p::cp_async_copied(0x10ULL));",
      NULL};
  translate_expect("asm volatile(\"{ .reg .pred q; shfl.sync.down.b32 %0|q, %1, 1, "
                   "0x1f, 0xffffffff; mov.b64 {%0, %1}, %2;\\n"
                   "ld.global.nc.L1::no_allocate.v2.u32 {%0, %1}, [%3];\\n"
                   "ld.acquire.gpu.u64 %0, [%3];\\n"
                   "ld.relaxed.gpu.v2.u64 {%0, %1}, [%3];\\n"
                   "st.release.gpu.v2.u64 [%3], {%0, %1};\\n"
                   "cp.async.cg.shared.global [%3], [%2], 16; }\" "
                   ": \"=r\"(a), \"=r\"(b) : \"l\"(w), \"l\"(p));",
                   pipe);
}
END_TEST

START_TEST(ptx_statement_expression_and_deferred_errors) {
  /* Without its `;`, the code has none (the asm was a macro's argument). */
  char *code = translate_ok("asm(\"membar.gl;\")");
  ck_assert_str_eq(code, "({ namespace cuemu_p = ::cuemu::ptx; unsigned long long "
                         "cuemu_ptx_cc = 0, cuemu_ptx_sink = 0; (void)cuemu_ptx_cc; "
                         "(void)cuemu_ptx_sink; cuemu_p::fence<>(); })");
  free(code);
  /* Deferred: the launch that runs it ends with the message. */
  const char *src = "asm volatile(\"tex.1d.v4.f32.s32 {%0, %0, %0, %0}, [%1, {%2}];\" "
                    ": \"=f\"(x) : \"l\"(t), \"r\"(0));";
  cuemu_ptx_result r;
  ck_assert_int_eq(cuemu__ptx_translate(src, strlen(src), CUEMU_PTX_DEFER_UNSUPPORTED, &r),
                   CUEMU_SUCCESS);
  ck_assert_int_eq(r.is_ptx, 1);
  ck_assert_str_eq(r.code, "({ ::cuemu::ptx::unsupported(\"inline PTX: unsupported "
                           "instruction tex.1d.v4.f32.s32\", __FILE__, __LINE__); });");
  free(r.code);
}
END_TEST

/* The carry flag between statements (cuemu_ptx_carry): a statement loads it
 * when an addc/subc/madc may read it before the statement sets it (first,
 * after a label, or after a set that a guard may skip), and stores it when
 * it sets it; a statement with a whole chain, or none, touches neither. */
static void carry_expect(const char *src, int load, int store) {
  char *code = translate_ok(src);
  ck_assert_msg((strstr(code, "cuemu_ptx_cc = cuemu_ptx_carry;") != NULL) == load,
                "%s: load %d expected:\n%s", src, load, code);
  ck_assert_msg((strstr(code, "cuemu_ptx_carry = cuemu_ptx_cc;") != NULL) == store,
                "%s: store %d expected:\n%s", src, store, code);
  free(code);
}

START_TEST(ptx_carry_between_statements) {
  carry_expect("asm(\"addc.cc.u32 %0, %1, %2;\" : \"=r\"(r) : \"r\"(a), \"r\"(b));", 1, 1);
  carry_expect("asm(\"addc.u32 %0, 0, 0;\" : \"=r\"(r));", 1, 0);
  carry_expect("asm(\"add.cc.u64 %0, %1, %2;\" : \"=l\"(r) : \"l\"(a), \"l\"(b));", 0, 1);
  carry_expect("asm(\"madc.hi.cc.u32 %0, %1, %2, %0;\" : \"+r\"(r) : \"r\"(a), \"r\"(b));", 1, 1);
  carry_expect("asm(\"sub.cc.u32 %0, %2, %3; subc.u32 %1, 0, 0;\" "
               ": \"=r\"(r), \"=r\"(c) : \"r\"(a), \"r\"(b));", 0, 1);
  carry_expect("asm(\"add.u32 %0, %1, %2;\" : \"=r\"(r) : \"r\"(a), \"r\"(b));", 0, 0);
  carry_expect("asm(\"{ .reg .pred p; setp.ne.u32 p, %1, 0; @p add.cc.u32 %0, %1, 1; "
               "addc.u32 %0, %0, 0; }\" : \"=r\"(r) : \"r\"(a));", 1, 1);
  carry_expect("asm(\"add.cc.u32 %0, %1, 1; L1: addc.u32 %0, %0, 0;\" : \"=r\"(r) : \"r\"(a));",
               1, 1);
}
END_TEST

/* What CCCL's headers use: shared-window addresses of .shared and
 * .shared::cta accesses and cvta, exit, %dynamic_smem_size, the older
 * vote spelling, bmsk, .L2::cache_hint's policy operand, named barriers. */
START_TEST(ptx_forms_cccl_uses) {
  const char *const shared[] = {
      "cuemu_p::mbar_arrive<cuemu_p::b64>(cuemu_ptx_0, cuemu_p::shared_at(cuemu_ptx_1));",
      "cuemu_p::cvta_to_shared<cuemu_p::u32>(cuemu_ptx_0, cuemu_ptx_2);", NULL};
  translate_expect("asm volatile(\"mbarrier.arrive.shared::cta.b64 %0, [%1];\\n"
                   "cvta.to.shared.u32 %0, %2;\" : \"=l\"(s) : \"r\"(a), \"l\"(p));",
                   shared);
  const char *const ld[] = {
      "cuemu_p::ld<cuemu_p::u32>(cuemu_ptx_0, *cuemu_p::at<cuemu_p::u32>("
      "cuemu_p::shared_at(cuemu_ptx_1), 0));", NULL};
  translate_expect("asm(\"ld.shared.u32 %0, [%1];\" : \"=r\"(x) : \"r\"(a));", ld);
  const char *const misc[] = {
      "cuemu_p::exit<>(__FILE__, __LINE__);",
      "cuemu_p::mov<cuemu_p::u32>(cuemu_ptx_0, (unsigned long long)cuemu_dynamic_shared_size());",
      "cuemu_p::vote<cuemu_p::m_ballot, cuemu_p::b32>(cuemu_ptx_0, cuemu_ptx_1, 0xffffffffULL, "
      "__FILE__, __LINE__);",
      "cuemu_p::bmsk<cuemu_p::m_clamp, cuemu_p::b32>(cuemu_ptx_0, cuemu_ptx_1, 0x4ULL);",
      "cuemu_p::ld<cuemu_p::b32>(cuemu_ptx_0, *cuemu_p::at<cuemu_p::b32>(cuemu_ptx_2, 0));",
      "cuemu_p::bar_arrive<>(0x1ULL, 0x40ULL, __FILE__, __LINE__);", NULL};
  translate_expect("asm volatile(\"mov.u32 %0, %%dynamic_smem_size;\\n"
                   "vote.ballot.sync.b32 %0, %1, 0xffffffff;\\n"
                   "bmsk.clamp.b32 %0, %1, 4;\\n"
                   "ld.global.L2::cache_hint.b32 %0, [%2], %3;\\n"
                   "bar.arrive 1, 64;\\n"
                   "exit;\" : \"=r\"(x) : \"r\"(y), \"l\"(p), \"l\"(policy));",
                   misc);
}
END_TEST

START_TEST(ptx_host_asm_is_left_alone) {
  not_ptx("__asm__ __volatile__(\"rdtsc\" : \"=a\"(lo), \"=d\"(hi));");
  not_ptx("asm volatile(\"pause\" ::: \"memory\");");
  not_ptx("asm(\"nop\");");
  not_ptx("asm(\"mov %%eax, %0\" : \"=r\"(x));");
  not_ptx("asm goto(\"jmp %l0\" :::: out);");
  not_ptx("asm(TEMPLATE : \"=r\"(x));");
  /* AArch64's conditional branch has a modifier, but no PTX type. */
  not_ptx("asm volatile(\"cmp %w0, #0\\n\\tb.eq 1f\\n1:\" :: \"r\"(x));");
  /* A template of comments alone (a compiler barrier) is left alone too. */
  not_ptx("asm volatile(\"// keep the stores in order\" ::: \"memory\");");
  /* Comments before the first instruction are skipped, as ptxas skips them. */
  const char *const commented[] = {"// xor5\n\tlop3.b32 %0, %1, %2, %3, 0x96;",
                                   "/* chi */\n\n// halves\nlop3.b32 %0, %1, %2, %3, 0xD2;"};
  for (size_t k = 0; k < 2; k++)
    ck_assert(cuemu__ptx_template_is_ptx(commented[k], strlen(commented[k])));
  ck_assert(!cuemu__ptx_template_is_ptx("/* unterminated", 15));
}
END_TEST

/* ---- Errors -------------------------------------------------------------- */

START_TEST(ptx_errors_name_what_and_where) {
  translate_error("asm(\"tex.2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %5}];\" "
                  ": \"=f\"(a), \"=f\"(b), \"=f\"(c), \"=f\"(d) : \"l\"(t), \"f\"(x));",
                  1, "inline PTX: unsupported instruction tex.2d.v4.f32.f32");
  translate_error("asm volatile(\n  \"mov.u32 %0, 1;\\n\\t\"\n"
                  "  \"foo.bar.b32 %0, %0;\"\n  : \"=r\"(x));",
                  3, "inline PTX: unsupported instruction foo.bar.b32");
  translate_error("asm(\"pmevent.mask 1;\");", 1, "inline PTX: unsupported instruction pmevent.mask");
  /* A misspelt first instruction is PTX by its types (.u32, .b64, .pred):
   * named, not left to the host assembler ("no such instruction"). */
  translate_error("asm(\"madd.lo.u32 %0, %1, %2, %0;\" : \"+r\"(x) : \"r\"(a), \"r\"(b));", 1,
                  "inline PTX: unsupported instruction madd.lo.u32");
  translate_error("asm volatile(\"addcc.u64 %0, %1, %2;\" : \"=l\"(x) : \"l\"(a), \"l\"(b));", 1,
                  "inline PTX: unsupported instruction addcc.u64");
  translate_error("asm(\"cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::"
                  "complete_tx::bytes [%0], [%1, {%2, %2, %2}], [%3], {%4};\" :: \"r\"(d), "
                  "\"l\"(m), \"r\"(c), \"r\"(b), \"h\"(o));", 1,
                  "inline PTX: unsupported instruction cp.async.bulk.tensor.3d.shared::cluster."
                  "global.im2col.mbarrier::complete_tx::bytes (of the tensor copies, the tile "
                  "mode of sm_90 is emulated: the im2col, gather and scatter modes and CTA "
                  "groups are not)");
  translate_error("asm(\"cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::"
                  "complete_tx::bytes [%0], [%1, {%2}], [%3];\" :: \"r\"(d), \"l\"(m), "
                  "\"r\"(c), \"r\"(b));", 1,
                  "inline PTX: wrong operands for cp.async.bulk.tensor.2d.shared::cluster."
                  "global.tile.mbarrier::complete_tx::bytes");
  translate_error("asm(\"ld.relaxed.gpu.global.b128 %0, [%1];\" : \"=q\"(x) : \"l\"(p));", 1,
                  "inline PTX: unsupported instruction ld.relaxed.gpu.global.b128 (of the "
                  ".b128 forms, mov, ld and st without an order or a vector, atom.cas and "
                  "atom.exch are emulated)");
  translate_error("asm(\"atom.add.global.b128 %0, [%1], %2;\" : \"=q\"(x) : \"l\"(p), "
                  "\"q\"(y));", 1,
                  "inline PTX: unsupported instruction atom.add.global.b128 (of the "
                  ".b128 forms, mov, ld and st without an order or a vector, atom.cas and "
                  "atom.exch are emulated)");
  translate_error("asm volatile(\"multimem.ld_reduce.relaxed.sys.global.add.u32 %0, [%1];\" "
                  ": \"=r\"(x) : \"l\"(p) : \"memory\");",
                  1, "inline PTX: unsupported instruction "
                     "multimem.ld_reduce.relaxed.sys.global.add.u32 (multimem addresses "
                     "reach the memory of several devices, which one emulated device "
                     "cannot have)");
  translate_error("asm volatile(\"multimem.st.relaxed.sys.global.f32 [%0], %1;\" "
                  ":: \"l\"(p), \"f\"(v));", 1,
                  "inline PTX: unsupported instruction multimem.st.relaxed.sys.global.f32 "
                  "(multimem addresses reach the memory of several devices, which one "
                  "emulated device cannot have)");
  translate_error("asm(\"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                  ".cp_mask [%0], [%1], 16, [%2], %3;\" "
                  ":: \"r\"(d), \"l\"(s), \"r\"(b), \"h\"(m));", 1,
                  "inline PTX: unsupported modifier .cp_mask of "
                  "cp.async.bulk.shared::cluster.global");
  translate_error("asm(\"add.foo.u32 %0, %0, 1;\" : \"+r\"(x));", 1,
                  "inline PTX: unsupported modifier .foo of add");
  translate_error("asm(\"mov.u32 %0, q;\" : \"=r\"(x));", 1,
                  "inline PTX: unknown register q");
  translate_error("asm(\"mov.u32 %0, %%reserved_smem_offset_begin;\" : \"=r\"(x));", 1,
                  "inline PTX: unsupported special register %reserved_smem_offset_begin");
  translate_error("asm(\"mov.u32 %0, %3;\" : \"=r\"(x));", 1,
                  "inline PTX: operand %3 does not exist");
  translate_error("asm(\"mov.u32 %0, %[y];\" : \"=r\"(x));", 1,
                  "inline PTX: operand %[y] does not exist");
  translate_error("asm(\"mov.u32 %0, 1;\" :\n \"=x\"(x));", 2,
                  "inline PTX: unsupported constraint \"=x\"");
  translate_error("asm(\"add.u32 %0, %1;\" : \"=r\"(x) : \"r\"(y));", 1,
                  "inline PTX: wrong operands for add.u32");
  translate_error("asm(\"add.u32 1, %0, %0;\" : \"+r\"(x));", 1,
                  "inline PTX: wrong operands for add.u32");
  translate_error("asm(\"{ mov.u32 %0, 1;\" : \"=r\"(x));", 1, "inline PTX: unbalanced {");
  /* ptxas refuses these too (".noftz modifier required", "Vector of size
   * 2 is expected", "Argument vector size mismatch"). */
  translate_error("asm(\"atom.global.min.f16 %0, [%1], %2;\" : \"=h\"(x) : \"l\"(p), \"h\"(y));", 1,
                  "inline PTX: unsupported instruction atom.global.min.f16 (of the .f16 and .bf16 "
                  "atomics, .add.noftz is emulated)");
  translate_error("asm(\"stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1};\" :: \"r\"(x), \"r\"(y));", 1,
                  "inline PTX: stmatrix.sync.aligned.m8n8.x2.shared.b16 needs a braced source of as "
                  "many registers as .x1, .x2 or .x4 says");
  translate_error("asm(\"mma.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, "
                  "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\" : \"+f\"(a), \"+f\"(b), \"+f\"(c), "
                  "\"+f\"(d) : \"r\"(x), \"r\"(x), \"r\"(x), \"r\"(x), \"r\"(y), \"r\"(y));", 1,
                  "inline PTX: mma.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32 takes .tf32 "
                  "inputs in the shape .m16n8k8");
  translate_error("asm goto(\"bra.uni %l0;\" :::: out);", 1,
                  "inline PTX: asm goto is not supported");
  /* nvcc: "The cc clobber constraint is not supported in device code". */
  translate_error("asm volatile(\"mov.u32 %0, %%clock;\" : \"=r\"(x) ::\n \"memory\", \"cc\");", 2,
                  "inline PTX: the \"cc\" clobber is not supported in device code");
  /* A .shared declaration is translated (ptx_shared_declared_in_asm.cu);
   * one without a size, and the other state spaces' declarations, are not. */
  translate_error("asm(\".shared .u32 s[]; mov.u32 %0, 1;\" : \"=r\"(x));", 1,
                  "inline PTX: a .shared array without a size (dynamic shared memory: use "
                  "extern __shared__ in C++)");
  translate_error("asm(\".shared .v4 .u32 s[4]; mov.u32 %0, 1;\" : \"=r\"(x));", 1,
                  "inline PTX: unsupported .shared modifier .v4");
  translate_error("asm(\".param .u32 s; mov.u32 %0, 1;\" : \"=r\"(x));", 1,
                  "inline PTX: unsupported directive .param");
  /* A video instruction's mask or element selector (ptxas takes them) is
   * refused, not read as the whole register: the merge with c and the
   * selected elements would differ without a word. */
  translate_error("asm(\"vadd4.u32.u32.u32 %0.b0, %1, %2, %3;\" : \"=r\"(x) : \"r\"(y), \"r\"(y), \"r\"(y));",
                  1,
                  "inline PTX: operand %0 with the element selector or mask .b0 (the SIMD video "
                  "instructions are emulated without selectors and masks)");
  translate_error("asm(\"vset2.u32.u32.eq %0, %1, %12.h10, %1;\" : \"=r\"(x) : \"r\"(y), \"r\"(y), \"r\"(y), \"r\"(y), "
                  "\"r\"(y), \"r\"(y), \"r\"(y), \"r\"(y), \"r\"(y), \"r\"(y), \"r\"(y), \"r\"(y));",
                  1,
                  "inline PTX: operand %12 with the element selector or mask .h10 (the SIMD video "
                  "instructions are emulated without selectors and masks)");
  /* A scalar one's d, a and b may select a byte or half, but not vmad's d
   * or any c (ptxas: "Video selector is not allowed on destination"). */
  translate_error("asm(\"vmad.u32.u32.u32 %0.b1, %1.b0, %1.h1, %1;\" : \"+r\"(x) : \"r\"(y));", 1,
                  "inline PTX: operand 0 of vmad.u32.u32.u32 with the element selector .b1 (only d, "
                  "a and b take one; vmad's d does not)");
  /* A register written negated is vmad's a, b or c alone (ptxas: "Operand
   * negation not allowed"), never read as the register without its sign. */
  translate_error("asm(\"add.s32 %0, -%1, %1;\" : \"=r\"(x) : \"r\"(y));", 1,
                  "inline PTX: - before a register");
  translate_error("asm(\"vmad.s32.s32.s32 -%0, %1, %1, %1;\" : \"=r\"(x) : \"r\"(y));", 1,
                  "inline PTX: - before a register (of vmad.s32.s32.s32)");
}
END_TEST

/* ldmatrix and mma.sync in the forms ptxas (sm_80) rejects: errors that
 * name the instruction, never a silently different product. */
static void matrix_error(const char *insn, const char *operands, const char *bindings,
                         const char *why) {
  char src[512], message[256];
  snprintf(src, sizeof src, "asm volatile(\"%s %s;\" %s);", insn, operands, bindings);
  snprintf(message, sizeof message, "inline PTX: %s %s", insn, why);
  translate_error(src, 1, message);
}

START_TEST(ptx_matrix_forms_ptxas_rejects) {
  static const char mma_ops[] = "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3}";
  static const char mma_bind[] = ": \"+f\"(c0), \"+f\"(c1), \"+f\"(c2), \"+f\"(c3) : "
                                 "\"r\"(a0), \"r\"(a1), \"r\"(a2), \"r\"(a3), \"r\"(b0), "
                                 "\"r\"(b1)";
  static const char ld_bind[] = ": \"=r\"(d) : \"r\"(p)";
  const char *rows = "needs the layouts .row.col (the only ones of these shapes)";
  matrix_error("mma.sync.aligned.m16n8k16.col.row.f32.f16.f16.f32", mma_ops, mma_bind, rows);
  matrix_error("mma.sync.aligned.m16n8k16.col.col.f32.f16.f16.f32", mma_ops, mma_bind,
               "repeats a qualifier");
  matrix_error("mma.sync.aligned.m16n8k16.row.f32.f16.f16.f32", mma_ops, mma_bind, rows);
  matrix_error("mma.sync.aligned.row.col.f32.f16.f16.f32", mma_ops, mma_bind,
               "needs one shape, .m16n8k16, .m16n8k8, .m16n8k32 or .m8n8k16");
  /* The integer products: .s8/.u8 with .s32 accumulators, not .m16n8k8;
   * .m16n8k32 and .satfinite only with them (ptxas refuses each: "Illegal
   * matrix shape", "Unexpected instruction types", "Arguments mismatch"). */
  matrix_error("mma.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32", mma_ops, mma_bind,
               "takes the shape .m16n8k32 only with .s8 or .u8 inputs");
  matrix_error("mma.sync.aligned.m16n8k16.row.col.satfinite.f32.f16.f16.f32", mma_ops, mma_bind,
               "takes .satfinite only with integer inputs");
  matrix_error("mma.sync.aligned.m16n8k32.row.col.f32.s8.s8.f32", mma_ops, mma_bind,
               "needs .s8 or .u8 inputs with .s32 accumulators");
  matrix_error("mma.sync.aligned.m16n8k8.row.col.s32.s8.s8.s32", mma_ops, mma_bind,
               "takes .s8 and .u8 inputs in the shapes .m16n8k16, .m16n8k32 and .m8n8k16");
  matrix_error("mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32", mma_ops, mma_bind,
               "has operand vectors of the wrong sizes for its shape and types");
  matrix_error("mma.sync.aligned.m16n8k16.m16n8k16.row.col.f32.f16.f16.f32", mma_ops, mma_bind,
               "repeats a qualifier");
  matrix_error("mma.sync.aligned.m16n8k16.row.col.f32.f16.bf16.f32", mma_ops, mma_bind,
               "needs B of A's type");
  matrix_error("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16", mma_ops, mma_bind,
               "needs four types (D, A, B, C)");
  matrix_error("mma.sync.aligned.m16n8k16.row.col.f16.bf16.bf16.f32", "{%0,%1}, {%2,%3,%4,%5}, "
               "{%6,%7}, {%8,%9,%10,%11}", ": \"=r\"(h0), \"=r\"(h1) : \"r\"(a0), \"r\"(a1), "
               "\"r\"(a2), \"r\"(a3), \"r\"(b0), \"r\"(b1), \"f\"(c0), \"f\"(c1), "
               "\"f\"(c2), \"f\"(c3)", "takes .bf16 inputs only with .f32 accumulators");
  /* .m16n8k16 with .m16n8k8's operand counts (ptxas: "Argument vector size
   * mismatch"), and .f32 accumulators in two registers. */
  matrix_error("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", "{%0,%1}, {%2,%3}, {%4}, "
               "{%0,%1}", ": \"+r\"(h0), \"+r\"(h1) : \"r\"(a0), \"r\"(a1), \"r\"(b0)",
               "has operand vectors of the wrong sizes for its shape and types");
  matrix_error("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", "{%0,%1}, {%2,%3}, {%4}, "
               "{%0,%1}", ": \"+r\"(h0), \"+r\"(h1) : \"r\"(a0), \"r\"(a1), \"r\"(b0)",
               "has operand vectors of the wrong sizes for its shape and types");
  {
    static const char *const braced =
        "needs a braced destination of as many registers as .x1, .x2 or .x4 says";
    static const struct { const char *insn, *dst, *why; } ld[] = {
        {"x1.shared.b16", "{%0}", "needs the shape .m8n8"},
        {"m8n8.x1.x2.shared.b16", "{%0}", "needs one of .x1, .x2, .x4"},
        {"m8n8.x1.x1.shared.b16", "{%0}", "repeats a qualifier"},
        {"m8n8.x1.trans.trans.shared.b16", "{%0}", "repeats a qualifier"},
        {"m8n8.x1.shared", "{%0}", "needs the type .b16"},
        {"m8n8.x1.shared.b16", "%0", braced},
        {"m8n8.x4.shared.b16", "{%0,%0}", braced},
    };
    for (size_t i = 0; i < sizeof ld / sizeof ld[0]; i++) {
      char insn[96], operands[32];
      snprintf(insn, sizeof insn, "ldmatrix.sync.aligned.%s", ld[i].insn);
      snprintf(operands, sizeof operands, "%s, [%%1]", ld[i].dst);
      matrix_error(insn, operands, ld_bind, ld[i].why);
    }
  }
  /* The forms ptxas takes, qualifiers in any order. */
  free(translate_ok("asm volatile(\"ldmatrix.sync.aligned.x1.trans.m8n8.b16.shared {%0}, "
                    "[%1];\" : \"=r\"(d) : \"r\"(p));"));
  free(translate_ok("asm volatile(\"mma.sync.aligned.row.col.m16n8k8.f32.bf16.bf16.f32 "
                    "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\" : \"+f\"(c0), \"+f\"(c1), "
                    "\"+f\"(c2), \"+f\"(c3) : \"r\"(a0), \"r\"(a1), \"r\"(b0));"));
  free(translate_ok("asm volatile(\"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f16 "
                    "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11};\" : \"=f\"(c0), "
                    "\"=f\"(c1), \"=f\"(c2), \"=f\"(c3) : \"r\"(a0), \"r\"(a1), \"r\"(a2), "
                    "\"r\"(a3), \"r\"(b0), \"r\"(b1), \"r\"(h0), \"r\"(h1));"));
}
END_TEST

/* wgmma.mma_async in the forms ptxas (sm_90a) rejects, and setmaxnreg's
 * count: errors that name the instruction. */
static void wgmma_error(const char *insn, const char *operands, const char *why) {
  char src[512], message[256];
  snprintf(src, sizeof src,
           "asm volatile(\"%s %s;\" : \"+f\"(d0), \"+f\"(d1), \"+f\"(d2), \"+f\"(d3) : "
           "\"l\"(a), \"l\"(b), \"r\"(s), \"r\"(x));",
           insn, operands);
  snprintf(message, sizeof message, "inline PTX: %s %s", insn, why);
  translate_error(src, 1, message);
}

START_TEST(ptx_wgmma_forms_ptxas_rejects) {
  static const char ops[] = "{%0,%1,%2,%3}, %4, %5, %6, 1, 1, 0, 0";
  wgmma_error("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16", "{%0,%1}, %4, %5, %6, 1, 1, 0, 0",
              "has a D of the wrong size for its shape and types");
  wgmma_error("wgmma.mma_async.sync.aligned.m64n12k16.f32.f16.f16", ops,
              "has N outside 8 to 256 in steps of 8");
  wgmma_error("wgmma.mma_async.sync.aligned.f32.f16.f16", ops, "needs one shape .m64nNkK");
  wgmma_error("wgmma.mma_async.sync.aligned.m64n8k8.f32.f16.f16", ops,
              "takes .f16 and .bf16 inputs with K 16");
  wgmma_error("wgmma.mma_async.sync.aligned.m64n8k16.f16.bf16.bf16", ops,
              "takes .bf16 inputs only with an .f32 accumulator");
  wgmma_error("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.bf16", ops, "needs B of A's type");
  wgmma_error("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16", ops, "needs three types (D, A, B)");
  wgmma_error("wgmma.mma_async.m64n8k16.f32.f16.f16", ops, "needs .sync.aligned, once each");
  wgmma_error("wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32", ops,
              "has the wrong number of operands for its types and form");
  wgmma_error("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16", "{%0,%1,%2,%3}, %4, %5, %6, 2, 1, 0, 0",
              "takes imm-scale 1 or -1");
  wgmma_error("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16", "{%0,%1,%2,%3}, %4, %5, %6, 1, -1, 0, 2",
              "takes imm-trans 0 or 1");
  wgmma_error("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16", "{%0,%1,%2,%3}, %4, %5, %6, 1, 1, %7, 0",
              "takes imm-scale and imm-trans as immediates");
  wgmma_error("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16", "{%0,%1,%2,%3}, {%4,%5}, %5, %6, 1, 1, 0",
              "needs A's four registers in braces");
  wgmma_error("wgmma.mma_async.sync.aligned.m64n40k32.s32.s8.u8", ops,
              "takes .s8 and .u8 inputs with N 8, 16, 24, 32 or a multiple of 16");
  wgmma_error("wgmma.mma_async.sync.aligned.m64n8k16.satfinite.f32.f16.f16", ops,
              "takes .satfinite only with .s8 or .u8 inputs");
  wgmma_error("wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16", ops, "(sparse) is not emulated");
  translate_error("asm volatile(\"wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16.ftz {%0,%1,%2,%3}, %4, "
                  "%5, %6, 1, 1, 0, 0;\" : \"+f\"(d0), \"+f\"(d1), \"+f\"(d2), \"+f\"(d3) : \"l\"(a), "
                  "\"l\"(b), \"r\"(s));",
                  1, "inline PTX: unsupported modifier .ftz of wgmma.mma_async");
  translate_error("asm volatile(\"setmaxnreg.inc.sync.aligned.u32 20;\");", 1,
                  "inline PTX: setmaxnreg.inc.sync.aligned.u32 takes a register count that is a "
                  "multiple of 8 from 24 to 256, not 20");
  translate_error("asm volatile(\"setmaxnreg.dec.sync.aligned.u32 %0;\" :: \"r\"(x));", 1,
                  "inline PTX: setmaxnreg.dec.sync.aligned.u32 takes an immediate register count");
  translate_error("asm volatile(\"setmaxnreg.inc.u32 240;\");", 1,
                  "inline PTX: unsupported instruction setmaxnreg.inc.u32 (setmaxnreg.inc or .dec, "
                  ".sync.aligned.u32)");
  /* The forms ptxas takes: A's descriptor or registers, "n" immediates. */
  {
    const char *const parts[] = {
        "cuemu_p::reg *const cuemu_ptx_wd[] = {&cuemu_ptx_0, &cuemu_ptx_1, &cuemu_ptx_2, &cuemu_ptx_3}; "
        "cuemu_p::__cuemu_wgmma<8, cuemu_p::__cuemu_wg_f32, cuemu_p::__cuemu_wg_f16, "
        "cuemu_p::__cuemu_wg_f16, false>(cuemu_ptx_wd, cuemu_ptx_4, nullptr, cuemu_ptx_5, "
        "(cuemu_ptx_v0) != 0, cuemu_ptx_7, cuemu_ptx_8, cuemu_ptx_9, 0x1ULL, __FILE__, __LINE__);",
        NULL};
    translate_expect("asm volatile(\"{ .reg .pred p; setp.ne.b32 p, %6, 0; "
                     "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0,%1,%2,%3}, %4, %5, p, "
                     "%7, %8, %9, 1; }\" : \"+f\"(d0), \"+f\"(d1), \"+f\"(d2), \"+f\"(d3) : \"l\"(a), "
                     "\"l\"(b), \"r\"(s), \"n\"(1), \"n\"(-1), \"n\"(0));",
                     parts);
    const char *const regs[] = {
        "const cuemu_p::reg cuemu_ptx_wa[4] = {cuemu_ptx_4, cuemu_ptx_5, cuemu_ptx_6, cuemu_ptx_7}; "
        "cuemu_p::__cuemu_wgmma<16, cuemu_p::__cuemu_wg_s32, cuemu_p::__cuemu_wg_s8, "
        "cuemu_p::__cuemu_wg_u8, true>(cuemu_ptx_wd, 0ULL, cuemu_ptx_wa, cuemu_ptx_8, (0x1ULL) != 0, "
        "1ULL, 1ULL, 0ULL, 0ULL, __FILE__, __LINE__);",
        NULL};
    translate_expect("asm volatile(\"wgmma.mma_async.sync.aligned.m64n16k32.s32.s8.u8.satfinite "
                     "{%0,%1,%2,%3,%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, 1;\" : \"+r\"(d0), \"+r\"(d1), "
                     "\"+r\"(d2), \"+r\"(d3) : \"r\"(a0), \"r\"(a1), \"r\"(a2), \"r\"(a3), \"l\"(b));",
                     regs);
  }
  free(translate_ok("asm volatile(\"wgmma.fence.sync.aligned;\\n\\twgmma.commit_group.sync.aligned;"
                    "\\n\\twgmma.wait_group.sync.aligned 1;\\n\\tsetmaxnreg.dec.sync.aligned.u32 40;\" ::: "
                    "\"memory\");"));
}
END_TEST

/* ---- The rewriter's part ------------------------------------------------- */

START_TEST(ptx_rewriter_statements_and_labels) {
  /* asm labels after declarators are not statements. */
  const char *labels =
      "struct S { int f(int) __asm__(\"g\"); };\n"
      "extern int v __asm__(\"w\");\n"
      "__device__ int h() { extern int u asm(\"z\"); return u; }\n"
      "__host__ void host() { __asm__ __volatile__(\"pause\" ::: \"memory\"); }\n";
  cuemu_rewrite r;
  ck_assert_int_eq(cuemu__rewrite_source(labels, strlen(labels), "t.cu", &r),
                   CUEMU_SUCCESS);
  ck_assert_str_eq(r.text, labels);
  cuemu__rewrite_free(&r);
  /* A statement spread over lines keeps the line count; the code after it
   * is untouched. */
  const char *src = "__device__ unsigned lane() {\n"
                    "  unsigned x;\n"
                    "  if (1) asm volatile(\"mov.u32 %0, \"\n"
                    "                      \"%%laneid;\"\n"
                    "                      : \"=r\"(x));\n"
                    "  return x;\n"
                    "}\n";
  ck_assert_int_eq(cuemu__rewrite_source(src, strlen(src), "t.cu", &r),
                   CUEMU_SUCCESS);
  ck_assert_uint_eq(count_newlines(r.text), count_newlines(src));
  expect_in(r.text, "  if (1) ({ namespace cuemu_p = ::cuemu::ptx;");
  expect_in(r.text, "cuemu_p::__cuemu_out<'r'>(x, cuemu_ptx_0); });\n\n\n  return x;\n}\n");
  cuemu__rewrite_free(&r);
}
END_TEST

START_TEST(ptx_rewriter_error_names_file_and_line) {
  const char *src = "__global__ void k(float *o) {\n"
                    "  float x;\n"
                    "  asm(\"mov.f32 %0, 0f00000000;\\n\"\n"
                    "      \"tex.1d.v4.f32.s32 {%0, %0, %0, %0}, [%1, {%2}];\"\n"
                    "      : \"=f\"(x) : \"l\"(0), \"r\"(0));\n"
                    "  *o = x;\n"
                    "}\n";
  cuemu_rewrite r;
  ck_assert_int_eq(cuemu__rewrite_source(src, strlen(src), "bad.cu", &r),
                   CUEMU_COMPILE);
  ck_assert_str_eq(r.message,
                   "bad.cu:4: inline PTX: unsupported instruction tex.1d.v4.f32.s32");
  cuemu__rewrite_free(&r);
}
END_TEST

/* ---- Kernels ------------------------------------------------------------- */

START_TEST(ptx_trap_ends_the_launch) {
  cuemu_module *m = test_module("ptx_traps.cu");
  int out[64];
  int *p = out;
  void *args[] = {&p};
  char where[64];
  cuemu_status st = test_launch1(test_kernel(m, "ptx_trap"), 1, 32, args, 1);
  ck_assert_int_eq(st, CUEMU_TRAP);
  snprintf(where, sizeof where, "ptx_traps.cu:%d",
           test_marker_line("ptx_traps.cu", "/* PTX_TRAP */"));
  ck_assert_msg(strstr(cuemu_last_message(), where) != NULL, "%s not in: %s",
                where, cuemu_last_message());
  /* A named barrier of 32 threads in a block of 64: each warp completes
   * a phase of it. */
  st = test_launch1(test_kernel(m, "ptx_partial_barrier"), 1, 64, args, 1);
  ck_assert_int_eq(st, CUEMU_SUCCESS);
  for (int i = 0; i < 64; ++i) ck_assert_int_eq(out[i], 1);
  /* A count that is not a multiple of 32 is refused at run time. */
  st = test_launch1(test_kernel(m, "ptx_bad_barrier_count"), 1, 64, args, 1);
  ck_assert_int_eq(st, CUEMU_ASSERT);
  ck_assert_msg(strstr(cuemu_last_message(), "bar.sync") != NULL, "%s",
                cuemu_last_message());
  st = test_launch1(test_kernel(m, "ptx_partial_barrier"), 1, 32, args, 1);
  ck_assert_int_eq(st, CUEMU_SUCCESS);
  /* A tensor copy of something that is not a tensor map. */
  static unsigned long long not_a_map[16] __attribute__((aligned(64)));
  unsigned long long *map = not_a_map;
  void *map_args[] = {&map, &p};
  st = test_launch1(test_kernel(m, "ptx_tensor_not_a_map"), 1, 32, map_args, 2);
  ck_assert_msg(st == CUEMU_ASSERT, "%s: %s", cuemu_status_name(st), cuemu_last_message());
  snprintf(where, sizeof where, "ptx_traps.cu:%d",
           test_marker_line("ptx_traps.cu", "/* PTX_NOT_A_MAP */"));
  ck_assert_msg(strstr(cuemu_last_message(), where) != NULL &&
                    strstr(cuemu_last_message(), "not a tensor map") != NULL,
                "%s not in: %s", where, cuemu_last_message());
  cuemu_module_unload(m);
}
END_TEST

/* wgmma.mma_async in a block of 96 threads, or with a thread of the
 * warpgroup exited: the end of the launch naming it and the line; in a
 * block of 128 threads, zeros times zeros with scale-d 0. */
START_TEST(ptx_wgmma_misuse_ends_the_launch) {
  cuemu_module *m = test_module("ptx_wgmma_misuse.cu");
  float out[128];
  float *p = out;
  void *args[] = {&p};
  char where[64];
  snprintf(where, sizeof where, "ptx_wgmma_misuse.cu:%d",
           test_marker_line("ptx_wgmma_misuse.cu", "/* WGMMA_MISUSE */"));
  cuemu_status st = test_launch1(test_kernel(m, "wgmma_whole"), 1, 128, args, 1);
  ck_assert_msg(st == CUEMU_SUCCESS, "%s", cuemu_last_message());
  for (int i = 0; i < 128; ++i) ck_assert_float_eq(out[i], 0.0f);
  st = test_launch1(test_kernel(m, "wgmma_whole"), 1, 96, args, 1);
  ck_assert_int_eq(st, CUEMU_ASSERT);
  ck_assert_msg(strstr(cuemu_last_message(), where) &&
                    strstr(cuemu_last_message(), "not a multiple of a warpgroup"),
                "%s not in: %s", where, cuemu_last_message());
  st = test_launch1(test_kernel(m, "wgmma_exited_lane"), 1, 128, args, 1);
  ck_assert_int_eq(st, CUEMU_ASSERT);
  ck_assert_msg(strstr(cuemu_last_message(), where) &&
                    strstr(cuemu_last_message(), "exited threads"),
                "%s not in: %s", where, cuemu_last_message());
  cuemu_module_unload(m);
}
END_TEST

/* A kernel with an instruction cuemu does not emulate (a texture fetch),
 * written to a file (tests/kernels holds only files that translate). */
static const char bad_ptx[] =
    "extern \"C\" __global__ void bad_ptx(float *out, unsigned long long tex) {\n"
    "  float x, y, z, w;\n"
    "  asm volatile(\"{\\n\\t\"\n"
    "               \".reg .f32 c;\\n\\t\"\n"
    "               \"mov.f32 c, 0f00000000;\\n\\t\"\n"
    "               \"tex.2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {c, c}];\\n\\t\"\n"
    "               \"}\"\n"
    "               : \"=f\"(x), \"=f\"(y), \"=f\"(z), \"=f\"(w)\n"
    "               : \"l\"(tex));\n"
    "  out[threadIdx.x] = x + y + z + w;\n"
    "}\n";

START_TEST(ptx_unsupported_instruction_is_a_compile_error) {
  char *dir = test_fresh_dir("bad_ptx");
  char *source = test_join(dir, "bad_ptx.cu");
  char *output = test_join(dir, "bad_ptx.so");
  cuemu_compile_options o;
  test_write_text(source, bad_ptx);
  memset(&o, 0, sizeof o);
  o.module = 1;
  o.no_cache = 1;
  cuemu_status st = cuemu_compile(source, output, &o, NULL);
  ck_assert_int_eq(st, CUEMU_COMPILE);
  ck_assert_msg(strstr(cuemu_last_message(),
                       "bad_ptx.cu:6: inline PTX: unsupported instruction "
                       "tex.2d.v4.f32.f32") != NULL,
                "%s", cuemu_last_message());
  free(source);
  free(output);
  test_rm_rf(dir);
  free(dir);
}
END_TEST

/* A statement of `.reg` declarations only, alone in a C++ block, declares
 * its registers for the statements after it (nvcc's function-scope PTX
 * registers), which name them through the scope; one of labels only makes
 * labels of the function. */
START_TEST(ptx_block_registers_between_statements) {
  const char *decls = "asm(\".reg .u32 n_<2>, w$1;\");";
  cuemu_ptx_result r;
  ck_assert_int_eq(cuemu__ptx_translate_in(decls, strlen(decls),
                                           CUEMU_PTX_BLOCK_STATEMENT, NULL, &r),
                   CUEMU_SUCCESS);
  expect_in(r.code, "unsigned long long cuemu_ptx_f_n_0 __attribute__((unused)) = 0;");
  expect_in(r.code, "cuemu_ptx_f_n_1 ");
  expect_in(r.code, "cuemu_ptx_f_w_x24_1 ");
  ck_assert_uint_eq(r.declared_count, 3);
  ck_assert_str_eq(r.declared[0], "n_0");
  ck_assert_str_eq(r.declared[2], "w$1");
  for (size_t k = 0; k < r.declared_count; k++) free(r.declared[k]);
  free(r.declared);
  free(r.code);

  /* Not alone in a block, or not declarations only: the statement's own. */
  const char *const elsewhere[] = {"asm(\".reg .u32 n_<2>;\")",
                                   "asm(\".reg .u32 t; mov.u32 t, 1;\");"};
  for (size_t k = 0; k < 2; k++) {
    ck_assert_int_eq(cuemu__ptx_translate_in(elsewhere[k], strlen(elsewhere[k]),
                                             CUEMU_PTX_BLOCK_STATEMENT, NULL, &r),
                     CUEMU_SUCCESS);
    ck_assert_ptr_null(r.declared);
    expect_in(r.code, "cuemu_ptx_v0");
    free(r.code);
  }

  /* A later statement reads and writes them; its own declaration shadows. */
  const char *const names[] = {"n_0", "w$1"};
  const cuemu_ptx_scope scope = {names, 2};
  const char *use = "asm(\"add.u32 n_0, w$1, %0; { .reg .u32 n_0; mov.u32 n_0, 1; }\" :: \"r\"(x));";
  ck_assert_int_eq(cuemu__ptx_translate_in(use, strlen(use), CUEMU_PTX_BLOCK_STATEMENT,
                                           &scope, &r),
                   CUEMU_SUCCESS);
  ck_assert_ptr_null(r.declared);
  expect_in(r.code, "cuemu_ptx_f_n_0, cuemu_ptx_f_w_x24_1, ");
  expect_in(r.code, "(cuemu_ptx_v0, 0x1ULL)");
  free(r.code);
  translate_error("asm(\"add.u32 n_0, n_0, 1;\");", 1, "inline PTX: unknown register n_0");

  /* Labels alone are the function's: plain C++ labels, which gotos of
   * other statements' expressions reach. A host assembler's `1:` is not
   * PTX. */
  ck_assert(cuemu__ptx_template_is_ptx("$loop:", 6));
  ck_assert(!cuemu__ptx_template_is_ptx("1:", 2));
  const char *label = "asm(\"$loop: $again:\");";
  ck_assert_int_eq(cuemu__ptx_translate_in(label, strlen(label), CUEMU_PTX_BLOCK_STATEMENT,
                                           NULL, &r),
                   CUEMU_SUCCESS);
  ck_assert_str_eq(r.code, "cuemu_ptx_L__loop:; cuemu_ptx_L__again:; ");
  free(r.code);
}
END_TEST

Suite *make_ptx_suite(void) {
  Suite *s = suite_create("ptx");
  TCase *parse = test_tcase(s, "translate", 30);
  TCase *errors = test_tcase(s, "errors", 30);
  TCase *rewrite = test_tcase(s, "rewrite", 30);
  TCase *kernels = test_tcase(s, "kernels", 300);
  tcase_add_test(parse, ptx_outputs_and_special_registers);
  tcase_add_test(parse, ptx_inputs_names_and_immediates);
  tcase_add_test(parse, ptx_scopes_predicates_and_labels);
  tcase_add_test(parse, ptx_host_asm_is_left_alone);
  tcase_add_test(parse, ptx_statement_expression_and_deferred_errors);
  tcase_add_test(parse, ptx_carry_between_statements);
  tcase_add_test(parse, ptx_block_registers_between_statements);
  tcase_add_test(parse, ptx_forms_cccl_uses);
  tcase_add_test(errors, ptx_errors_name_what_and_where);
  tcase_add_test(errors, ptx_matrix_forms_ptxas_rejects);
  tcase_add_test(errors, ptx_wgmma_forms_ptxas_rejects);
  tcase_add_test(rewrite, ptx_rewriter_statements_and_labels);
  tcase_add_test(rewrite, ptx_rewriter_error_names_file_and_line);
  tcase_add_test(kernels, ptx_trap_ends_the_launch);
  tcase_add_test(kernels, ptx_wgmma_misuse_ends_the_launch);
  tcase_add_test(kernels, ptx_unsupported_instruction_is_a_compile_error);
  return s;
}
