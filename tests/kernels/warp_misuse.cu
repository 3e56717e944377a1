/*
 * warp_misuse.cu: warp intrinsics used against their rules, for
 * tests/check_warp.c. The misuse cases (0, 3, 4, 6, 7) are code that
 * compiles with nvcc but whose behaviour on the GPU is undefined (or a
 * hang): cuemu ends the launch with WARP_MISUSE and names the intrinsic, its
 * line, the mask and the lanes. Cases 1, 2 and 5 follow CUDA's rule ("all
 * non-exited threads named in mask must execute the same intrinsic"): masks
 * that name exited or absent lanes, which are legal. The test finds the
 * lines by their markers.
 *
 * Launched with one block of 32 threads (case 2: 20), one dimension.
 */

extern "C" __global__ void misuse(int which, unsigned *out) {
  unsigned t = threadIdx.x, lane = t % 32;
  out[t] = 0;
  switch (which) {
  case 0: /* Lane 0 is not in its own mask. */
    if (lane == 0)
      out[t] = __ballot_sync(0x00000006u, 1); /* marker: NOT_IN_MASK */
    break;
  case 1: /* Lanes 16 to 31 have exited (legal). */
    if (lane >= 16)
      return;
    out[t] = __shfl_sync(0xffffffffu, t, 0); /* marker: EXITED */
    break;
  case 2: /* A block of 20: lanes 20 to 31 do not exist (legal). */
    out[t] = __reduce_add_sync(0xffffffffu, 1u); /* marker: ABSENT */
    break;
  case 3: /* The halves of the warp wait at different intrinsics. */
    if (lane < 16)
      out[t] = __any_sync(0xffffffffu, 1); /* marker: ANY_HALF */
    else
      out[t] = __all_sync(0xffffffffu, 1); /* marker: ALL_HALF */
    break;
  case 4: /* Half the warp waits at __syncthreads. */
    if (lane < 16)
      __syncwarp(); /* marker: SYNCWARP_HALF */
    else
      __syncthreads(); /* marker: SYNCTHREADS_HALF */
    break;
  case 5: /* A sparse mask naming lane 31, which has exited (legal). */
    if (lane == 31)
      return;
    if (lane == 0)
      __syncwarp(0x80000001u); /* marker: SPARSE_EXITED */
    break;
  case 6: /* A single-lane mask naming another lane (lane 9 calls). */
    if (lane == 9)
      out[t] =
          (unsigned)__shfl_down_sync(0x00000100u, 5, 1); /* marker: SINGLE */
    break;
  case 7: /* Lanes 0 and 1 of one mask wait at a shuffle and at a ballot. */
    if (lane == 0)
      out[t] = (unsigned)__shfl_sync(0x00000003u, 1, 0); /* marker: SHFL_EVEN */
    else if (lane == 1)
      out[t] = __ballot_sync(0x00000003u, 1); /* marker: BALLOT_ODD */
    break;
  }
  out[t] += 1;
}
