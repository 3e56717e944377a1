/* cuemu_llvm_plugin_detached.cc: the GCC plugin's detached pass
 * (cuemu_gcc_plugin_detached.cc, where the reasons are told) for units
 * compiled by clang++: it takes the "has this thread blocked?" test out of
 * the thread loop of a kernel that cannot block.
 *
 * A kernel's thunk (shims/cuda_builtins/cuemu_kernel_thunks.h) reads
 * cuemu_thread_detached after each thread; only libcuemu sets it, inside a
 * call that may switch threads (a barrier, a collective). clang++ cannot
 * see that: any store of the kernel might have written it. So, late in
 * the function simplification pipeline (after inlining and loop
 * unswitching, before the passes that clean up, unroll and vectorise), a
 * read of cuemu_thread_detached becomes 0 when no instruction that may
 * block precedes it in its block and no block from which its block can be
 * reached holds one; SimplifyCFG then drops the test and the call of
 * cuemu_thread_finish() behind it.
 *
 * What may block: a call through a pointer, a call of a function that is
 * not an intrinsic and may touch memory (libcuemu's barriers and
 * collectives, a device function that was not inlined, cuemu_warp_step)
 * but libcuemu's functions that never switch threads
 * (cuemu_plugin_never_block.h),
 * inline asm with instructions in it, and a call that returns twice. A call
 * that never returns cannot come back into the loop. Functions built for
 * the checkers (-fsanitize=thread) are left alone: their hooks, which reach
 * libcuemu, are put in later. Nothing changes at -O0, where the pass does
 * not run. */

#include "llvm/IR/Constants.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

#include "cuemu_llvm_plugin.h"
#include "cuemu_plugin_never_block.h"

using namespace llvm;

namespace {

/* Whether `inst` may switch the running thread to another (and so come
 * back with cuemu_thread_detached set). */
bool may_block(const Instruction &inst) {
  const auto *call = dyn_cast<CallBase>(&inst);
  if (!call)
    return false;
  if (const auto *code = dyn_cast<InlineAsm>(call->getCalledOperand()))
    return !code->getAsmString().empty();
  if (call->hasFnAttr(Attribute::ReturnsTwice))
    return true;
  if (call->doesNotReturn() || isa<IntrinsicInst>(call))
    return false;
  const Function *callee = call->getCalledFunction();
  if (callee && cuemu_plugin_never_blocks(callee->getName().str().c_str()))
    return false;
  return !callee || !callee->doesNotAccessMemory();
}

} // namespace

bool cuemu_llvm_plugin_detached(Function &f) {
  const GlobalVariable *flag =
      f.getParent()->getNamedGlobal("cuemu_thread_detached");
  /* The read's own function (the thunks' thread_detached(), always
   * inlined) is simplified before it is inlined, where nothing precedes
   * the read: it is judged where it was inlined. */
  if (!flag || f.isDeclaration() ||
      f.hasFnAttribute(Attribute::SanitizeThread) ||
      f.hasFnAttribute(Attribute::AlwaysInline))
    return false;
  SmallVector<LoadInst *, 4> reads;
  SmallPtrSet<const BasicBlock *, 16> tainted;
  SmallVector<const BasicBlock *, 16> work;
  for (BasicBlock &bb : f)
    for (Instruction &inst : bb) {
      if (auto *load = dyn_cast<LoadInst>(&inst))
        if (load->getPointerOperand()->stripPointerCasts() == flag &&
            !load->isVolatile())
          reads.push_back(load);
      if (may_block(inst)) {
        work.push_back(&bb);
        break;
      }
    }
  if (reads.empty())
    return false;
  /* tainted: the blocks that can be reached from an instruction that may
   * block (the flag may be set on entry to them). */
  while (!work.empty()) {
    const BasicBlock *from = work.pop_back_val();
    for (const BasicBlock *to : successors(from))
      if (tainted.insert(to).second)
        work.push_back(to);
  }
  bool changed = false;
  for (LoadInst *read : reads) {
    const BasicBlock *bb = read->getParent();
    bool blocked = tainted.count(bb);
    for (const Instruction &inst : *bb) {
      if (&inst == read || blocked)
        break;
      blocked = may_block(inst);
    }
    if (blocked)
      continue;
    read->replaceAllUsesWith(Constant::getNullValue(read->getType()));
    read->eraseFromParent();
    changed = true;
  }
  return changed;
}
