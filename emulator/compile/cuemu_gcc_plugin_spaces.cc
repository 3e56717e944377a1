/* cuemu_gcc_plugin_spaces.cc: what nvcc refuses across CUDA's execution
 * spaces, which only the compiler can see, refused by the device pass of
 * cuemu-cc with nvcc's words at the user's line (docs/nvcc-checks.md,
 * "Twenty-two easy mistakes in device code"):
 *
 * - a call of a host function from a __global__ or __device__ function:
 *   "calling a __host__ function("f(int)") from a __global__
 *   function("k") is not allowed" (functions, templates' instances, member
 *   functions, operators, constructors and destructors alike), and of a
 *   constexpr host function without --expt-relaxed-constexpr: "calling a
 *   constexpr __host__ function("f") from a __global__ function("k") is
 *   not allowed. The experimental flag '--expt-relaxed-constexpr' can be
 *   used to allow this.";
 * - a call of a kernel without a configuration, from host or device code:
 *   "a __global__ function call must be configured";
 * - a host variable odr-used in a __global__ or __device__ function:
 *   "identifier "v" is undefined in device code" (a constant read by
 *   value, or an element of a class's constexpr static array at a
 *   constant index, is accepted as nvcc accepts it; an element of a
 *   namespace's constexpr array only in a constant expression), a
 *   constant too where a reference is bound to it (`const int &r =
 *   Table::s;`, `f(Table::s)` of a `const int &` parameter, but in a call
 *   that nvcc folds: cuemu_space_folded_call());
 * - a __device__ or __constant__ variable that needs dynamic
 *   initialization (a constructor that is not empty, a call):
 *   "dynamic initialization is not supported for a __device__ variable";
 * - an assignment to a __constant__ variable in device code: "expression
 *   must be a modifiable lvalue";
 * - a __shared__ variable in a host function's body: "a static
 *   "__shared__" variable declaration is not allowed inside a host
 *   function body".
 *
 * What is device code comes from the device pass's marks
 * (cuemu_device_code.c, cuemu_space_notes.c): `#pragma cuemu device_code
 * [global|host]` at the start of each body of a kernel, __device__ or
 * __host__ __device__ function of the user's files, `#pragma cuemu
 * device_variable [constant] v` after each declaration of a __device__,
 * __constant__ or __managed__ variable, `#pragma cuemu shared` after each
 * __shared__ declaration in a function's body. Only the user's files are
 * judged: a function or variable of a system header (the shims, CUB) is
 * taken to be what its code says, except the C++ library's functions,
 * host ones (library_host_function()), the C library's that CUDA does not
 * declare for device code (libc_host_function(): strcmp, atoi, rand, named
 * bare as nvcc names them), and a function that this unit
 * only declares (defined in another unit, with -rdc) is accepted. A
 * __host__ __device__ function's calls are not judged (nvcc's warning
 * #20011-D, only where its device code is emitted), nor are implicit and
 * defaulted members (implicitly __host__ __device__).
 *
 * - a virtual function that overrides one of another execution space:
 *   "execution space mismatch: overridden entity (function "Base::f") is
 *   a __host__ __device__ function, but overriding entity (function
 *   "Derived::f") is a __device__ function". Both must have a body in the
 *   unit (only bodies are marked): an override of a pure virtual function,
 *   or of one defined in another unit, is not judged.
 *
 * cuemu's clang plugin (cuemu_clang_plugin_spaces.cc) refuses the same in
 * clang++'s device pass; nvcc's words and the C++ library's lists are
 * shared (cuemu_space_rules.h). */

#include "gcc-plugin.h"

#include "tree.h"
#include "cp/cp-tree.h"
#include "cp/name-lookup.h"
#include "diagnostic-core.h"
#include "hash-set.h"
#include "input.h"
#include "langhooks.h"
#include "c-family/c-pragma.h"

#include "cuemu_gcc_plugin_spaces.h"

