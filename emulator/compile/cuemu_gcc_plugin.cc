/* cuemu_gcc_plugin.cc: a GCC plugin that gives device code the results
 * that a GPU gives where C++ leaves them undefined and x86-64 gives
 * something else.
 *
 * The device pass of cuemu-cc loads it (-fplugin, see cuemu_compile.c) when
 * its compiler is the g++ the plugin was built for. Before each function
 * body is lowered to GIMPLE it rewrites two kinds of expressions and
 * orders the arguments of calls:
 *
 * - Shifts by an amount known only at run time. PTX's shl and shr clamp
 *   the amount to the register's width: a 32-bit x << 32 is 0, a signed
 *   x >> 40 fills with the sign bit (PTX ISA, "shl", "shr"). x86-64 takes
 *   the amount modulo the width, so (1u << n) - 1 with n = 32 gave 0
 *   instead of all ones. The rewrite shifts by the amount masked to the
 *   width (defined in C++, so the optimiser cannot assume it away) and
 *   selects the clamped result when the amount, read as unsigned as PTX
 *   reads it, is the width or more.
 * - Conversions of float or double to an integer. PTX's cvt.rzi saturates
 *   to the destination's range and converts NaN to 0; x86-64's cvttss2si
 *   gives the "integer indefinite" 0x80000000 for both, so (int)3e9f was
 *   INT_MIN instead of INT_MAX. nvcc converts to a char or a short through
 *   a 32-bit cvt.rzi of the destination's signedness and keeps its low bits
 *   (cvt.rzi.u32.f64 then and.b32 255 for an unsigned char, cvt.rzi.s32.f32
 *   then cvt.s32.s8 for a signed char: nvcc 13.0's PTX at -O0, -O3 and -G),
 *   so those are rewritten the same way: (unsigned char)-1.5 is 0, not 255
 *   (tests/programs/narrowcvt/narrow_conversions.cu).
 *
 * - The order of a call's arguments, which C++ leaves unspecified: nvcc's
 *   device code evaluates them from left to right (its PTX makes the first
 *   argument's calls first), g++ from right to left on x86-64, so
 *   `vec3(curand_uniform(s), curand_uniform(s), curand_uniform(s))` drew x
 *   last. Every call and constructor call of the user's device code with
 *   two arguments or more that have side effects is marked to evaluate
 *   its arguments in order (CALL_EXPR_ORDERED_ARGS, which GCC
 *   sets for C++17's ordered operator calls), except those C++17 orders
 *   from right to left (assignment operators).
 *
 * Amounts and operands known at compile time are left to the compiler,
 * which folds them (and warns about out-of-range shifts) as nvcc does.
 *
 * It also refuses variable-length arrays in device code, as nvcc does
 * ("expression must have a constant value") and g++ does not: cuemu-cc
 * marks the body of each __global__ and __device__ function with
 * `#pragma cuemu device_code` (cuemu_device_code.c); the functions so
 * marked, their template instances and the lambdas and local classes
 * inside them are device code.
 *
 * And it registers the lockstep pass (cuemu_gcc_plugin_lockstep.cc), which
 * makes volatile accesses wait for the other lanes of the warp; the
 * alignment pass (cuemu_gcc_plugin_align.cc), which makes a vector access
 * at a misaligned address fail as on a GPU; the
 * detached pass (cuemu_gcc_plugin_detached.cc), which drops the
 * blocked-thread test from the thread loop of a kernel that cannot block;
 * and, in a build checked by memcheck or initcheck, the pass that decides
 * their common case inline (cuemu_gcc_plugin_check.cc). */

#include "gcc-plugin.h"
#include "plugin-version.h"

#include "tree.h"
#include "stringpool.h"
#include "cp/cp-tree.h"
#include "diagnostic-core.h"
#include "fold-const.h"
#include "real.h"
#include "hash-set.h"
#include "tree-iterator.h"
#include "langhooks.h"
#include "c-family/c-pragma.h"

#include "cuemu_gcc_plugin_detached.h"
#include "cuemu_gcc_plugin_host_code.h"
#include "cuemu_gcc_plugin_call_results.h"
#include "cuemu_gcc_plugin_cas_guess.h"
#include "cuemu_gcc_plugin_check.h"
#include "cuemu_gcc_plugin_call_args.h"
#include "cuemu_gcc_plugin_align.h"
#include "cuemu_gcc_plugin_lockstep.h"
#include "cuemu_gcc_plugin_closures.h"
#include "cuemu_gcc_plugin_spaces.h"

/* GCC loads only plugins that declare this; cuemu's licence allows it. */
int plugin_is_GPL_compatible;

