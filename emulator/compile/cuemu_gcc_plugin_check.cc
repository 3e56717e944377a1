/* cuemu_gcc_plugin_check.cc: the pass of cuemu's GCC plugin that decides
 * the common case of memcheck and initcheck inline, in the kernel's code,
 * with no call.
 *
 * A checked build (cuemu-cc --check=mem or init, compiled with
 * -fsanitize=thread) calls __tsan_readN or __tsan_writeN before each load
 * and store; the build's own entry points decide most accesses there
 * (shims/cuda_builtins/cuemu_check_entry.h, <cuemu/cuemu_check_fast.h>).
 * The call is most of what a checked saxpy costs: the kernel's values live
 * in memory across it, and the call and return themselves. This pass runs
 * right after g++'s instrumentation (the pass "tsan") and puts before each
 * of those calls the first test of cuemu_check_fast_decide(): whether the
 * access lies in one of the two live allocations that the running block
 * touched last (cuemu_check_fast.hot), is aligned, and, under initcheck, finds
 * its bytes written (a read) or marks them written (a write) in the
 * allocation's "written" map. Only when it does not is the entry point
 * called, which then makes the whole decision as before (the test is
 * repeated there). The call is on a path of its own, which g++ lays out
 * out of the loop's way.
 *
 * The test is a few loads, compares and branches (the shape is drawn above
 * guard() below); g++ optimises it with the rest of the function (a second
 * access to the same array, with no store in between, reuses the first's
 * range test). It reads the state's fields by name from the declaration of
 * cuemu_check_fast_state that the checked build has
 * (cuemu_check_entry.h includes cuemu_check_fast.h, and keeps the
 * variable among the unit's with a function that reads it: the unit only
 * declares the entry points, which are defined in an object of their own);
 * a unit without it, or
 * whose structure lacks a field, is left as it is. cuemu-cc asks for the
 * pass (plugin argument check-inline=mem or init) only when racecheck is
 * off: with racecheck every hot allocation has cells to update, which only
 * the entry point does.
 *
 * The file also holds the pass that gives the instrumentation's calls of
 * accesses without a location a line (lines_pass, every checked build). */

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
#include "cgraph.h"
#include "ssa.h"
#include "tree-into-ssa.h"
#include "fold-const.h"
#include "stor-layout.h"
#include "cfgloop.h"
#include "cfghooks.h"
#include "dominance.h"
#include "diagnostic-core.h"

#include "cuemu_gcc_plugin_check.h"
#include "cuemu_gcc_plugin_pass.h"