namespace {

/* The variables that the device pass marks as __device__, __constant__
 * or __managed__; those of them that are __constant__. */
hash_set<tree> *device_variables, *constant_variables;
/* The constructors whose bodies do nothing (nvcc's "empty constructor",
 * allowed for a __device__ variable), and the functions that have a body
 * in this unit. */
hash_set<tree> *empty_constructors, *defined;

/* A call to judge at the end of the unit, when every body has been seen
 * and marked. */
struct pending_call {
  tree caller, callee;
  location_t where;
  cuemu_space space; /* the caller's */
};
vec<pending_call> pending;
/* The virtual functions of the user's code that have a body, to judge
 * against the functions they override at the end of the unit. */
vec<tree> virtuals;

/* Not the user's code: a built-in place, or a system header. */
bool foreign(location_t where) {
  return where <= BUILTINS_LOCATION || in_system_header_at(where);
}

/* Whether `fn` is a host function of the C++ library (libstdc++'s
 * headers), which nvcc takes for a host function in device code: in
 * namespace std or a class of it, not a math function (<cmath>,
 * <cstdlib>: the CUDA headers give their overloads for device code), nor
 * std::move or std::forward, which nvcc lets device code call. */
bool library_host_function(tree fn) {
  location_t where = DECL_SOURCE_LOCATION(fn);
  if (where <= BUILTINS_LOCATION)
    return false;
  bool in_std = false;
  for (tree ns = decl_namespace_context(fn); ns && ns != global_namespace;
       ns = CP_DECL_CONTEXT(ns))
    if (ns == std_node)
      in_std = true;
  const char *name = DECL_NAME(fn) ? IDENTIFIER_POINTER(DECL_NAME(fn)) : "";
  return in_std && cuemu_space_library_host(LOCATION_FILE(where), name,
                                            DECL_NAMESPACE_SCOPE_P(fn));
}

/* Whether `fn` is a host function of the C library (strcmp, atoi, rand,
 * fopen): of the global namespace, declared in the system's C headers,
 * and not one that CUDA declares for device code too
 * (cuemu_space_libc_host()). Most are GCC's built-ins too (strlen,
 * strcmp), declared again by the header. */
bool libc_host_function(tree fn) {
  location_t where = DECL_SOURCE_LOCATION(fn);
  if (where <= BUILTINS_LOCATION || !DECL_NAME(fn) ||
      CP_DECL_CONTEXT(fn) != global_namespace)
    return false;
  return cuemu_space_libc_host(LOCATION_FILE(where),
                               IDENTIFIER_POINTER(DECL_NAME(fn)),
                               DECL_EXTERN_C_P(fn));
}

/* --expt-relaxed-constexpr (the plugin's argument relaxed-constexpr,
 * which cuemu-cc passes where cuemu-nvcc or NVRTC define
 * __CUDACC_RELAXED_CONSTEXPR__): device code may call constexpr host
 * functions. */
bool relaxed_constexpr;

/* The name of a function as nvcc writes it in its message for a constexpr
 * one: no scope, no template arguments ("min", "operator[]", "pair"). */
const char *bare_name(tree decl) {
  static char name[256];
  snprintf(name, sizeof name, "%s",
           lang_hooks.decl_printable_name(decl, 0));
  char *angle = strchr(name, '<');
  if (angle && strncmp(name, "operator", 8) != 0)
    *angle = 0;
  return name;
}

/* The name of `decl` as nvcc writes it in its messages. */
const char *full_name(tree decl) {
  return decl_as_string(decl, TFF_SCOPE);
}
const char *short_name(tree decl) {
  return lang_hooks.decl_printable_name(decl, 0);
}

/* The declaration that the device pass marks for `v`: a variable
 * template's or a class template's static member's pattern for their
 * instances (`vt<int>`, `S<int>::n`), `v` itself otherwise. */
tree marked_variable(tree v) {
  while (DECL_LANG_SPECIFIC(v) && DECL_TEMPLATE_INFO(v)) {
    tree t = DECL_TI_TEMPLATE(v);
    if (TREE_CODE(t) == TEMPLATE_DECL)
      t = DECL_TEMPLATE_RESULT(t);
    if (!t || !VAR_P(t) || t == v)
      break;
    v = t;
  }
  return v;
}

/* A variable of the user's code, of static storage at namespace or class
 * scope, that the device pass did not mark: host memory (a template's
 * instance is marked where its template is). */
bool host_variable(tree v) {
  if (!VAR_P(v) || DECL_ARTIFICIAL(v) || DECL_THREAD_LOCAL_P(v) ||
      (!TREE_STATIC(v) && !DECL_EXTERNAL(v)) || DECL_FUNCTION_SCOPE_P(v) ||
      foreign(DECL_SOURCE_LOCATION(v)))
    return false;
  if (device_variables && (device_variables->contains(v) ||
                           device_variables->contains(marked_variable(v))))
    return false;
  const char *name = DECL_NAME(v) ? IDENTIFIER_POINTER(DECL_NAME(v)) : "";
  return !cuemu_space_own_variable(name);
}

/* A variable whose value is a constant, which device code may read by
 * value (nvcc accepts const and constexpr variables so). */
bool constant_variable(tree v) {
  return decl_constant_var_p(v) ||
         (TREE_READONLY(v) && !TREE_THIS_VOLATILE(v) && DECL_INITIAL(v));
}

/* The variable under the component and element references of `t`, and
 * whether each element's index is a constant. */
tree base_variable(tree t, bool *constant_index) {
  *constant_index = true;
  for (;;) {
    if (TREE_CODE(t) == ARRAY_REF || TREE_CODE(t) == ARRAY_RANGE_REF) {
      if (TREE_CODE(tree_strip_any_location_wrapper(TREE_OPERAND(t, 1))) !=
          INTEGER_CST)
        *constant_index = false;
      t = TREE_OPERAND(t, 0);
    } else if (TREE_CODE(t) == COMPONENT_REF || TREE_CODE(t) == REALPART_EXPR ||
               TREE_CODE(t) == IMAGPART_EXPR ||
               TREE_CODE(t) == VIEW_CONVERT_EXPR || TREE_CODE(t) == NOP_EXPR)
      t = TREE_OPERAND(t, 0);
    else
      return t;
  }
}

/* Whether `t`, an indirection read by value, is a constant of scalar type
 * (a number, a function's address) as a whole: nvcc folds such a read
 * (`*&Table::v[1]`, `*(&Table::v[1] + 1)`, `(&Table::s)[0]`, `(*&Ops::v[1])`
 * of a class's constexpr array of device function pointers) and uses no
 * host variable, as it does for `Table::v[1]`. */
bool folded_constant(tree t) {
  tree type = TREE_TYPE(t);
  if (!type || !SCALAR_TYPE_P(type))
    return false;
  tree v = tree_strip_any_location_wrapper(maybe_constant_value(t));
  if (v == t)
    return false;
  return CONSTANT_CLASS_P(v) || TREE_CODE(v) == PTRMEM_CST ||
         (TREE_CODE(v) == ADDR_EXPR &&
          TREE_CODE(TREE_OPERAND(v, 0)) == FUNCTION_DECL);
}

/* Whether `fn` is the lambda by which cuemu-cc launches a kernel template
 * with deduced arguments (`[&](auto &&...cuemu_arg_) { k(cuemu_arg_...);
 * }`, cuemu_launch_rewrite.c), whose call of the kernel is the launch. */
bool launching_lambda(tree fn) {
  if (!LAMBDA_FUNCTION_P(fn))
    return false;
  for (tree p = DECL_ARGUMENTS(fn); p; p = DECL_CHAIN(p))
    if (DECL_NAME(p) &&
        strncmp(IDENTIFIER_POINTER(DECL_NAME(p)), "cuemu_arg_", 10) == 0)
      return true;
  return false;
}

/* The walk of one body. */
struct body_walk {
  tree fn;
  cuemu_space space;
  location_t last;         /* of the expression walked last */
  hash_set<tree> reported; /* the host variables refused once */
  tree addressed;          /* the indirection whose address is taken */
};

void refuse_variable(body_walk *w, tree v, location_t where) {
  if (w->reported.add(v))
    return;
  error_at(where, CUEMU_MSG_HOST_VARIABLE, full_name(v));
}

tree judge(tree *tp, int *walk_subtrees, void *data) {
  body_walk *w = static_cast<body_walk *>(data);
  tree t = *tp;
  if (TYPE_P(t)) {
    *walk_subtrees = 0;
    return NULL_TREE;
  }
  if (EXPR_P(t) && EXPR_HAS_LOCATION(t))
    w->last = EXPR_LOCATION(t);
  location_t where = w->last;
  bool device = w->space == CUEMU_SPACE_DEVICE || w->space == CUEMU_SPACE_GLOBAL;
  bool constant_index;
  switch (TREE_CODE(t)) {
  case SIZEOF_EXPR:
  case ALIGNOF_EXPR:
  case NOEXCEPT_EXPR:
    /* An unevaluated operand uses nothing (`sizeof a[i]`). */
    *walk_subtrees = 0;
    break;
  case CALL_EXPR:
  case AGGR_INIT_EXPR: {
    tree callee = cp_get_callee_fndecl_nofold(t);
    if (callee && TREE_CODE(callee) == FUNCTION_DECL &&
        ((device && libc_host_function(callee) &&
          !cuemu_space_libc_folded(
              IDENTIFIER_POINTER(DECL_NAME(callee)),
              CONSTANT_CLASS_P(tree_strip_any_location_wrapper(
                  fold(maybe_constant_value(t)))))) ||
         (!fndecl_built_in_p(callee) &&
          (!foreign(DECL_SOURCE_LOCATION(callee)) ||
           (device && library_host_function(callee))))))
      pending.safe_push({w->fn, callee, where, w->space});
    /* A call that nvcc folds binds no variable to its reference
     * parameters (`std::min(Table::s, 3)`, which g++ may have folded
     * already, `f(Table::s)` of a `constexpr int f(const int &)`): its
     * arguments, constants, are not judged. */
    if (device && callee && TREE_CODE(callee) == FUNCTION_DECL &&
        cuemu_space_folded_call(
            DECL_DECLARED_CONSTEXPR_P(callee),
            CONSTANT_CLASS_P(tree_strip_any_location_wrapper(
                maybe_constant_value(t)))))
      *walk_subtrees = 0;
    break;
  }
  case ADDR_EXPR: {
    tree v = base_variable(TREE_OPERAND(t, 0), &constant_index);
    if (device && host_variable(v))
      refuse_variable(w, v, where);
    /* An address of an indirection (`&*&Table::v[1]`, a reference bound to
     * it) is no read by value: its variable is judged beneath. */
    if (TREE_CODE(v) == INDIRECT_REF)
      w->addressed = v;
    break;
  }
  case INDIRECT_REF:
    /* A read by value that is a constant as a whole uses no variable. */
    if (device && t != w->addressed && folded_constant(t))
      *walk_subtrees = 0;
    break;
  case ARRAY_REF:
  case ARRAY_RANGE_REF: {
    tree v = base_variable(t, &constant_index);
    /* An element at a constant index of a class's constexpr static array
     * is a constant; of a const one, or of a constexpr array at
     * namespace scope, nvcc 13.0 refuses it (with or without
     * --expt-relaxed-constexpr), but in a constant expression (a
     * constexpr variable's initializer, an array bound, a template
     * argument), which g++ has folded before this walk. */
    if (device && host_variable(v) &&
        !(constant_index && DECL_DECLARED_CONSTEXPR_P(v) &&
          DECL_CLASS_SCOPE_P(v)))
      refuse_variable(w, v, where);
    break;
  }
  case VAR_DECL:
    if (device && host_variable(t) && !constant_variable(t))
      refuse_variable(w, t, where);
    break;
  case MODIFY_EXPR:
  case PREINCREMENT_EXPR:
  case PREDECREMENT_EXPR:
  case POSTINCREMENT_EXPR:
  case POSTDECREMENT_EXPR:
  {
    /* The variable itself (under g++'s location wrapper), not an element
     * or member, which nvcc lets through to ptxas's warning. */
    tree target = tree_strip_any_location_wrapper(TREE_OPERAND(t, 0));
    if (w->space != CUEMU_SPACE_HOST && VAR_P(target) &&
        constant_variables->contains(target))
      error_at(where, CUEMU_MSG_CONSTANT_STORE);
    break;
  }
  default:
    break;
  }
  return NULL_TREE;
}

/* The constructor (its abstract form) that a clone is made of. */
tree abstract(tree fn) {
  return DECL_CLONED_FUNCTION_P(fn) ? DECL_CLONED_FUNCTION(fn) : fn;
}

/* Whether a call (CALL_EXPR or AGGR_INIT_EXPR) calls an empty
 * constructor. */
bool empty_constructor_call(tree call) {
  tree fn = cp_get_callee_fndecl_nofold(call);
  return fn && TREE_CODE(fn) == FUNCTION_DECL && DECL_CONSTRUCTOR_P(fn) &&
         empty_constructors->contains(abstract(fn));
}

/* Whether default construction of an object of `type`, or of an array of
 * them, calls no constructor or only an empty one. */
bool empty_default_construction(tree type) {
  type = strip_array_types(type);
  if (!CLASS_TYPE_P(type) || !TYPE_HAS_COMPLEX_DFLT(type))
    return true;
  tree ctor = get_default_ctor(type);
  return ctor && TREE_CODE(ctor) == FUNCTION_DECL &&
         empty_constructors->contains(abstract(ctor));
}

/* Whether a constructor's body does nothing: no store, and no call but of
 * empty constructors (nvcc's rule: the default constructors of its bases
 * and of its members of class type, or arrays of them, are empty; the
 * implicit constructor of a class of vec3 members is empty). A member
 * array is default-constructed by an initialization from a VEC_INIT_EXPR
 * that names no constructor: its element type's is judged. */
tree any_work(tree *tp, int *walk_subtrees, void *) {
  if (TYPE_P(*tp)) {
    *walk_subtrees = 0;
    return NULL_TREE;
  }
  switch (TREE_CODE(*tp)) {
  case MODIFY_EXPR:
    /* g++'s clobber of the object at the start (-flifetime-dse) is no
     * store. */
    return TREE_CLOBBER_P(TREE_OPERAND(*tp, 1)) ? NULL_TREE : *tp;
  case CALL_EXPR:
  case AGGR_INIT_EXPR:
    return empty_constructor_call(*tp) ? NULL_TREE : *tp;
  case INIT_EXPR: {
    tree from = TREE_OPERAND(*tp, 1);
    if (TREE_CODE(from) == VEC_INIT_EXPR &&
        (!VEC_INIT_EXPR_INIT(from) || VEC_INIT_EXPR_VALUE_INIT(from)) &&
        empty_default_construction(TREE_TYPE(from))) {
      *walk_subtrees = 0;
      return NULL_TREE;
    }
    return *tp;
  }
  case TARGET_EXPR:
    return *tp;
  default:
    return NULL_TREE;
  }
}

/* PLUGIN_PRE_GENERICIZE: the calls, variables and stores of a body of the
 * user's code. */
/* NVRTC's -default-device (--device-as-default-execution-space), which
 * cuemu-cc passes on as the plugin's argument default-device: functions
 * and variables without an execution space are device ones, so bodies are
 * not judged for host calls and host variables. */
bool default_device;

void judge_body(void *gcc_data, void *) {
  tree fn = static_cast<tree>(gcc_data);
  if (!fn || TREE_CODE(fn) != FUNCTION_DECL || !DECL_SAVED_TREE(fn))
    return;
  defined->add(fn);
  /* A constructor's or destructor's clones (complete, base object) have
   * their abstract form's body. */
  if (DECL_CLONED_FUNCTION_P(fn))
    return;
  if (DECL_CONSTRUCTOR_P(fn) &&
      !walk_tree_without_duplicates(&DECL_SAVED_TREE(fn), any_work, NULL))
    empty_constructors->add(fn);
  if (foreign(DECL_SOURCE_LOCATION(fn)))
    return;
  if (launching_lambda(fn) || default_device)
    return;
  if (DECL_VIRTUAL_P(fn) && !DECL_ARTIFICIAL(fn))
    virtuals.safe_push(fn);
  body_walk w = {fn, cuemu_gcc_plugin_space(fn), DECL_SOURCE_LOCATION(fn),
                 hash_set<tree>(), NULL_TREE};
  walk_tree_without_duplicates(&DECL_SAVED_TREE(fn), judge, &w);
}

/* The name of a virtual function as nvcc writes it in its message of an
 * execution space mismatch: its class, no parameters ("Base::f"); a class
 * template's instance with its arguments ("TB<int>::v", where nvcc writes
 * "TB<T>::v [with T=int]"). */
const char *override_name(tree fn) {
  static char name[512];
  snprintf(name, sizeof name, "%s::%s",
           type_as_string(DECL_CONTEXT(fn), 0), short_name(fn));
  return name;
}

/* Judges the virtual function `fn` against the functions it overrides in
 * the bases of `binfo`, nearest first: the first one found in a base is
 * judged, and that base's own bases are left to it. Returns whether one
 * was refused. */
bool judge_override(tree fn, tree binfo) {
  tree base;
  for (int i = 0; BINFO_BASE_ITERATE(binfo, i, base); ++i) {
    tree over = look_for_overrides_here(BINFO_TYPE(base), fn);
    if (!over) {
      if (judge_override(fn, base))
        return true;
      continue;
    }
    if (foreign(DECL_SOURCE_LOCATION(over)) || DECL_ARTIFICIAL(over) ||
        (DECL_LANG_SPECIFIC(over) && DECL_DEFAULTED_FN(over)) ||
        !(defined->contains(over) || defined->contains(abstract(over))))
      continue;
    cuemu_space mine = cuemu_gcc_plugin_space(fn);
    cuemu_space theirs = cuemu_gcc_plugin_space(over);
    if (mine == theirs)
      continue;
    char *theirs_name = xstrdup(override_name(over));
    error_at(DECL_SOURCE_LOCATION(fn), CUEMU_MSG_OVERRIDE, theirs_name,
             cuemu_space_name(theirs), override_name(fn),
             cuemu_space_name(mine));
    free(theirs_name);
    return true;
  }
  return false;
}

/* PLUGIN_FINISH_UNIT: the calls, now that every body is marked, and the
 * overrides of virtual functions. */
void judge_calls(void *, void *) {
  for (tree fn : virtuals) {
    tree type = DECL_CONTEXT(fn);
    if (type && CLASS_TYPE_P(type) && TYPE_BINFO(type))
      judge_override(fn, TYPE_BINFO(type));
  }
  virtuals.release();
  for (const pending_call &c : pending) {
    tree callee = c.callee;
    if (cuemu_gcc_plugin_kernel(callee)) {
      error_at(c.where, CUEMU_MSG_UNCONFIGURED);
      continue;
    }
    if (!cuemu_space_device_only(c.space))
      continue;
    /* A function of the C++ library is a host one whether this unit
     * defines it or not (std::sort's instance may come later). */
    bool library = foreign(DECL_SOURCE_LOCATION(callee));
    if (DECL_ARTIFICIAL(callee) ||
        (DECL_LANG_SPECIFIC(callee) && DECL_DEFAULTED_FN(callee)) ||
        cuemu_gcc_plugin_space(callee) != CUEMU_SPACE_HOST ||
        !(library || defined->contains(callee) ||
          defined->contains(abstract(callee))))
      continue;
    tree named = abstract(callee);
    const char *caller_space = cuemu_space_name(c.space);
    if (DECL_DECLARED_CONSTEXPR_P(callee)) {
      if (!relaxed_constexpr)
        error_at(c.where, CUEMU_MSG_CONSTEXPR_CALL,
                 cuemu_space_nvcc_name(bare_name(named)),
                 caller_space, short_name(c.caller));
      continue;
    }
    /* nvcc names a function of the C library bare ("strcmp"). */
    error_at(c.where, CUEMU_MSG_HOST_CALL,
             libc_host_function(named) ? short_name(named)
                                       : decl_as_string(named, TFF_SCOPE),
             caller_space, short_name(c.caller));
  }
  pending.release();
}

/* Whether the initializer `init` of a __device__ variable is dynamic: a
 * call of anything but an empty constructor, or (with no call) a value
 * that g++ computes at run time. */
tree not_empty_construction(tree *tp, int *walk_subtrees, void *) {
  if (TYPE_P(*tp)) {
    *walk_subtrees = 0;
    return NULL_TREE;
  }
  if (TREE_CODE(*tp) != CALL_EXPR && TREE_CODE(*tp) != AGGR_INIT_EXPR)
    return NULL_TREE;
  return empty_constructor_call(*tp) ? NULL_TREE : *tp;
}

tree any_call(tree *tp, int *walk_subtrees, void *) {
  if (TYPE_P(*tp))
    *walk_subtrees = 0;
  return TREE_CODE(*tp) == CALL_EXPR || TREE_CODE(*tp) == AGGR_INIT_EXPR
             ? *tp
             : NULL_TREE;
}

void refuse_dynamic_initialization(tree v, bool constant) {
  /* The CUDA headers' types (__half, __nv_bfloat16, ...), whose
   * constructors nvcc compiles as trivial, are not judged. */
  tree type = strip_array_types(TREE_TYPE(v));
  if (CLASS_TYPE_P(type) && TYPE_NAME(type) &&
      foreign(DECL_SOURCE_LOCATION(TYPE_NAME(type))))
    return;
  for (tree t = static_aggregates; t; t = TREE_CHAIN(t)) {
    if (TREE_VALUE(t) != v)
      continue;
    tree init = TREE_PURPOSE(t);
    if (init && walk_tree_without_duplicates(&init, any_call, NULL) &&
        !walk_tree_without_duplicates(&init, not_empty_construction, NULL))
      return; /* empty constructors only */
    error_at(DECL_SOURCE_LOCATION(v), CUEMU_MSG_DYNAMIC_INIT,
             constant ? "__constant__" : "__device__");
    return;
  }
}

/* The variable of namespace or class scope whose declaration g++
 * finished last, since the last `#pragma cuemu device_variable`. */
tree last_variable;

/* PLUGIN_FINISH_DECL. */
void note_variable(void *gcc_data, void *) {
  tree decl = static_cast<tree>(gcc_data);
  if (decl && VAR_P(decl) && !DECL_FUNCTION_SCOPE_P(decl))
    last_variable = decl;
}

/* `#pragma cuemu device_variable [constant] v`, after the declaration of
 * v, in its scope. */
void device_variable_pragma(cpp_reader *) {
  tree x;
  bool constant = false;
  enum cpp_ttype token;
  tree last = last_variable;
  last_variable = NULL_TREE;
  while ((token = pragma_lex(&x)) != CPP_EOF) {
    if (token != CPP_NAME)
      continue;
    if (strcmp(IDENTIFIER_POINTER(x), "constant") == 0 && !constant) {
      constant = true;
      continue;
    }
    tree v = lookup_name(x);
    /* A name that names nothing is a declarator the device pass misread
     * (its variable is the one just declared); a function's name is a
     * prototype's. A variable template is marked by its pattern, which
     * its instances name (marked_variable()). */
    if (!v && last)
      v = last;
    if (v && TREE_CODE(v) == TEMPLATE_DECL && DECL_TEMPLATE_RESULT(v) &&
        VAR_P(DECL_TEMPLATE_RESULT(v))) {
      device_variables->add(DECL_TEMPLATE_RESULT(v));
      if (constant)
        constant_variables->add(DECL_TEMPLATE_RESULT(v));
      continue;
    }
    if (!v || !VAR_P(v))
      continue;
    device_variables->add(v);
    if (constant)
      constant_variables->add(v);
    if (!DECL_EXTERNAL(v))
      refuse_dynamic_initialization(v, constant);
  }
}

/* `#pragma cuemu shared`, after a __shared__ declaration in a body. */
void shared_pragma(cpp_reader *) {
  tree x;
  location_t where = input_location;
  while (pragma_lex(&x) != CPP_EOF)
    ;
  if (current_function_decl && !foreign(where) &&
      cuemu_gcc_plugin_space(current_function_decl) == CUEMU_SPACE_HOST)
    error_at(where, CUEMU_MSG_HOST_SHARED);
}

} // namespace

void cuemu_gcc_plugin_spaces_pragmas() {
  c_register_pragma("cuemu", "device_variable", device_variable_pragma);
  c_register_pragma("cuemu", "shared", shared_pragma);
}

void cuemu_gcc_plugin_register_spaces(const char *plugin,
                                       bool unannotated_device,
                                       bool relaxed) {
  default_device = unannotated_device;
  relaxed_constexpr = relaxed;
  device_variables = new hash_set<tree>;
  constant_variables = new hash_set<tree>;
  empty_constructors = new hash_set<tree>;
  defined = new hash_set<tree>;
  register_callback(plugin, PLUGIN_PRE_GENERICIZE, judge_body, NULL);
  register_callback(plugin, PLUGIN_FINISH_DECL, note_variable, NULL);
  register_callback(plugin, PLUGIN_FINISH_UNIT, judge_calls, NULL);
}
