/* cuemu_llvm_plugin_copies.cc: the copies of small structures in device
 * code that clang++ compiles for the checkers, made member by member, as
 * g++ makes them, so that memcheck and initcheck report what they report in
 * a g++ unit.
 *
 * clang++ copies a structure with llvm.memcpy: `float4 v = in[i]` copies 16
 * bytes from in[i] to the local v, and `out[i] = v` 16 bytes from v to
 * out[i]. Its optimiser then forwards the first copy into the second
 * (MemCpyOpt), which leaves one copy from in[i] to out[i] with the line of
 * the store, and ThreadSanitizer's pass hands the whole 16 bytes to one hook
 * (a call of memmove, --wrap'ed by cuemu). A load past the end of an
 * allocation was therefore reported at the store's line and at the copy's
 * first byte (+4080 for a float4 that starts 8 bytes before the end,
 * tests/buggy/mem_oob_wide_read.cu), and the unwritten fourth word of an
 * int4 at the copy's start (tests/buggy/init_wide_partial.cu). g++
 * splits such a copy into the loads and stores of its four members (its
 * scalar replacement of aggregates), each with its own line and its own
 * hook, and the report names the load's line and the first word that is
 * out of bounds or unwritten.
 *
 * In each function built for the checkers (sanitize_thread), the rewrite
 * replaces each copy of a structure of at most 16 members of one scalar
 * type with no padding (CUDA's vector types, a struct of three floats, an
 * array of such members) by the loads of every member, then their stores,
 * with the copy's line and the alignment the copy had. It runs after the
 * alignment rewrite (cuemu_llvm_plugin_align.cc), whose test of the whole
 * copy's address stays before the loads. The scalar replacement of the
 * local then leaves the loads at the load's line and the stores at the
 * store's, in the members' order (the loads are followed by
 * llvm.sideeffect, see split()). clang++'s SLP vectoriser would merge
 * the four loads into one vector load again: checked builds of clang++ are
 * compiled with -fno-slp-vectorize (cuemu_compile.c). */

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

#include "cuemu_llvm_plugin.h"

using namespace llvm;

namespace {

/* The most members of a copy that is split. */
constexpr unsigned max_members = 16;

/* Adds the scalar members of `type` to `members`; false where one is not
 * a scalar (a pointer, a vector) or there are too many. */
bool scalar_members(Type *type, SmallVectorImpl<Type *> &members) {
  if (auto *s = dyn_cast<StructType>(type)) {
    for (Type *member : s->elements())
      if (!scalar_members(member, members))
        return false;
    return true;
  }
  if (auto *a = dyn_cast<ArrayType>(type)) {
    for (uint64_t i = 0; i < a->getNumElements(); ++i)
      if (!scalar_members(a->getElementType(), members))
        return false;
    return true;
  }
  if (!type->isIntegerTy() && !type->isFloatingPointTy())
    return false;
  members.push_back(type);
  return members.size() <= max_members;
}

/* The one type of every member of the structure that `copy` copies whole,
 * where they are all of one scalar type with no padding, else null. */
Type *member_type(MemTransferInst &copy, const DataLayout &layout) {
  auto *length = dyn_cast<ConstantInt>(copy.getLength());
  if (!length || copy.isVolatile())
    return nullptr;
  for (Value *end : {copy.getRawDest(), copy.getRawSource()}) {
    StructType *s = cuemu_llvm_plugin_pointee(end);
    if (!s || s->isOpaque() ||
        layout.getTypeAllocSize(s) != length->getZExtValue())
      continue;
    SmallVector<Type *, max_members> members;
    if (!scalar_members(s, members) || members.size() < 2)
      continue;
    Type *first = members.front();
    bool same = true;
    for (Type *m : members)
      same &= m == first;
    if (same &&
        members.size() * layout.getTypeStoreSize(first).getFixedSize() ==
            length->getZExtValue() &&
        layout.getTypeAllocSize(first) == layout.getTypeStoreSize(first))
      return first;
  }
  return nullptr;
}

/* Replaces `copy` by the loads of its members of type `member`, then their
 * stores (in that order, so that a memmove of overlapping memory stays
 * right). */
void split(MemTransferInst &copy, Type *member, const DataLayout &layout) {
  IRBuilder<> b(&copy);
  uint64_t size = layout.getTypeStoreSize(member).getFixedSize();
  uint64_t count = cast<ConstantInt>(copy.getLength())->getZExtValue() / size;
  Value *from = b.CreatePointerCast(
      copy.getRawSource(), member->getPointerTo(copy.getSourceAddressSpace()));
  Value *to = b.CreatePointerCast(
      copy.getRawDest(), member->getPointerTo(copy.getDestAddressSpace()));
  Align from_align = copy.getSourceAlign().valueOrOne();
  Align to_align = copy.getDestAlign().valueOrOne();
  SmallVector<Value *, max_members> values;
  for (uint64_t i = 0; i < count; ++i)
    values.push_back(b.CreateAlignedLoad(
        member, b.CreateConstInBoundsGEP1_64(member, from, i),
        commonAlignment(from_align, i * size)));
  /* InstCombine sinks each load into the block of its use (past the
   * alignment test of the copy's destination) one at a time, which
   * reverses their order: the fourth member's load would come first. It
   * sinks no load that an instruction that may write memory follows in its
   * block, which llvm.sideeffect is taken for; it makes no code. */
  b.CreateIntrinsic(Intrinsic::sideeffect, {}, {});
  for (uint64_t i = 0; i < count; ++i)
    b.CreateAlignedStore(values[i], b.CreateConstInBoundsGEP1_64(member, to, i),
                         commonAlignment(to_align, i * size));
  copy.eraseFromParent();
}

} // namespace

bool cuemu_llvm_plugin_copies(Function &f) {
  if (!f.hasFnAttribute(Attribute::SanitizeThread))
    return false;
  const DataLayout &layout = f.getParent()->getDataLayout();
  SmallVector<std::pair<MemTransferInst *, Type *>, 8> found;
  for (Instruction &inst : instructions(f))
    if (auto *copy = dyn_cast<MemTransferInst>(&inst))
      if (Type *member = member_type(*copy, layout))
        found.push_back({copy, member});
  for (auto &[copy, member] : found)
    split(*copy, member, layout);
  return !found.empty();
}
