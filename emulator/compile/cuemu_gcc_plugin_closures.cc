/* cuemu_gcc_plugin_closures.cc: a kernel template instantiated with the
 * closure type of a lambda that is neither an extended lambda nor defined
 * in device code, which nvcc refuses, refused by the device pass of
 * cuemu-cc with nvcc's words (docs/nvcc-checks.md, "Lambdas passed to
 * kernel templates"):
 *
 *   template <class F> __global__ void apply(F f, int *out);
 *   apply<<<1, 1>>>([c](int x) { return x + c; }, d);
 *
 * "The closure type for a lambda ("lambda [](int)->int", defined at
 * f.cu:12) cannot be used in the template argument type of a __global__
 * function template instantiation, unless the lambda is defined within a
 * __device__ or __global__ function, or the flag '-extended-lambda' is
 * specified and the lambda is an extended lambda (a __device__ or
 * __host__ __device__ lambda defined within a __host__ or __host__
 * __device__ function)". On a CPU such a program runs (the lambda's call
 * operator is host code, and host code is what the emulator runs), so
 * without this refusal it passes its tests here and fails to build with
 * nvcc.
 *
 * An extended lambda reaches a kernel wrapped in
 * cuemu::extended_lambda<KIND, CLOSURE> (cuemu_extended_lambda.h), which
 * is no closure type; a closure type nested in another template argument
 * (`Holder<lambda>`) is refused as nvcc refuses it, but inside that
 * wrapper. Only the user's kernels and lambdas are judged. nvcc reports
 * the error at the launch (the instantiation's point); the device pass
 * sees the kernel's instance, not its launch, and reports it at the
 * lambda's line. */

#include "gcc-plugin.h"

#include "tree.h"
#include "cp/cp-tree.h"
#include "diagnostic-core.h"
#include "hash-set.h"
#include "input.h"

#include "cuemu_gcc_plugin_closures.h"
#include "cuemu_gcc_plugin_spaces.h"

namespace {

/* The closure types refused once each (a lambda passed to several kernel
 * templates is reported once). */
hash_set<tree> *reported;

bool foreign(location_t where) {
  return where <= BUILTINS_LOCATION || in_system_header_at(where);
}

/* Whether `type` is cuemu's wrapper of an extended lambda,
 * cuemu::extended_lambda<KIND, CLOSURE>. */
bool extended_lambda_wrapper(tree type) {
  if (!CLASS_TYPE_P(type) || !TYPE_IDENTIFIER(type) ||
      strcmp(IDENTIFIER_POINTER(TYPE_IDENTIFIER(type)), "extended_lambda"))
    return false;
  tree scope = CP_TYPE_CONTEXT(type);
  return scope && TREE_CODE(scope) == NAMESPACE_DECL && DECL_NAME(scope) &&
         strcmp(IDENTIFIER_POINTER(DECL_NAME(scope)), "cuemu") == 0;
}

/* The lambda as nvcc names it in its message: "lambda [](int)->int". */
const char *lambda_name(tree closure) {
  static char name[512];
  tree op = lambda_function(closure);
  if (!op) {
    snprintf(name, sizeof name, "lambda []");
    return name;
  }
  op = STRIP_TEMPLATE(op);
  size_t n = snprintf(name, sizeof name, "lambda [](");
  const char *comma = "";
  for (tree p = FUNCTION_FIRST_USER_PARMTYPE(op); p && p != void_list_node;
       p = TREE_CHAIN(p)) {
    n += snprintf(name + n, n < sizeof name ? sizeof name - n : 0, "%s%s",
                  comma, type_as_string(TREE_VALUE(p), 0));
    comma = ", ";
  }
  if (n < sizeof name)
    snprintf(name + n, sizeof name - n, ")->%s",
             type_as_string(TREE_TYPE(TREE_TYPE(op)), 0));
  return name;
}

/* Refuses the closure type `closure` unless its lambda is device code
 * (defined in a __device__ or __global__ function). */
void judge_closure(tree closure) {
  location_t where = DECL_SOURCE_LOCATION(TYPE_NAME(closure));
  if (foreign(where) || reported->contains(closure))
    return;
  /* The function around the lambda decides, past the lambdas that hold
   * it: nvcc refuses a plain lambda defined in an extended __device__
   * lambda of host code, whose body the device pass marks as device
   * code, and accepts one defined in a plain lambda of a kernel. */
  tree op = lambda_function(closure);
  tree around = op ? decl_function_context(STRIP_TEMPLATE(op)) : NULL_TREE;
  while (around && LAMBDA_FUNCTION_P(around))
    around = decl_function_context(around);
  cuemu_space space =
      around ? cuemu_gcc_plugin_space(around) : CUEMU_SPACE_HOST;
  if (space == CUEMU_SPACE_DEVICE || space == CUEMU_SPACE_GLOBAL)
    return;
  reported->add(closure);
  expanded_location at = expand_location(where);
  error_at(where, CUEMU_MSG_HOST_CLOSURE, lambda_name(closure),
           lbasename(at.file), at.line);
}

void judge_arguments(tree args);

/* A template argument: a closure type, or a class template's instance
 * whose own arguments are judged in turn. */
void judge_argument(tree arg) {
  if (!arg || !TYPE_P(arg))
    return;
  while (TREE_CODE(arg) == POINTER_TYPE || TREE_CODE(arg) == REFERENCE_TYPE ||
         TREE_CODE(arg) == ARRAY_TYPE)
    arg = TREE_TYPE(arg);
  if (!CLASS_TYPE_P(arg) || extended_lambda_wrapper(arg))
    return;
  if (LAMBDA_TYPE_P(arg)) {
    judge_closure(arg);
    return;
  }
  if (CLASSTYPE_TEMPLATE_INFO(arg))
    judge_arguments(INNERMOST_TEMPLATE_ARGS(CLASSTYPE_TI_ARGS(arg)));
}

void judge_arguments(tree args) {
  if (!args || TREE_CODE(args) != TREE_VEC)
    return;
  for (int i = 0; i < TREE_VEC_LENGTH(args); ++i) {
    tree arg = TREE_VEC_ELT(args, i);
    if (arg && ARGUMENT_PACK_P(arg))
      judge_arguments(ARGUMENT_PACK_ARGS(arg));
    else
      judge_argument(arg);
  }
}

/* PLUGIN_PRE_GENERICIZE: a kernel template's instance of the user's code. */
void judge_kernel(void *gcc_data, void *) {
  tree fn = static_cast<tree>(gcc_data);
  if (!fn || TREE_CODE(fn) != FUNCTION_DECL || !DECL_LANG_SPECIFIC(fn) ||
      !DECL_TEMPLATE_INFO(fn) || !DECL_TEMPLATE_INSTANTIATION(fn) ||
      foreign(DECL_SOURCE_LOCATION(fn)) || !cuemu_gcc_plugin_kernel(fn))
    return;
  judge_arguments(INNERMOST_TEMPLATE_ARGS(DECL_TI_ARGS(fn)));
}

} // namespace

void cuemu_gcc_plugin_register_closures(const char *plugin) {
  reported = new hash_set<tree>;
  register_callback(plugin, PLUGIN_PRE_GENERICIZE, judge_kernel, NULL);
}
