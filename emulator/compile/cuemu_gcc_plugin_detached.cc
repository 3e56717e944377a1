/* cuemu_gcc_plugin_detached.cc: the pass of cuemu's GCC plugin that takes
 * the "has this thread blocked?" test out of the thread loop of a kernel
 * that cannot block.
 *
 * A kernel's thunk (shims/cuda_builtins/cuemu_kernel_thunks.h) runs a range
 * of a block's threads in a loop, the kernel inlined into it, and after
 * each thread reads cuemu_thread_detached: a thread that blocked at a
 * barrier came back into the loop on its own stack and must finish there
 * (cuemu_block.c). libcuemu calls the thunk with the flag clear, and only
 * libcuemu sets it, when a thread of the thunk blocks: inside a call that
 * the thunk makes. In a thunk that makes no such call (the whole kernel
 * inlined and free of barriers, warp collectives and calls of other
 * functions) the flag is therefore clear after every thread, but the
 * compiler cannot see that: device code is compiled with
 * -fno-strict-aliasing, so every store of the kernel (y[i] = ..., through
 * a pointer that came from the launch's arguments) might have written the
 * flag, and it is read again after each thread. For a saxpy that test is
 * three of the loop's fourteen instructions per thread, and the kernel's
 * loads and stores wait behind it (bench/RESULTS.md).
 *
 * So, after inlining and loop unswitching, the pass decides read by read:
 * a read of cuemu_thread_detached becomes 0 when no statement that may
 * block can reach it, that is, when none precedes it in its basic block
 * and none lies in a block from which its block can be reached along the
 * control-flow graph (a thread loop's back edge carries a call of the loop
 * to every read in it). The later passes then drop the test and the call
 * of cuemu_thread_finish() behind it. A function that does block keeps
 * the reads that a blocking call can reach and loses the others (the
 * barrier-free copy of an unswitched loop).
 *
 * Calls that cannot block: internal functions, calls that never return (a
 * thread that blocked in one never comes back into the loop), and
 * libcuemu's functions that never switch threads (cuemu_plugin_never_block.h:
 * schedule perturbation's notes of atomic adds), and
 * built-in library functions that are const, pure or leaf (memcpy, sqrtf,
 * __atomic_fetch_add: they cannot call back into cuemu), except malloc,
 * free, calloc and realloc (the device pass's malloc and free are renamed
 * to libcuemu's device heap, cuemu_device_symbols.h) and the sanitizers'
 * hooks (__tsan_atomic32_load and the like reach libcuemu in a checked
 * build). Any other call (a device function that was not inlined, a call
 * through a pointer, libcuemu's barriers and collectives) or an assembler
 * statement with instructions in it (cuemu_warp_call's) may block. A call
 * that returns twice (setjmp) may too. Nothing changes at -O0, where
 * the pass does not run (gdb's builds) and nothing is inlined. */

#include "gcc-plugin.h"

#include "tree.h"
#include "tree-pass.h"
#include "context.h"
#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "gimple-ssa.h"
#include "tree-cfg.h"
#include "sbitmap.h"
#include "stringpool.h"

#include "cuemu_gcc_plugin_detached.h"
#include "cuemu_plugin_never_block.h"

