/* cuemu_llvm_plugin_check.cc: the common case of memcheck and initcheck
 * decided inline in device code that clang++ compiles, as the GCC
 * plugin's pass does for g++ (cuemu_gcc_plugin_check.cc, where the test is
 * told; cuemu_check_fast_decide() in <cuemu/cuemu_check_fast.h> is what it
 * writes out).
 *
 * Before each call of a plain __tsan_readN or __tsan_writeN that
 * ThreadSanitizer's pass put in, the test whether the access lies in one of
 * the two live allocations that the running block touched last, is aligned,
 * and, under initcheck, finds its bytes written (a read) or marks them
 * written (a write); only when it does not is the entry point called,
 * which makes the whole decision as before. The calls for the thread's
 * built-in variables, which the checkers skip, are removed. Without it a
 * checked clang++ saxpy took 6 times as long as a g++ one.
 *
 * clang++ adds ThreadSanitizer's passes after every pass that a plugin
 * adds at the end of the pipeline, so the pass that the plugin adds there
 * runs ThreadSanitizer's function pass itself on each function built for
 * the checkers, puts the tests in, and takes the function's
 * sanitize_thread away: clang++'s own ThreadSanitizer pass then leaves its
 * loads, stores and copies alone (its atomics are calls already), and
 * instruments none of the tests' loads. The unit says what to test
 * (cuemu_check_inline, shims/cuda_builtins/cuemu_check_entry.h: 1 for
 * memcheck, 2 with initcheck; cuemu-cc defines it only when racecheck is
 * off); a unit without it, or whose state's layout is not the one the test
 * is written for, is left as it is. */

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Instrumentation/ThreadSanitizer.h"

#include "cuemu_llvm_plugin.h"

using namespace llvm;

namespace {

/* What the unit asks for: 0 nothing, 1 memcheck, 2 initcheck. */
int inline_mode(Module &m) {
  for (GlobalVariable &v : m.globals())
    if (v.getName().contains("cuemu_check_inline") && v.hasInitializer())
      if (auto *c = dyn_cast<ConstantInt>(v.getInitializer()))
        return int(c->getZExtValue());
  return 0;
}

/* cuemu_check_fast_state, where its type is a pointer to the structure
 * whose first member is the two hot slots of base, limit and shadow (three
 * words first), else null. */
GlobalVariable *state_variable(Module &m) {
  GlobalVariable *v = m.getGlobalVariable("cuemu_check_fast_state");
  if (!v || !v->isThreadLocal())
    return nullptr;
  auto *pointer = dyn_cast<PointerType>(v->getValueType());
  if (!pointer || pointer->isOpaque())
    return nullptr;
  auto *state = dyn_cast<StructType>(pointer->getNonOpaquePointerElementType());
  if (!state || state->isOpaque() || state->getNumElements() == 0)
    return nullptr;
  auto *hot = dyn_cast<ArrayType>(state->getElementType(0));
  if (!hot || hot->getNumElements() != 2)
    return nullptr;
  auto *slot = dyn_cast<StructType>(hot->getElementType());
  if (!slot || slot->getNumElements() < 3)
    return nullptr;
  for (unsigned i = 0; i < 3; ++i)
    if (!slot->getElementType(i)->isIntegerTy(64))
      return nullptr;
  return v;
}

/* The size of the access that `call` announces, and whether it writes;
 * false where it is no plain __tsan_readN or __tsan_writeN. */
bool tsan_access(Instruction &inst, unsigned *size, bool *write) {
  auto *call = dyn_cast<CallInst>(&inst);
  Function *callee = call ? call->getCalledFunction() : nullptr;
  if (!callee || call->arg_size() != 1)
    return false;
  StringRef name = callee->getName();
  if (name.consume_front("__tsan_read"))
    *write = false;
  else if (name.consume_front("__tsan_write"))
    *write = true;
  else
    return false;
  unsigned n = 0;
  if (name.getAsInteger(10, n) ||
      (n != 1 && n != 2 && n != 4 && n != 8 && n != 16))
    return false;
  *size = n;
  return true;
}

/* Whether `call` announces an access to one of the thread's built-in
 * variables, which memcheck and initcheck leave alone (the range that
 * note_builtins() of emulator/check/cuemu_check_shadow.c skips): clang++
 * instruments the thread loop's own accesses to threadIdx, which g++
 * leaves out. */
bool builtin_access(CallInst *call) {
  const auto *v =
      dyn_cast<GlobalVariable>(getUnderlyingObject(call->getArgOperand(0)));
  if (!v || !v->isThreadLocal())
    return false;
  for (StringRef name :
       {"threadIdx", "blockIdx", "blockDim", "gridDim", "cuemu_dynamic_shared",
        "cuemu_thread_detached", "cuemu_ptx_carry"})
    if (v->getName() == name)
      return true;
  return false;
}

/* Builds the test of one access. */
struct guard_builder {
  GlobalVariable *state;
  Type *word;
  bool with_init;
  MDNode *likely, *even;

  /* A branch ending `from`: to `yes` when `c`, else to `no`. */
  void fork(BasicBlock *from, Value *c, BasicBlock *yes, BasicBlock *no,
            MDNode *weights) {
    BranchInst::Create(yes, no, c, from)
        ->setMetadata(LLVMContext::MD_prof, weights);
  }

