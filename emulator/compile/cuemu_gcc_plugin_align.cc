/* cuemu_gcc_plugin_align.cc: the pass of cuemu's GCC plugin that tests
 * the alignment of device code's wide accesses to memory: loads and stores
 * through a pointer of an object (not a scalar) aligned to 4, 8 or 16
 * bytes (CUDA's vector types char4, short2, __half2, float2, float4, int4,
 * double2..., structures of such members or declared __align__(8) or
 * (16)). A GPU makes such an access with one vector instruction
 * (ld.global.v4.f32, ld.global.v4.u8 for a char4) or with loads of its
 * members, which fault on an address that is not a multiple of the type's
 * alignment: the launch fails with cudaErrorMisalignedAddress.
 * x86-64 mostly reads the bytes (or faults as a general-protection fault
 * that names no address, for an aligned SSE move), so the pass puts before
 * each such access
 *
 *   if ((uintptr_t)&object & (alignment - 1))
 *     cuemu_kernel_misaligned_object(&object, size, alignment,
 *                                    "a float4 load", file, line);
 *
 * (<cuemu/cuemu_device.h>: the launch ends with MISALIGNED_ADDRESS, naming
 * the kernel, the block, the thread and the line). The test is an AND and
 * a branch to a call that does not return, laid out out of the way.
 *
 * Scalar accesses (a 4-byte float read through a char pointer at an odd
 * address) are left to memcheck (--check=mem): docs/checkers.md says why.
 * But for those that g++ itself finds may be misaligned once it has
 * propagated their addresses (an int stored at byte 2 of a static
 * __shared__ char array), which memcheck exempts as it exempts the packed
 * structures' unaligned accesses: a second pass (cuemu_align_known), in
 * every build, right before g++'s instrumentation, tests those.
 * The pass runs on device code only (functions that cuemu-cc marked, their
 * template instances, their lambdas), just after the control-flow graph is
 * built, as the lockstep pass does, also in a build checked by memcheck:
 * g++ later splits a float4 copy into four 4-byte loads, each aligned to
 * its size, which memcheck cannot find misaligned. */

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
#include "cfghooks.h"
#include "tree-cfg.h"
#include "cfgloop.h"
#include "ssa.h"
#include "tree-into-ssa.h"
#include "alias.h"
#include "builtins.h"
#include "dominance.h"

#include "cuemu_gcc_plugin_align.h"
#include "cuemu_gcc_plugin_pass.h"

