/* cuemu_llvm_plugin.h: the parts of cuemu's LLVM pass plugin
 * (cuemu_llvm_plugin.cc), which the device pass of clang++ loads. */
#ifndef CUEMU_LLVM_PLUGIN_H
#define CUEMU_LLVM_PLUGIN_H

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"

/* Removes the host functions of the user's files that nothing else of `m`
 * reaches, where cuemu's clang plugin recorded them (the device pass of a
 * program, cuemu_llvm_plugin_host_code.cc); whether it removed any. */
bool cuemu_llvm_plugin_host_code(llvm::Module &m);

/* Puts a call of cuemu_warp_step(address, file, line) before each volatile
 * load and store of `f` whose address is not one of its own locals, and
 * before the plain accesses through which the lanes of a warp exchange
 * values in a loop (cuemu_llvm_plugin_lockstep.cc); whether it put any. */
bool cuemu_llvm_plugin_lockstep(llvm::Function &f);

/* Puts a call of cuemu_warp_step_skip(n, file, line) on each edge into a
 * join of `f` along which n fewer steps are made than along the longest
 * path from the branch that the join closes, where no loop lies between
 * them (cuemu_llvm_plugin_step_padding.cc). */
void cuemu_llvm_plugin_pad_steps(llvm::Function &f);

/* Puts a test of the address before each wide access of `f` (a copy of a
 * structure aligned to 4, 8 or 16 bytes, a vector's load or store) that
 * ends the launch with MISALIGNED_ADDRESS where a GPU faults
 * (cuemu_llvm_plugin_align.cc); whether it put any. */
bool cuemu_llvm_plugin_align(llvm::Function &f);

/* The structure that `address` points to, through its casts, or null
 * (cuemu_llvm_plugin_align.cc). */
llvm::StructType *cuemu_llvm_plugin_pointee(const llvm::Value *address);

/* Replaces each copy of a small structure whose members are all of one
 * scalar type by the loads and stores of its members, where `f` is built
 * for the checkers (cuemu_llvm_plugin_copies.cc); whether it replaced any. */
bool cuemu_llvm_plugin_copies(llvm::Function &f);

/* Runs ThreadSanitizer's pass on `f`, where `f` is built for the checkers
 * and its unit asks for the inline test of memcheck or initcheck, and puts
 * that test before each call of a plain __tsan_readN or __tsan_writeN
 * (cuemu_llvm_plugin_check.cc); whether it did. */
bool cuemu_llvm_plugin_check(llvm::Function &f,
                             llvm::FunctionAnalysisManager &analyses);

/* Makes 0 the reads of cuemu_thread_detached that no instruction that may
 * block can precede (cuemu_llvm_plugin_detached.cc); whether it made any. */
bool cuemu_llvm_plugin_detached(llvm::Function &f);

/* Makes every thread-local variable that `m` defines `used`, where `m`
 * is built for the checkers, so that the optimiser keeps the stores to a
 * static __shared__ variable that the unit never reads
 * (cuemu_llvm_plugin_race.cc); whether it made any. */
bool cuemu_llvm_plugin_race_module(llvm::Module &m);

/* Puts an empty asm statement that clobbers memory after each volatile
 * load and store of `f` whose address is not one of its own locals, where
 * `f` is built for the checkers, so that no plain access takes its value
 * (cuemu_llvm_plugin_race.cc); whether it put any. */
bool cuemu_llvm_plugin_race(llvm::Function &f);

/* In a function built for the checkers, the first guess of each
 * compare-and-swap loop (a plain load of the word whose value reaches the
 * compare-and-swap's expected operand) becomes a relaxed atomic load
 * (cuemu_llvm_plugin_race.cc); whether it changed. */
bool cuemu_llvm_plugin_cas_guess(llvm::Function &f);

/* Adds to `stepped` the plain loads and stores of `f` through which the
 * lanes of a warp exchange values in a loop that nothing synchronises
 * (cuemu_llvm_plugin_loop_lanes.cc). */
void cuemu_llvm_plugin_loop_lane_accesses(
    llvm::Function &f, llvm::SmallPtrSetImpl<llvm::Instruction *> &stepped);

/* The address that call `inst` of memcpy, memmove or memset accesses as a
 * plain access (memcpy's and memmove's source, or their destination where
 * the source is a local; memset's destination), and in *store whether it
 * writes there; null for any other instruction, a volatile call or a local
 * (cuemu_llvm_plugin_loop_lanes.cc). */
llvm::Value *cuemu_llvm_plugin_memory_call_address(llvm::Instruction &inst,
                                                   bool *store);

/* Whether `call` is one of memcpy, memmove or memset: LLVM's intrinsics or
 * the C library's functions (cuemu_llvm_plugin_loop_lanes.cc). */
bool cuemu_llvm_plugin_memory_call(const llvm::CallBase &call);

#endif /* CUEMU_LLVM_PLUGIN_H */