namespace {

/* The operand evaluated once, however many times the rewrite names it. */
tree once(tree t) { return save_expr(t); }

/* The integer types whose shifts and conversions are rewritten: those that
 * PTX registers hold whole. */
bool register_width(tree type) {
  return TREE_CODE(type) == INTEGER_TYPE &&
         (TYPE_PRECISION(type) == 32 || TYPE_PRECISION(type) == 64);
}

/* The integer types narrower than a register (char, short), which nvcc
 * converts a float or a double to through a 32-bit cvt.rzi. */
bool narrow_width(tree type) {
  return TREE_CODE(type) == INTEGER_TYPE &&
         (TYPE_PRECISION(type) == 8 || TYPE_PRECISION(type) == 16);
}

/* a << b or a >> b with PTX's clamped amount. */
tree clamped_shift(tree t) {
  tree type = TREE_TYPE(t);
  location_t loc = EXPR_LOCATION(t);
  unsigned width = TYPE_PRECISION(type);
  tree a = once(TREE_OPERAND(t, 0));
  tree b = once(TREE_OPERAND(t, 1));
  tree amount_type = TREE_TYPE(b);
  tree unsigned_amount = fold_convert_loc(
      loc, unsigned_type_for(amount_type), b);
  tree in_range =
      fold_build2_loc(loc, LT_EXPR, boolean_type_node, unsigned_amount,
                      build_int_cst(TREE_TYPE(unsigned_amount), width));
  tree masked = fold_build2_loc(loc, BIT_AND_EXPR, amount_type, b,
                                build_int_cst(amount_type, width - 1));
  tree shifted = build2_loc(loc, TREE_CODE(t), type, a, masked);
  tree clamped;
  if (TREE_CODE(t) == RSHIFT_EXPR && !TYPE_UNSIGNED(type))
    clamped = build2_loc(loc, RSHIFT_EXPR, type, a,
                         build_int_cst(integer_type_node, width - 1));
  else
    clamped = build_int_cst(type, 0);
  tree chosen = build3_loc(loc, COND_EXPR, type, in_range, shifted, clamped);
  /* C++17 evaluates the shifted operand before the amount. */
  return build2_loc(loc, COMPOUND_EXPR, type, a,
                    build2_loc(loc, COMPOUND_EXPR, type, b, chosen));
}

/* 2^exponent in the real type of the conversion's operand. */
tree power_of_two(tree real_type, int exponent) {
  REAL_VALUE_TYPE r;
  real_2expN(&r, exponent, TYPE_MODE(real_type));
  return build_real(real_type, r);
}

/* `bound`, a minimum or maximum that a conversion saturates to, as a value
 * the optimiser cannot see, through the shims' __cuemu_saturation_bound
 * (cuemu_qualifiers.h, an empty asm). On the paths where the conversion
 * saturates, its result was a constant, and an index of a __shared__ array
 * (a thread-local variable) taken from it became the array's address plus
 * 4 * INT_MAX, which g++ folds into the 32-bit relocation of the array's
 * thread-local offset: the link failed ("relocation truncated to fit:
 * R_X86_64_DTPOFF32"), as a histogram's `atomicAdd(&bins[(int)(v / w)], 1)`
 * did. Zero and a unit without the shims keep the constant. */
tree opaque_bound(location_t loc, tree type, tree bound) {
  if (integer_zerop(bound))
    return bound;
  tree fn = get_global_binding(get_identifier("__cuemu_saturation_bound"));
  if (!fn || TREE_CODE(fn) != FUNCTION_DECL)
    return bound;
  mark_used(fn);
  tree call = build_call_expr_loc(
      loc, fn, 1, fold_convert_loc(loc, long_long_unsigned_type_node, bound));
  return fold_convert_loc(loc, type, call);
}

/* (T)x for a float or double x, saturated as cvt.rzi does. */
tree saturated_conversion(tree t) {
  tree type = TREE_TYPE(t);
  location_t loc = EXPR_LOCATION(t);
  tree x = once(TREE_OPERAND(t, 0));
  tree real_type = TREE_TYPE(x);
  unsigned width = TYPE_PRECISION(type);
  bool is_unsigned = TYPE_UNSIGNED(type);
  /* The smallest value above the range (2^31, 2^63, 2^32 or 2^64) and
   * the value below which the result is the minimum (-2^31, -2^63, 0):
   * both are exact in float and double. */
  tree above = power_of_two(real_type, is_unsigned ? width : width - 1);
  tree below = is_unsigned
                   ? build_real(real_type, dconst0)
                   : fold_build1_loc(loc, NEGATE_EXPR, real_type,
                                     power_of_two(real_type, width - 1));
  tree converted = build1_loc(loc, FIX_TRUNC_EXPR, type, x);
  tree result = build3_loc(
      loc, COND_EXPR, type,
      build2_loc(loc, LT_EXPR, boolean_type_node, x, below),
      opaque_bound(loc, type, TYPE_MIN_VALUE(type)), converted);
  result = build3_loc(loc, COND_EXPR, type,
                      build2_loc(loc, GE_EXPR, boolean_type_node, x, above),
                      opaque_bound(loc, type, TYPE_MAX_VALUE(type)), result);
  return build3_loc(loc, COND_EXPR, type,
                    build2_loc(loc, UNORDERED_EXPR, boolean_type_node, x, x),
                    build_int_cst(type, 0), result);
}

/* (T)x for a char or short T, as nvcc converts it: saturated to the 32-bit
 * integer of T's signedness, then truncated to T. */
tree narrow_conversion(tree t) {
  location_t loc = EXPR_LOCATION(t);
  tree wide = TYPE_UNSIGNED(TREE_TYPE(t)) ? unsigned_type_node
                                          : integer_type_node;
  tree converted = build1_loc(loc, FIX_TRUNC_EXPR, wide, TREE_OPERAND(t, 0));
  return fold_convert_loc(loc, TREE_TYPE(t), saturated_conversion(converted));
}

/* Rewrites one node after its operands (so that a rewritten node is never
 * walked again). */
/* How many arguments of the call or constructor call `t` have side
 * effects: their order matters only where two have. An ordered call
 * evaluates each argument into a temporary first, which takes stack: with
 * every call marked, a kernel's 30000-byte parameter passed on to a child
 * launch overflowed its thread's 64 KiB stack (cc13/device_side_params.cu). */
int arguments_with_effects(tree t) {
  int n = TREE_CODE(t) == CALL_EXPR ? call_expr_nargs(t)
                                    : aggr_init_expr_nargs(t);
  int effects = 0;
  for (int i = 0; i < n; ++i) {
    tree arg = TREE_CODE(t) == CALL_EXPR ? CALL_EXPR_ARG(t, i)
                                         : AGGR_INIT_EXPR_ARG(t, i);
    effects += arg && TREE_SIDE_EFFECTS(arg);
  }
  return effects;
}

tree rewrite(tree *tp, int *walk_subtrees, void *data) {
  tree t = *tp;
  if (TYPE_P(t) || DECL_P(t) || CONSTANT_CLASS_P(t)) {
    *walk_subtrees = 0;
    return NULL_TREE;
  }
  enum tree_code code = TREE_CODE(t);
  /* A call's arguments from left to right, as nvcc's device code evaluates
   * them (g++ evaluates them from right to left on x86-64), where two of
   * them have side effects, in the user's code (the shims' own calls, such
   * as a kernel's call with copies of its parameters, do not depend on the
   * order); a call that C++ orders otherwise (an assignment operator's,
   * right operand first) keeps its order. */
  if ((code == CALL_EXPR || code == AGGR_INIT_EXPR) &&
      !CALL_EXPR_REVERSE_ARGS(t) && arguments_with_effects(t) > 1 &&
      !in_system_header_at(EXPR_LOCATION(t)))
    CALL_EXPR_ORDERED_ARGS(t) = 1;
  bool shift = (code == LSHIFT_EXPR || code == RSHIFT_EXPR) &&
               register_width(TREE_TYPE(t)) &&
               TREE_CODE(TREE_OPERAND(t, 1)) != INTEGER_CST;
  bool conversion = code == FIX_TRUNC_EXPR &&
                    (register_width(TREE_TYPE(t)) ||
                     narrow_width(TREE_TYPE(t))) &&
                    TREE_CODE(TREE_TYPE(TREE_OPERAND(t, 0))) == REAL_TYPE &&
                    (TYPE_PRECISION(TREE_TYPE(TREE_OPERAND(t, 0))) == 32 ||
                     TYPE_PRECISION(TREE_TYPE(TREE_OPERAND(t, 0))) == 64);
  if (!shift && !conversion)
    return NULL_TREE;
  hash_set<tree> *seen = static_cast<hash_set<tree> *>(data);
  for (int i = 0; i < TREE_OPERAND_LENGTH(t); ++i)
    walk_tree(&TREE_OPERAND(t, i), rewrite, data, seen);
  *tp = shift                         ? clamped_shift(t)
        : narrow_width(TREE_TYPE(t)) ? narrow_conversion(t)
                                     : saturated_conversion(t);
  *walk_subtrees = 0;
  return NULL_TREE;
}

/* PLUGIN_PRE_GENERICIZE: a function's body, before it is lowered. */
void rewrite_function(void *gcc_data, void *) {
  tree fndecl = static_cast<tree>(gcc_data);
  if (!fndecl || TREE_CODE(fndecl) != FUNCTION_DECL ||
      !DECL_SAVED_TREE(fndecl))
    return;
  hash_set<tree> seen;
  walk_tree(&DECL_SAVED_TREE(fndecl), rewrite, &seen, &seen);
  /* The C++ front end folds the body again as it lowers it, and its cache
   * of folded expressions still holds those made from the nodes replaced
   * here: without this, an enclosing expression would come back with the
   * old shift inside. */
  clear_fold_cache();
}

/* ---- Variable-length arrays in device code -------------------------------- */

/* Where the functions whose bodies are marked device code are declared:
 * a template's instances, and the lambdas in it, are declared where it
 * is, whatever their decls. */
typedef hash_set<int_hash<location_t, UNKNOWN_LOCATION, BUILTINS_LOCATION>>
    location_set;
location_set *device_functions;
/* Those of them that are kernels (`#pragma cuemu device_code global`), and
 * those that are __host__ __device__ functions (`... host`). */
location_set *kernels, *host_device_functions;

/* `#pragma cuemu device_code [global|host]`, read where the parser meets
 * it: in the body of the function being parsed (a template's pattern for a
 * template). */
void device_code_pragma(cpp_reader *) {
  tree x;
  const char *space = "";
  enum cpp_ttype token;
  while ((token = pragma_lex(&x)) != CPP_EOF)
    if (token == CPP_NAME)
      space = IDENTIFIER_POINTER(x);
  if (current_function_decl &&
      DECL_SOURCE_LOCATION(current_function_decl) > BUILTINS_LOCATION) {
    location_t where = DECL_SOURCE_LOCATION(current_function_decl);
    if (!device_functions) {
      device_functions = new location_set;
      kernels = new location_set;
      host_device_functions = new location_set;
    }
    device_functions->add(where);
    if (strcmp(space, "global") == 0)
      kernels->add(where);
    else if (strcmp(space, "host") == 0)
      host_device_functions->add(where);
  }
}

void register_pragmas(void *, void *) {
  c_register_pragma("cuemu", "device_code", device_code_pragma);
  cuemu_gcc_plugin_spaces_pragmas();
}

/* `fn` itself is marked, or the template it instantiates. */
bool marked(tree fn) {
  location_t where = DECL_SOURCE_LOCATION(fn);
  return where > BUILTINS_LOCATION && device_functions->contains(where);
}

/* `fn` is device code: marked, or inside a function that is (a lambda's
 * call operator, a local class's member). */
bool device_code(tree fn) {
  if (!device_functions)
    return false;
  for (tree f = fn; f; f = decl_function_context(f))
    if (marked(f))
      return true;
  return false;
}


/* The name of `decl` in quotes, for CUEMU_MSG_VLA. */
const char *quoted_name(tree decl) {
  static char name[256];
  snprintf(name, sizeof name, "'%s'",
           DECL_NAME(decl) ? IDENTIFIER_POINTER(DECL_NAME(decl)) : "");
  return name;
}

tree find_vla(tree *tp, int *walk_subtrees, void *) {
  tree t = *tp;
  if (TYPE_P(t)) {
    *walk_subtrees = 0;
    return NULL_TREE;
  }
  if (TREE_CODE(t) == DECL_EXPR) {
    tree decl = DECL_EXPR_DECL(t);
    /* A lambda's capture of an array is no array of its own. */
    if ((VAR_P(decl) || TREE_CODE(decl) == TYPE_DECL) &&
        !(VAR_P(decl) && is_capture_proxy(decl)) &&
        variably_modified_type_p(TREE_TYPE(decl), NULL_TREE))
      error_at(DECL_SOURCE_LOCATION(decl), CUEMU_MSG_VLA,
               quoted_name(decl));
  }
  return NULL_TREE;
}

/* PLUGIN_PRE_GENERICIZE: a function's body, before it is lowered. */
void refuse_vlas(void *gcc_data, void *) {
  tree fndecl = static_cast<tree>(gcc_data);
  if (!fndecl || TREE_CODE(fndecl) != FUNCTION_DECL ||
      !DECL_SAVED_TREE(fndecl) || !device_code(fndecl))
    return;
  walk_tree_without_duplicates(&DECL_SAVED_TREE(fndecl), find_vla, NULL);
}

} // namespace

