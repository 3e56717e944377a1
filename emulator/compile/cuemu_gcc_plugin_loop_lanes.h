/* cuemu_gcc_plugin_loop_lanes.h: the plain (non-volatile) memory accesses
 * through which the lanes of a warp exchange values in a loop with no
 * synchronisation (cuemu_gcc_plugin_loop_lanes.cc). Include after
 * gcc-plugin.h, tree.h, gimple.h and hash-map.h. */
#ifndef CUEMU_GCC_PLUGIN_LOOP_LANES_H
#define CUEMU_GCC_PLUGIN_LOOP_LANES_H

/* Fills `accesses` with the loads and stores of `fun` (statement -> the
 * reference it reads or writes) that the lanes of a warp make in lockstep
 * on a GPU and that cuemu must step (cuemu_warp_step): those of a loop with
 * no call that may synchronise, that store to an array and load another
 * element of the same array (`for (; s > 0; s >>= 1) if (tid < s) a[tid] +=
 * a[tid + s];`), and a store to a shared array and a later load of
 * another element of it with no such call between, outside a loop
 * (`s[tid] = v;` then lane 0's `s[k]`). Volatile accesses are left out (the lockstep pass steps them
 * all). */
void cuemu_gcc_plugin_loop_lane_accesses(function *fun,
                                         hash_map<gimple *, tree> *accesses);

/* Whether operand `op` of a statement is an access to memory other than the
 * function's own locals: through a pointer, or to a static, thread-local
 * (static __shared__) or external variable. */
bool cuemu_gcc_plugin_shared_candidate(tree op);

#endif
