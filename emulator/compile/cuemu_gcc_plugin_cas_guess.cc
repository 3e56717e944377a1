/* cuemu_gcc_plugin_cas_guess.cc: the pass of cuemu's GCC plugin that makes
 * a checked build take the first guess of a compare-and-swap loop for the
 * relaxed atomic read it stands for.
 *
 * The CUDA Programming Guide's loop, and the atomicMax of a float or the
 * atomicMin of a 64-bit integer that programs write with it, read the word
 * once with a plain load and hand the value to atomicCAS as its guess:
 *
 *   int old = *word, assumed;
 *   do {
 *     assumed = old;
 *     if (__int_as_float(assumed) >= value)
 *       break;
 *     old = atomicCAS(word, assumed, __float_as_int(value));
 *   } while (assumed != old);
 *
 * Other threads' compare-and-swaps write the word meanwhile, so the load
 * races with them by the letter of the memory model; but its value is only
 * ever a guess that the compare-and-swap checks, and a GPU reads the word
 * whole. racecheck holds such a read until its thread's next access and
 * drops it when that is the compare-and-swap (libcuemu's check); a loop
 * that leaves before any compare-and-swap (the `break` above: the word
 * already holds a larger value) made no such access, and every thread
 * that took the early exit was reported (7,923 reports of 4,096 threads
 * taking a float maximum and a 64-bit minimum so).
 *
 * So, just before g++'s instrumentation (the pass "tsan"), a plain load of
 * a word whose value reaches the expected operand of a compare-and-swap of
 * that same word (through copies, conversions and the loop's phi nodes)
 * becomes an atomic load with relaxed order, which the instrumentation
 * reports as such: it races with no atomic, and still with another
 * thread's plain store to the word. Only the user's compare-and-swaps are
 * looked at, those whose failure order is not relaxed (atomicCAS,
 * __nv_atomic_compare_exchange); the shims' own loops fail relaxed. Code
 * built at -O0 ("tsan0"), whose values go through memory, is left to
 * libcuemu's check. */

#include "gcc-plugin.h"

#include "tree.h"
#include "tree-pass.h"
#include "context.h"
#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "gimple-ssa.h"
#include "ssa.h"
#include "tree-into-ssa.h"
#include "stringpool.h"
#include "fold-const.h"
#include "builtins.h"
#include "memmodel.h"
#include "hash-set.h"
#include "tree-dfa.h"

#include "cuemu_gcc_plugin_cas_guess.h"
#include "cuemu_gcc_plugin_pass.h"

namespace {

/* The size in bytes of the word that `fn`, a __atomic_compare_exchange_N
 * builtin, swaps; 0 for any other function. */
unsigned cas_size(tree fn) {
  if (!fn || !fndecl_built_in_p(fn, BUILT_IN_NORMAL))
    return 0;
  switch (DECL_FUNCTION_CODE(fn)) {
  case BUILT_IN_ATOMIC_COMPARE_EXCHANGE_1:
    return 1;
  case BUILT_IN_ATOMIC_COMPARE_EXCHANGE_2:
    return 2;
  case BUILT_IN_ATOMIC_COMPARE_EXCHANGE_4:
    return 4;
  case BUILT_IN_ATOMIC_COMPARE_EXCHANGE_8:
    return 8;
  default:
    return 0;
  }
}

/* The builtin that loads a word of `size` bytes atomically. */
tree atomic_load_builtin(unsigned size) {
  switch (size) {
  case 1:
    return builtin_decl_explicit(BUILT_IN_ATOMIC_LOAD_1);
  case 2:
    return builtin_decl_explicit(BUILT_IN_ATOMIC_LOAD_2);
  case 4:
    return builtin_decl_explicit(BUILT_IN_ATOMIC_LOAD_4);
  case 8:
    return builtin_decl_explicit(BUILT_IN_ATOMIC_LOAD_8);
  default:
    return NULL_TREE;
  }
}

bool ref_parts(tree ref, tree *base, poly_int64 *offset, int depth);

/* The address that the pointer `p` holds, as a base and a constant offset
 * in bytes from it: through copies, conversions, additions of constants and
 * the addresses of variables and their members (a __shared__ variable is a
 * thread-local one, whose address each use computes anew); false when
 * it is too deep to follow. */
bool pointer_parts(tree p, tree *base, poly_int64 *offset, int depth) {
  for (; depth < 16 && TREE_CODE(p) == SSA_NAME; ++depth) {
    gassign *def = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(p));
    if (!def)
      break;
    enum tree_code code = gimple_assign_rhs_code(def);
    if (gimple_assign_ssa_name_copy_p(def) || CONVERT_EXPR_CODE_P(code)) {
      p = gimple_assign_rhs1(def);
    } else if (code == POINTER_PLUS_EXPR &&
               poly_int_tree_p(gimple_assign_rhs2(def))) {
      *offset += wi::to_poly_offset(gimple_assign_rhs2(def)).force_shwi();
      p = gimple_assign_rhs1(def);
    } else if (code == ADDR_EXPR) {
      p = gimple_assign_rhs1(def);
      break;
    } else {
      break;
    }
  }
  if (depth >= 16)
    return false;
  if (TREE_CODE(p) == ADDR_EXPR)
    return ref_parts(TREE_OPERAND(p, 0), base, offset, depth + 1);
  *base = p;
  return true;
}

