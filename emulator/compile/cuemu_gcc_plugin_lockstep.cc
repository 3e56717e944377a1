/* cuemu_gcc_plugin_lockstep.cc: the pass of cuemu's GCC plugin that puts a
 * call of cuemu_warp_step(address, file, line) before each volatile access
 * to memory in device code (<cuemu/cuemu_warp_step.h>), so that the lanes
 * of a warp make their volatile shared-memory accesses in lockstep, as the
 * warp-synchronous code written before Volta expects (the last warp of a
 * reduction unrolled through a volatile pointer, warp scans).
 *
 * The pass runs on each function's GIMPLE just after its control-flow graph
 * is built, before inlining, where every memory access is a statement of
 * its own: `x = *p` reads, `*p = x` writes, in the order the function
 * makes them, so the call lands right before the access it announces (in
 * GENERIC, a compound assignment's store and loads are one expression).
 * Accesses to the function's own volatile locals and parameters are left
 * alone (they are the lane's own); what is accessed through a pointer, and
 * static, thread-local (static __shared__) and global variables, get the
 * call (cuemu_warp_step_volatile), with the address of the element
 * accessed, which libcuemu tests at run time (shared or global memory, not
 * the lane's own stack). The plain (non-volatile) accesses through which
 * the lanes exchange values in a loop that nothing synchronises get a call
 * of cuemu_warp_step, which steps shared memory only
 * (cuemu_gcc_plugin_loop_lanes.cc: the tail of a reduction written as a
 * loop with no barrier). A function without such accesses is unchanged. */

#include "gcc-plugin.h"

#include "tree.h"
#include "tree-pass.h"
#include "context.h"
#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "gimplify.h"
#include "gimplify-me.h"
#include "stringpool.h"
#include "ggc.h"
#include "hash-map.h"

#include "cuemu_gcc_plugin_lockstep.h"
#include "cuemu_gcc_plugin_loop_lanes.h"
#include "cuemu_gcc_plugin_pass.h"
#include "cuemu_gcc_plugin_step_padding.h"

