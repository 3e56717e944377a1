/* cuemu_gcc_plugin_host_code.cc: the device pass of g++ compiles no host
 * code that device code does not reach.
 *
 * Each .cu file is compiled twice, as nvcc compiles it (DESIGN.md): its
 * host code comes from the host pass, and the device pass's copy of it is
 * dropped when the program is linked (the copies no one calls, with
 * --gc-sections). nvcc's device pass never generates it; g++'s did, at -O2
 * and through the plugin's passes: in a program whose host code
 * instantiates a class template for many parameters (Altis kmeans: 200
 * kernels' host classes), 71 % of the device object was host code, and
 * the device pass took 49 s of the unit's 59 (bench/RESULTS.md).
 *
 * So, before GCC's interprocedural passes (the first of which optimise
 * each function), the functions of the user's files that are host code
 * (not marked device code by the device pass, cuemu_gcc_plugin_space();
 * not made by the compiler, which makes implicit members and static
 * initialisers) and that nothing else of the unit reaches are removed:
 * everything else (device code, the code of system headers and the shims,
 * variables, and what they call or refer to) is a root, and what a root
 * reaches, through calls and references, stays, host code included (a
 * __host__ __device__ function's call of a host function). The template
 * instances that only removed functions used are then unreferenced, and
 * GCC drops them as it drops any unused inline function; a kernel or
 * device variable made visible to the host pass (explicit default
 * visibility, cuemu_rewrite.c's device_linkage: a kernel template's
 * instance that only host code launched) is kept whatever refers to it,
 * since the host pass names it. Nothing changes in what the program
 * runs: the host pass's copies are the ones it calls. */

#include "gcc-plugin.h"

#include "tree.h"
#include "cp/cp-tree.h"
#include "cgraph.h"
#include "hash-set.h"
#include "input.h"

#include "cuemu_gcc_plugin_host_code.h"
#include "cuemu_gcc_plugin_spaces.h"

namespace {

/* Visible to the host pass: a kernel's or a device variable's explicit
 * default (or protected) visibility. */
bool visible(tree decl) {
  return DECL_VISIBILITY_SPECIFIED(decl) &&
         DECL_VISIBILITY(decl) != VISIBILITY_HIDDEN &&
         DECL_VISIBILITY(decl) != VISIBILITY_INTERNAL;
}

/* A function of the user's files that is host code, and that the compiler
 * did not make. */
bool user_host_function(cgraph_node *node) {
  tree fn = node->decl;
  location_t where = DECL_SOURCE_LOCATION(fn);
  if (where <= BUILTINS_LOCATION || in_system_header_at(where) ||
      DECL_ARTIFICIAL(fn) || visible(fn) || node->force_output)
    return false;
  return cuemu_gcc_plugin_space(fn) == CUEMU_SPACE_HOST;
}

/* PLUGIN_ALL_IPA_PASSES_START. */
void drop_host_code(void *, void *) {
  hash_set<symtab_node *> reached;
  auto_vec<symtab_node *> work;
  symtab_node *s;
  FOR_EACH_SYMBOL(s) {
    cgraph_node *fn = dyn_cast<cgraph_node *>(s);
    if (fn && fn->definition && user_host_function(fn))
      continue;
    /* What the host pass names stays, even if only host code used it. */
    if (s->definition && visible(s->decl))
      s->force_output = true;
    if (!reached.add(s))
      work.safe_push(s);
  }
  while (!work.is_empty()) {
    s = work.pop();
    ipa_ref *ref = NULL;
    for (int i = 0; s->iterate_reference(i, ref); i++)
      if (!reached.add(ref->referred))
        work.safe_push(ref->referred);
    if (cgraph_node *fn = dyn_cast<cgraph_node *>(s))
      for (cgraph_edge *e = fn->callees; e; e = e->next_callee)
        if (!reached.add(e->callee))
          work.safe_push(e->callee);
  }
  auto_vec<cgraph_node *> unreached;
  cgraph_node *node;
  FOR_EACH_FUNCTION(node)
    if (!reached.contains(node))
      unreached.safe_push(node);
  for (cgraph_node *fn : unreached)
    fn->remove();
}

} // namespace

void cuemu_gcc_plugin_register_host_code(const char *plugin) {
  register_callback(plugin, PLUGIN_ALL_IPA_PASSES_START, drop_host_code,
                    NULL);
}