namespace {

/* Whether initcheck runs (its "written" maps are tested and marked). */
bool with_init;

/* The field `name` of structure type `record`, or NULL_TREE. */
tree field(tree record, const char *name) {
  if (!record || TREE_CODE(record) != RECORD_TYPE)
    return NULL_TREE;
  for (tree f = TYPE_FIELDS(record); f; f = DECL_CHAIN(f))
    if (TREE_CODE(f) == FIELD_DECL && DECL_NAME(f) &&
        strcmp(IDENTIFIER_POINTER(DECL_NAME(f)), name) == 0)
      return f;
  return NULL_TREE;
}

/* What the test needs of the unit: the state variable and the fields it
 * reads. */
struct state_fields {
  tree var;                   /* cuemu_check_fast_state */
  tree hot, base, limit, shadow;
};

/* Finds them; false when the unit lacks any. */
bool find_state(state_fields *s) {
  varpool_node *v;
  s->var = NULL_TREE;
  FOR_EACH_VARIABLE(v) {
    tree d = v->decl;
    if (DECL_NAME(d) &&
        strcmp(IDENTIFIER_POINTER(DECL_NAME(d)), "cuemu_check_fast_state") ==
            0) {
      s->var = d;
      break;
    }
  }
  if (!s->var || !POINTER_TYPE_P(TREE_TYPE(s->var)))
    return false;
  tree record = TREE_TYPE(TREE_TYPE(s->var));
  s->hot = field(record, "hot");
  if (!s->hot || TREE_CODE(TREE_TYPE(s->hot)) != ARRAY_TYPE)
    return false;
  /* The layout the test is written for (cuemu_check_fast.h): two hot
   * slots, and base, limit and shadow of one pointer-sized unsigned type.
   * A unit whose structure differs is left as it is, not miscompiled. */
  tree domain = TYPE_DOMAIN(TREE_TYPE(s->hot));
  if (!domain || !TYPE_MAX_VALUE(domain) ||
      !tree_fits_uhwi_p(TYPE_MAX_VALUE(domain)) ||
      tree_to_uhwi(TYPE_MAX_VALUE(domain)) != 1)
    return false;
  tree slot = TREE_TYPE(TREE_TYPE(s->hot));
  s->base = field(slot, "base");
  s->limit = field(slot, "limit");
  s->shadow = field(slot, "shadow");
  if (!s->base || !s->limit || !s->shadow)
    return false;
  tree word = TREE_TYPE(s->base);
  return INTEGRAL_TYPE_P(word) && TYPE_UNSIGNED(word) &&
         TYPE_PRECISION(word) == POINTER_SIZE &&
         TYPE_MAIN_VARIANT(TREE_TYPE(s->limit)) == TYPE_MAIN_VARIANT(word) &&
         TYPE_MAIN_VARIANT(TREE_TYPE(s->shadow)) == TYPE_MAIN_VARIANT(word);
}

/* The access that call `stmt` announces: its size, and whether it writes
 * and is held to the alignment rule (g++ 12 has no __tsan_unaligned_
 * forms, which are not; clang++ has no plugin); false when it is no plain
 * __tsan_readN or __tsan_writeN. */
bool tsan_access(gimple *stmt, unsigned *size, bool *write, bool *aligned) {
  if (!gimple_call_builtin_p(stmt, BUILT_IN_NORMAL))
    return false;
  *aligned = true;
  switch (DECL_FUNCTION_CODE(gimple_call_fndecl(stmt))) {
#define CUEMU_TSAN_CASE(code, n, w, al)                                        \
  case code:                                                                   \
    *size = n;                                                                 \
    *write = w;                                                                \
    *aligned = al;                                                             \
    return true;
    CUEMU_TSAN_CASE(BUILT_IN_TSAN_READ1, 1, false, true)
    CUEMU_TSAN_CASE(BUILT_IN_TSAN_READ2, 2, false, true)
    CUEMU_TSAN_CASE(BUILT_IN_TSAN_READ4, 4, false, true)
    CUEMU_TSAN_CASE(BUILT_IN_TSAN_READ8, 8, false, true)
    CUEMU_TSAN_CASE(BUILT_IN_TSAN_READ16, 16, false, true)
    CUEMU_TSAN_CASE(BUILT_IN_TSAN_WRITE1, 1, true, true)
    CUEMU_TSAN_CASE(BUILT_IN_TSAN_WRITE2, 2, true, true)
    CUEMU_TSAN_CASE(BUILT_IN_TSAN_WRITE4, 4, true, true)
    CUEMU_TSAN_CASE(BUILT_IN_TSAN_WRITE8, 8, true, true)
    CUEMU_TSAN_CASE(BUILT_IN_TSAN_WRITE16, 16, true, true)
#undef CUEMU_TSAN_CASE
  default:
    return false;
  }
}

/* Statements appended to a block. */
struct builder {
  gimple_stmt_iterator gsi;

