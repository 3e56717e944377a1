/*
 * cuemu_ptx_insns.c: the table of the PTX instructions that the inline-PTX
 * translator emulates (their emulation functions, operand counts and
 * modifiers), the list of PTX's instructions that it does not, and the
 * look-ups of the table (see cuemu_ptx_translate.h).
 */
#include "cuemu_ptx_translate.h"

#include <stdio.h>
#include <string.h>

/* ---- The instructions ------------------------------------------------------
 *
 * `mods` lists the modifiers and types an instruction accepts; a name with a
 * leading '-' is accepted and dropped (state spaces, cache operators,
 * scopes: one flat memory, always coherent, serves them all). */

#define INTS "u16 u32 u64 s16 s32 s64"
#define RND "rn rz rm rp"
#define HALVES "f16 f16x2 bf16 bf16x2"
#define CMP "eq ne lt le gt ge lo ls hi hs equ neu ltu leu gtu geu num nan"
#define MEMTYPES "b8 b16 b32 b64 b128 u8 u16 u32 u64 s8 s16 s32 s64 f32 f64"
#define SCOPES "-cta -cluster -gpu -sys"
#define SPACES "-global -shared -local -const -param -shared::cta -shared::cluster"

static const insn insns[] = {
    {"mov", "mov", 0, 1, 1, 1, "b16 b32 b64 b128 u16 u32 u64 s16 s32 s64 f32 f64 pred"},
    {"add", "add", F_CC, 1, 2, 2, INTS " f32 f64 " HALVES " sat cc ftz " RND},
    {"sub", "sub", F_CC, 1, 2, 2, INTS " f32 f64 " HALVES " sat cc ftz " RND},
    {"addc", "addc", F_CC, 1, 2, 2, "u32 s32 u64 s64 cc"},
    {"subc", "subc", F_CC, 1, 2, 2, "u32 s32 u64 s64 cc"},
    {"mul", "mul", 0, 1, 2, 2, INTS " f32 f64 " HALVES " hi lo wide sat ftz " RND},
    {"mad", "mad", F_CC, 1, 3, 3, INTS " f32 f64 hi lo wide sat cc ftz " RND},
    {"madc", "madc", F_CC, 1, 3, 3, "u32 s32 u64 s64 hi lo cc"},
    {"mul24", "mul24", 0, 1, 2, 2, "u32 s32 hi lo"},
    {"mad24", "mad24", 0, 1, 3, 3, "u32 s32 hi lo"},
    {"sad", "sad", 0, 1, 3, 3, INTS},
    {"fma", "fma", 0, 1, 3, 3, "f32 f64 " HALVES " sat ftz relu oob " RND},
    {"div", "div", 0, 1, 2, 2, INTS " f32 f64 approx full ftz " RND},
    {"rem", "rem", 0, 1, 2, 2, INTS},
    {"abs", "abs", 0, 1, 1, 1, "s16 s32 s64 f32 f64 " HALVES " ftz"},
    {"neg", "neg", 0, 1, 1, 1, "s16 s32 s64 f32 f64 " HALVES " ftz"},
    {"min", "min", 0, 1, 2, 2, INTS " f32 f64 " HALVES " ftz NaN relu"},
    {"max", "max", 0, 1, 2, 2, INTS " f32 f64 " HALVES " ftz NaN relu"},
    {"copysign", "copysign", 0, 1, 2, 2, "f32 f64"},
    {"testp", "testp", 0, 1, 1, 1,
     "f32 f64 finite infinite number notanumber normal subnormal"},
    {"rcp", "rcp", 0, 1, 1, 1, "f32 f64 approx ftz " RND},
    {"sqrt", "sqrt", 0, 1, 1, 1, "f32 f64 approx ftz " RND},
    {"rsqrt", "rsqrt", 0, 1, 1, 1, "f32 f64 approx ftz"},
    {"ex2", "ex2", 0, 1, 1, 1, "f32 " HALVES " approx ftz"},
    {"lg2", "lg2", 0, 1, 1, 1, "f32 approx ftz"},
    {"sin", "sin", 0, 1, 1, 1, "f32 approx ftz"},
    {"cos", "cos", 0, 1, 1, 1, "f32 approx ftz"},
    {"tanh", "tanh", 0, 1, 1, 1, "f32 " HALVES " approx"},
    {"popc", "popc", 0, 1, 1, 1, "b32 b64"},
    {"clz", "clz", 0, 1, 1, 1, "b32 b64"},
    {"brev", "brev", 0, 1, 1, 1, "b32 b64"},
    {"bfind", "bfind", 0, 1, 1, 1, "u32 s32 u64 s64 shiftamt"},
    {"fns", "fns", 0, 1, 3, 3, "b32"},
    {"bfe", "bfe", 0, 1, 3, 3, "u32 s32 u64 s64"},
    {"bfi", "bfi", 0, 1, 4, 4, "b32 b64"},
    {"bmsk", "bmsk", 0, 1, 2, 2, "b32 clamp wrap"},
    {"prmt", "prmt", 0, 1, 3, 3, "b32 f4e b4e rc8 ecl ecr rc16"},
    {"lop3", "lop3", 0, 1, 4, 4, "b32"},
    {"shf", "shf", 0, 1, 3, 3, "b32 l r wrap clamp"},
    {"and", "and_", 0, 1, 2, 2, "pred b16 b32 b64"},
    {"or", "or_", 0, 1, 2, 2, "pred b16 b32 b64"},
    {"xor", "xor_", 0, 1, 2, 2, "pred b16 b32 b64"},
    {"not", "not_", 0, 1, 1, 1, "pred b16 b32 b64"},
    {"cnot", "cnot", 0, 1, 1, 1, "b16 b32 b64"},
    {"shl", "shl", 0, 1, 2, 2, "b16 b32 b64"},
    {"shr", "shr", 0, 1, 2, 2, "b16 b32 b64 " INTS},
    {"selp", "selp", 0, 1, 3, 3, "b16 b32 b64 " INTS " f32 f64"},
    {"slct", "slct", 0, 1, 3, 3, "b16 b32 b64 " INTS " f32 f64 ftz"},
    {"setp", "setp", F_PIPE, 1, 2, 3,
     CMP " and or xor ftz b16 b32 b64 " INTS " f32 f64 " HALVES},
    {"set", "set", 0, 1, 2, 3, CMP " and or xor ftz b16 b32 b64 " INTS " f32 f64 " HALVES},
    {"cvt", "cvt", 0, 1, 1, 2,
     "rn rz rm rp rni rzi rmi rpi ftz sat satfinite relu u8 u16 u32 u64 s8 s16 s32 s64 "
     "f16 f16x2 bf16 bf16x2 f32 f64 e4m3x2 e5m2x2 tf32 -rna"},
    {"cvta", "cvta", 0, 1, 1, 1, "-to u32 u64 " SPACES},
    /* Address-space predicates (cuemu_ptx_base.h). */
    {"isspacep.global", "__cuemu_isspacep_global", 0, 1, 1, 1, ""},
    {"isspacep.shared", "__cuemu_isspacep_shared", 0, 1, 1, 1, ""},
    {"isspacep.shared::cta", "__cuemu_isspacep_shared", 0, 1, 1, 1, ""},
    {"isspacep.shared::cluster", "__cuemu_isspacep_shared", 0, 1, 1, 1, ""},
    {"isspacep.local", "__cuemu_isspacep_local", 0, 1, 1, 1, ""},
    {"isspacep.const", "__cuemu_isspacep_const", 0, 1, 1, 1, ""},
    {"isspacep.param", "__cuemu_isspacep_param", 0, 1, 1, 1, ""},
    {"isspacep.param::entry", "__cuemu_isspacep_param", 0, 1, 1, 1, ""},
    /* Distributed shared memory: the address of the same object in another
     * block of the cluster, and the rank of the block an address is in. */
    {"mapa", "__cuemu_mapa", F_SITE, 1, 2, 2, "-shared::cluster u32 u64"},
    {"getctarank", "__cuemu_getctarank", 0, 1, 1, 1, "-shared::cluster u32 u64"},
    {"ld", "ld", F_LD, 1, 1, 1,
     "v2 v4 relaxed acquire volatile -weak -ca -cg -cs -lu -cv -nc " SCOPES
     " " SPACES " " MEMTYPES},
    {"ldu", "ld", F_LD, 1, 1, 1, "v2 v4 -global " MEMTYPES},
    {"st", "st", F_ST, 0, 2, 2,
     "v2 v4 relaxed release volatile -weak -wb -cg -cs -wt " SCOPES " " SPACES
     " " MEMTYPES},
    {"atom", "atom", F_ATOM, 1, 2, 3,
     "add inc dec cas exch min max and or xor -relaxed -acquire release "
     "acq_rel " SCOPES " " SPACES " b32 b64 b128 u32 u64 s32 s64 f32 f64 -noftz " HALVES},
    {"red", "red", F_ST, 0, 2, 2,
     "add inc dec min max and or xor -relaxed release " SCOPES " " SPACES
     " b32 b64 u32 u64 s32 s64 f32 f64 -noftz v2 v4 " HALVES},
    {"membar", "fence", 0, 0, 0, 0, "-cta -gl -sys"},
    {"fence", "fence", 0, 0, 0, 0,
     "-sc -acq_rel -proxy -async -alias -mbarrier_init -release " SCOPES " " SPACES},
    /* The fence of the tensor-map proxy (a map modified in global memory
     * before a tensor copy reads it): the copies read maps as plain
     * memory, so the fence has nothing to order; `[a], 128` is read. */
    {"fence.proxy.tensormap::generic", "", F_NONE | F_ADDR0, 0, 0, 2,
     "-release -acquire -cta -cluster -gpu -sys"},
    {"nanosleep", "nanosleep", 0, 0, 1, 1, "u32"},
    {"prefetch", "", F_NONE | F_ADDR0, 0, 1, 1,
     "-global -local -const -param -tensormap -L1 -L2 -L2::evict_last -L2::evict_normal"},
    {"prefetchu", "", F_NONE | F_ADDR0, 0, 1, 1, "-L1"},
    /* Cache hints: discard leaves the line's bytes undefined, and keeping
     * them is one of the outcomes it allows. */
    {"discard", "", F_NONE | F_ADDR0, 0, 2, 2, "-global -L2"},
    {"applypriority", "", F_NONE | F_ADDR0, 0, 2, 2, "-global -L2::evict_normal"},
    /* Cache policies (for the .L2::cache_hint operand of ld, st, red and
     * cp.async, which has no effect here): an opaque 64-bit value. */
    {"createpolicy.fractional", "__cuemu_createpolicy", 0, 1, 0, 1, "b64"},
    {"createpolicy.range", "__cuemu_createpolicy", F_ATOM, 1, 3, 3, "-global b64"},
    {"createpolicy.cvt", "__cuemu_createpolicy", 0, 1, 1, 1, "-L2 b64"},
    {"cp.async.commit_group", "", F_NONE, 0, 0, 0, ""},
    {"cp.async.wait_group", "", F_NONE, 0, 1, 1, ""},
    {"cp.async.wait_all", "", F_NONE, 0, 0, 0, ""},
    {"cp.async", "cp_async", F_ST, 0, 3, 4,
     "-ca -cg -shared -global -shared::cta -L2::64B -L2::128B -L2::256B"},
    {"cp.async.mbarrier.arrive", "mbar_cp_async_arrive", F_ADDR0, 0, 1, 1,
     "noinc -shared -shared::cta b64"},
    /* The bulk copies (the state spaces, which are in the instruction's
     * name here, say which addresses are shared ones). */
    {"cp.async.bulk.shared::cluster.global", "bulk_g2s", F_ADDR0 | F_SITE, 0, 4, 4,
     "-mbarrier::complete_tx::bytes"},
    {"cp.async.bulk.shared::cta.global", "bulk_g2s", F_ADDR0 | F_SITE, 0, 4, 4,
     "-mbarrier::complete_tx::bytes"},
    {"cp.async.bulk.shared::cluster.shared::cta", "bulk_s2s", F_ADDR0 | F_SITE, 0, 4, 4,
     "-mbarrier::complete_tx::bytes"},
    {"cp.async.bulk.global.shared::cta", "bulk_s2g", F_ADDR0 | F_SITE, 0, 3, 3, "-bulk_group"},
    {"cp.async.bulk.commit_group", "", F_NONE, 0, 0, 0, ""},
    {"cp.async.bulk.wait_group", "", F_NONE, 0, 1, 1, "-read"},
    {"mbarrier.init", "mbar_init", F_ADDR0, 0, 2, 2, "-shared -shared::cta b64"},
    {"mbarrier.inval", "", F_NONE | F_ADDR0, 0, 1, 1, "-shared -shared::cta b64"},
    {"mbarrier.arrive", "mbar_arrive", F_ATOM, 1, 1, 2,
     "noComplete -release -relaxed -cta -cluster -shared -shared::cta -shared::cluster b64"},
    {"mbarrier.arrive_drop", "mbar_arrive_drop", F_ATOM, 1, 1, 2,
     "noComplete -release -relaxed -cta -cluster -shared -shared::cta -shared::cluster b64"},
    {"mbarrier.arrive.expect_tx", "mbar_arrive_expect_tx", F_ATOM, 1, 2, 2,
     "-release -relaxed -cta -cluster -shared -shared::cta -shared::cluster b64"},
    {"mbarrier.expect_tx", "mbar_expect_tx", F_ADDR0, 0, 2, 2,
     "-relaxed -cta -cluster -shared -shared::cta -shared::cluster b64"},
    {"mbarrier.complete_tx", "mbar_complete_tx", F_ADDR0, 0, 2, 2,
     "-relaxed -cta -cluster -shared -shared::cta -shared::cluster b64"},
    {"mbarrier.test_wait", "mbar_test_wait", F_ATOM, 1, 2, 2,
     "parity -acquire -relaxed -cta -cluster -shared -shared::cta b64"},
    {"mbarrier.try_wait", "mbar_try_wait", F_ATOM, 1, 2, 3,
     "parity -acquire -relaxed -cta -cluster -shared -shared::cta b64"},
    {"mbarrier.pending_count", "mbar_pending_count", 0, 1, 1, 1, "b64"},
    {"trap", "trap", F_SITE, 0, 0, 0, ""},
    {"brkpt", "__cuemu_brkpt", F_SITE, 0, 0, 0, ""},
    {"exit", "exit", F_SITE, 0, 0, 0, ""},
    {"bar.sync", "bar_sync", F_SITE, 0, 1, 2, "-aligned"},
    {"barrier.sync", "bar_sync", F_SITE, 0, 1, 2, "-aligned"},
    {"bar.arrive", "bar_arrive", F_SITE, 0, 2, 2, "-aligned"},
    {"barrier.arrive", "bar_arrive", F_SITE, 0, 2, 2, "-aligned"},
    {"bar.red", "bar_red", F_SITE, 1, 2, 3, "popc and or u32 pred -aligned"},
    {"barrier.red", "bar_red", F_SITE, 1, 2, 3, "popc and or u32 pred -aligned"},
    {"bar.warp.sync", "warp_sync", F_SITE, 0, 1, 1, ""},
    {"barrier.cluster.arrive", "cluster_arrive", F_SITE, 0, 0, 0,
     "-release -relaxed -aligned"},
    {"barrier.cluster.wait", "cluster_wait", F_SITE, 0, 0, 0,
     "-acquire -aligned"},
    {"shfl.sync", "shfl", F_SITE | F_PIPE, 1, 4, 4, "up down bfly idx b32"},
    {"vote.sync", "vote", F_SITE, 1, 2, 2, "all any uni ballot pred b32"},
    /* The older spelling, with the mode before .sync (CUB's util_ptx.cuh):
     * vote.sync with that mode (instruction() adds it). */
    {"vote.ballot.sync", "vote", F_SITE, 1, 2, 2, "b32"},
    {"vote.all.sync", "vote", F_SITE, 1, 2, 2, "pred"},
    {"vote.any.sync", "vote", F_SITE, 1, 2, 2, "pred"},
    {"vote.uni.sync", "vote", F_SITE, 1, 2, 2, "pred"},
    {"match.sync", "match", F_SITE | F_PIPE, 1, 2, 2, "any all b32 b64"},
    {"redux.sync", "redux", F_SITE, 1, 2, 2, "add min max and or xor u32 s32 b32"},
    {"activemask", "activemask", F_SITE, 1, 0, 0, "b32"},
    {"elect.sync", "elect", F_SITE | F_PIPE, 1, 1, 1, ""},
    {"griddepcontrol.wait", "", F_NONE, 0, 0, 0, ""},
    {"griddepcontrol.launch_dependents", "", F_NONE, 0, 0, 0, ""},
    /* Warp-wide matrix loads and products (cuemu_ptx_matrix.h). */
    {"ldmatrix.sync.aligned", "ldmatrix", F_LD | F_SITE, 1, 1, 1,
     "m8n8 x1 x2 x4 trans b16 -shared -shared::cta"},
    {"stmatrix.sync.aligned", "__cuemu_stmatrix", F_ST | F_SITE, 0, 2, 2,
     "m8n8 x1 x2 x4 trans b16 -shared -shared::cta"},
    {"mma.sync.aligned", "mma", F_SITE, 1, 3, 3,
     "m16n8k16 m16n8k8 -m16n8k32 m8n8k16 row col f16 bf16 tf32 f32 s8 u8 s32 satfinite"},
    /* The SIMD video instructions (cuemu_ptx_int.h), without masks or
     * element selectors. */
    {"vadd2", "__cuemu_vadd2", 0, 1, 3, 3, "u32 s32 sat add"},
    {"vadd4", "__cuemu_vadd4", 0, 1, 3, 3, "u32 s32 sat add"},
    {"vsub2", "__cuemu_vsub2", 0, 1, 3, 3, "u32 s32 sat add"},
    {"vsub4", "__cuemu_vsub4", 0, 1, 3, 3, "u32 s32 sat add"},
    {"vabsdiff2", "__cuemu_vabsdiff2", 0, 1, 3, 3, "u32 s32 sat add"},
    {"vabsdiff4", "__cuemu_vabsdiff4", 0, 1, 3, 3, "u32 s32 sat add"},
    {"vmin2", "__cuemu_vmin2", 0, 1, 3, 3, "u32 s32 sat add"},
    {"vmin4", "__cuemu_vmin4", 0, 1, 3, 3, "u32 s32 sat add"},
    {"vmax2", "__cuemu_vmax2", 0, 1, 3, 3, "u32 s32 sat add"},
    {"vmax4", "__cuemu_vmax4", 0, 1, 3, 3, "u32 s32 sat add"},
    {"vavrg2", "__cuemu_vavrg2", 0, 1, 3, 3, "u32 s32 sat add"},
    {"vavrg4", "__cuemu_vavrg4", 0, 1, 3, 3, "u32 s32 sat add"},
    {"vset2", "__cuemu_vset2", 0, 1, 3, 3, "u32 s32 eq ne lt le gt ge add"},
    {"vset4", "__cuemu_vset4", 0, 1, 3, 3, "u32 s32 eq ne lt le gt ge add"},
    /* The scalar video instructions, with the secondary operation and
     * without operand selectors or the data merge. */
    {"vadd", "__cuemu_vadd", 0, 1, 2, 3, "u32 s32 sat add min max"},
    {"vsub", "__cuemu_vsub", 0, 1, 2, 3, "u32 s32 sat add min max"},
    {"vabsdiff", "__cuemu_vabsdiff", 0, 1, 2, 3, "u32 s32 sat add min max"},
    {"vmin", "__cuemu_vmin", 0, 1, 2, 3, "u32 s32 sat add min max"},
    {"vmax", "__cuemu_vmax", 0, 1, 2, 3, "u32 s32 sat add min max"},
    {"vset", "__cuemu_vset_scalar", 0, 1, 2, 3, "u32 s32 eq ne lt le gt ge add min max"},
    /* The scalar multiply-add, whose operands a, b and c may be written
     * negated (-%1), without operand selectors. */
    {"vmad", "__cuemu_vmad", 0, 1, 3, 3, "u32 s32 sat po shr7 shr15"},
    {"vshl", "__cuemu_vshl", 0, 1, 2, 3, "u32 s32 sat clamp wrap add min max"},
    {"vshr", "__cuemu_vshr", 0, 1, 2, 3, "u32 s32 sat clamp wrap add min max"},
    {"dp4a", "dp4a", 0, 1, 3, 3, "u32 s32"},
    {"dp2a", "dp2a", 0, 1, 3, 3, "lo hi u32 s32"},
    /* The warpgroup's matrix products (wgmma.mma_async, cuemu_ptx_wgmma.h)
     * complete when issued, so their fences and groups wait for nothing. */
    {"wgmma.fence", "", F_NONE, 0, 0, 0, "-sync -aligned"},
    {"wgmma.commit_group", "", F_NONE, 0, 0, 0, "-sync -aligned"},
    {"wgmma.wait_group", "", F_NONE, 0, 1, 1, "-sync -aligned"},
};