/* The address of the object `ref` names, as pointer_parts() gives it. */
bool ref_parts(tree ref, tree *base, poly_int64 *offset, int depth) {
  if (depth >= 16)
    return false;
  poly_int64 inner = 0;
  tree object = get_addr_base_and_unit_offset(ref, &inner);
  if (!object)
    return false;
  *offset += inner;
  if (TREE_CODE(object) == MEM_REF) {
    *offset += mem_ref_offset(object).force_shwi();
    return pointer_parts(TREE_OPERAND(object, 0), base, offset, depth + 1);
  }
  *base = object;
  return true;
}

/* Whether the load of `ref` reads the word at `cas_pointer`. */
bool reads_word(tree ref, tree cas_pointer) {
  tree load_base = NULL_TREE, word_base = NULL_TREE;
  poly_int64 load_offset = 0, word_offset = 0;
  return ref_parts(ref, &load_base, &load_offset, 0) &&
         pointer_parts(cas_pointer, &word_base, &word_offset, 0) &&
         known_eq(load_offset, word_offset) &&
         operand_equal_p(load_base, word_base, 0);
}

/* The plain loads of the word at `cas_pointer`, of `size` bytes, that the
 * value `v` is made from, added to `loads`. */
void find_guesses(tree v, tree cas_pointer, unsigned size,
                  hash_set<tree> &seen, hash_set<gimple *> &loads) {
  if (TREE_CODE(v) != SSA_NAME || seen.add(v))
    return;
  gimple *def = SSA_NAME_DEF_STMT(v);
  if (gphi *phi = dyn_cast<gphi *>(def)) {
    for (unsigned k = 0; k < gimple_phi_num_args(phi); ++k)
      find_guesses(gimple_phi_arg_def(phi, k), cas_pointer, size, seen,
                   loads);
    return;
  }
  gassign *assign = dyn_cast<gassign *>(def);
  if (!assign)
    return;
  tree rhs = gimple_assign_rhs1(assign);
  if (gimple_assign_ssa_name_copy_p(assign) ||
      CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(assign))) {
    find_guesses(rhs, cas_pointer, size, seen, loads);
    return;
  }
  if (gimple_assign_rhs_code(assign) == VIEW_CONVERT_EXPR) {
    find_guesses(TREE_OPERAND(rhs, 0), cas_pointer, size, seen, loads);
    return;
  }
  tree type = TREE_TYPE(v);
  if (gimple_assign_load_p(assign) && !TREE_THIS_VOLATILE(rhs) &&
      !gimple_has_volatile_ops(assign) && TYPE_SIZE_UNIT(type) &&
      TREE_CODE(TYPE_SIZE_UNIT(type)) == INTEGER_CST &&
      tree_to_uhwi(TYPE_SIZE_UNIT(type)) == size &&
      (INTEGRAL_TYPE_P(type) || SCALAR_FLOAT_TYPE_P(type) ||
       POINTER_TYPE_P(type)) &&
      reads_word(rhs, cas_pointer))
    loads.add(assign);
}

/* The value that `call`, a compare-and-swap, expects: its second argument
 * points to it, a local variable that the function stores it into just
 * before (g++ keeps `compare` of __atomic_compare_exchange_n in memory).
 * NULL_TREE when there is not exactly one such store. */
