/* cuemu_llvm_plugin_race.cc: what racecheck needs of the device code that
 * clang++ compiles, so that a unit compiled by clang++ (one that includes
 * Thrust or CUB) has the races reported that a g++ unit has.
 *
 * The checkers' hooks (-fsanitize=thread, cuemu_compile.c) are put in by
 * clang++'s ThreadSanitizer pass, which runs last in the optimisation
 * pipeline: an access that the optimiser removed before it, taking the
 * function for the only thread that touches the memory, calls no hook and
 * racecheck never sees it. On a GPU the other threads of the block and
 * the grid do touch it. Two cases that g++ keeps, each made so here, on the
 * IR as clang++ emitted it, in each function built for the checkers:
 *
 * - The stores to a static __shared__ variable (a `static thread_local`,
 *   cuemu_rewrite.c) that the unit never reads, once each read of it took
 *   the value just stored (EarlyCSE, as g++ does): GlobalOpt then
 *   deletes the stores of an internal variable that nothing loads
 *   (`word = threadIdx.x; out[i] = word;`,
 *   tests/buggy/race_shared_write_only.cu). Every thread-local variable
 *   that the module defines is `used` (llvm.compiler.used), which
 *   GlobalOpt leaves alone. (For g++, -fno-ipa-reference-addressable.)
 * - A plain read of a location after a volatile access of it, with no call
 *   between: EarlyCSE (and GVN after it) takes the volatile access's value
 *   for the read's (a flag polled through a volatile pointer, then read
 *   through a plain one, tests/buggy/race_global_flag_plain_read.cu), where
 *   g++
 *   never forwards a volatile access's value. Each volatile access of
 *   memory other than the function's own locals (those that the lockstep
 *   rewrite steps, cuemu_llvm_plugin_lockstep.cc, whose call before it
 *   already keeps the accesses before it) is followed by an empty asm
 *   statement that clobbers memory: no instruction, and no value carried
 *   across it.
 *
 * Functions not built for the checkers are left alone, and so are the
 * accesses that the optimiser merges in g++ too (a plain load of what the
 * same thread stored just before). */

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include "cuemu_llvm_plugin.h"

using namespace llvm;

namespace {

/* Whether `inst` is a volatile load or store of memory other than the
 * function's own locals. */
bool shared_volatile(Instruction &inst) {
  Value *address = nullptr;
  if (auto *load = dyn_cast<LoadInst>(&inst)) {
    if (load->isVolatile())
      address = load->getPointerOperand();
  } else if (auto *store = dyn_cast<StoreInst>(&inst)) {
    if (store->isVolatile())
      address = store->getPointerOperand();
  }
  return address && !isa<AllocaInst>(getUnderlyingObject(address));
}

} // namespace

bool cuemu_llvm_plugin_race_module(Module &m) {
  bool checked = false;
  for (Function &f : m)
    checked |=
        !f.isDeclaration() && f.hasFnAttribute(Attribute::SanitizeThread);
  if (!checked)
    return false;
  SmallVector<GlobalValue *, 8> kept;
  for (GlobalVariable &v : m.globals())
    if (v.isThreadLocal() && !v.isDeclaration() && !v.isConstant())
      kept.push_back(&v);
  if (kept.empty())
    return false;
  appendToCompilerUsed(m, kept);
  return true;
}

bool cuemu_llvm_plugin_race(Function &f) {
  if (!f.hasFnAttribute(Attribute::SanitizeThread))
    return false;
  SmallVector<Instruction *, 8> found;
  for (Instruction &inst : instructions(f))
    if (shared_volatile(inst))
      found.push_back(&inst);
  if (found.empty())
    return false;
  InlineAsm *barrier =
      InlineAsm::get(FunctionType::get(Type::getVoidTy(f.getContext()), false),
                     "", "~{memory}", /*hasSideEffects=*/true);
  for (Instruction *access : found) {
    CallInst *call = CallInst::Create(barrier, "", access->getNextNode());
    call->setDebugLoc(access->getDebugLoc());
  }
  return true;
}
