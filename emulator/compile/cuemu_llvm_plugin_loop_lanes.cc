/* cuemu_llvm_plugin_loop_lanes.cc: finds the plain (non-volatile) memory
 * accesses through which the lanes of a warp exchange values in a loop that
 * nothing synchronises, for the lockstep rewrite of cuemu's LLVM plugin
 * (cuemu_llvm_plugin_lockstep.cc) to step them. It is the GCC plugin's
 * analysis (cuemu_gcc_plugin_loop_lanes.cc, where the reasons are told) on
 * the IR that clang++ emits:
 *
 *   for (; s > 0; s >>= 1)
 *     if (tid < s)
 *       sdata[tid] += sdata[tid + s];
 *
 * The IR is looked at before any optimisation: every local variable is an
 * alloca, read and written by loads and stores of its own, and each
 * address is computed by instructions of its own. A loop (found by its
 * back edge) with no call other than to functions that write no memory
 * (a barrier, a __syncwarp() or a collective is a call, and a loop with one
 * needs no steps), and no inline asm, that stores to an element of an array
 * and loads a different element of the same array, gets all its accesses
 * to that array stepped. The array is known by its root: the variable
 * (alloca), parameter or global its pointer is computed from, through
 * element addresses, casts and loads of a pointer variable; "different
 * element" compares how the two addresses are computed, so that a lane
 * that updates its own element (`y[i] = a * x[i] + y[i]`, `p[i].x +=
 * p[i].v`) exchanges nothing, nor does one that keeps a slice of its own
 * (`m[tid][i + 1] = m[tid][i] | bit`, `h[b][tid]`: a dimension indexed by
 * threadIdx.x). A store to an array that may be shared memory and a later
 * load of another element with nothing that may synchronise between,
 * outside any loop, are stepped too (look_at_stores), and so are a load of
 * an element that every lane names and a later store to it (look_at_loads:
 * lanes read a __shared__ counter that one lane then updates). */

#include "llvm/Analysis/CFG.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"

#include "cuemu_llvm_plugin.h"

using namespace llvm;

