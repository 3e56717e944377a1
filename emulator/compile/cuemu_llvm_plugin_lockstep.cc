/* cuemu_llvm_plugin_lockstep.cc: the lockstep rewrite of cuemu's LLVM pass
 * plugin: a call of cuemu_warp_step_volatile(address, file, line)
 * (<cuemu/cuemu_warp_step.h>) before each volatile load and store, so that
 * the lanes of a warp make their volatile accesses in lockstep, as the
 * warp-synchronous code written before Volta expects (the last warp of a
 * reduction unrolled through a volatile pointer, warp scans). The plain
 * accesses through which the lanes exchange values in a loop that nothing
 * synchronises get a call of cuemu_warp_step, which steps shared memory
 * only (cuemu_llvm_plugin_loop_lanes.cc). It is the GCC plugin's lockstep pass
 * (cuemu_gcc_plugin_lockstep.cc) for units compiled by clang++.
 *
 * It runs on the IR as clang++ emitted it, where each access is a load or
 * a store of its own, in the order the function makes them. Accesses to
 * the function's own volatile locals and parameters (whose address is an
 * alloca) are left alone: they are the lane's own. Everything else (what a
 * pointer reaches, static, thread-local and global variables) gets the
 * call with the address accessed, which libcuemu tests at run time (shared
 * or global memory, not the lane's own stack). The file and line are the access's where the
 * unit has debugging information (-g, -lineinfo), else "?" and 0. */

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include "cuemu_llvm_plugin.h"

using namespace llvm;

namespace {

/* The address of `inst` when it is a load or a store to be stepped: a
 * volatile one of memory other than the function's own locals (then
 * *is_volatile is set), or one of `plain` (the loops' exchanges, calls of
 * memcpy, memmove and memset among them), else null. */
Value *stepped_address(Instruction &inst,
                       const SmallPtrSetImpl<Instruction *> &plain,
                       bool *is_volatile_out) {
  Value *address = nullptr;
  bool is_volatile = false;
  bool writes = false;
  if (const auto *call = dyn_cast<CallBase>(&inst);
      call && cuemu_llvm_plugin_memory_call(*call)) {
    address = cuemu_llvm_plugin_memory_call_address(inst, &writes);
  } else if (auto *load = dyn_cast<LoadInst>(&inst)) {
    address = load->getPointerOperand();
    is_volatile = load->isVolatile();
  } else if (auto *store = dyn_cast<StoreInst>(&inst)) {
    address = store->getPointerOperand();
    is_volatile = store->isVolatile();
  }
  if (!address || (!is_volatile && !plain.count(&inst)) ||
      isa<AllocaInst>(getUnderlyingObject(address)))
    return nullptr;
  *is_volatile_out = is_volatile;
  return address;
}

/* Puts a call of `step` (cuemu_warp_step or cuemu_warp_step_volatile) with
 * (address, file, line) before `access`. */
void insert_step(FunctionCallee step, Instruction &access, Value *address) {
  IRBuilder<> b(&access);
  const DebugLoc &where = access.getDebugLoc();
  std::string file = where ? where->getFilename().str() : "?";
  unsigned line = where ? where.getLine() : 0;
  Value *name = b.CreateGlobalStringPtr(file, "cuemu_step_file");
  Type *bytes = b.getInt8PtrTy();
  b.CreateCall(step, {b.CreatePointerCast(address, bytes), name,
                      b.getInt32(line)});
}

} // namespace

bool cuemu_llvm_plugin_lockstep(Function &f) {
  /* Found before any call is inserted: a loop with a call is taken for one
   * that synchronises. */
  SmallPtrSet<Instruction *, 16> plain;
  cuemu_llvm_plugin_loop_lane_accesses(f, plain);
  SmallVector<std::pair<Instruction *, Value *>, 8> found;
  SmallPtrSet<Instruction *, 16> volatiles;
  for (Instruction &inst : instructions(f)) {
    bool is_volatile = false;
    if (Value *address = stepped_address(inst, plain, &is_volatile)) {
      found.push_back({&inst, address});
      if (is_volatile)
        volatiles.insert(&inst);
    }
  }
  if (found.empty())
    return false;
  LLVMContext &context = f.getContext();
  Type *bytes = Type::getInt8PtrTy(context);
  FunctionCallee steps[2];
  for (int v = 0; v < 2; ++v) {
    steps[v] = f.getParent()->getOrInsertFunction(
        v ? "cuemu_warp_step_volatile" : "cuemu_warp_step",
        Type::getVoidTy(context), bytes, bytes, Type::getInt32Ty(context));
    if (auto *declared = dyn_cast<Function>(steps[v].getCallee()))
      declared->setDoesNotThrow();
  }
  for (auto &[access, address] : found)
    insert_step(steps[volatiles.count(access) ? 1 : 0], *access, address);
  cuemu_llvm_plugin_pad_steps(f);
  return true;
}
