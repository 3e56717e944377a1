/* cuemu_gcc_plugin_loop_lanes.cc: finds the plain (non-volatile) memory
 * accesses through which the lanes of a warp exchange values in a loop
 * that nothing synchronises, for the lockstep pass
 * (cuemu_gcc_plugin_lockstep.cc) to step them.
 *
 * Block reductions are still often finished with a loop and no barrier:
 *
 *   for (; s > 0; s >>= 1)
 *     if (tid < s)
 *       sdata[tid] += sdata[tid + s];
 *
 * The bound is not a constant, so nvcc keeps each iteration's loads and
 * store, and the lanes of the converged warp make them together: a GPU
 * gives the tree's sum (a race since Volta, but the right answer in
 * practice). Run one lane after another, lane 0 would finish the loop
 * before lane 16 had added anything.
 *
 * What is looked for, on the function's GIMPLE before SSA form (one memory
 * access per statement; the gimplifier's temporaries are already SSA
 * names, assigned once): a loop (found by its back edge) with no call
 * other than to const or pure functions (a barrier, a __syncwarp() or a
 * collective is a call, and a loop with one needs no steps), and no asm,
 * that stores to an element of an array
 * and loads a different element of the same array. The array is known by
 * its root: the variable or parameter its pointer comes from, looked for
 * through the temporaries, casts and pointer additions that compute the
 * address; "different element" compares the two addresses' computations,
 * so that `y[i] = a * x[i] + y[i]` and `p[i].x += p[i].v` (the lane's own
 * element) are not taken for an exchange, nor are two elements of the slice
 * of a multi-dimensional array that the lane's threadIdx.x indexes in one
 * of its dimensions (`m[tid][i + 1] = m[tid][i] | bit`: a per-thread stack
 * kept in shared memory; `h[b][tid]`). All the loop's accesses to such an array are stepped;
 * which of them reach shared memory is decided at run time.
 *
 * Outside a loop, the same exchange is a store to an array that may be
 * shared memory and a later load of a different element with nothing that
 * may synchronise between (`s[tid] = sum;` by a few lanes, then lane 0's
 * reads of `s[k]`): look_at_stores steps the store and the accesses to its
 * array that a lane may make after it up to such a statement; and so is a
 * load of an element that every lane names followed by a store to it
 * (look_at_loads: lanes read a __shared__ counter that one lane then
 * updates). */

#include "gcc-plugin.h"

#include "tree.h"
#include "context.h"
#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "cfganal.h"
#include "sbitmap.h"
#include "hash-map.h"
#include "hash-set.h"
#include "flag-types.h"
#include "options.h"

#include "cuemu_gcc_plugin_loop_lanes.h"

bool cuemu_gcc_plugin_shared_candidate(tree op) {
  if (!op || TREE_CODE(op) == SSA_NAME || is_gimple_min_invariant(op))
    return false;
  if (!REFERENCE_CLASS_P(op) && !DECL_P(op))
    return false;
  tree base = get_base_address(op);
  if (!base)
    return false;
  if (DECL_P(base))
    return VAR_P(base) && (TREE_STATIC(base) || DECL_EXTERNAL(base));
  return TREE_CODE(base) == MEM_REF || TREE_CODE(base) == TARGET_MEM_REF;
}