/* Instructions of the PTX ISA that cuemu does not emulate: a template whose
 * first instruction is one of them is PTX (and an error), not host asm. */
const char *const cuemu__ptx_unsupported[] = {
    "bar", "barrier", "mbarrier", "tex", "tld4", "suld", "sust", "sured",
    "suq", "txq", "istypep", "wmma", "mma", "wgmma", "ldmatrix", "stmatrix",
    "movmatrix", "cp", "cvt", "dp4a", "dp2a", "vote", "shfl", "match",
    "redux", "elect", "griddepcontrol", "setmaxnreg", "tensormap", "multimem",
    "createpolicy", "isspacep", "getctarank",
    "stackrestore", "stacksave", "alloca", "call", "ret",
    "pmevent", "vadd", "vsub", "vmin", "vmax", "vabsdiff", "vset",
    "vshl", "vshr", "vadd2", "vadd4", "vsub2", "vsub4", "vavrg2", "vavrg4", "vabsdiff2",
    "vabsdiff4", "vmin2", "vmin4", "vmax2", "vmax4", "vset2", "vset4", "ex2", "lg2", "bra", "brx", "szext", "clusterlaunchcontrol", "st", "ld", "atom", "red", "prefetch",
    "fence", "membar", "nanosleep", "trap", "activemask", "mapa", "tcgen05",
    NULL};

