/* cuemu_llvm_plugin.cc: an LLVM pass plugin that gives device code compiled
 * by clang++ the results that a GPU gives where C++ leaves them undefined
 * and x86-64 gives something else, as cuemu's GCC plugin does for g++
 * (cuemu_gcc_plugin.cc).
 *
 * The device pass of cuemu-cc loads it (-fpass-plugin, cuemu_compile.c)
 * when its compiler is the clang++ that configure found: the units that
 * include CUB or Thrust, and every unit when the user chose clang++. Its
 * pass runs at the start of the optimisation pipeline (at -O0 too), on the
 * IR as clang++ emitted it, before any optimisation could take the
 * undefined cases for impossible:
 *
 * - Shifts by an amount known only at run time. PTX's shl and shr clamp
 *   the amount to the register's width: a 32-bit x << 32 is 0, a signed
 *   x >> 40 fills with the sign bit (PTX ISA, "shl", "shr"); x86-64 takes
 *   the amount modulo the width. The rewrite shifts by the amount masked to
 *   the width and selects the clamped result when the amount, read as
 *   unsigned, is the width or more.
 * - Conversions of float or double to an integer. PTX's cvt.rzi saturates
 *   to the destination's range and converts NaN to 0; x86-64's cvttss2si
 *   gives 0x80000000... for both. LLVM's saturating conversions
 *   (llvm.fptosi.sat, llvm.fptoui.sat) are exactly cvt.rzi's. nvcc converts
 *   to an 8- or 16-bit integer through a 32-bit cvt.rzi of the same
 *   signedness and keeps the low bits, and so does the rewrite (as the GCC
 *   plugin's, tests/programs/narrowcvt/narrow_conversions.cu).
 * - Volatile accesses to memory other than the function's own locals get a
 *   call of cuemu_warp_step(address, file, line) before them
 *   (cuemu_llvm_plugin_lockstep.cc), so that warp-synchronous code written
 *   before Volta runs its lanes in lockstep (docs/warp-lockstep.md).
 * - Wide accesses (a float4's copy) at an address that is not a multiple
 *   of their alignment fault, as on a GPU (cuemu_llvm_plugin_align.cc).
 * - In a unit built for the checkers, copies of small structures are made
 *   member by member, as g++ makes them (cuemu_llvm_plugin_copies.cc).
 * - In a unit built for the checkers, the accesses that racecheck must see
 *   and that clang++'s optimiser would remove before the checkers' hooks
 *   are put in are kept (cuemu_llvm_plugin_race.cc).
 *
 * A pass at the end of the pipeline decides the common case of memcheck and
 * initcheck inline in a checked unit (cuemu_llvm_plugin_check.cc).
 *
 * A second pass, late in the simplification of each function (after
 * inlining), takes the test of a blocked thread out of the thread loop of
 * a kernel that cannot block (cuemu_llvm_plugin_detached.cc).
 *
 * Amounts and operands known when clang++ emits the IR are left alone, as
 * the GCC plugin leaves them to the compiler. The pass runs on every
 * function of the device pass: its host code is never run (the host pass's
 * copy runs), as with the GCC plugin. Before all that, the device pass of
 * a program removes the host functions of the user's files that device
 * code does not reach (cuemu_llvm_plugin_host_code.cc). */

/* libtool compiles a module with -DPIC, which is the name of a parameter of
 * PassBuilder's constructor. */
#undef PIC

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

#include "cuemu_llvm_plugin.h"

using namespace llvm;