namespace {

/* The assignment that gives temporary `t` its value (the gimplifier makes
 * its temporaries SSA names, each assigned once, before the function is in
 * SSA form), or NULL. */
gimple *definition(tree t) {
  if (!t || TREE_CODE(t) != SSA_NAME)
    return NULL;
  gimple *def = SSA_NAME_DEF_STMT(t);
  return def && is_gimple_assign(def) ? def : NULL;
}

/* Whether `a` and `b` are computed the same way (so they are one address,
 * or one index): the same operand, or temporaries whose assignments apply
 * one operation to operands computed the same way, or references whose
 * operands are. */
bool same_value(tree a, tree b, int depth) {
  if (a == b)
    return true;
  if (!a || !b || depth > 16)
    return false;
  gimple *da = definition(a), *db = definition(b);
  if (da || db) {
    if (!da || !db || gimple_assign_rhs_code(da) != gimple_assign_rhs_code(db) ||
        gimple_num_ops(da) != gimple_num_ops(db))
      return false;
    for (unsigned i = 1; i < gimple_num_ops(da); ++i)
      if (!same_value(gimple_op(da, i), gimple_op(db, i), depth + 1))
        return false;
    return true;
  }
  if (TREE_CODE(a) != TREE_CODE(b))
    return false;
  if (CONSTANT_CLASS_P(a) || DECL_P(a))
    return operand_equal_p(a, b, 0);
  if (!EXPR_P(a) && !REFERENCE_CLASS_P(a))
    return false;
  for (int i = 0; i < TREE_OPERAND_LENGTH(a); ++i)
    if (!same_value(TREE_OPERAND(a, i), TREE_OPERAND(b, i), depth + 1))
      return false;
  return true;
}

/* The variable, parameter or object that pointer `p` comes from, through
 * the temporaries, casts and pointer additions that compute it. */
tree pointer_root(tree p, int depth) {
  if (TREE_CODE(p) == ADDR_EXPR) {
    /* The address of an element of an array reached through a pointer
     * (`&(*buffer)[n]`, where `buffer` is the reference the shims bind an
     * extern __shared__ array to) comes from that pointer. */
    tree base = get_base_address(TREE_OPERAND(p, 0));
    if (base && TREE_CODE(base) == MEM_REF && depth <= 16)
      return pointer_root(TREE_OPERAND(base, 0), depth + 1);
    return base ? base : p;
  }
  gimple *def = definition(p);
  if (!def || depth > 16)
    return p;
  enum tree_code code = gimple_assign_rhs_code(def);
  if (code == POINTER_PLUS_EXPR || CONVERT_EXPR_CODE_P(code) ||
      code == VIEW_CONVERT_EXPR || gimple_assign_single_p(def)) {
    tree from = gimple_assign_rhs1(def);
    if (TREE_CODE(from) == VIEW_CONVERT_EXPR)
      from = TREE_OPERAND(from, 0);
    if (DECL_P(from) || TREE_CODE(from) == ADDR_EXPR ||
        TREE_CODE(from) == SSA_NAME)
      return pointer_root(from, depth + 1);
  }
  return p;
}

/* Whether roots `a` and `b` are one array: the same variable or
 * parameter, or temporaries that hold a pointer loaded the same way (two
 * loads of the member `this->p` in `this->p[t] += this->p[t + s]`, each a
 * temporary of its own; before, the lanes of such a loop ran one after
 * another, and a warp's tail sum through a member pointer came out wrong:
 * tests/programs/warpvol/member_exchange.cu). */
bool same_root(tree a, tree b) {
  return operand_equal_p(a, b, 0) ||
         (TREE_CODE(a) == SSA_NAME && same_value(a, b, 0));
}

/* The element of an array that reference `ref` reads or writes a part of
 * (`p[i]` for `p[i].x`): the lanes that update fields of their own element
 * (`p[i].x += p[i].v`) exchange nothing. */
tree element(tree ref) {
  while (TREE_CODE(ref) == COMPONENT_REF || TREE_CODE(ref) == BIT_FIELD_REF ||
         TREE_CODE(ref) == REALPART_EXPR || TREE_CODE(ref) == IMAGPART_EXPR ||
         TREE_CODE(ref) == VIEW_CONVERT_EXPR)
    ref = TREE_OPERAND(ref, 0);
  return ref;
}

/* The array that reference `ref` reads or writes an element of. */
tree array_root(tree ref) {
  tree base = get_base_address(ref);
  if (base && (TREE_CODE(base) == MEM_REF || TREE_CODE(base) == TARGET_MEM_REF))
    return pointer_root(TREE_OPERAND(base, 0), 0);
  return base;
}

/* Whether asm statement `stmt` writes variable `var` (one of its outputs). */
bool asm_writes(gimple *stmt, tree var) {
  for (unsigned i = 0; i < gimple_asm_noutputs(as_a<gasm *>(stmt)); ++i)
    if (TREE_VALUE(gimple_asm_output_op(as_a<gasm *>(stmt), i)) == var)
      return true;
  return false;
}

/* The one assignment in `fun` to its local variable `var`, or NULL (a
 * variable assigned more than once, by a call or an asm, or whose address
 * is taken, may hold anything). */
gimple *only_assignment(function *fun, tree var) {
  if (!VAR_P(var) || TREE_STATIC(var) || DECL_EXTERNAL(var) ||
      TREE_ADDRESSABLE(var) || DECL_CONTEXT(var) != fun->decl)
    return NULL;
  gimple *only = NULL;
  basic_block bb;
  FOR_EACH_BB_FN(bb, fun) {
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
         gsi_next(&gsi)) {
      gimple *stmt = gsi_stmt(gsi);
      if (gimple_code(stmt) == GIMPLE_ASM) {
        if (asm_writes(stmt, var))
          return NULL;
        continue;
      }
      if (!gimple_has_lhs(stmt) || gimple_get_lhs(stmt) != var)
        continue;
      if (only || !is_gimple_assign(stmt))
        return NULL;
      only = stmt;
    }
  }
  return only;
}

