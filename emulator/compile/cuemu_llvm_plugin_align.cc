/* cuemu_llvm_plugin_align.cc: the alignment rewrite of cuemu's LLVM pass
 * plugin, the GCC plugin's alignment pass (cuemu_gcc_plugin_align.cc, where
 * the reasons are told) for units compiled by clang++: device code's wide
 * accesses to memory (a float4, an int2, a structure declared __align__(16))
 * fault on a GPU at an address that is not a multiple of their alignment
 * (cudaErrorMisalignedAddress), where x86-64 mostly reads the bytes. Before
 * each such access the rewrite puts
 *
 *   if ((uintptr_t)address & (align - 1))
 *     cuemu_kernel_misaligned_object(address, size, align, "a float4 load",
 *                                    file, line);
 *
 * In the IR that clang++ emits, a structure's copy is a call of
 * llvm.memcpy whose source and destination carry the structure's alignment
 * (`float4 v = p[i]` copies 16 bytes aligned to 16), so the wide accesses
 * are those copies, and the loads and stores of a vector type, whose
 * alignment is 4, 8 or 16 and at most their size. Accesses to the
 * function's own locals (allocas) are left alone, as are scalar ones (a
 * float read through a char pointer is memcheck's). The file and line are
 * the access's where the unit has debugging information, else none (libcuemu
 * then finds the line from the return address). */

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include "cuemu_llvm_plugin.h"

using namespace llvm;

namespace {

/* One wide access to test: its address, size, alignment and kind. */
struct wide {
  Instruction *inst;
  Value *address;
  uint64_t size;
  unsigned align;
  bool store;
};

/* Whether an access of `size` bytes aligned to `align` at `address` is a
 * wide one of memory other than the function's locals. */
bool wide_access(Value *address, uint64_t size, MaybeAlign align) {
  if (!align)
    return false;
  uint64_t a = align->value();
  return a >= 4 && a <= 16 && size >= a &&
         !isa<AllocaInst>(getUnderlyingObject(address));
}

/* The alignment of a copy's side at `address`, copied from or to `other`:
 * the copy's own, but where that is less than 4 and `other` is a local of
 * the structure that `address` points to, the local's. A float4 member of
 * a packed structure is copied with the packed structure's alignment (1),
 * and LLVM's type of the float4 does not carry its own (16), which the
 * local copy of it has; nvcc loads the member with one vector load, which
 * faults where it is misaligned (tests/programs/robust/misaligned_faults.cuh,
 * case 15), as g++'s build finds from the member's type. */
MaybeAlign own_alignment(Value *address, Value *other, MaybeAlign align) {
  if (align && align->value() >= 4)
    return align;
  StructType *s = cuemu_llvm_plugin_pointee(address);
  auto *local = dyn_cast<AllocaInst>(getUnderlyingObject(other));
  if (s && local && local->getAllocatedType() == s &&
      (!align || local->getAlign() > *align))
    return local->getAlign();
  return align;
}

/* Adds the wide accesses of `inst` to `found`. */
void wide_accesses(Instruction &inst, const DataLayout &layout,
                   SmallVectorImpl<wide> &found) {
  if (auto *copy = dyn_cast<MemTransferInst>(&inst)) {
    auto *length = dyn_cast<ConstantInt>(copy->getLength());
    if (!length)
      return;
    uint64_t size = length->getZExtValue();
    MaybeAlign from = own_alignment(copy->getRawSource(), copy->getRawDest(),
                                    copy->getSourceAlign());
    MaybeAlign to = own_alignment(copy->getRawDest(), copy->getRawSource(),
                                  copy->getDestAlign());
    if (wide_access(copy->getRawSource(), size, from))
      found.push_back(
          {&inst, copy->getRawSource(), size, unsigned(from->value()), false});
    if (wide_access(copy->getRawDest(), size, to))
      found.push_back(
          {&inst, copy->getRawDest(), size, unsigned(to->value()), true});
    return;
  }
  Value *address = nullptr;
  Type *type = nullptr;
  Align align;
  bool store = false;
  if (auto *load = dyn_cast<LoadInst>(&inst)) {
    address = load->getPointerOperand();
    type = load->getType();
    align = load->getAlign();
  } else if (auto *st = dyn_cast<StoreInst>(&inst)) {
    address = st->getPointerOperand();
    type = st->getValueOperand()->getType();
    align = st->getAlign();
    store = true;
  }
  if (!type || !type->isVectorTy() || isa<ScalableVectorType>(type))
    return;
  uint64_t size = layout.getTypeStoreSize(type).getFixedSize();
  if (wide_access(address, size, align))
    found.push_back({&inst, address, size, unsigned(align.value()), store});
}

} // namespace