  explicit builder(basic_block bb) : gsi(gsi_last_bb(bb)) {}
  /* `e` computed into a value of its own. */
  tree val(tree e) {
    return force_gimple_operand_gsi(&gsi, e, true, NULL_TREE, false,
                                    GSI_CONTINUE_LINKING);
  }
  tree op(tree_code code, tree type, tree a, tree b) {
    return val(fold_build2(code, type, a, b));
  }
  void add(gimple *g, location_t where) {
    gimple_set_location(g, where);
    gsi_insert_after(&gsi, g, GSI_CONTINUE_LINKING);
  }
  /* Ends the block with `if (c)`. */
  void branch(tree c, location_t where) {
    add(gimple_build_cond(NE_EXPR, c, boolean_false_node, NULL_TREE,
                          NULL_TREE),
        where);
  }
};

/* A new empty block after `after`, in its loop. */
basic_block new_block(basic_block after) {
  basic_block bb = create_empty_bb(after);
  if (current_loops)
    add_bb_to_loop(bb, after->loop_father);
  return bb;
}

/* The edges of a block that ends in a test: to `yes` (taken with
 * probability `p`) and to `no`. */
void fork(basic_block from, basic_block yes, basic_block no,
          profile_probability p) {
  edge t = make_edge(from, yes, EDGE_TRUE_VALUE);
  edge f = make_edge(from, no, EDGE_FALSE_VALUE);
  t->probability = p;
  f->probability = p.invert();
}

/* The rest of the test for an access inside hot slot `slot` (at offset
 * `off`), from block `bb`, which it ends: to `join` when the entry point
 * has nothing more to do, else to `call`.
 *
 *   bb:    if (misaligned) goto call; [memcheck alone: if (shadow == 0)
 *          goto join; else goto call]
 *          if (shadow > 1) goto map; else goto plain
 *   map:   a read: if (the map's bytes are all 1) goto join; else goto call
 *          a write: set them to 1; goto join
 *   plain: if (shadow == 0) goto join; else goto call
 *
 * `shadow` is 0 when there is nothing to update, else (racecheck being
 * off, never CUEMU_CHECK_FAST_RACE_TAG) the allocation's "written" map. */
void slot_decide(basic_block bb, const state_fields &s, tree slot, tree a,
                 tree off, unsigned size, bool write, bool aligned,
                 basic_block join, basic_block call, location_t where) {
  profile_probability likely = profile_probability::very_likely();
  builder b(bb);
  tree ut = TREE_TYPE(s.base);
  tree bt = boolean_type_node;
  tree sh = b.val(build3(COMPONENT_REF, ut, slot, s.shadow, NULL_TREE));
  tree plain = b.op(EQ_EXPR, bt, sh, build_int_cst(ut, 0));
  if (aligned && size > 1) {
    /* cuemu_check_fast_align_mask(): 16 bytes are held to 8. */
    unsigned mask = (size > 8 ? 8 : size) - 1;
    tree al = b.op(EQ_EXPR, bt,
                   b.op(BIT_AND_EXPR, ut, a, build_int_cst(ut, mask)),
                   build_int_cst(ut, 0));
    if (!with_init || size > 8) {
      b.branch(b.op(BIT_AND_EXPR, bt, al, plain), where);
      fork(bb, join, call, likely);
      return;
    }
    b.branch(al, where);
    basic_block next = new_block(bb);
    fork(bb, next, call, likely);
    next->count = find_edge(bb, next)->count();
    bb = next;
    b = builder(bb);
  } else if (!with_init || size > 8) {
    b.branch(plain, where);
    fork(bb, join, call, likely);
    return;
  }
  b.branch(b.op(GT_EXPR, bt, sh, build_int_cst(ut, 1)), where);
  basic_block map = new_block(bb), zero = new_block(map);
  fork(bb, map, zero, likely);
  map->count = find_edge(bb, map)->count();
  zero->count = find_edge(bb, zero)->count();
  builder(zero).branch(plain, where);
  fork(zero, join, call, likely);

  builder m(map);
  tree cp = build_pointer_type(char_type_node);
  tree p = m.op(POINTER_PLUS_EXPR, cp, m.val(fold_convert(cp, sh)),
                m.val(fold_convert(sizetype, off)));
  tree word = build_aligned_type(
      build_nonstandard_integer_type(size * BITS_PER_UNIT, 1), BITS_PER_UNIT);
  tree ones = build_int_cst(
      word, (HOST_WIDE_INT)(0x0101010101010101ull >>
                            (64 - size * BITS_PER_UNIT)));
  /* Through char *: the map's bytes may alias anything. */
  tree ref = fold_build2(MEM_REF, word, p, build_int_cst(cp, 0));
  if (write) {
    m.add(gimple_build_assign(ref, ones), where);
    make_single_succ_edge(map, join, EDGE_FALLTHRU);
    return;
  }
  m.branch(m.op(EQ_EXPR, bt, m.val(ref), ones), where);
  fork(map, join, call, likely);
}

/* Puts the test before the call at `gsi` (an access of `size` bytes), and
 * the call on the path where it fails:
 *
 *   bb:    off0 = a - hot[0].base; if (off0 < hot[0].limit) goto in0;
 *          else goto next
 *   in0:   if (the rest, slot 0) goto join; else goto call
 *   next:  off1 = a - hot[1].base; if (off1 < hot[1].limit) goto in1;
 *          else goto call
 *   in1:   if (the rest, slot 1) goto join; else goto call
 *   call:  __tsan_...(p)
 *   join:  what followed the call */
void guard(gimple_stmt_iterator *gsi, const state_fields &s, unsigned size,
           bool write, bool aligned) {
  gimple *call = gsi_stmt(*gsi);
  location_t where = gimple_location(call);
  basic_block bb = gsi_bb(*gsi);
  gimple_stmt_iterator prev = *gsi;
  gsi_prev(&prev);
  edge to_call = split_block(bb, gsi_end_p(prev) ? NULL : gsi_stmt(prev));
  basic_block call_bb = to_call->dest;
  basic_block join_bb = split_block(call_bb, call)->dest;
  remove_edge(to_call);
  profile_probability likely = profile_probability::very_likely();

  builder b(bb);
  tree ut = TREE_TYPE(s.base);
  tree bt = boolean_type_node;
  tree f = b.val(unshare_expr(s.var));
  tree state = build_simple_mem_ref(f);
  tree a = b.val(fold_convert(ut, unshare_expr(gimple_call_arg(call, 0))));
  tree slot_type = TREE_TYPE(TREE_TYPE(s.hot));
  basic_block test = bb, last = call_bb;
  for (int h = 0; h < 2; ++h) {
    builder t(test);
    tree slot = build4(ARRAY_REF, slot_type,
                       build3(COMPONENT_REF, TREE_TYPE(s.hot),
                              unshare_expr(state), s.hot, NULL_TREE),
                       size_int(h), NULL_TREE, NULL_TREE);
    tree base = t.val(build3(COMPONENT_REF, ut, unshare_expr(slot), s.base,
                             NULL_TREE));
    tree limit = t.val(build3(COMPONENT_REF, ut, unshare_expr(slot),
                              s.limit, NULL_TREE));
    tree off = t.op(MINUS_EXPR, ut, a, base);
    t.branch(t.op(LT_EXPR, bt, off, limit), where);
    basic_block in = new_block(last);
    basic_block next = h == 0 ? new_block(in) : call_bb;
    /* The second slot holds the other array of a kernel that accesses
     * two in turn (a saxpy's x and y) as often as not. */
    fork(test, in, next, h == 0 ? likely : profile_probability::even());
    in->count = find_edge(test, in)->count();
    if (h == 0)
      next->count = find_edge(test, next)->count();
    slot_decide(in, s, slot, a, off, size, write, aligned, join_bb, call_bb,
                where);
    test = last = next;
  }
}

const pass_data check_data = {GIMPLE_PASS, "cuemu_check_inline",
                              OPTGROUP_NONE, TV_NONE,
                              PROP_ssa | PROP_cfg, 0, 0, 0, 0};

struct check_pass : gimple_opt_pass {
  check_pass(gcc::context *ctx) : gimple_opt_pass(check_data, ctx) {}
  opt_pass *clone() final override { return new check_pass(m_ctxt); }
  bool gate(function *) final override {
    return optimize && (flag_sanitize & SANITIZE_THREAD);
  }
  unsigned int execute(function *fun) final override {
    state_fields s;
    if (!find_state(&s))
      return 0;
    auto_vec<gimple *> calls;
    basic_block bb;
    unsigned size;
    bool write, aligned;
    FOR_EACH_BB_FN(bb, fun) {
      for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
           gsi_next(&gsi))
        if (tsan_access(gsi_stmt(gsi), &size, &write, &aligned))
          calls.safe_push(gsi_stmt(gsi));
    }
    if (calls.is_empty())
      return 0;
    for (gimple *call : calls) {
      tsan_access(call, &size, &write, &aligned);
      gimple_stmt_iterator gsi = gsi_for_stmt(call);
      guard(&gsi, s, size, write, aligned);
    }
    free_dominance_info(CDI_DOMINATORS);
    if (current_loops)
      loops_state_set(LOOPS_NEED_FIXUP);
    mark_virtual_operands_for_renaming(fun);
    return TODO_update_ssa_only_virtuals;
  }
};