/* The one value that `fun` assigns to its local variable `var` (a copy or
 * a conversion of it), or NULL. */
tree only_value(function *fun, tree var) {
  gimple *only = only_assignment(fun, var);
  if (!only || (!CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(only)) &&
                !gimple_assign_single_p(only)))
    return NULL;
  return gimple_assign_rhs1(only);
}

/* Whether `var` is a local pointer variable of `fun` that the analysis can
 * follow: not static, not external, its address never taken. */
bool local_pointer(function *fun, tree var) {
  return var && VAR_P(var) && POINTER_TYPE_P(TREE_TYPE(var)) &&
         !TREE_STATIC(var) && !DECL_EXTERNAL(var) && !TREE_ADDRESSABLE(var) &&
         DECL_CONTEXT(var) == fun->decl;
}

/* Adds to `arrays` the static or external arrays (a __shared__ variable)
 * that local pointer variable `var` may point into: the roots of all the
 * values `fun` assigns to it, followed through the other local pointer
 * variables they are copied from (`int *p = b1_s; ... p = c;`). False where
 * one of its values comes from anything else (a parameter, a call, a load,
 * an asm), so that pointers the analysis cannot follow keep an array each. */
bool pointed_arrays(function *fun, tree var, hash_set<tree> *arrays,
                    hash_set<tree> *visited) {
  if (visited->add(var))
    return true;
  if (visited->elements() > 16)
    return false;
  basic_block bb;
  FOR_EACH_BB_FN(bb, fun) {
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
         gsi_next(&gsi)) {
      gimple *stmt = gsi_stmt(gsi);
      if (gimple_code(stmt) == GIMPLE_ASM) {
        if (asm_writes(stmt, var))
          return false;
        continue;
      }
      if (!gimple_has_lhs(stmt) || gimple_get_lhs(stmt) != var)
        continue;
      if (!is_gimple_assign(stmt) ||
          (!CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(stmt)) &&
           !gimple_assign_single_p(stmt)))
        return false;
      tree value = gimple_assign_rhs1(stmt);
      if (TREE_CODE(value) == INTEGER_CST)
        continue;
      tree root = pointer_root(value, 0);
      if (local_pointer(fun, root)) {
        if (!pointed_arrays(fun, root, arrays, visited))
          return false;
      } else if (VAR_P(root) && (TREE_STATIC(root) || DECL_EXTERNAL(root))) {
        arrays->add(root);
      } else {
        return false;
      }
    }
  }
  return true;
}

/* Whether roots `a` and `b` of accesses in `fun` are one array: the same
 * root (same_root), or two local pointer variables that may point into the
 * same __shared__ or static array. A loop that keeps the last diagonals of
 * a wavefront in buffers it rotates (`pp = p; p = c; c = old;`, storing
 * through `c` and loading through `p` and `pp`) exchanges values between
 * lanes through three pointers: each taken for an array of its own, the
 * loop was not stepped and the lanes ran one after another (a public
 * Needleman-Wunsch kernel scored 674 for the GPU's 706:
 * tests/programs/warpvol/rotating_buffers.cu). */
bool same_array(function *fun, tree a, tree b) {
  if (same_root(a, b))
    return true;
  if (!local_pointer(fun, a) || !local_pointer(fun, b))
    return false;
  hash_set<tree> in_a, in_b, seen_a, seen_b;
  if (!pointed_arrays(fun, a, &in_a, &seen_a) ||
      !pointed_arrays(fun, b, &in_b, &seen_b))
    return false;
  for (hash_set<tree>::iterator it = in_a.begin(); it != in_a.end(); ++it)
    if (in_b.contains(*it))
      return true;
  return false;
}