namespace {

/* Whether `a` and `b` are computed the same way (so they are one address,
 * or one index): the same value, or instructions of one kind whose
 * operands are computed the same way (two loads of one variable read the
 * same value, as in the GCC plugin's view of a variable). */
bool same_value(const Value *a, const Value *b, int depth) {
  if (a == b)
    return true;
  if (depth > 16)
    return false;
#if LLVM_VERSION_MAJOR >= 16
  /* Two reads of the address of one thread-local variable (clang++ 16 and
   * later make each a call of its own). */
  const auto *ta = dyn_cast<IntrinsicInst>(a), *tb = dyn_cast<IntrinsicInst>(b);
  if (ta && tb && ta->getIntrinsicID() == Intrinsic::threadlocal_address &&
      tb->getIntrinsicID() == Intrinsic::threadlocal_address)
    return ta->getArgOperand(0) == tb->getArgOperand(0);
#endif
  const auto *ia = dyn_cast<Instruction>(a), *ib = dyn_cast<Instruction>(b);
  if (!ia || !ib || ia->getOpcode() != ib->getOpcode() ||
      ia->getType() != ib->getType() ||
      ia->getNumOperands() != ib->getNumOperands() || isa<CallBase>(ia) ||
      isa<PHINode>(ia) || !ia->isSameOperationAs(ib))
    return false;
  for (unsigned i = 0; i < ia->getNumOperands(); ++i)
    if (!same_value(ia->getOperand(i), ib->getOperand(i), depth + 1))
      return false;
  return true;
}

/* Whether `address` is that of a variable (a local, a global, or a
 * thread-local one through the intrinsic that clang++ 16 and later read it
 * with), rather than of an element or a member of one. */
bool variable_address(const Value *address) {
  address = address->stripPointerCasts();
#if LLVM_VERSION_MAJOR >= 16
  if (const auto *tls = dyn_cast<IntrinsicInst>(address))
    if (tls->getIntrinsicID() == Intrinsic::threadlocal_address)
      address = tls->getArgOperand(0)->stripPointerCasts();
#endif
  return isa<AllocaInst>(address) || isa<GlobalVariable>(address);
}

/* The variable, parameter or global that pointer `p` comes from, through
 * element addresses, casts and the load of a pointer variable; a pointer
 * loaded from memory other than a variable (a member, `this->s` in a
 * class's method, or an element) is its own root, as the GCC plugin's
 * pointer_root has it. Before, such a load was followed to the variable
 * under it: a loop of a method that stored through a member reference
 * (CUB's `s.keys_out[ranks[u]] = keys[u]`, where `s` is the agent's
 * TempStorage) then stored to the same "array" as its load of the member
 * `s` itself (root `this`), a different element, and every lane of the
 * warp waited at a step at every store of the loop. */
const Value *pointer_root(const Value *p) {
  for (int depth = 0; depth < 32; ++depth) {
    p = p->stripPointerCasts();
    if (const auto *gep = dyn_cast<GEPOperator>(p))
      p = gep->getPointerOperand();
    else if (const auto *load = dyn_cast<LoadInst>(p);
             load && variable_address(load->getPointerOperand()))
      p = load->getPointerOperand();
    else
      return p;
  }
  return p;
}

/* Whether roots `a` and `b` are one array: the same variable, or pointers
 * loaded the same way (two loads of the member `this->p` in
 * `this->p[i] = this->p[i + 1]`). */
bool same_root(const Value *a, const Value *b) {
  return a == b || (isa<LoadInst>(a) && same_value(a, b, 0));
}

/* The element of an array that `address` reaches a part of (`p[i]` for
 * `&p[i].x`): element addresses with constant indices that start at 0
 * select a member of the element. */
const Value *element(const Value *address) {
  for (;;) {
    address = address->stripPointerCasts();
    const auto *gep = dyn_cast<GEPOperator>(address);
    if (!gep || !gep->hasAllConstantIndices() ||
        !cast<Constant>(gep->idx_begin()->get())->isNullValue() ||
        gep->getNumIndices() < 2)
      return address;
    address = gep->getPointerOperand();
  }
}

/* Whether `user` of a local's address only marks it for the optimiser or
 * the debugger: the start and end of its lifetime, a debugging record, or
 * a cast of the address used only by those. */
bool marks_only(const User *user) {
  if (const auto *call = dyn_cast<CallBase>(user))
    return call->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(call);
  if (!isa<CastInst>(user))
    return false;
  for (const User *cast_user : user->users())
    if (!marks_only(cast_user))
      return false;
  return true;
}

/* The one store to local variable `local` (an alloca), or null (a
 * variable stored more than once, or whose address escapes, may hold
 * anything). */
const StoreInst *only_store(const AllocaInst *local) {
  const StoreInst *only = nullptr;
  for (const User *user : local->users()) {
    if (isa<LoadInst>(user) || marks_only(user))
      continue;
    const auto *store = dyn_cast<StoreInst>(user);
    if (!store || store->getPointerOperand() != local || only)
      return nullptr;
    only = store;
  }
  return only;
}

/* Whether index `v` is the lane's own: `threadIdx.x`, read through
 * conversions and a local variable stored once (`const int tid =
 * threadIdx.x;`), as the GCC plugin's lane_index. */
bool lane_index(const Value *v, int depth) {
  if (depth > 16)
    return false;
  if (const auto *cast = dyn_cast<CastInst>(v))
    return lane_index(cast->getOperand(0), depth + 1);
  const auto *load = dyn_cast<LoadInst>(v);
  if (!load)
    return false;
  const Value *from = load->getPointerOperand()->stripPointerCasts();
#if LLVM_VERSION_MAJOR >= 16
  /* clang++ 16 and later read a thread-local variable through the
   * address that this intrinsic gives. */
  if (const auto *tls = dyn_cast<IntrinsicInst>(from))
    if (tls->getIntrinsicID() == Intrinsic::threadlocal_address)
      from = tls->getArgOperand(0)->stripPointerCasts();
#endif
  if (const auto *gep = dyn_cast<GEPOperator>(from))
    if (gep->hasAllZeroIndices())
      from = gep->getPointerOperand()->stripPointerCasts();
  if (const auto *global = dyn_cast<GlobalVariable>(from))
    return global->getName() == "threadIdx";
  const auto *local = dyn_cast<AllocaInst>(from);
  const StoreInst *only = local ? only_store(local) : nullptr;
  return only && lane_index(only->getValueOperand(), depth + 1);
}

/* The indices of an address of an element of a multi-dimensional array,
 * outermost dimension first (`t, i` in `&m[t][i]`, each dimension an
 * element address of its own in clang++'s IR). */
SmallVector<const Value *, 8> array_indices(const Value *address) {
  SmallVector<const Value *, 8> indices;
  for (int depth = 0; depth < 32; ++depth) {
    const auto *gep = dyn_cast<GEPOperator>(address->stripPointerCasts());
    if (!gep)
      break;
    if (gep->getSourceElementType()->isArrayTy() && gep->getNumIndices() == 2)
      indices.insert(indices.begin(), gep->getOperand(2));
    address = gep->getPointerOperand();
  }
  return indices;
}

/* Whether addresses `a` and `b` lie in the slice of a multi-dimensional
 * array that one of its dimensions gives the lane (`&m[tid][i]` and
 * `&m[tid][i + 1]`, `&h[b][tid]`): see the GCC plugin's lane_slices. */
bool lane_slices(const Value *a, const Value *b) {
  SmallVector<const Value *, 8> ia = array_indices(a), ib = array_indices(b);
  if (ia.size() < 2 || ia.size() != ib.size())
    return false;
  for (size_t d = 0; d < ia.size(); ++d)
    if (same_value(ia[d], ib[d], 0) && lane_index(ia[d], 0))
      return true;
  return false;
}

/* One plain access of a loop to memory other than the function's locals. */
struct access {
  Instruction *inst;
  const Value *address, *root;
  bool store;
};

/* The plain access `inst` makes (a load or a store that is not volatile
 * and not of one of the function's own locals, or a call of memcpy,
 * memmove or memset: cuemu_llvm_plugin_memory_call_address), or false. */
bool plain_access(Instruction &inst, access *a) {
  Value *address = nullptr;
  if (const auto *call = dyn_cast<CallBase>(&inst);
      call && cuemu_llvm_plugin_memory_call(*call)) {
    address = cuemu_llvm_plugin_memory_call_address(inst, &a->store);
  } else if (auto *load = dyn_cast<LoadInst>(&inst)) {
    address = load->isVolatile() ? nullptr : load->getPointerOperand();
    a->store = false;
  } else if (auto *store = dyn_cast<StoreInst>(&inst)) {
    address = store->isVolatile() ? nullptr : store->getPointerOperand();
    a->store = true;
  }
  if (!address || isa<AllocaInst>(getUnderlyingObject(address)))
    return false;
  a->inst = &inst;
  a->address = address;
  a->root = pointer_root(address);
  return true;
}

/* Whether `inst` may synchronise the lanes (or be anything the analysis
 * does not follow): a call of a function that may write memory, but for
 * debugging records, the marks of a local's lifetime and memcpy, memmove
 * and memset (plain accesses), or inline asm. */
bool may_synchronise(const Instruction &inst) {
  const auto *call = dyn_cast<CallBase>(&inst);
  if (!call || cuemu_llvm_plugin_memory_call(*call))
    return false;
  if (call->isInlineAsm())
    return true;
  if (isa<DbgInfoIntrinsic>(call) || call->isLifetimeStartOrEnd() ||
      call->onlyReadsMemory())
    return false;
  const Function *callee = call->getCalledFunction();
  return !(callee && callee->onlyReadsMemory());
}

/* The array a pointer root names: the global under the address that
 * clang++ 16 and later read a thread-local variable (a __shared__ one) with,
 * each read a call of its own; any other root itself. */
const Value *array_of(const Value *root) {
#if LLVM_VERSION_MAJOR >= 16
  if (const auto *tls = dyn_cast<IntrinsicInst>(root))
    if (tls->getIntrinsicID() == Intrinsic::threadlocal_address)
      return tls->getArgOperand(0)->stripPointerCasts();
#endif
  return root;
}

/* Adds to `arrays` the globals (a __shared__ variable) that local pointer
 * variable `var` (an alloca) may point into: the roots of all the values
 * stored to it, followed through the other local pointer variables they are
 * loaded from (`int *p = b1_s; ... p = c;`), as the GCC plugin's
 * pointed_arrays. False where its address escapes or one of its values comes
 * from anything else (a parameter, a call, an element). */
bool pointed_arrays(const Value *var, SmallPtrSetImpl<const Value *> &arrays,
                    SmallPtrSetImpl<const Value *> &visited) {
  const auto *local = dyn_cast<AllocaInst>(var);
  if (!local || !local->getAllocatedType()->isPointerTy())
    return false;
  if (!visited.insert(var).second)
    return true;
  if (visited.size() > 16)
    return false;
  for (const User *user : local->users()) {
    if (isa<LoadInst>(user) || marks_only(user))
      continue;
    const auto *store = dyn_cast<StoreInst>(user);
    if (!store || store->getPointerOperand() != local)
      return false;
    const Value *value = store->getValueOperand();
    if (isa<ConstantPointerNull>(value))
      continue;
    const Value *root = array_of(pointer_root(value));
    if (isa<AllocaInst>(root)) {
      if (!pointed_arrays(root, arrays, visited))
        return false;
    } else if (isa<GlobalVariable>(root)) {
      arrays.insert(root);
    } else {
      return false;
    }
  }
  return true;
}

/* Whether roots `a` and `b` are one array: the same root (same_root), or
 * two local pointer variables that may point into the same global, as the
 * buffers a wavefront rotates (`pp = p; p = c; c = old;`): see the GCC
 * plugin's same_array (tests/programs/warpvol/rotating_buffers.cu). */
bool same_array(const Value *a, const Value *b) {
  if (same_root(a, b))
    return true;
  if (!isa<AllocaInst>(a) || !isa<AllocaInst>(b))
    return false;
  SmallPtrSet<const Value *, 8> in_a, in_b, seen_a, seen_b;
  if (!pointed_arrays(a, in_a, seen_a) || !pointed_arrays(b, in_b, seen_b))
    return false;
  for (const Value *array : in_a)
    if (in_b.count(array))
      return true;
  return false;
}

/* Looks at the loop whose back edge goes from `latch` to `header`; adds to
 * `stepped` those of its accesses through which its lanes exchange
 * values. */
void look_at_loop(const BasicBlock *header, const BasicBlock *latch,
                  SmallPtrSetImpl<Instruction *> &stepped) {
  SmallPtrSet<const BasicBlock *, 16> body;
  SmallVector<const BasicBlock *, 16> work;
  body.insert(header);
  if (body.insert(latch).second)
    work.push_back(latch);
  while (!work.empty()) {
    const BasicBlock *bb = work.pop_back_val();
    for (const BasicBlock *pred : predecessors(bb))
      if (body.insert(pred).second)
        work.push_back(pred);
  }
  SmallVector<access, 16> seen;
  for (const BasicBlock *bb : body)
    for (const Instruction &inst : *bb) {
      if (may_synchronise(inst))
        return;
      access a;
      if (plain_access(const_cast<Instruction &>(inst), &a))
        seen.push_back(a);
    }
  for (const access &st : seen) {
    if (!st.store)
      continue;
    bool exchange = false;
    for (const access &ld : seen)
      exchange |= !ld.store && same_array(ld.root, st.root) &&
                  !same_value(element(ld.address), element(st.address), 0) &&
                  !lane_slices(ld.address, st.address);
    if (!exchange)
      continue;
    for (const access &a : seen)
      if (same_array(a.root, st.root))
        stepped.insert(a.inst);
  }
}

/* Adds to `found` the plain accesses that a lane may make after
 * instruction `from` with nothing that may synchronise between, in the same
 * or a later iteration of a loop: see the GCC plugin's accesses_after. */
void accesses_after(Instruction *from, SmallVectorImpl<access> &found) {
  SmallPtrSet<const BasicBlock *, 16> visited;
  SmallVector<BasicBlock *, 16> work;
  BasicBlock *bb = from->getParent();
  Instruction *first = from->getNextNode();
  for (;;) {
    bool open = true;
    for (Instruction *inst = first; inst; inst = inst->getNextNode()) {
      if (may_synchronise(*inst)) {
        open = false;
        break;
      }
      access a;
      if (plain_access(*inst, &a))
        found.push_back(a);
    }
    if (open)
      for (BasicBlock *next : successors(bb))
        if (visited.insert(next).second)
          work.push_back(next);
    if (work.empty())
      return;
    bb = work.pop_back_val();
    first = &bb->front();
  }
}

/* Whether array root `root` may be shared memory: a global (a __shared__
 * variable, or the address of a thread-local one), or a local pointer
 * variable stored once from such a root; a parameter is left out, as in
 * the GCC plugin's may_be_shared. */
bool may_be_shared(const Value *root, int depth) {
  if (depth > 8)
    return false;
  if (isa<GlobalVariable>(root))
    return true;
#if LLVM_VERSION_MAJOR >= 16
  if (const auto *call = dyn_cast<IntrinsicInst>(root))
    return call->getIntrinsicID() == Intrinsic::threadlocal_address;
#endif
  const auto *local = dyn_cast<AllocaInst>(root);
  const StoreInst *only = local ? only_store(local) : nullptr;
  if (!only)
    return false;
  const Value *from = pointer_root(only->getValueOperand());
  return from != root && may_be_shared(from, depth + 1);
}

/* Adds to `stepped` the accesses through which the lanes exchange values
 * outside a loop: a store to an element of an array that may be shared
 * memory, then a load of another element with nothing that may synchronise
 * between; see the GCC plugin's look_at_stores. */
void look_at_stores(Function &f, SmallPtrSetImpl<Instruction *> &stepped) {
  for (BasicBlock &bb : f)
    for (Instruction &inst : bb) {
      access st;
      if (!plain_access(inst, &st) || !st.store || !may_be_shared(st.root, 0))
        continue;
      SmallVector<access, 16> region;
      accesses_after(&inst, region);
      bool exchange = false;
      for (const access &ld : region)
        exchange |= !ld.store && same_root(ld.root, st.root) &&
                    !same_value(element(ld.address), element(st.address), 0) &&
                    !lane_slices(ld.address, st.address);
      if (!exchange)
        continue;
      stepped.insert(&inst);
      for (const access &a : region)
        if (same_root(a.root, st.root))
          stepped.insert(a.inst);
    }
}

/* Whether value `v` is the same for all the lanes of a warp whose threads
 * share threadIdx.y and threadIdx.z: a constant (a global's address among
 * them), an argument, threadIdx.y or .z, blockIdx, blockDim, gridDim or
 * another global read, a local stored once such a value, or an operation
 * on such values; see the GCC plugin's lane_free. */
bool lane_free(const Value *v, const DataLayout &dl, int depth) {
  if (depth > 16)
    return false;
  if (isa<Constant>(v) || isa<Argument>(v))
    return true;
#if LLVM_VERSION_MAJOR >= 16
  if (const auto *tls = dyn_cast<IntrinsicInst>(v))
    return tls->getIntrinsicID() == Intrinsic::threadlocal_address;
#endif
  if (const auto *load = dyn_cast<LoadInst>(v)) {
    const Value *address = load->getPointerOperand();
    APInt offset(dl.getIndexTypeSizeInBits(address->getType()), 0);
    const Value *base =
        array_of(address->stripAndAccumulateConstantOffsets(dl, offset, true));
    if (const auto *global = dyn_cast<GlobalVariable>(base))
      return global->getName() != "threadIdx" || !offset.isZero();
    const auto *local = dyn_cast<AllocaInst>(base);
    const StoreInst *only =
        local && offset.isZero() ? only_store(local) : nullptr;
    return only && lane_free(only->getValueOperand(), dl, depth + 1);
  }
  if (!isa<CastInst>(v) && !isa<BinaryOperator>(v) &&
      !isa<GetElementPtrInst>(v) && !isa<CmpInst>(v) && !isa<SelectInst>(v))
    return false;
  for (const Value *op : cast<Instruction>(v)->operands())
    if (!lane_free(op, dl, depth + 1))
      return false;
  return true;
}

/* Adds to `stepped` the accesses through which the lanes exchange values
 * by a read and a later update of one element that all the lanes of a warp
 * name (they read a __shared__ counter, then one of them updates it, with
 * nothing that may synchronise between); see the GCC plugin's
 * look_at_loads. */
void look_at_loads(Function &f, SmallPtrSetImpl<Instruction *> &stepped) {
  const DataLayout &dl = f.getParent()->getDataLayout();
  for (BasicBlock &bb : f)
    for (Instruction &inst : bb) {
      access ld;
      if (!plain_access(inst, &ld) || ld.store ||
          !may_be_shared(ld.root, 0) || !lane_free(ld.address, dl, 0))
        continue;
      SmallVector<access, 16> region;
      accesses_after(&inst, region);
      bool update = false;
      for (const access &st : region)
        update |= st.store && st.inst->getParent() != &bb &&
                  same_root(st.root, ld.root) &&
                  same_value(element(st.address), element(ld.address), 0);
      if (!update)
        continue;
      stepped.insert(&inst);
      for (const access &a : region)
        if (same_root(a.root, ld.root))
          stepped.insert(a.inst);
    }
}

} // namespace