namespace {

/* Whether `decl` is the declaration named `name` (a C function or
 * variable of libcuemu). */
bool named(tree decl, const char *name) {
  return decl && DECL_P(decl) && DECL_NAME(decl) &&
         strcmp(IDENTIFIER_POINTER(DECL_NAME(decl)), name) == 0;
}

/* Whether the leaf built-in `code` may still call into libcuemu: the heap
 * functions (objcopy renames the device pass's malloc and free to
 * libcuemu's device heap) and every sanitizer hook. */
bool reaches_libcuemu(built_in_function code) {
  switch (code) {
  case BUILT_IN_MALLOC:
  case BUILT_IN_FREE:
  case BUILT_IN_CALLOC:
  case BUILT_IN_REALLOC:
    return true;
  default:
    return code > BEGIN_SANITIZER_BUILTINS && code < END_SANITIZER_BUILTINS;
  }
}

/* Whether `stmt` may switch the running thread to another (and so come
 * back with cuemu_thread_detached set). */
bool may_block(gimple *stmt) {
  if (gasm *a = dyn_cast<gasm *>(stmt))
    return gimple_asm_string(a)[0] != '\0';
  gcall *call = dyn_cast<gcall *>(stmt);
  if (!call || gimple_call_internal_p(call))
    return false;
  int flags = gimple_call_flags(call);
  if (flags & ECF_RETURNS_TWICE)
    return true;
  if (flags & ECF_NORETURN)
    return false;
  tree fn = gimple_call_fndecl(call);
  if (!fn)
    return true; /* through a pointer */
  if (DECL_NAME(fn) &&
      cuemu_plugin_never_blocks(IDENTIFIER_POINTER(DECL_NAME(fn))))
    return false;
  if (!fndecl_built_in_p(fn, BUILT_IN_NORMAL) ||
      !(flags & (ECF_CONST | ECF_PURE | ECF_LEAF)))
    return true;
  return reaches_libcuemu(DECL_FUNCTION_CODE(fn));
}

/* Whether `stmt` is a read of cuemu_thread_detached into a register. */
bool reads_flag(gimple *stmt) {
  return gimple_assign_single_p(stmt) &&
         TREE_CODE(gimple_assign_lhs(stmt)) == SSA_NAME &&
         VAR_P(gimple_assign_rhs1(stmt)) &&
         DECL_THREAD_LOCAL_P(gimple_assign_rhs1(stmt)) &&
         named(gimple_assign_rhs1(stmt), "cuemu_thread_detached");
}

const pass_data detached_data = {
    GIMPLE_PASS,           "cuemu_detached", OPTGROUP_NONE, TV_NONE,
    PROP_cfg | PROP_ssa,   0,                0,             0,
    0};

struct detached_pass : gimple_opt_pass {
  detached_pass(gcc::context *ctx) : gimple_opt_pass(detached_data, ctx) {}
  opt_pass *clone() final override { return new detached_pass(m_ctxt); }
  bool gate(function *) final override { return optimize > 0; }
  unsigned int execute(function *fun) final override {
    /* tainted[b]: block b can be reached from a statement that may block
     * (then the flag may be set on entry to b). */
    auto_sbitmap tainted(last_basic_block_for_fn(fun));
    bitmap_clear(tainted);
    auto_vec<basic_block> work;
    basic_block bb;
    bool reads = false;
    FOR_EACH_BB_FN(bb, fun) {
      for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
           gsi_next(&gsi)) {
        gimple *stmt = gsi_stmt(gsi);
        reads = reads || reads_flag(stmt);
        if (may_block(stmt)) {
          work.safe_push(bb);
          break;
        }
      }
    }
    if (!reads)
      return 0;
    while (!work.is_empty()) {
      basic_block from = work.pop();
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE(e, ei, from->succs) {
        if (e->dest->index < NUM_FIXED_BLOCKS ||
            !bitmap_set_bit(tainted, e->dest->index))
          continue;
        work.safe_push(e->dest);
      }
    }
    bool changed = false;
    FOR_EACH_BB_FN(bb, fun) {
      bool blocked = bitmap_bit_p(tainted, bb->index);
      for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
           gsi_next(&gsi)) {
        gimple *stmt = gsi_stmt(gsi);
        if (may_block(stmt))
          blocked = true;
        if (blocked || !reads_flag(stmt))
          continue;
        tree lhs = gimple_assign_lhs(stmt);
        if (SSA_NAME_OCCURS_IN_ABNORMAL_PHI(lhs))
          continue;
        tree zero = build_zero_cst(TREE_TYPE(lhs));
        replace_uses_by(lhs, zero);
        gimple_assign_set_rhs_from_tree(&gsi, zero);
        update_stmt(gsi_stmt(gsi));
        changed = true;
      }
    }
    return changed ? TODO_cleanup_cfg : 0;
  }
};

} // namespace

void cuemu_gcc_plugin_register_detached(const char *plugin) {
  /* After loop unswitching, which makes a copy of the thread loop without
   * the calls of a kernel whose barrier is behind a condition that does
   * not change from thread to thread (blockIdx.x == gridDim.x - 1): that
   * copy loses the test too. */
  static struct register_pass_info info = {
      new detached_pass(g), "unswitch", 1, PASS_POS_INSERT_AFTER};
  register_callback(plugin, PLUGIN_PASS_MANAGER_SETUP, NULL, &info);
}