/* Whether index `t` is the lane's own: `threadIdx.x`, read through
 * temporaries, conversions and a local variable assigned once (`const int
 * tid = threadIdx.x;`). */
bool lane_index(function *fun, tree t, int depth) {
  if (!t || depth > 16)
    return false;
  if (TREE_CODE(t) == COMPONENT_REF) {
    tree object = TREE_OPERAND(t, 0), field = TREE_OPERAND(t, 1);
    return VAR_P(object) && DECL_NAME(object) && DECL_NAME(field) &&
           !strcmp(IDENTIFIER_POINTER(DECL_NAME(object)), "threadIdx") &&
           !strcmp(IDENTIFIER_POINTER(DECL_NAME(field)), "x");
  }
  if (TREE_CODE(t) == SSA_NAME) {
    gimple *def = definition(t);
    if (!def || (!CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(def)) &&
                 !gimple_assign_single_p(def)))
      return false;
    return lane_index(fun, gimple_assign_rhs1(def), depth + 1);
  }
  return lane_index(fun, only_value(fun, t), depth + 1);
}

/* The indices of a reference to an element of a multi-dimensional array,
 * outermost dimension first (`t, i` in `m[t][i]` or `st[t].stack[i]`);
 * their number, or 0 for more than `max`. */
int array_indices(tree ref, tree *indices, int max) {
  int n = 0;
  for (ref = element(ref); TREE_CODE(ref) == ARRAY_REF ||
                           TREE_CODE(ref) == COMPONENT_REF;
       ref = TREE_OPERAND(ref, 0))
    if (TREE_CODE(ref) == ARRAY_REF) {
      if (n == max)
        return 0;
      indices[n++] = TREE_OPERAND(ref, 1);
    }
  for (int k = 0; k < n / 2; ++k) {
    tree outer = indices[n - 1 - k];
    indices[n - 1 - k] = indices[k];
    indices[k] = outer;
  }
  return n;
}

/* Whether references `a` and `b` lie in the slice of a multi-dimensional
 * array that one of its dimensions gives the lane (`m[tid][i]` and
 * `m[tid][i + 1]`, `h[b][tid]` and `h[b + 1][tid]`, that index the lane's
 * threadIdx.x): the lanes of a warp, whose threadIdx.x differ, touch slices
 * of their own, as a per-thread stack or histogram kept in shared memory
 * does, and exchange nothing. (A block narrower than a warp has lanes of one
 * threadIdx.x in a warp; slices shared by those are not recognised as an
 * exchange.) */
bool lane_slices(function *fun, tree a, tree b) {
  tree ia[8], ib[8];
  int na = array_indices(a, ia, 8), nb = array_indices(b, ib, 8);
  if (na < 2 || na != nb)
    return false;
  for (int d = 0; d < na; ++d)
    if (same_value(ia[d], ib[d], 0) && lane_index(fun, ia[d], 0))
      return true;
  return false;
}

/* One plain access of a loop to memory other than the function's locals. */
struct access {
  gimple *stmt;
  tree ref, root;
  bool store;
};

/* Whether `stmt` calls memset, or memcpy or memmove (`*copy` set): GCC's
 * builtins, still calls on the GIMPLE the pass sees (the gimplifier folds
 * no builtin), or the C library's functions of those names, which a checked
 * build calls instead (-fno-builtin-memcpy: its copies stay calls). */
bool memory_call(gimple *stmt, bool *copy) {
  tree fn = is_gimple_call(stmt) ? gimple_call_fndecl(stmt) : NULL_TREE;
  if (!fn || !DECL_NAME(fn) || gimple_call_num_args(stmt) != 3)
    return false;
  if (gimple_call_builtin_p(stmt, BUILT_IN_MEMCPY) ||
      gimple_call_builtin_p(stmt, BUILT_IN_MEMMOVE)) {
    *copy = true;
    return true;
  }
  if (gimple_call_builtin_p(stmt, BUILT_IN_MEMSET)) {
    *copy = false;
    return true;
  }
  tree scope = DECL_CONTEXT(fn);
  if (scope && TREE_CODE(scope) != TRANSLATION_UNIT_DECL)
    return false;
  const char *name = IDENTIFIER_POINTER(DECL_NAME(fn));
  *copy = !strcmp(name, "memcpy") || !strcmp(name, "memmove");
  return *copy || !strcmp(name, "memset");
}