  /* The rest of the test for an access at offset `off` inside hot slot
   * `h`, from block `bb`: to `join` when the entry point has nothing more
   * to do, else to `call` (cuemu_gcc_plugin_check.cc, slot_decide()). */
  void slot_decide(BasicBlock *bb, Type *slot_type, Value *slot, Value *a,
                   Value *off, unsigned size, bool write, BasicBlock *join,
                   BasicBlock *call, const DebugLoc &where) {
    LLVMContext &context = bb->getContext();
    Function *f = bb->getParent();
    IRBuilder<> b(bb);
    b.SetCurrentDebugLocation(where);
    Value *shadow =
        b.CreateLoad(word, b.CreateConstInBoundsGEP2_32(slot_type, slot, 0, 2));
    Value *plain = b.CreateICmpEQ(shadow, ConstantInt::get(word, 0));
    Value *aligned = nullptr;
    if (size > 1) {
      /* cuemu_check_fast_align_mask(): 16 bytes are held to 8. */
      unsigned mask = (size > 8 ? 8 : size) - 1;
      aligned = b.CreateICmpEQ(b.CreateAnd(a, ConstantInt::get(word, mask)),
                               ConstantInt::get(word, 0));
    }
    if (!with_init || size > 8) {
      fork(bb, aligned ? b.CreateAnd(aligned, plain) : plain, join, call,
           likely);
      return;
    }
    if (aligned) {
      BasicBlock *next =
          BasicBlock::Create(context, "cuemu.check.aligned", f, call);
      fork(bb, aligned, next, call, likely);
      bb = next;
      b.SetInsertPoint(bb);
    }
    BasicBlock *map = BasicBlock::Create(context, "cuemu.check.map", f, call);
    BasicBlock *zero =
        BasicBlock::Create(context, "cuemu.check.plain", f, call);
    fork(bb, b.CreateICmpUGT(shadow, ConstantInt::get(word, 1)), map, zero,
         likely);
    fork(zero, plain, join, call, likely);

    IRBuilder<> m(map);
    m.SetCurrentDebugLocation(where);
    Type *bytes = Type::getIntNTy(context, size * 8);
    Value *p =
        m.CreateIntToPtr(m.CreateAdd(shadow, off), bytes->getPointerTo());
    Constant *ones =
        ConstantInt::get(bytes, 0x0101010101010101ull >> (64 - size * 8));
    if (write) {
      m.CreateAlignedStore(ones, p, Align(1));
      BranchInst::Create(join, map);
      return;
    }
    fork(map, m.CreateICmpEQ(m.CreateAlignedLoad(bytes, p, Align(1)), ones),
         join, call, likely);
  }

  /* Puts the test before `call`, which it leaves on the path where the test
   * fails. */
  void guard(CallInst *call, unsigned size, bool write) {
    LLVMContext &context = call->getContext();
    Function *f = call->getFunction();
    DebugLoc where = call->getDebugLoc();
    BasicBlock *head = call->getParent();
    BasicBlock *call_bb = head->splitBasicBlock(call, "cuemu.check.call");
    BasicBlock *join =
        call_bb->splitBasicBlock(call->getNextNode(), "cuemu.check.join");
    head->getTerminator()->eraseFromParent();
    IRBuilder<> b(head);
    b.SetCurrentDebugLocation(where);
    Type *state_type = state->getValueType();
    auto *record = cast<StructType>(
        cast<PointerType>(state_type)->getNonOpaquePointerElementType());
    Type *hot_type = record->getElementType(0);
    Type *slot_type = cast<ArrayType>(hot_type)->getElementType();
    Value *s = b.CreateLoad(state_type, state);
    Value *a = b.CreatePtrToInt(call->getArgOperand(0), word);
    BasicBlock *test = head;
    for (unsigned h = 0; h < 2; ++h) {
      IRBuilder<> t(test);
      t.SetCurrentDebugLocation(where);
      Value *hot = t.CreateConstInBoundsGEP2_32(record, s, 0, 0);
      Value *slot = t.CreateConstInBoundsGEP2_32(hot_type, hot, 0, h);
      Value *base = t.CreateLoad(
          word, t.CreateConstInBoundsGEP2_32(slot_type, slot, 0, 0));
      Value *limit = t.CreateLoad(
          word, t.CreateConstInBoundsGEP2_32(slot_type, slot, 0, 1));
      Value *off = t.CreateSub(a, base);
      BasicBlock *in =
          BasicBlock::Create(context, "cuemu.check.hot", f, call_bb);
      BasicBlock *next =
          h == 0 ? BasicBlock::Create(context, "cuemu.check.next", f, call_bb)
                 : call_bb;
      /* The second slot holds the other array of a kernel that accesses
       * two in turn (a saxpy's x and y) as often as not. */
      fork(test, t.CreateICmpULT(off, limit), in, next, h == 0 ? likely : even);
      slot_decide(in, slot_type, slot, a, off, size, write, join, call_bb,
                  where);
      test = next;
    }
  }
};

} // namespace

bool cuemu_llvm_plugin_check(Function &f, FunctionAnalysisManager &analyses) {
  if (f.isDeclaration() || !f.hasFnAttribute(Attribute::SanitizeThread))
    return false;
  Module &m = *f.getParent();
  int mode = inline_mode(m);
  GlobalVariable *state = mode ? state_variable(m) : nullptr;
  if (!state)
    return false;
  ThreadSanitizerPass().run(f, analyses);
  f.removeFnAttr(Attribute::SanitizeThread);
  SmallVector<std::pair<CallInst *, std::pair<unsigned, bool>>, 16> calls;
  unsigned size;
  bool write;
  for (Instruction &inst : instructions(f))
    if (tsan_access(inst, &size, &write))
      calls.push_back({cast<CallInst>(&inst), {size, write}});
  LLVMContext &context = f.getContext();
  MDBuilder md(context);
  guard_builder g{state, Type::getInt64Ty(context), mode == 2,
                  md.createBranchWeights(1 << 20, 1),
                  md.createBranchWeights(1, 1)};
  for (auto &[call, access] : calls) {
    if (builtin_access(call))
      call->eraseFromParent();
    else
      g.guard(call, access.first, access.second);
  }
  return true;
}