tree expected_value(function *fun, gcall *call) {
  tree expected = gimple_call_arg(call, 1);
  if (TREE_CODE(expected) != ADDR_EXPR)
    return NULL_TREE;
  tree var = TREE_OPERAND(expected, 0);
  if (!VAR_P(var) || is_global_var(var))
    return NULL_TREE;
  tree value = NULL_TREE;
  basic_block bb;
  FOR_EACH_BB_FN(bb, fun) {
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
         gsi_next(&gsi)) {
      gassign *store = dyn_cast<gassign *>(gsi_stmt(gsi));
      if (!store || gimple_assign_lhs(store) != var ||
          gimple_clobber_p(store))
        continue;
      if (value || TREE_CODE(gimple_assign_rhs1(store)) != SSA_NAME)
        return NULL_TREE;
      value = gimple_assign_rhs1(store);
    }
  }
  return value;
}

/* Replaces the load `assign` (lhs = word) by a relaxed atomic load of the
 * word of `size` bytes; false when it cannot be done. */
bool make_atomic(gassign *assign, unsigned size) {
  tree builtin = atomic_load_builtin(size);
  if (!builtin)
    return false;
  tree lhs = gimple_assign_lhs(assign), ref = gimple_assign_rhs1(assign);
  gimple_stmt_iterator gsi = gsi_for_stmt(assign);
  location_t where = gimple_location(assign);
  tree address;
  if (TREE_CODE(ref) == MEM_REF && integer_zerop(TREE_OPERAND(ref, 1)))
    address = TREE_OPERAND(ref, 0);
  else {
    address = make_ssa_name(build_pointer_type(TREE_TYPE(ref)));
    gassign *take = gimple_build_assign(address, build_fold_addr_expr(ref));
    gimple_set_location(take, where);
    gsi_insert_before(&gsi, take, GSI_SAME_STMT);
  }
  tree word = make_ssa_name(TREE_TYPE(TREE_TYPE(builtin)));
  gcall *load = gimple_build_call(builtin, 2, address,
                                  build_int_cst(integer_type_node,
                                                MEMMODEL_RELAXED));
  gimple_call_set_lhs(load, word);
  gimple_set_location(load, where);
  gsi_insert_before(&gsi, load, GSI_SAME_STMT);
  tree value = useless_type_conversion_p(TREE_TYPE(lhs), TREE_TYPE(word))
                   ? word
                   : build1(VIEW_CONVERT_EXPR, TREE_TYPE(lhs), word);
  gimple_assign_set_rhs_from_tree(&gsi, value);
  update_stmt(gsi_stmt(gsi));
  return true;
}

const pass_data cas_guess_data = {GIMPLE_PASS, "cuemu_cas_guess",
                                  OPTGROUP_NONE, TV_NONE,
                                  PROP_ssa | PROP_cfg, 0, 0, 0, 0};

struct cas_guess_pass : gimple_opt_pass {
  cas_guess_pass(gcc::context *ctx) : gimple_opt_pass(cas_guess_data, ctx) {}
  opt_pass *clone() final override { return new cas_guess_pass(m_ctxt); }
  bool gate(function *) final override {
    return flag_sanitize & SANITIZE_THREAD;
  }
  unsigned int execute(function *fun) final override {
    hash_set<gimple *> loads;
    auto_vec<gimple *> order;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun) {
      for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
           gsi_next(&gsi)) {
        gcall *call = dyn_cast<gcall *>(gsi_stmt(gsi));
        unsigned size = call ? cas_size(gimple_call_fndecl(call)) : 0;
        /* The user's compare-and-swap: a failure order not relaxed. */
        if (!size || gimple_call_num_args(call) != 6 ||
            !tree_fits_uhwi_p(gimple_call_arg(call, 5)) ||
            (tree_to_uhwi(gimple_call_arg(call, 5)) & MEMMODEL_BASE_MASK) ==
                MEMMODEL_RELAXED)
          continue;
        tree expected = expected_value(fun, call);
        if (!expected)
          continue;
        hash_set<tree> seen;
        hash_set<gimple *> found;
        find_guesses(expected, gimple_call_arg(call, 0), size, seen, found);
        for (gimple *load : found)
          if (!loads.add(load))
            order.safe_push(load);
      }
    }
    bool changed = false;
    for (gimple *load : order)
      changed |= make_atomic(as_a<gassign *>(load),
                             tree_to_uhwi(TYPE_SIZE_UNIT(
                                 TREE_TYPE(gimple_assign_lhs(load)))));
    if (!changed)
      return 0;
    mark_virtual_operands_for_renaming(fun);
    return TODO_update_ssa_only_virtuals;
  }
};

} // namespace

void cuemu_gcc_plugin_register_cas_guess(const char *plugin) {
  cuemu_gcc_plugin_insert_before(plugin, new cas_guess_pass(g), "tsan", 0);
}