/* Whether `stmt` calls memcpy, memmove or memset (memory_call). */
bool memory_builtin(gimple *stmt) {
  bool copy;
  return memory_call(stmt, &copy);
}

/* The object that pointer argument `arg` of a memory builtin points to:
 * the variable of `&row`, or `*p`. */
tree pointed_object(tree arg) {
  if (TREE_CODE(arg) == ADDR_EXPR)
    return TREE_OPERAND(arg, 0);
  return POINTER_TYPE_P(TREE_TYPE(arg)) ? build_simple_mem_ref(arg) : NULL_TREE;
}

/* The access of a call of memcpy or memmove (a load of the source, or,
 * where the source cannot be shared memory, a store to the destination) or
 * of memset (a store), or false. A warp's lanes store the entries of a
 * __shared__ row, then lane 0 copies the row out with memcpy, with no
 * __syncwarp() between: the converged warp makes all the stores first; run
 * one lane after another, lane 0 copied a row the other lanes had not
 * written yet (tests/programs/warpvol/row_copy.cu). */
bool builtin_access(gimple *stmt, tree *ref, bool *store) {
  bool copy;
  if (!memory_call(stmt, &copy))
    return false;
  tree dst = pointed_object(gimple_call_arg(stmt, 0));
  if (copy) {
    tree src = pointed_object(gimple_call_arg(stmt, 1));
    if (cuemu_gcc_plugin_shared_candidate(src)) {
      *ref = src;
      *store = false;
      return true;
    }
  }
  if (!cuemu_gcc_plugin_shared_candidate(dst))
    return false;
  *ref = dst;
  *store = true;
  return true;
}

/* The plain access `stmt` makes (a load `x = *p` or a store `*p = x`, not a
 * volatile one, or a call of memcpy, memmove or memset), or false. */
bool plain_access(gimple *stmt, tree *ref, bool *store) {
  if (is_gimple_call(stmt))
    return builtin_access(stmt, ref, store);
  if (!is_gimple_assign(stmt) || !gimple_assign_single_p(stmt))
    return false;
  tree lhs = gimple_assign_lhs(stmt), rhs = gimple_assign_rhs1(stmt);
  if (cuemu_gcc_plugin_shared_candidate(lhs)) {
    *ref = lhs;
    *store = true;
  } else if (cuemu_gcc_plugin_shared_candidate(rhs)) {
    *ref = rhs;
    *store = false;
  } else {
    return false;
  }
  return !TREE_THIS_VOLATILE(*ref) && !TYPE_VOLATILE(TREE_TYPE(*ref));
}

/* Whether `stmt` may synchronise the lanes (or be anything the analysis
 * does not follow): a call, but for one of a const or pure function or of
 * memcpy, memmove or memset (plain accesses: builtin_access), or an asm. */
bool may_synchronise(gimple *stmt) {
  if (gimple_code(stmt) == GIMPLE_ASM)
    return true;
  if (!is_gimple_call(stmt))
    return false;
  if (gimple_call_internal_p(stmt) || memory_builtin(stmt))
    return false;
  return !(gimple_call_flags(stmt) & (ECF_CONST | ECF_PURE));
}

/* Looks at the loop whose back edge is `back`; adds to `accesses` those of
 * its accesses through which its lanes exchange values. */
