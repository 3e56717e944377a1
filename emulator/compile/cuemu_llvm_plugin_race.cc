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
 * same thread stored just before).
 *
 * Later in the pipeline, once the shims' atomicCAS is inlined and its
 * `compare` is a value (cuemu_llvm_plugin_cas_guess), the first guess of a
 * compare-and-swap loop becomes a relaxed atomic load, as g++'s plugin
 * makes it (cuemu_gcc_plugin_cas_guess.cc says why). */

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

namespace {

/* The plain loads of the word at `word` that the value `v` is made from
 * (through phi nodes and casts), added to `loads`. */
void find_guesses(Value *v, Value *word, SmallPtrSetImpl<Value *> &seen,
                  SmallPtrSetImpl<LoadInst *> &loads) {
  if (!seen.insert(v).second)
    return;
  if (auto *phi = dyn_cast<PHINode>(v)) {
    for (Value *in : phi->incoming_values())
      find_guesses(in, word, seen, loads);
  } else if (auto *cast = dyn_cast<CastInst>(v)) {
    find_guesses(cast->getOperand(0), word, seen, loads);
  } else if (auto *load = dyn_cast<LoadInst>(v)) {
    if (load->isSimple() &&
        load->getPointerOperand()->stripPointerCasts() ==
            word->stripPointerCasts())
      loads.insert(load);
  }
}

} // namespace

bool cuemu_llvm_plugin_cas_guess(Function &f) {
  if (!f.hasFnAttribute(Attribute::SanitizeThread))
    return false;
  SmallPtrSet<LoadInst *, 4> loads;
  for (Instruction &inst : instructions(f)) {
    auto *cas = dyn_cast<AtomicCmpXchgInst>(&inst);
    /* The user's compare-and-swap: a failure order not relaxed. */
    if (!cas || cas->getFailureOrdering() == AtomicOrdering::Monotonic)
      continue;
    SmallPtrSet<Value *, 8> seen;
    find_guesses(cas->getCompareOperand(), cas->getPointerOperand(), seen,
                 loads);
  }
  bool changed = false;
  const DataLayout &layout = f.getParent()->getDataLayout();
  for (LoadInst *load : loads) {
    Type *type = load->getType();
    uint64_t size = layout.getTypeStoreSize(type);
    /* An atomic load of a type the target loads whole, aligned. */
    if (!(type->isIntegerTy() || type->isFloatingPointTy() ||
          type->isPointerTy()) ||
        (size != 1 && size != 2 && size != 4 && size != 8) ||
        load->getAlign().value() < size)
      continue;
    load->setAtomic(AtomicOrdering::Monotonic);
    changed = true;
  }
  return changed;
}