void cuemu_llvm_plugin_loop_lane_accesses(
    Function &f, SmallPtrSetImpl<Instruction *> &stepped) {
  look_at_stores(f, stepped);
  /* Not in a checked build (-fsanitize=thread): see the GCC plugin's. */
  if (!f.hasFnAttribute(Attribute::SanitizeThread))
    look_at_loads(f, stepped);
  SmallVector<std::pair<const BasicBlock *, const BasicBlock *>, 8> back;
  FindFunctionBackedges(f, back);
  for (const auto &[latch, header] : back)
    look_at_loop(header, latch, stepped);
}

/* A warp's lanes store the entries of a __shared__ row, then lane 0 copies
 * the row out with memcpy, with no __syncwarp() between: the copy reads
 * the row as a load would (see the GCC plugin's builtin_access). */
Value *cuemu_llvm_plugin_memory_call_address(Instruction &inst, bool *store) {
  auto *call = dyn_cast<CallBase>(&inst);
  if (!call || !cuemu_llvm_plugin_memory_call(*call))
    return nullptr;
  if (auto *intrinsic = dyn_cast<MemIntrinsic>(call))
    if (intrinsic->isVolatile())
      return nullptr;
  bool copy = isa<MemTransferInst>(call) ||
              (!isa<MemIntrinsic>(call) &&
               call->getCalledFunction()->getName() != "memset");
  if (copy) {
    Value *source = call->getArgOperand(1);
    if (!isa<AllocaInst>(getUnderlyingObject(source))) {
      *store = false;
      return source;
    }
  }
  Value *dest = call->getArgOperand(0);
  if (isa<AllocaInst>(getUnderlyingObject(dest)))
    return nullptr;
  *store = true;
  return dest;
}

/* memcpy, memmove and memset: LLVM's intrinsics, or calls of the C
 * library's functions of those names, which a checked build makes instead
 * (-fno-builtin-memcpy: its copies stay calls). */
bool cuemu_llvm_plugin_memory_call(const CallBase &call) {
  if (isa<MemIntrinsic>(call))
    return true;
  const Function *callee = call.getCalledFunction();
  if (!callee || call.arg_size() != 3)
    return false;
  StringRef name = callee->getName();
  return name == "memcpy" || name == "memmove" || name == "memset";
}