void look_at_loop(function *fun, edge back,
                  hash_map<gimple *, tree> *accesses) {
  auto_sbitmap in_loop(last_basic_block_for_fn(fun));
  bitmap_clear(in_loop);
  auto_vec<basic_block> work;
  auto_vec<basic_block> body;
  bitmap_set_bit(in_loop, back->dest->index);
  body.safe_push(back->dest);
  if (!bitmap_bit_p(in_loop, back->src->index)) {
    bitmap_set_bit(in_loop, back->src->index);
    work.safe_push(back->src);
    body.safe_push(back->src);
  }
  while (!work.is_empty()) {
    basic_block bb = work.pop();
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, bb->preds) {
      if (e->src == ENTRY_BLOCK_PTR_FOR_FN(fun) ||
          bitmap_bit_p(in_loop, e->src->index))
        continue;
      bitmap_set_bit(in_loop, e->src->index);
      work.safe_push(e->src);
      body.safe_push(e->src);
    }
  }

  auto_vec<access> seen;
  for (unsigned i = 0; i < body.length(); ++i) {
    basic_block bb = body[i];
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
         gsi_next(&gsi)) {
      gimple *stmt = gsi_stmt(gsi);
      if (may_synchronise(stmt))
        return;
      access a;
      if (plain_access(stmt, &a.ref, &a.store)) {
        a.stmt = stmt;
        a.root = array_root(a.ref);
        if (a.root)
          seen.safe_push(a);
      }
    }
  }
  for (unsigned i = 0; i < seen.length(); ++i) {
    const access &st = seen[i];
    if (!st.store)
      continue;
    bool exchange = false;
    for (unsigned j = 0; j < seen.length() && !exchange; ++j)
      exchange = !seen[j].store && same_array(fun, seen[j].root, st.root) &&
                 !same_value(element(seen[j].ref), element(st.ref), 0) &&
                 !lane_slices(fun, seen[j].ref, st.ref);
    if (!exchange)
      continue;
    for (unsigned j = 0; j < seen.length(); ++j)
      if (same_array(fun, seen[j].root, st.root))
        accesses->put(seen[j].stmt, seen[j].ref);
  }
}

/* Adds to `found` the plain accesses of `fun` that a lane may make after
 * the statement at `from` with nothing that may synchronise between, in the
 * same or a later iteration of a loop. */
void accesses_after(function *fun, gimple_stmt_iterator from,
                    auto_vec<access> *found) {
  auto_sbitmap visited(last_basic_block_for_fn(fun));
  bitmap_clear(visited);
  auto_vec<basic_block> work;
  basic_block bb = gsi_bb(from);
  gimple_stmt_iterator gsi = from;
  gsi_next(&gsi);
  for (;;) {
    bool open = true;
    for (; !gsi_end_p(gsi); gsi_next(&gsi)) {
      gimple *stmt = gsi_stmt(gsi);
      if (may_synchronise(stmt)) {
        open = false;
        break;
      }
      access a;
      if (plain_access(stmt, &a.ref, &a.store)) {
        a.stmt = stmt;
        a.root = array_root(a.ref);
        if (a.root)
          found->safe_push(a);
      }
    }
    if (open) {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE(e, ei, bb->succs) {
        if (e->dest == EXIT_BLOCK_PTR_FOR_FN(fun) ||
            bitmap_bit_p(visited, e->dest->index))
          continue;
        bitmap_set_bit(visited, e->dest->index);
        work.safe_push(e->dest);
      }
    }
    if (work.is_empty())
      return;
    bb = work.pop();
    gsi = gsi_start_bb(bb);
  }
}

/* Whether array root `root` may be shared memory: a static, thread-local
 * (static __shared__) or external (extern __shared__) variable, or a local
 * pointer variable assigned once from such a root. A parameter is left
 * out: a kernel's pointer parameters reach global memory, where the steps
 * make no lane wait, and a step costs the kernel its barrier-free thread
 * loop (a naive reduction `d[i] += d[i + s]` relaunched per stride ran 14
 * times slower stepped). */
bool may_be_shared(function *fun, tree root, int depth) {
  if (!root || !VAR_P(root) || depth > 8)
    return false;
  if (TREE_STATIC(root) || DECL_EXTERNAL(root))
    return true;
  /* A copy or a conversion of the pointer, or a pointer past it (`int
   * *counts = (int *)&buffer[32 * blockDim.y];`, a part of a dynamic
   * __shared__ buffer). */
  gimple *only = only_assignment(fun, root);
  if (!only || (!CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(only)) &&
                !gimple_assign_single_p(only) &&
                gimple_assign_rhs_code(only) != POINTER_PLUS_EXPR))
    return false;
  tree value = gimple_assign_rhs1(only);
  if (TREE_CODE(value) == INTEGER_CST)
    return false;
  tree from = pointer_root(value, 0);
  return from != root && may_be_shared(fun, from, depth + 1);
}