namespace {

/* cuemu_kernel_misaligned_object's declaration, made at the first use (a root of
 * GCC's garbage collector, which may run between passes). */
tree misaligned_fn;

const struct ggc_root_tab misaligned_roots[] = {
    {&misaligned_fn, 1, sizeof(misaligned_fn), &gt_ggc_mx_tree_node,
     &gt_pch_nx_tree_node},
    LAST_GGC_ROOT_TAB};

tree misaligned_decl() {
  if (!misaligned_fn) {
    tree type = build_function_type_list(
        void_type_node, const_ptr_type_node, unsigned_type_node,
        unsigned_type_node, const_ptr_type_node, const_ptr_type_node,
        integer_type_node, NULL_TREE);
    misaligned_fn = build_fn_decl("cuemu_kernel_misaligned_object", type);
    TREE_PUBLIC(misaligned_fn) = 1;
    DECL_EXTERNAL(misaligned_fn) = 1;
    DECL_ARTIFICIAL(misaligned_fn) = 1;
    TREE_NOTHROW(misaligned_fn) = 1;
    TREE_THIS_VOLATILE(misaligned_fn) = 1; /* noreturn */
  }
  return misaligned_fn;
}

/* The alignment in bytes that operand `op` of a statement needs when it is
 * an access through a pointer of a type aligned to 4, 8 or 16 bytes, or
 * 0. */
unsigned wide_access(tree op) {
  if (!op || TREE_CODE(op) == SSA_NAME || is_gimple_min_invariant(op))
    return 0;
  if (!REFERENCE_CLASS_P(op) || TREE_CODE(op) == BIT_FIELD_REF)
    return 0;
  /* Through a pointer: a member or an element of what it points to too. */
  tree base = get_base_address(op);
  if (!base || (TREE_CODE(base) != MEM_REF && TREE_CODE(base) != TARGET_MEM_REF))
    return 0;
  tree type = TREE_TYPE(op);
  if (!type || !COMPLETE_TYPE_P(type) || !tree_fits_uhwi_p(TYPE_SIZE_UNIT(type)))
    return 0;
  /* Objects, not scalars: a double or a pointer is a scalar access, left
   * to memcheck as the narrower ones are. */
  if (TREE_CODE(type) != RECORD_TYPE && TREE_CODE(type) != UNION_TYPE &&
      TREE_CODE(type) != ARRAY_TYPE && TREE_CODE(type) != VECTOR_TYPE)
    return 0;
  /* A float4 member of a packed structure stays a vector access: nvcc
   * 13 loads it with ld.global.v4.f32 wherever the structure puts it, and
   * a GPU faults where it is misaligned (its scalar members are read byte
   * by byte, and are not tested here). */
  unsigned align = TYPE_ALIGN_UNIT(type);
  unsigned long size = tree_to_uhwi(TYPE_SIZE_UNIT(type));
  if (align < 4 || align > 16 || size < align)
    return 0;
  return align;
}

/* The size of scalar access `op` (2, 4 or 8 bytes) when g++ knows, once
 * it has propagated the addresses, that its address may not be a multiple
 * of that size although its type is aligned to it: a pointer cast into a
 * byte array at an offset such as 2 (`*reinterpret_cast<int *>(&bytes[2])`
 * in a static __shared__ array), which a GPU makes with one 4-byte store
 * that faults. Else 0: an aligned access, a member of a packed structure
 * (nvcc reads it byte by byte), and the under-aligned types that g++ gives
 * a copy through memcpy and its merged neighbouring stores (a GPU makes
 * them at any address). */
/* Whether reference `op` reaches into a packed structure (a member, or an
 * element of a member). */
bool in_packed_structure(tree op) {
  for (; handled_component_p(op); op = TREE_OPERAND(op, 0))
    if (TREE_CODE(op) == COMPONENT_REF &&
        (DECL_PACKED(TREE_OPERAND(op, 1)) ||
         TYPE_PACKED(TREE_TYPE(TREE_OPERAND(op, 0)))))
      return true;
  return false;
}

unsigned known_misaligned_scalar(tree op) {
  if (!op || TREE_CODE(op) == SSA_NAME || is_gimple_min_invariant(op))
    return 0;
  if (!REFERENCE_CLASS_P(op) || TREE_CODE(op) == BIT_FIELD_REF)
    return 0;
  /* Memory: not a register's bits taken as another type. */
  tree base = get_base_address(op);
  if (!base || (TREE_CODE(base) != MEM_REF && TREE_CODE(base) != TARGET_MEM_REF &&
                !(DECL_P(base) && !is_gimple_reg(base))))
    return 0;
  tree type = TREE_TYPE(op);
  if (!type || (!INTEGRAL_TYPE_P(type) && !SCALAR_FLOAT_TYPE_P(type) &&
                !POINTER_TYPE_P(type)) ||
      !COMPLETE_TYPE_P(type) || !tree_fits_uhwi_p(TYPE_SIZE_UNIT(type)))
    return 0;
  unsigned long size = tree_to_uhwi(TYPE_SIZE_UNIT(type));
  if (size < 2 || size > 8 || (size & (size - 1)) ||
      TYPE_ALIGN_UNIT(type) < size || in_packed_structure(op))
    return 0;
  return get_object_alignment(op) / BITS_PER_UNIT < size ? (unsigned)size : 0;
}

/* Operand `i` of `stmt` that may be a wide access (`*store` says whether
 * it writes), or NULL_TREE when there is no operand `i`: an assignment's
 * destination and source, a call's destination and its arguments (an
 * object passed by value is read where the call is). */
tree operand(gimple *stmt, unsigned i, bool *store) {
  *store = i == 0;
  if (is_gimple_assign(stmt) && gimple_assign_single_p(stmt))
    return i == 0 ? gimple_assign_lhs(stmt)
           : i == 1 ? gimple_assign_rhs1(stmt)
                    : NULL_TREE;
  if (is_gimple_call(stmt)) {
    if (i == 0)
      return gimple_call_lhs(stmt) ? gimple_call_lhs(stmt) : integer_zero_node;
    return i - 1 < gimple_call_num_args(stmt) ? gimple_call_arg(stmt, i - 1)
                                              : NULL_TREE;
  }
  return NULL_TREE;
}

/* "a float4 load", "a 16-byte store" (kept for the rest of the
 * compilation: a string literal of the function). */
tree what_of(tree ref, bool store) {
  tree type = TYPE_MAIN_VARIANT(TREE_TYPE(ref));
  const char *name = NULL;
  if (TYPE_NAME(type)) {
    tree n = TYPE_NAME(type);
    if (TREE_CODE(n) == TYPE_DECL)
      n = DECL_NAME(n);
    if (n && TREE_CODE(n) == IDENTIFIER_NODE)
      name = IDENTIFIER_POINTER(n);
  }
  char text[160];
  if (name)
    snprintf(text, sizeof text, "%s %s %s",
             strchr("aeiouAEIOU", name[0]) ? "an" : "a", name,
             store ? "store" : "load");
  else
    snprintf(text, sizeof text, "a %lu-byte %s",
             (unsigned long)tree_to_uhwi(TYPE_SIZE_UNIT(TREE_TYPE(ref))),
             store ? "store" : "load");
  return build_string_literal(strlen(text) + 1, text);
}

/* Splits the block before the statement at `gsi` (an access of `ref` that
 * needs `align` bytes) and tests the address there: a misaligned one goes
 * to a block of its own that calls cuemu_kernel_misaligned_object. Returns the
 * iterator of the access, in the block that now holds it. */
gimple_stmt_iterator guard(gimple_stmt_iterator gsi, tree ref, unsigned align,
                           bool store) {
  gimple *stmt = gsi_stmt(gsi);
  location_t loc = gimple_location(stmt);
  tree address = build_fold_addr_expr(unshare_expr(ref));
  address = force_gimple_operand_gsi(
      &gsi, fold_convert(const_ptr_type_node, address), true, NULL_TREE, true,
      GSI_SAME_STMT);
  /* Registers of their own, SSA names once the function is in SSA form
   * (the pass before the checkers' instrumentation). */
  bool ssa = gimple_in_ssa_p(cfun);
  tree bits = ssa ? make_ssa_name(pointer_sized_int_node)
                  : create_tmp_reg(pointer_sized_int_node, "cuemu_address");
  gimple *to_int = gimple_build_assign(bits, NOP_EXPR, address);
  gimple_set_location(to_int, loc);
  gsi_insert_before(&gsi, to_int, GSI_SAME_STMT);
  tree low = ssa ? make_ssa_name(pointer_sized_int_node)
                 : create_tmp_reg(pointer_sized_int_node, "cuemu_misaligned");
  gimple *mask = gimple_build_assign(
      low, BIT_AND_EXPR, bits, build_int_cst(pointer_sized_int_node, align - 1));
  gimple_set_location(mask, loc);
  gsi_insert_before(&gsi, mask, GSI_SAME_STMT);
  gcond *test = gimple_build_cond(NE_EXPR, low,
                                  build_int_cst(pointer_sized_int_node, 0),
                                  NULL_TREE, NULL_TREE);
  gimple_set_location(test, loc);
  gsi_insert_before(&gsi, test, GSI_SAME_STMT);

  /* cond_bb ends with the test; the access starts the block after it. */
  basic_block cond_bb = gimple_bb(stmt);
  edge fall = split_block(cond_bb, test);
  basic_block access_bb = fall->dest;
  fall->flags = (fall->flags & ~EDGE_FALLTHRU) | EDGE_FALSE_VALUE;
  fall->probability = profile_probability::always();

  basic_block fail_bb = create_empty_bb(cond_bb);
  edge bad = make_edge(cond_bb, fail_bb, EDGE_TRUE_VALUE);
  bad->probability = profile_probability::never();
  fail_bb->count = profile_count::zero();
  expanded_location where = expand_location(loc);
  const char *file = where.file ? where.file : "?";
  gcall *call = gimple_build_call(
      misaligned_decl(), 6, address,
      build_int_cst(unsigned_type_node,
                    tree_to_uhwi(TYPE_SIZE_UNIT(TREE_TYPE(ref)))),
      build_int_cst(unsigned_type_node, align),
      what_of(ref, store), build_string_literal(strlen(file) + 1, file),
      build_int_cst(integer_type_node, where.line));
  gimple_set_location(call, loc);
  gimple_call_set_nothrow(call, true);
  gimple_stmt_iterator fail = gsi_start_bb(fail_bb);
  gsi_insert_after(&fail, call, GSI_NEW_STMT);
  /* The call does not return: fail_bb has no successor. */
  if (current_loops)
    add_bb_to_loop(fail_bb, cond_bb->loop_father);
  return gsi_start_bb(access_bb);
}

/* Whether `stmt` is device code inlined into a function that is not (a
 * kernel's body in the thunk that runs its threads). */
bool inlined_device_code(gimple *stmt) {
  for (tree b = gimple_block(stmt); b && TREE_CODE(b) == BLOCK;
       b = BLOCK_SUPERCONTEXT(b))
    if (inlined_function_outer_scope_p(b)) {
      tree origin = block_ultimate_origin(b);
      if (origin && TREE_CODE(origin) == FUNCTION_DECL &&
          cuemu_gcc_plugin_device_code(origin))
        return true;
    }
  return false;
}

/* Guards each access of the function that `needs` finds needing an
 * alignment (its result), one statement at a time (in a function that is
 * not device code, only the statements inlined from device code); true
 * when it guarded one. */
bool guard_accesses(function *fun, unsigned (*needs)(tree)) {
  bool guarded = false;
  bool device = cuemu_gcc_plugin_device_code(fun->decl);
  /* The blocks as they are now: the guards add blocks that hold nothing
   * to test, or an access already tested. */
  auto_vec<basic_block> blocks;
  basic_block bb;
  FOR_EACH_BB_FN(bb, fun)
  blocks.safe_push(bb);
  for (basic_block b : blocks) {
    for (gimple_stmt_iterator gsi = gsi_start_bb(b); !gsi_end_p(gsi);
         gsi_next(&gsi)) {
      /* A copy between two such objects tests both addresses. */
      bool store;
      for (unsigned i = 0; tree ref = operand(gsi_stmt(gsi), i, &store); ++i) {
        unsigned align = needs(ref);
        if (align && (device || inlined_device_code(gsi_stmt(gsi)))) {
          gsi = guard(gsi, ref, align, store);
          guarded = true;
        }
      }
    }
  }
  return guarded;
}

const pass_data align_data = {
    GIMPLE_PASS,      "cuemu_align", OPTGROUP_NONE, TV_NONE,
    PROP_gimple_any | PROP_cfg, 0, 0, 0, TODO_cleanup_cfg};

struct align_pass : gimple_opt_pass {
  align_pass(gcc::context *ctx) : gimple_opt_pass(align_data, ctx) {}
  opt_pass *clone() final override { return new align_pass(m_ctxt); }
  unsigned int execute(function *fun) final override {
    if (!cuemu_gcc_plugin_device_code(fun->decl))
      return 0;
    guard_accesses(fun, wide_access);
    return 0;
  }
};

/* The scalar accesses whose misalignment only shows once g++ has
 * propagated their addresses (known_misaligned_scalar): run before the
 * race and memory checkers' instrumentation, in every build, which at -O0
 * propagates nothing (memcheck then tests the access as any other). */
const pass_data align_known_data = {
    GIMPLE_PASS,      "cuemu_align_known", OPTGROUP_NONE, TV_NONE,
    PROP_gimple_any | PROP_cfg | PROP_ssa, 0, 0, 0, TODO_cleanup_cfg};

struct align_known_pass : gimple_opt_pass {
  align_known_pass(gcc::context *ctx) : gimple_opt_pass(align_known_data, ctx) {}
  opt_pass *clone() final override { return new align_known_pass(m_ctxt); }
  unsigned int execute(function *fun) final override {
    /* Every function: by now a kernel's body is inlined into its thunk. */
    if (!guard_accesses(fun, known_misaligned_scalar))
      return 0;
    /* The new blocks are in no dominator tree, and the calls that report
     * need the memory's virtual operands. */
    free_dominance_info(CDI_DOMINATORS);
    free_dominance_info(CDI_POST_DOMINATORS);
    mark_virtual_operands_for_renaming(fun);
    return TODO_update_ssa_only_virtuals;
  }
};

} // namespace

void cuemu_gcc_plugin_register_align(const char *plugin) {
  cuemu_gcc_plugin_insert_after(plugin, new align_pass(g), "cfg", 1);
  cuemu_gcc_plugin_insert_before(plugin, new align_known_pass(g), "tsan", 0);
  register_callback(plugin, PLUGIN_REGISTER_GGC_ROOTS, NULL,
                    const_cast<ggc_root_tab *>(misaligned_roots));
}