namespace {

/* The integer types whose shifts and conversions are rewritten: those that
 * PTX registers hold whole. */
bool register_width(Type *type) {
  return type->isIntegerTy(32) || type->isIntegerTy(64);
}

/* Whether `inst` is a shift by a run-time amount of a register's width. */
bool runtime_shift(Instruction &inst) {
  return inst.isShift() && register_width(inst.getType()) &&
         !isa<Constant>(inst.getOperand(1));
}

/* The integer types narrower than a register (char, short), which nvcc
 * converts a float or a double to through a 32-bit cvt.rzi. */
bool narrow_width(Type *type) {
  return type->isIntegerTy(8) || type->isIntegerTy(16);
}

/* Whether `inst` converts a float or a double to an integer of 8 to 64
 * bits. */
bool float_to_integer(Instruction &inst) {
  return (isa<FPToSIInst>(inst) || isa<FPToUIInst>(inst)) &&
         (register_width(inst.getType()) || narrow_width(inst.getType())) &&
         (inst.getOperand(0)->getType()->isFloatTy() ||
          inst.getOperand(0)->getType()->isDoubleTy());
}

/* a << b or a >> b with PTX's clamped amount. */
Value *clamped_shift(Instruction &shift) {
  IRBuilder<> b(&shift);
  Type *type = shift.getType();
  unsigned width = type->getIntegerBitWidth();
  Value *value = shift.getOperand(0), *amount = shift.getOperand(1);
  Value *masked = b.CreateAnd(amount, ConstantInt::get(type, width - 1));
  Value *shifted = b.CreateBinOp(
      static_cast<Instruction::BinaryOps>(shift.getOpcode()), value, masked);
  Value *past = b.CreateICmpUGE(amount, ConstantInt::get(type, width));
  Value *clamped =
      shift.getOpcode() == Instruction::AShr
          ? b.CreateAShr(value, ConstantInt::get(type, width - 1))
          : static_cast<Value *>(ConstantInt::get(type, 0));
  return b.CreateSelect(past, clamped, shifted);
}

/* (int)f with cvt.rzi's saturation and NaN to 0; a char or a short through
 * the 32-bit conversion, truncated, as nvcc converts it. */
Value *saturated_conversion(Instruction &conversion) {
  IRBuilder<> b(&conversion);
  Intrinsic::ID id = isa<FPToSIInst>(conversion) ? Intrinsic::fptosi_sat
                                                  : Intrinsic::fptoui_sat;
  Value *source = conversion.getOperand(0);
  Type *type = conversion.getType();
  Type *wide = narrow_width(type) ? b.getInt32Ty() : type;
  Value *result = b.CreateIntrinsic(id, {wide, source->getType()}, {source});
  return wide == type ? result : b.CreateTrunc(result, type);
}

/* The rewrites of one function; whether it changed. */
bool gpu_results(Function &f) {
  SmallVector<Instruction *, 16> found;
  for (Instruction &inst : instructions(f))
    if (runtime_shift(inst) || float_to_integer(inst))
      found.push_back(&inst);
  for (Instruction *inst : found) {
    Value *result = inst->isShift() ? clamped_shift(*inst)
                                    : saturated_conversion(*inst);
    result->takeName(inst);
    inst->replaceAllUsesWith(result);
    inst->eraseFromParent();
  }
  return !found.empty();
}

struct gpu_semantics_pass : PassInfoMixin<gpu_semantics_pass> {
  PreservedAnalyses run(Module &m, ModuleAnalysisManager &) {
    /* First, so that nothing is spent on what it removes. */
    bool changed = cuemu_llvm_plugin_host_code(m);
    changed |= cuemu_llvm_plugin_race_module(m);
    for (Function &f : m) {
      if (f.isDeclaration())
        continue;
      changed |= gpu_results(f);
      changed |= cuemu_llvm_plugin_lockstep(f);
      /* After the lockstep rewrite, whose loops would take the test's call
       * for one that synchronises. */
      changed |= cuemu_llvm_plugin_align(f);
      /* After the alignment rewrite, which tests each copy's address. */
      changed |= cuemu_llvm_plugin_copies(f);
      changed |= cuemu_llvm_plugin_race(f);
    }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  /* Run at -O0 too, where clang++ skips passes that may be skipped. */
  static bool isRequired() { return true; }
};

/* The detached rewrite (cuemu_llvm_plugin_detached.cc), after inlining;
 * so is the atomic first guess of compare-and-swap loops
 * (cuemu_llvm_plugin_race.cc), before the instrumentation. */
struct detached_pass : PassInfoMixin<detached_pass> {
  PreservedAnalyses run(Function &f, FunctionAnalysisManager &) {
    bool changed = cuemu_llvm_plugin_cas_guess(f);
    changed |= cuemu_llvm_plugin_detached(f);
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
};

/* The inline test of memcheck and initcheck (cuemu_llvm_plugin_check.cc),
 * at the end of the pipeline. */
struct check_pass : PassInfoMixin<check_pass> {
  PreservedAnalyses run(Function &f, FunctionAnalysisManager &analyses) {
    return cuemu_llvm_plugin_check(f, analyses) ? PreservedAnalyses::none()
                                                : PreservedAnalyses::all();
  }
};

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "cuemu_llvm_plugin", "1",
          [](PassBuilder &builder) {
            builder.registerPipelineStartEPCallback(
                [](ModulePassManager &passes, OptimizationLevel) {
                  passes.addPass(gpu_semantics_pass());
                });
            builder.registerOptimizerLastEPCallback(
                [](ModulePassManager &passes, OptimizationLevel) {
                  passes.addPass(createModuleToFunctionPassAdaptor(check_pass()));
                });
            builder.registerScalarOptimizerLateEPCallback(
                [](FunctionPassManager &passes, OptimizationLevel) {
                  passes.addPass(detached_pass());
                });
          }};
}
