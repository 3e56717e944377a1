/* cuemu_gcc_plugin_step_padding.h: the padding of the shorter arms of
 * warp-synchronous branches with the steps they skip
 * (cuemu_gcc_plugin_step_padding.cc), done by the lockstep pass
 * (cuemu_gcc_plugin_lockstep.cc). */
#ifndef CUEMU_GCC_PLUGIN_STEP_PADDING_H
#define CUEMU_GCC_PLUGIN_STEP_PADDING_H

/* Puts a call of cuemu_warp_step_skip(n, file, line) on each edge into a
 * join of `fun` along which n fewer steps (calls of cuemu_warp_step and
 * cuemu_warp_step_volatile) are made than along the longest path from the
 * branch that the join closes, where the paths between the two have no
 * loop. Call after the steps are inserted, with the control-flow graph
 * built. */
void cuemu_gcc_plugin_pad_steps(function *fun);

#endif