bool cuemu_gcc_plugin_device_code(tree fn) { return device_code(fn); }

cuemu_space cuemu_gcc_plugin_space(tree fn) {
  if (!device_functions)
    return CUEMU_SPACE_HOST;
  for (tree f = fn; f; f = decl_function_context(f))
    if (marked(f)) {
      location_t where = DECL_SOURCE_LOCATION(f);
      return kernels->contains(where) ? CUEMU_SPACE_GLOBAL
             : host_device_functions->contains(where)
                 ? CUEMU_SPACE_HOST_DEVICE
                 : CUEMU_SPACE_DEVICE;
    }
  return CUEMU_SPACE_HOST;
}

bool cuemu_gcc_plugin_kernel(tree fn) {
  return device_functions && marked(fn) &&
         kernels->contains(DECL_SOURCE_LOCATION(fn));
}

int plugin_init(struct plugin_name_args *info,
                struct plugin_gcc_version *version) {
  if (!plugin_default_version_check(version, &gcc_version)) {
    error("%s was built for GCC %s, not this one (%s)", info->base_name,
          gcc_version.basever, version->basever);
    return 1;
  }
  static struct plugin_info about = {
      "0.1", "cuemu: GPU results of run-time shifts and float-to-integer "
             "conversions in device code, no variable-length arrays there, "
             "and volatile accesses in lockstep with the warp"};
  register_callback(info->base_name, PLUGIN_INFO, NULL, &about);
  register_callback(info->base_name, PLUGIN_PRE_GENERICIZE, refuse_vlas,
                    NULL);
  register_callback(info->base_name, PLUGIN_PRE_GENERICIZE, rewrite_function,
                    NULL);
  register_callback(info->base_name, PLUGIN_PRAGMAS, register_pragmas, NULL);
  /* Volatile accesses in lockstep with the warp. */
  cuemu_gcc_plugin_register_lockstep(info->base_name);
  /* No blocked-thread test in the thread loop of a kernel that cannot
   * block. */
  cuemu_gcc_plugin_register_detached(info->base_name);
  /* Checked builds see the stores of calls' results. */
  cuemu_gcc_plugin_register_call_results(info->base_name);
  /* Checked builds take a compare-and-swap loop's first guess for a
   * relaxed atomic read. */
  cuemu_gcc_plugin_register_cas_guess(info->base_name);
  /* The checkers' common case inline (cuemu-cc passes
   * -fplugin-arg-cuemu_gcc_plugin-check-inline=mem or init). */
  bool align = true, default_device = false, relaxed = false;
  for (int i = 0; i < info->argc; ++i) {
    if (strcmp(info->argv[i].key, "no-align") == 0)
      align = false;
    else if (strcmp(info->argv[i].key, "default-device") == 0)
      default_device = true;
    else if (strcmp(info->argv[i].key, "relaxed-constexpr") == 0)
      relaxed = true;
    else if (strcmp(info->argv[i].key, "drop-host-code") == 0)
      /* The device pass of a program: no host code that device code does
       * not reach (cuemu_gcc_plugin_host_code.cc). */
      cuemu_gcc_plugin_register_host_code(info->base_name);
    else if (strcmp(info->argv[i].key, "check-inline") == 0)
      cuemu_gcc_plugin_register_check(
          info->base_name, info->argv[i].value ? info->argv[i].value : "");
    else
      error("%s: unknown argument %s", info->base_name, info->argv[i].key);
  }
  /* The tsan calls of accesses without a location take their statement's
   * neighbour's. Registered after the inline check, so that it runs first
   * (each pass is inserted right after "tsan"), before that pass splits
   * the calls' blocks. */
  cuemu_gcc_plugin_register_tsan_lines(info->base_name);
  /* A call's by-value aggregate argument read from memory becomes a load
   * of its own before the instrumentation, which checks it then
   * (cuemu_gcc_plugin_call_args.cc). */
  cuemu_gcc_plugin_register_call_args(info->base_name);
  /* What nvcc refuses across execution spaces: host functions and host
   * variables in device code, kernels called without a configuration, and
   * the rest (cuemu_gcc_plugin_spaces.cc). */
  cuemu_gcc_plugin_register_spaces(info->base_name, default_device, relaxed);
  /* Kernel templates instantiated with host lambdas' closure types
   * (cuemu_gcc_plugin_closures.cc). */
  cuemu_gcc_plugin_register_closures(info->base_name);
  /* Wide accesses fault at a misaligned address, as on a GPU (-no-align
   * turns the pass off). */
  if (align)
    cuemu_gcc_plugin_register_align(info->base_name);
  return 0;
}