/* Directives that start a PTX template (and no x86 one). */
const char *const cuemu__ptx_directives[] = {".reg", ".shared", ".param",
                                            ".pragma", NULL};

const insn *cuemu__ptx_insn_find(const char *op, size_t len, size_t *used) {
  size_t k, best = 0;
  const insn *found = NULL;
  for (k = 0; k < sizeof insns / sizeof insns[0]; k++) {
    size_t l = strlen(insns[k].op);
    if (l <= len && !strncmp(op, insns[k].op, l) && (l == len || op[l] == '.') &&
        l > best) {
      best = l;
      found = &insns[k];
    }
  }
  *used = best;
  return found;
}

/* Whether `name` (length len) is in the space-separated list; *drop is set
 * when it is listed with a leading '-'. */
int cuemu__ptx_listed(const char *list, const char *name, size_t len, int *drop) {
  const char *p = list;
  while (*p) {
    size_t l;
    int minus = 0;
    while (*p == ' ') p++;
    if (*p == '-') {
      minus = 1;
      p++;
    }
    l = strcspn(p, " ");
    if (l == len && !strncmp(p, name, len)) {
      *drop = minus;
      return 1;
    }
    p += l;
  }
  return 0;
}

int cuemu__ptx_is_type(const char *m, size_t len) {
  static const char types[] =
      " b8 b16 b32 b64 b128 u8 u16 u32 u64 s8 s16 s32 s64 f16 f16x2 bf16 bf16x2 "
      "f32 f64 pred e4m3x2 e5m2x2 tf32 ";
  char buf[16];
  if (len + 3 > sizeof buf) return 0;
  snprintf(buf, sizeof buf, " %.*s ", (int)len, m);
  return strstr(types, buf) != NULL;
}