/* An access whose load or store an optimisation left without a location
 * (a load that g++ moved to another block) gets a __tsan_readN or
 * __tsan_writeN call without one too, and in the object the call then
 * takes whatever line row precedes it: a shim's line (an atomicAdd's
 * misaligned-address test laid out just before it), which makes the
 * checkers take the access for the shims' own and drop its race. This
 * pass, which every checked build runs right after "tsan", gives such a
 * call, and the access after it, the location of the next statement of
 * its block that has one: the statement that uses the value read, or the
 * next access of the same source line. */
const pass_data lines_data = {GIMPLE_PASS, "cuemu_tsan_lines",
                              OPTGROUP_NONE, TV_NONE,
                              PROP_cfg, 0, 0, 0, 0};

struct lines_pass : gimple_opt_pass {
  lines_pass(gcc::context *ctx) : gimple_opt_pass(lines_data, ctx) {}
  opt_pass *clone() final override { return new lines_pass(m_ctxt); }
  bool gate(function *) final override {
    return (flag_sanitize & SANITIZE_THREAD) != 0;
  }
  unsigned int execute(function *fun) final override {
    basic_block bb;
    unsigned size;
    bool write, aligned;
    FOR_EACH_BB_FN(bb, fun) {
      for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
           gsi_next(&gsi)) {
        gimple *call = gsi_stmt(gsi);
        if (gimple_location(call) != UNKNOWN_LOCATION ||
            !tsan_access(call, &size, &write, &aligned))
          continue;
        gimple_stmt_iterator next = gsi;
        for (gsi_next(&next); !gsi_end_p(next); gsi_next(&next))
          if (gimple_location(gsi_stmt(next)) != UNKNOWN_LOCATION)
            break;
        if (gsi_end_p(next))
          continue;
        location_t loc = gimple_location(gsi_stmt(next));
        gimple_set_location(call, loc);
        gimple_stmt_iterator access = gsi;
        gsi_next(&access);
        if (!gsi_end_p(access) &&
            gimple_location(gsi_stmt(access)) == UNKNOWN_LOCATION)
          gimple_set_location(gsi_stmt(access), loc);
      }
    }
    return 0;
  }
};

} // namespace

void cuemu_gcc_plugin_register_tsan_lines(const char *plugin) {
  cuemu_gcc_plugin_insert_after(plugin, new lines_pass(g), "tsan", 0);
}

void cuemu_gcc_plugin_register_check(const char *plugin, const char *value) {
  if (strcmp(value, "mem") == 0)
    with_init = false;
  else if (strcmp(value, "init") == 0)
    with_init = true;
  else {
    error("%s: check-inline=%s: expected mem or init", plugin, value);
    return;
  }
  cuemu_gcc_plugin_insert_after(plugin, new check_pass(g), "tsan", 0);
}
