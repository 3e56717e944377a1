/* cuemu_llvm_plugin_host_code.cc: the device pass of clang++ compiles no
 * host code that device code does not reach, as the device pass of g++
 * does not (cuemu_gcc_plugin_host_code.cc, whose comment says why: the
 * host pass's copy of the host code is the program's, and the device
 * pass's took most of its time in a host-heavy unit).
 *
 * At the start of the optimisation pipeline (before the plugin's rewrites,
 * the inliner and any optimisation, at -O0 too), the functions that cuemu's
 * clang plugin recorded as host functions of the user's files
 * (cuemu_plugin_host_code.h, cuemu_clang_plugin_host_code.cc) and that
 * nothing else of the module reaches are removed. The roots are as for
 * g++: device code, the functions of system headers and the shims, those
 * that the compiler made (static initialisers, implicit members), and the
 * variables (vtables, llvm.global_ctors, llvm.used); what a root reaches,
 * through calls and any reference, stays, host code included; the members
 * of a COMDAT group stay or go together. A function that may be discarded
 * when unused (an inline function, a template's instance, a static one)
 * is no root, but stays only where something reaches it: GCC drops those
 * that only removed functions used after the plugin's step, where LLVM
 * would drop them only in its later passes and not at -O0. A definition
 * that the host pass names (visible: not hidden in this unit, which is
 * compiled with -fvisibility=hidden; a function of the user's files, or a
 * variable) is kept whatever refers to it (llvm.compiler.used), as the
 * g++ step forces it out.
 *
 * Without the clang plugin's record (CUEMU_DEVICE_HOST_CODE=1, a module,
 * or no clang plugin) nothing changes. */

/* libtool compiles a module with -DPIC (cuemu_llvm_plugin.cc). */
#undef PIC

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include "cuemu_llvm_plugin.h"
#include "cuemu_plugin_host_code.h"

using namespace llvm;

namespace {

/* The walk from the roots: what is reached, and what is still to see. */
struct reach {
  SmallPtrSet<const GlobalValue *, 32> reached;
  SmallPtrSet<const Constant *, 32> seen_constants;
  SmallVector<const GlobalValue *, 256> work;
  DenseMap<const Comdat *, SmallVector<const GlobalValue *, 2>> groups;

  void global(const GlobalValue *g) {
    if (!reached.insert(g).second)
      return;
    work.push_back(g);
    if (const Comdat *c = g->getComdat())
      for (const GlobalValue *member : groups[c])
        global(member);
  }
  /* The globals that `v` (an operand) refers to. */
  void value(const Value *v) {
    if (const GlobalValue *g = dyn_cast<GlobalValue>(v))
      global(g);
    else if (const Constant *c = dyn_cast<Constant>(v))
      if (seen_constants.insert(c).second)
        for (const Use &u : c->operands())
          value(u.get());
  }
  void run() {
    while (!work.empty()) {
      const GlobalValue *g = work.pop_back_val();
      /* A variable's initialiser, an alias's aliasee, a function's
       * personality routine, prefix or prologue. */
      for (const Use &u : g->operands())
        value(u.get());
      if (const Function *f = dyn_cast<Function>(g))
        for (const BasicBlock &block : *f)
          for (const Instruction &inst : block)
            for (const Use &u : inst.operands())
              if (isa<Constant>(u.get()))
                value(u.get());
    }
  }
};

} // namespace

bool cuemu_llvm_plugin_host_code(Module &m) {
  cuemu_host_code_lookup kind = reinterpret_cast<cuemu_host_code_lookup>(
      sys::DynamicLibrary::SearchForAddressOfSymbol(CUEMU_HOST_CODE_LOOKUP));
  if (!kind || kind("") == CUEMU_HOST_CODE_OFF)
    return false;
  reach r;
  for (GlobalValue &g : m.global_values())
    if (const Comdat *c = g.getComdat())
      r.groups[c].push_back(&g);
  /* What the host pass names stays: the visible definitions of the
   * user's files, and the visible variables of all (a device variable
   * template's instance of a system header); a system header's kernel
   * template is `used` already (cuemu_rewrite.c's kernel_linkage), and
   * its other visible functions are the C++ library's (namespace std has
   * default visibility), which the host pass does not name. */
  SmallVector<GlobalValue *, 16> visible;
  for (GlobalValue &g : m.global_values())
    if (!g.isDeclaration() && g.isDiscardableIfUnused() &&
        !g.hasHiddenVisibility() && !g.hasLocalLinkage() &&
        (isa<GlobalVariable>(g) ||
         kind(g.getName().str().c_str()) == CUEMU_HOST_CODE_USER))
      visible.push_back(&g);
  if (!visible.empty())
    appendToCompilerUsed(m, visible);
  for (GlobalValue &g : m.global_values()) {
    Function *f = dyn_cast<Function>(&g);
    if (!(f && !f->isDeclaration() &&
          (f->isDiscardableIfUnused() ||
           kind(f->getName().str().c_str()) == CUEMU_HOST_CODE_HOST)))
      r.global(&g);
  }
  r.run();
  /* The functions reached by nothing: those recorded as host code, and
   * the discardable ones (which GCC's and LLVM's own later steps drop
   * anyway, once nothing uses them). */
  SmallVector<Function *, 64> unreached;
  for (Function &f : m)
    if (!f.isDeclaration() && !r.reached.count(&f))
      unreached.push_back(&f);
  for (Function *f : unreached)
    f->dropAllReferences();
  for (Function *f : unreached) {
    f->removeDeadConstantUsers();
    if (!f->use_empty())
      f->replaceAllUsesWith(PoisonValue::get(f->getType()));
    f->eraseFromParent();
  }
  return !unreached.empty();
}