/* Looks at each plain access of `fun` that `start` takes (it sets the
 * access's array root); where `exchange` finds, among the accesses that a
 * lane may make after it with nothing that may synchronise between
 * (accesses_after), one through which the lanes exchange a value with it,
 * adds it and those accesses to its array to `accesses`. */
template <typename Start, typename Exchange>
void step_regions(function *fun, hash_map<gimple *, tree> *accesses,
                  Start start, Exchange exchange) {
  basic_block bb;
  FOR_EACH_BB_FN(bb, fun) {
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
         gsi_next(&gsi)) {
      access a;
      a.stmt = gsi_stmt(gsi);
      if (!plain_access(a.stmt, &a.ref, &a.store) || !start(&a))
        continue;
      auto_vec<access> region;
      accesses_after(fun, gsi, &region);
      bool found = false;
      for (unsigned j = 0; j < region.length() && !found; ++j)
        found = exchange(a, region[j]);
      if (!found)
        continue;
      accesses->put(a.stmt, a.ref);
      for (unsigned j = 0; j < region.length(); ++j)
        if (same_root(region[j].root, a.root))
          accesses->put(region[j].stmt, region[j].ref);
    }
  }
}

/* Adds to `accesses` the accesses through which the lanes exchange values
 * outside a loop: a store to an element of an array that may be shared
 * memory, then a load of another element with nothing that may synchronise
 * between (`s[tid] = sum;` by a few lanes, then lane 0's `t = s[k];` with
 * no barrier: the converged warp makes all its stores before lane 0's
 * loads). The store and the accesses to that array so reached are stepped.
 * A load before the store is not looked at: a block's tree reduction
 * between barriers (`s[t] += s[t + k]; __syncthreads();`) loads before it
 * stores, reads elements that no earlier lane has written, and would pay a
 * step at each access (2.8 times slower). */
void look_at_stores(function *fun, hash_map<gimple *, tree> *accesses) {
  step_regions(
      fun, accesses,
      [fun](access *st) {
        if (!st->store)
          return false;
        st->root = array_root(st->ref);
        return st->root && may_be_shared(fun, st->root, 0);
      },
      [fun](const access &st, const access &ld) {
        return !ld.store && same_root(ld.root, st.root) &&
               !same_value(element(ld.ref), element(st.ref), 0) &&
               !lane_slices(fun, ld.ref, st.ref);
      });
}

bool uniform_element(function *fun, tree ref, int depth);

/* Whether parameter `parm` of `fun` keeps the value it was passed: nothing
 * assigns to it, and its address is not taken. */
bool unchanged_parameter(function *fun, tree parm) {
  if (TREE_ADDRESSABLE(parm))
    return false;
  basic_block bb;
  FOR_EACH_BB_FN(bb, fun) {
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
         gsi_next(&gsi)) {
      gimple *stmt = gsi_stmt(gsi);
      if ((gimple_has_lhs(stmt) && gimple_get_lhs(stmt) == parm) ||
          (gimple_code(stmt) == GIMPLE_ASM && asm_writes(stmt, parm)))
        return false;
    }
  }
  return true;
}

/* Whether value `t` is the same for all the lanes of a warp whose threads
 * share threadIdx.y and threadIdx.z (as those of a block whose x dimension
 * is a multiple of 32 do): a constant; threadIdx.y or .z, blockIdx,
 * blockDim or gridDim; a parameter that keeps its value; a global or
 * static variable; a local assigned once such a value; or an operation on
 * such values. A value loaded from memory otherwise is taken to differ. */