namespace {

/* The declarations of cuemu_warp_step (a loop's plain accesses) and
 * cuemu_warp_step_volatile (volatile accesses), made at the first use
 * (roots of GCC's garbage collector, which may run between passes). */
tree step_fns[2];

const struct ggc_root_tab step_roots[] = {
    {&step_fns[0], 2, sizeof(step_fns[0]), &gt_ggc_mx_tree_node,
     &gt_pch_nx_tree_node},
    LAST_GGC_ROOT_TAB};

tree step_decl(bool is_volatile) {
  tree &fn = step_fns[is_volatile];
  if (!fn) {
    tree type = build_function_type_list(void_type_node, const_ptr_type_node,
                                         const_ptr_type_node,
                                         integer_type_node, NULL_TREE);
    fn = build_fn_decl(is_volatile ? "cuemu_warp_step_volatile"
                                   : "cuemu_warp_step",
                       type);
    TREE_PUBLIC(fn) = 1;
    DECL_EXTERNAL(fn) = 1;
    DECL_ARTIFICIAL(fn) = 1;
    TREE_NOTHROW(fn) = 1;
  }
  return fn;
}

/* Whether `op` is reached through a pointer to volatile although its own
 * type is plain: a reference cast that drops the qualifier, as the warp
 * scans of pre-Volta scan libraries read the other lanes' elements
 * (`op(t, (const T &)s_data[idx - 1])` with `volatile T *s_data`). GIMPLE
 * keeps the pointer's type, which the cast does not change, in the
 * reference's base. Such a read is one of the warp's exchange, which a GPU
 * makes after the whole warp's store of the step before, so it is stepped
 * as a volatile one (tests/programs/warpvol/scan_cast_reads.cu). */
bool through_volatile_pointer(tree op) {
  tree base = get_base_address(op);
  if (!base || TREE_CODE(base) != MEM_REF)
    return false;
  tree type = TREE_TYPE(TREE_OPERAND(base, 0));
  return POINTER_TYPE_P(type) && TYPE_VOLATILE(TREE_TYPE(type));
}

/* Whether operand `op` of a statement is a volatile access to memory other
 * than the function's own locals. */
bool volatile_memory(tree op) {
  return cuemu_gcc_plugin_shared_candidate(op) &&
         (TREE_THIS_VOLATILE(op) || TYPE_VOLATILE(TREE_TYPE(op)) ||
          through_volatile_pointer(op));
}

/* The volatile access of `stmt` (its first, for a copy from one volatile
 * object to another), or NULL_TREE. */
tree volatile_access(gimple *stmt) {
  if (is_gimple_assign(stmt)) {
    if (gimple_assign_single_p(stmt) && volatile_memory(gimple_assign_rhs1(stmt)))
      return gimple_assign_rhs1(stmt);
    if (volatile_memory(gimple_assign_lhs(stmt)))
      return gimple_assign_lhs(stmt);
    return NULL_TREE;
  }
  if (is_gimple_call(stmt) && volatile_memory(gimple_call_lhs(stmt)))
    return gimple_call_lhs(stmt);
  return NULL_TREE;
}

/* The part of `ref` whose address the step gets: the element accessed
 * (`&s[t]`, not `&s`: libcuemu takes many steps at one address for a
 * thread that polls it, and yields), short of a bit-field or a part of a
 * complex number, which have no address of their own. */
tree addressable(tree ref) {
  while (TREE_CODE(ref) == BIT_FIELD_REF || TREE_CODE(ref) == REALPART_EXPR ||
         TREE_CODE(ref) == IMAGPART_EXPR ||
         TREE_CODE(ref) == VIEW_CONVERT_EXPR ||
         (TREE_CODE(ref) == COMPONENT_REF &&
          DECL_BIT_FIELD(TREE_OPERAND(ref, 1))))
    ref = TREE_OPERAND(ref, 0);
  return ref;
}

/* Puts cuemu_warp_step(&element, file, line) before the statement at
 * `gsi`, whose access to be stepped is `ref` (cuemu_warp_step_volatile for
 * a volatile access). */
void insert_step(gimple_stmt_iterator *gsi, tree ref, bool is_volatile) {
  gimple *stmt = gsi_stmt(*gsi);
  tree address = build_fold_addr_expr(unshare_expr(addressable(ref)));
  address = force_gimple_operand_gsi(gsi, fold_convert(const_ptr_type_node,
                                                       address),
                                     true, NULL_TREE, true, GSI_SAME_STMT);
  expanded_location where = expand_location(gimple_location(stmt));
  const char *file = where.file ? where.file : "?";
  gcall *call = gimple_build_call(
      step_decl(is_volatile), 3, address,
      build_string_literal(strlen(file) + 1, file),
      build_int_cst(integer_type_node, where.line));
  gimple_set_location(call, gimple_location(stmt));
  gimple_call_set_nothrow(call, true);
  gsi_insert_before(gsi, call, GSI_SAME_STMT);
}

const pass_data lockstep_data = {
    GIMPLE_PASS,      "cuemu_lockstep", OPTGROUP_NONE, TV_NONE,
    PROP_gimple_any | PROP_cfg, 0, 0, 0, 0};

struct lockstep_pass : gimple_opt_pass {
  lockstep_pass(gcc::context *ctx) : gimple_opt_pass(lockstep_data, ctx) {}
  opt_pass *clone() final override { return new lockstep_pass(m_ctxt); }
  unsigned int execute(function *fun) final override {
    /* Found before any call is inserted: a loop with a call is taken for
     * one that synchronises. */
    hash_map<gimple *, tree> loop_lanes;
    cuemu_gcc_plugin_loop_lane_accesses(fun, &loop_lanes);
    bool stepped = false;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun) {
      for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
           gsi_next(&gsi)) {
        tree ref = volatile_access(gsi_stmt(gsi));
        bool is_volatile = ref != NULL_TREE;
        if (!ref) {
          tree *plain = loop_lanes.get(gsi_stmt(gsi));
          ref = plain ? *plain : NULL_TREE;
        }
        if (ref) {
          insert_step(&gsi, ref, is_volatile);
          stepped = true;
        }
      }
    }
    if (stepped)
      cuemu_gcc_plugin_pad_steps(fun);
    return 0;
  }
};

} // namespace

void cuemu_gcc_plugin_register_lockstep(const char *plugin) {
  cuemu_gcc_plugin_insert_after(plugin, new lockstep_pass(g), "cfg", 1);
  register_callback(plugin, PLUGIN_REGISTER_GGC_ROOTS, NULL,
                    const_cast<ggc_root_tab *>(step_roots));
}