/* The structure that `address` points to, through its casts (a copy's
 * address is an i8* cast from the structure's pointer, which may itself be
 * cast from a char pointer), or null. */
StructType *cuemu_llvm_plugin_pointee(const Value *address) {
  for (int depth = 0; depth < 8; ++depth) {
    auto *pointer = dyn_cast<PointerType>(address->getType());
    if (pointer && !pointer->isOpaque())
      if (auto *s = dyn_cast<StructType>(pointer->getNonOpaquePointerElementType()))
        return s;
    const auto *cast = dyn_cast<BitCastOperator>(address);
    if (!cast)
      return nullptr;
    address = cast->getOperand(0);
  }
  return nullptr;
}

namespace {

/* "a float4 load" where the address was a pointer to a named structure
 * (clang++ names it struct.float4), else "a 16-byte load". */
std::string what_of(const wide &w) {
  std::string name;
  if (StructType *s = cuemu_llvm_plugin_pointee(w.address))
      if (s->hasName()) {
        StringRef n = s->getName();
        for (StringRef prefix : {"struct.", "class.", "union."})
          n.consume_front(prefix);
        /* clang++ tells apart types of one name with ".0", ".1"... */
        size_t dot = n.rfind('.');
        if (dot != StringRef::npos &&
            n.substr(dot + 1).find_first_not_of("0123456789") == StringRef::npos)
          n = n.substr(0, dot);
        name = n.str();
      }
  const char *kind = w.store ? "store" : "load";
  if (!name.empty() && name.find_first_of(" <:") == std::string::npos)
    return std::string(strchr("aeiouAEIOU", name[0]) ? "an " : "a ") + name +
           " " + kind;
  return "a " + std::to_string(w.size) + "-byte " + kind;
}

/* Puts the test of `w` before its access. */
void guard(FunctionCallee misaligned, const wide &w) {
  IRBuilder<> b(w.inst);
  LLVMContext &context = w.inst->getContext();
  Type *word = b.getIntPtrTy(w.inst->getModule()->getDataLayout());
  Value *low = b.CreateAnd(b.CreatePtrToInt(w.address, word),
                           ConstantInt::get(word, w.align - 1));
  Value *bad = b.CreateICmpNE(low, ConstantInt::get(word, 0));
  Instruction *then = SplitBlockAndInsertIfThen(
      bad, w.inst, /*Unreachable=*/true,
      MDBuilder(context).createBranchWeights(1, 1 << 20));
  b.SetInsertPoint(then);
  const DebugLoc &where = w.inst->getDebugLoc();
  Type *bytes = b.getInt8PtrTy();
  Value *file = where ? b.CreateGlobalStringPtr(where->getFilename(),
                                                "cuemu_align_file")
                      : static_cast<Value *>(ConstantPointerNull::get(
                            cast<PointerType>(bytes)));
  CallInst *call = b.CreateCall(
      misaligned,
      {b.CreatePointerCast(w.address, bytes), b.getInt32(unsigned(w.size)),
       b.getInt32(w.align), b.CreateGlobalStringPtr(what_of(w), "cuemu_align_what"),
       file, b.getInt32(where ? where.getLine() : 0)});
  call->setDoesNotReturn();
  call->setDoesNotThrow();
}

} // namespace

bool cuemu_llvm_plugin_align(Function &f) {
  const DataLayout &layout = f.getParent()->getDataLayout();
  SmallVector<wide, 8> found;
  for (Instruction &inst : instructions(f))
    wide_accesses(inst, layout, found);
  if (found.empty())
    return false;
  LLVMContext &context = f.getContext();
  Type *bytes = Type::getInt8PtrTy(context), *u32 = Type::getInt32Ty(context);
  FunctionCallee misaligned = f.getParent()->getOrInsertFunction(
      "cuemu_kernel_misaligned_object", Type::getVoidTy(context), bytes, u32,
      u32, bytes, bytes, u32);
  for (const wide &w : found)
    guard(misaligned, w);
  return true;
}