bool lane_free(function *fun, tree t, int depth) {
  if (!t || depth > 16)
    return false;
  if (CONSTANT_CLASS_P(t))
    return true;
  switch (TREE_CODE(t)) {
  case COMPONENT_REF: {
    tree object = TREE_OPERAND(t, 0), field = TREE_OPERAND(t, 1);
    if (!VAR_P(object) || !DECL_NAME(object) || !DECL_NAME(field))
      return false;
    const char *name = IDENTIFIER_POINTER(DECL_NAME(object));
    if (!strcmp(name, "threadIdx"))
      return strcmp(IDENTIFIER_POINTER(DECL_NAME(field)), "x") != 0;
    return !strcmp(name, "blockIdx") || !strcmp(name, "blockDim") ||
           !strcmp(name, "gridDim");
  }
  case ADDR_EXPR:
    return uniform_element(fun, TREE_OPERAND(t, 0), depth + 1);
  case PARM_DECL:
    return unchanged_parameter(fun, t);
  case VAR_DECL:
  case SSA_NAME: {
    if (VAR_P(t) && (TREE_STATIC(t) || DECL_EXTERNAL(t)))
      return true;
    gimple *def = VAR_P(t) ? only_assignment(fun, t) : definition(t);
    if (!def)
      return false;
    for (unsigned i = 1; i < gimple_num_ops(def); ++i)
      if (!lane_free(fun, gimple_op(def, i), depth + 1))
        return false;
    return true;
  }
  default:
    return false;
  }
}

/* Whether reference `ref` names one element for all the lanes of a warp
 * (lane_free): a variable, or an element of one at indices, or through a
 * pointer, that are the same for all of them (`left`, `s[1]`,
 * `k_left[threadIdx.y]`, a member of one of those). */
bool uniform_element(function *fun, tree ref, int depth) {
  for (ref = element(ref); depth <= 16; ++depth) {
    switch (TREE_CODE(ref)) {
    case ARRAY_REF:
      if (!lane_free(fun, TREE_OPERAND(ref, 1), depth + 1))
        return false;
      ref = TREE_OPERAND(ref, 0);
      break;
    case COMPONENT_REF:
      ref = TREE_OPERAND(ref, 0);
      break;
    case MEM_REF:
      return lane_free(fun, TREE_OPERAND(ref, 0), depth + 1);
    default:
      return VAR_P(ref);
    }
  }
  return false;
}

/* Adds to `accesses` the accesses through which the lanes exchange values
 * by a read and a later update of one element that every lane names: all
 * the lanes read a __shared__ counter, then one of them updates it, with
 * nothing that may synchronise between (`if (left >= k) { ...; if (tid ==
 * 0) left -= k; }`). The converged warp makes all its loads before the one
 * lane's store; run one lane after another, the lanes after the updating
 * one read the new value (a k-nearest-neighbours program counted 77.14 %
 * where a GPU counts 80.00 %: tests/programs/warpvol/read_then_update.cu).
 * The load, the store and the accesses to that array in between are
 * stepped. Only an element that every lane names is looked at (a lane
 * that updates its own element, `s[tid] += v`, exchanges nothing), and
 * only a store in another basic block than the load, which some of the
 * lanes that load may not reach: a store that follows the load in its
 * block is made by every lane that loads, as in one thread's serial sum
 * into a __shared__ total (`if (tid == 0) for (...) total += s[i];`), whose
 * steps made that loop 9 times slower. */
void look_at_loads(function *fun, hash_map<gimple *, tree> *accesses) {
  step_regions(
      fun, accesses,
      [fun](access *ld) {
        if (ld->store || !uniform_element(fun, ld->ref, 0))
          return false;
        ld->root = array_root(ld->ref);
        return ld->root && may_be_shared(fun, ld->root, 0);
      },
      [](const access &ld, const access &st) {
        return st.store && gimple_bb(st.stmt) != gimple_bb(ld.stmt) &&
               same_root(st.root, ld.root) &&
               same_value(element(st.ref), element(ld.ref), 0);
      });
}

} // namespace

void cuemu_gcc_plugin_loop_lane_accesses(function *fun,
                                         hash_map<gimple *, tree> *accesses) {
  look_at_stores(fun, accesses);
  /* Not in a checked build (-fsanitize=thread): racecheck keeps one read
   * of each byte, and with the loads stepped the updating lane's own read
   * may be the one kept, which hides the others' from its store; run lane
   * after lane, the later lanes' reads meet the store and the race is
   * reported. */
  if (!(flag_sanitize & SANITIZE_THREAD))
    look_at_loads(fun, accesses);
  mark_dfs_back_edges(fun);
  basic_block bb;
  FOR_EACH_BB_FN(bb, fun) {
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, bb->succs) {
      if (!(e->flags & EDGE_DFS_BACK) || e->dest == EXIT_BLOCK_PTR_FOR_FN(fun))
        continue;
      look_at_loop(fun, e, accesses);
    }
  }
}
