/* cuemu_llvm_plugin_step_padding.cc: the padding of the shorter paths
 * through warp-synchronous branches with calls of cuemu_warp_step_skip, the
 * GCC plugin's (cuemu_gcc_plugin_step_padding.cc, which says why and how)
 * for units compiled by clang++. It runs after the lockstep rewrite
 * (cuemu_llvm_plugin_lockstep.cc) on the IR as clang++ emitted it: the
 * counts are taken over the blocks in reverse post-order, back edges left
 * out, and an edge into a join is padded where no path from the join's
 * immediate dominator to it goes through a loop. */

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include "cuemu_llvm_plugin.h"

using namespace llvm;

namespace {

using Edge = std::pair<const BasicBlock *, const BasicBlock *>;

int steps_in(const BasicBlock &bb) {
  int n = 0;
  for (const Instruction &inst : bb)
    if (auto *call = dyn_cast<CallInst>(&inst))
      if (const Function *fn = call->getCalledFunction())
        n += fn->getName() == "cuemu_warp_step" ||
             fn->getName() == "cuemu_warp_step_volatile";
  return n;
}

/* Whether no path from the immediate dominator of `join` to it goes
 * through a back edge. */
bool acyclic_region(BasicBlock *join, const DominatorTree &tree,
                    const SmallPtrSetImpl<const BasicBlock *> &back_src,
                    const SmallVectorImpl<Edge> &back) {
  DomTreeNode *node = tree.getNode(join);
  if (!node || !node->getIDom())
    return false;
  BasicBlock *top = node->getIDom()->getBlock();
  SmallVector<BasicBlock *, 8> work{join};
  SmallPtrSet<BasicBlock *, 8> seen{join};
  while (!work.empty()) {
    BasicBlock *b = work.pop_back_val();
    for (BasicBlock *pred : predecessors(b)) {
      if (back_src.count(pred) &&
          std::find(back.begin(), back.end(), Edge(pred, b)) != back.end())
        return false;
      if (pred == top || !seen.insert(pred).second)
        continue;
      work.push_back(pred);
    }
  }
  return true;
}

} // namespace

void cuemu_llvm_plugin_pad_steps(Function &f) {
  DenseMap<const BasicBlock *, int> end;
  bool any = false;
  for (BasicBlock &bb : f) {
    end[&bb] = steps_in(bb);
    any |= end[&bb] != 0;
  }
  if (!any)
    return;
  SmallVector<Edge, 8> back;
  FindFunctionBackedges(f, back);
  SmallPtrSet<const BasicBlock *, 8> back_src;
  for (const Edge &e : back)
    back_src.insert(e.first);
  DominatorTree tree(f);
  SmallVector<std::tuple<BasicBlock *, BasicBlock *, int>, 8> pads;
  ReversePostOrderTraversal<Function *> order(&f);
  for (BasicBlock *bb : order) {
    int start = 0, preds = 0;
    bool looped = false;
    for (BasicBlock *pred : predecessors(bb)) {
      if (std::find(back.begin(), back.end(), Edge(pred, bb)) != back.end()) {
        looped = true;
        continue;
      }
      start = std::max(start, end[pred]);
      ++preds;
    }
    if (preds > 1 && !looped && acyclic_region(bb, tree, back_src, back)) {
      SmallPtrSet<BasicBlock *, 4> padded;
      for (BasicBlock *pred : predecessors(bb))
        if (end[pred] < start && padded.insert(pred).second)
          pads.push_back({pred, bb, start - end[pred]});
    }
    end[bb] += start;
  }
  if (pads.empty())
    return;
  LLVMContext &context = f.getContext();
  Type *bytes = Type::getInt8PtrTy(context);
  FunctionCallee skip = f.getParent()->getOrInsertFunction(
      "cuemu_warp_step_skip", Type::getVoidTy(context),
      Type::getInt32Ty(context), bytes, Type::getInt32Ty(context));
  if (auto *declared = dyn_cast<Function>(skip.getCallee()))
    declared->setDoesNotThrow();
  for (auto &[from, to, rounds] : pads) {
    const DebugLoc &where = from->getTerminator()->getDebugLoc();
    BasicBlock *pad = SplitEdge(from, to);
    IRBuilder<> b(pad->getTerminator());
    std::string file = where ? where->getFilename().str() : "?";
    unsigned line = where ? where.getLine() : 0;
    b.CreateCall(skip, {b.getInt32(rounds),
                        b.CreateGlobalStringPtr(file, "cuemu_step_file"),
                        b.getInt32(line)});
  }
}
