/* cuemu_gcc_plugin_call_args.cc: the pass of cuemu's GCC plugin that
 * copies each aggregate argument that a call reads straight from memory
 * (`conv(h[0])`, `__half2float(h[i])` with a struct passed by value) into
 * a temporary of its own first, in checked builds.
 *
 * g++'s ThreadSanitizer pass, which checked builds use to call the
 * checkers before each load and store, instruments the loads and stores
 * of assignments and of a few built-in calls; the memory that an ordinary
 * call's by-value argument is read from is no assignment, and was never
 * checked: racecheck missed a plain read of a __half that other threads
 * added to with atomicAdd, and memcheck an argument read out of bounds.
 * Here `f(*p)` becomes `tmp = *p; f(tmp)` right before that pass, which
 * then instruments the copy's load as any other (the temporary, a local
 * whose address is not taken, is not instrumented). */

#include "gcc-plugin.h"

#include "tree.h"
#include "tree-pass.h"
#include "context.h"
#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "gimplify.h"
#include "tree-ssa-operands.h"
#include "ssa.h"
#include "tree-into-ssa.h"

#include "cuemu_gcc_plugin_call_args.h"
#include "cuemu_gcc_plugin_pass.h"

namespace {

/* Whether call argument `arg` is an aggregate read from memory: a
 * reference whose value has no register of its own. */
bool aggregate_from_memory(tree arg) {
  if (is_gimple_reg_type(TREE_TYPE(arg)) || TREE_CODE(arg) == SSA_NAME ||
      CONSTANT_CLASS_P(arg))
    return false;
  switch (TREE_CODE(arg)) {
  case MEM_REF:
  case TARGET_MEM_REF:
  case ARRAY_REF:
  case COMPONENT_REF:
    return true;
  default:
    return false;
  }
}

const pass_data call_args_data = {GIMPLE_PASS,   "cuemu_call_args",
                                  OPTGROUP_NONE, TV_NONE,
                                  PROP_cfg | PROP_ssa, 0, 0, 0, 0};

struct call_args_pass : gimple_opt_pass {
  call_args_pass(gcc::context *ctx) : gimple_opt_pass(call_args_data, ctx) {}
  opt_pass *clone() final override { return new call_args_pass(m_ctxt); }
  bool gate(function *) final override {
    return (flag_sanitize & SANITIZE_THREAD) != 0;
  }
  unsigned int execute(function *fun) final override {
    bool changed = false;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun) {
      for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
           gsi_next(&gsi)) {
        gcall *call = dyn_cast<gcall *>(gsi_stmt(gsi));
        if (!call || gimple_call_internal_p(call))
          continue;
        for (unsigned i = 0; i < gimple_call_num_args(call); ++i) {
          tree arg = gimple_call_arg(call, i);
          if (!aggregate_from_memory(arg))
            continue;
          tree tmp = create_tmp_var(TREE_TYPE(arg), "cuemu_arg");
          gassign *copy = gimple_build_assign(tmp, unshare_expr(arg));
          gimple_set_location(copy, gimple_location(call));
          gsi_insert_before(&gsi, copy, GSI_SAME_STMT);
          gimple_call_set_arg(call, i, tmp);
          changed = true;
        }
        if (changed)
          update_stmt(call);
      }
    }
    if (!changed)
      return 0;
    mark_virtual_operands_for_renaming(fun);
    return TODO_update_ssa_only_virtuals;
  }
};

} // namespace

void cuemu_gcc_plugin_register_call_args(const char *plugin) {
  /* "tsan" instruments optimised code, "tsan0" code built at -O0 (-G). */
  cuemu_gcc_plugin_insert_before(plugin, new call_args_pass(g), "tsan", 0);
  cuemu_gcc_plugin_insert_before(plugin, new call_args_pass(g), "tsan0", 0);
}
