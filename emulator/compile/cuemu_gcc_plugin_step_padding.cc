/* cuemu_gcc_plugin_step_padding.cc: the lanes of a GPU warp that a branch
 * masks off wait while the others execute the arm; in cuemu the lanes
 * advance by counting their steps (cuemu_warp_step.h), so a lane that
 * skips an arm with stepped accesses ran ahead of the others by the
 * accesses it skipped, and its next access came before theirs. CUDPP 1.x's
 * radix sort of up to 32 keys (`if (tid < i && sKeys[tid] > key_i) { ...
 * four volatile accesses ... }`) and its segmented warp scan (`t = f ? t :
 * op(s_data[idx - 1], t)`) got wrong results so. This puts, on each edge
 * into a join along which fewer steps are made than along the longest path
 * from the branch the join closes, a call of cuemu_warp_step_skip with the
 * difference: the lane waits out that many rounds of its warp.
 *
 * The counts are taken over the function's blocks in reverse post-order,
 * back edges left out: a block's count is the largest of its predecessors'
 * at their ends, plus its own steps. A join is padded when no path from
 * its immediate dominator to it goes through a loop (the lanes that leave
 * a loop at different iterations differ by a count no compiler knows) or
 * an abnormal edge; the joins inside such a region come first in the
 * order, so that every path to a padded join makes the same count. Calls
 * of other functions count no steps (the pass runs before inlining). */

#include "gcc-plugin.h"

#include "tree.h"
#include "tree-pass.h"
#include "context.h"
#include "function.h"
#include "basic-block.h"
#include "cfganal.h"
#include "cfghooks.h"
#include "dominance.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "stringpool.h"
#include "tree-cfg.h"
#include "bitmap.h"
#include "ggc.h"
#include "vec.h"

#include "cuemu_gcc_plugin_step_padding.h"

namespace {

/* The declaration of cuemu_warp_step_skip, made at the first use (a root
 * of GCC's garbage collector, which may run between passes). */
tree skip_fn;

const struct ggc_root_tab skip_roots[] = {
    {&skip_fn, 1, sizeof(skip_fn), &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node},
    LAST_GGC_ROOT_TAB};

tree skip_decl() {
  if (!skip_fn) {
    tree type = build_function_type_list(void_type_node, unsigned_type_node,
                                         const_ptr_type_node,
                                         integer_type_node, NULL_TREE);
    skip_fn = build_fn_decl("cuemu_warp_step_skip", type);
    TREE_PUBLIC(skip_fn) = 1;
    DECL_EXTERNAL(skip_fn) = 1;
    DECL_ARTIFICIAL(skip_fn) = 1;
    TREE_NOTHROW(skip_fn) = 1;
  }
  return skip_fn;
}

/* Whether `stmt` is a step that the lockstep pass inserted. */
bool is_step(gimple *stmt) {
  if (!is_gimple_call(stmt))
    return false;
  tree fn = gimple_call_fndecl(stmt);
  if (!fn || !DECL_NAME(fn))
    return false;
  const char *name = IDENTIFIER_POINTER(DECL_NAME(fn));
  return !strcmp(name, "cuemu_warp_step") ||
         !strcmp(name, "cuemu_warp_step_volatile");
}

int steps_in(basic_block bb) {
  int n = 0;
  for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
       gsi_next(&gsi))
    n += is_step(gsi_stmt(gsi));
  return n;
}

/* Whether an edge into `bb` may be padded: it is no loop header, and no
 * path from its immediate dominator to it goes through a loop or an
 * abnormal edge. */
bool acyclic_region(basic_block bb) {
  basic_block top = get_immediate_dominator(CDI_DOMINATORS, bb);
  if (!top)
    return false;
  auto_vec<basic_block> work;
  auto_bitmap seen;
  work.safe_push(bb);
  bitmap_set_bit(seen, bb->index);
  while (!work.is_empty()) {
    basic_block b = work.pop();
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, b->preds) {
      if (e->flags & (EDGE_DFS_BACK | EDGE_ABNORMAL | EDGE_EH))
        return false;
      if (e->src == top || bitmap_bit_p(seen, e->src->index))
        continue;
      if (e->src == ENTRY_BLOCK_PTR_FOR_FN(cfun))
        return false;
      bitmap_set_bit(seen, e->src->index);
      work.safe_push(e->src);
    }
  }
  return true;
}

/* Puts cuemu_warp_step_skip(rounds, file, line) on edge `e`, at the line of
 * the last statement before it. */
void insert_skip(edge e, int rounds) {
  location_t where = UNKNOWN_LOCATION;
  gimple *last = last_stmt(e->src);
  if (last)
    where = gimple_location(last);
  basic_block pad = split_edge(e);
  expanded_location at = expand_location(where);
  const char *file = at.file ? at.file : "?";
  gcall *call = gimple_build_call(
      skip_decl(), 3, build_int_cst(unsigned_type_node, rounds),
      build_string_literal(strlen(file) + 1, file),
      build_int_cst(integer_type_node, at.line));
  gimple_set_location(call, where);
  gimple_call_set_nothrow(call, true);
  gimple_stmt_iterator gsi = gsi_start_bb(pad);
  gsi_insert_before(&gsi, call, GSI_SAME_STMT);
}

} // namespace

void cuemu_gcc_plugin_pad_steps(function *fun) {
  /* The functions of system headers (CCCL's, the shims') are not padded:
   * their steps are libcu++'s own bookkeeping (a local-memory check before
   * an atomic), and a padded one moved the line that a fault in an atomic
   * called from there names (tests/programs/robust/misaligned_faults_gxx_O0.cu,
   * cuda::atomic_ref<double>::fetch_add at -O0). */
  if (in_system_header_at(DECL_SOURCE_LOCATION(fun->decl)))
    return;
  static bool rooted;
  if (!rooted) {
    ggc_register_root_tab(skip_roots);
    rooted = true;
  }
  int blocks = last_basic_block_for_fn(fun);
  auto_vec<int> end(blocks);
  end.quick_grow_cleared(blocks);
  bool any = false;
  basic_block bb;
  FOR_EACH_BB_FN(bb, fun) {
    end[bb->index] = steps_in(bb);
    any |= end[bb->index] != 0;
  }
  if (!any)
    return;

  mark_dfs_back_edges(fun);
  calculate_dominance_info(CDI_DOMINATORS);
  int *order = XNEWVEC(int, n_basic_blocks_for_fn(fun));
  int n = pre_and_rev_post_order_compute_fn(fun, NULL, order, false);
  auto_vec<edge> pad_edges;
  auto_vec<int> pad_rounds;
  for (int i = 0; i < n; ++i) {
    bb = BASIC_BLOCK_FOR_FN(fun, order[i]);
    int start = 0, preds = 0;
    bool looped = false;
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, bb->preds) {
      if (e->flags & EDGE_DFS_BACK) {
        looped = true;
        continue;
      }
      int from = e->src->index < blocks ? end[e->src->index] : 0;
      start = MAX(start, from);
      ++preds;
    }
    if (preds > 1 && !looped && acyclic_region(bb)) {
      FOR_EACH_EDGE(e, ei, bb->preds) {
        int from = e->src->index < blocks ? end[e->src->index] : 0;
        if (from < start) {
          pad_edges.safe_push(e);
          pad_rounds.safe_push(start - from);
        }
      }
    }
    end[bb->index] += start;
  }
  XDELETEVEC(order);
  free_dominance_info(CDI_DOMINATORS);
  for (unsigned i = 0; i < pad_edges.length(); ++i)
    insert_skip(pad_edges[i], pad_rounds[i]);
}
