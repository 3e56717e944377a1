/* cuemu_gcc_plugin_call_results.cc: the pass of cuemu's GCC plugin that
 * makes a checked build see the stores of calls' results.
 *
 * A checked build (cuemu-cc --check, compiled with -fsanitize=thread)
 * learns of each load and store from g++'s instrumentation (the pass
 * "tsan", or "tsan0" at -O0), which instruments the loads and stores of
 * assignments but not the store that a call makes of its result into
 * memory: `row[t] = shade(t)`, where shade is not inlined (a __noinline__
 * function, a virtual function, a call through a pointer, a recursive
 * one) and its result comes back in registers (a float, a vec3 of three
 * floats), is one GIMPLE call whose left-hand side is the array element,
 * and its store went unseen: racecheck missed the races of such stores
 * and initcheck reported reads of what they wrote as reads of memory never
 * written (tests/buggy/race_shared_call_result.cu,
 * tests/programs/checkers/call_result_stores.cu). clang++ stores a call's
 * result with a plain store, which its instrumentation sees.
 *
 * So, just before g++'s instrumentation, each call whose result goes to
 * memory (anything but an SSA name or a local variable whose address is
 * never taken, which the instrumentation leaves alone anyway) returns into
 * a temporary, and an assignment after the call stores the temporary where
 * the call did: the instrumentation sees that store as it sees any other.
 * A result of a type that must be constructed in place (TREE_ADDRESSABLE:
 * a class that is not trivially copyable) is left as it is: the callee
 * builds it through the hidden return pointer, and the callee's own stores
 * are instrumented. A call that ends its basic block (one that may throw
 * into a handler of the function) gets the store on its fall-through
 * edge. */

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
#include "ssa.h"
#include "tree-into-ssa.h"
#include "stringpool.h"

#include "cuemu_gcc_plugin_call_results.h"
#include "cuemu_gcc_plugin_pass.h"

namespace {

/* Whether the instrumentation would see a store to `lhs`: memory, not a
 * register or a local variable whose address is never taken. */
bool stored_to_memory(tree lhs) {
  if (TREE_CODE(lhs) == SSA_NAME)
    return false;
  if (DECL_P(lhs) && !is_global_var(lhs) && !TREE_ADDRESSABLE(lhs))
    return false;
  return true;
}

/* Makes `call` return into a temporary and stores the temporary where
 * the call stored its result; false when it cannot be done. */
bool split(gcall *call) {
  tree lhs = gimple_call_lhs(call);
  tree type = TREE_TYPE(lhs);
  if (TREE_ADDRESSABLE(type) || !COMPLETE_TYPE_P(type) ||
      TREE_CODE(TYPE_SIZE_UNIT(type)) != INTEGER_CST)
    return false;
  basic_block bb = gimple_bb(call);
  edge after = NULL;
  if (stmt_ends_bb_p(call)) {
    after = find_fallthru_edge(bb->succs);
    if (!after)
      return false;
  }
  tree tmp = is_gimple_reg_type(type) ? make_ssa_name(type, call)
                                      : create_tmp_var(type, "cuemu_result");
  gimple_call_set_lhs(call, tmp);
  update_stmt(call);
  gassign *store = gimple_build_assign(lhs, tmp);
  gimple_set_location(store, gimple_location(call));
  if (after) {
    gsi_insert_on_edge_immediate(after, store);
  } else {
    gimple_stmt_iterator gsi = gsi_for_stmt(call);
    gsi_insert_after(&gsi, store, GSI_NEW_STMT);
  }
  return true;
}

const pass_data call_results_data = {GIMPLE_PASS, "cuemu_call_results",
                                     OPTGROUP_NONE, TV_NONE,
                                     PROP_ssa | PROP_cfg, 0, 0, 0, 0};

struct call_results_pass : gimple_opt_pass {
  call_results_pass(gcc::context *ctx)
      : gimple_opt_pass(call_results_data, ctx) {}
  opt_pass *clone() final override { return new call_results_pass(m_ctxt); }
  bool gate(function *) final override {
    return flag_sanitize & SANITIZE_THREAD;
  }
  unsigned int execute(function *fun) final override {
    auto_vec<gcall *> calls;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun) {
      for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
           gsi_next(&gsi)) {
        gcall *call = dyn_cast<gcall *>(gsi_stmt(gsi));
        if (call && !gimple_call_internal_p(call) && gimple_call_lhs(call) &&
            stored_to_memory(gimple_call_lhs(call)))
          calls.safe_push(call);
      }
    }
    bool changed = false;
    for (gcall *call : calls)
      changed |= split(call);
    if (!changed)
      return 0;
    mark_virtual_operands_for_renaming(fun);
    return TODO_update_ssa_only_virtuals;
  }
};

} // namespace

void cuemu_gcc_plugin_register_call_results(const char *plugin) {
  /* "tsan" instruments optimised code, "tsan0" code built at -O0. */
  cuemu_gcc_plugin_insert_before(plugin, new call_results_pass(g), "tsan", 0);
  cuemu_gcc_plugin_insert_before(plugin, new call_results_pass(g), "tsan0",
                                 0);
}
