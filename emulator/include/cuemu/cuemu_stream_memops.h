/*
 * cuemu_stream_memops.h: the driver API's stream memory operations
 * (cuStreamWaitValue32/64, cuStreamWriteValue32/64, cuStreamBatchMemOp) and
 * the graph nodes that hold them (cuGraphAddBatchMemOpNode, ...). The shim
 * cuemu_driver_memop_api.h forwards each call as a batch of operations in
 * CUDA's CUstreamBatchMemOpParams layout, which cuemu_memop mirrors.
 *
 * The operations are queued in their stream (docs/streams.md): a wait holds
 * the stream's later work until its condition holds, so a write that the
 * same thread issues later on another stream, another host thread, another
 * process sharing the memory or a kernel satisfies it. A wait that nothing
 * satisfies within CUEMU_EXT_WAIT_SECONDS (default 60) fails with
 * cudaErrorTimeout and a message; one that nothing can satisfy (the host
 * waits for it, the process has no other host thread, no pending work can
 * write the value and the memory is not shared with another process) fails
 * with cudaErrorNotSupported and a message that says why, returned by the
 * synchronisation. With CUEMU_STREAMS=sync a wait runs when issued and
 * blocks the calling thread. Flushing remote writes (CU_STREAM_WAIT_VALUE_FLUSH,
 * CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES) is cudaErrorNotSupported, as the
 * device's CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES (0) says. Runtime
 * codes (the shim turns them into the driver's). Host code, any thread.
 */
#ifndef CUEMU_STREAM_MEMOPS_H
#define CUEMU_STREAM_MEMOPS_H

#ifdef __cplusplus
extern "C" {
#endif

/* One operation, in CUstreamBatchMemOpParams's layout (48 bytes). */
typedef union cuemu_memop {
  unsigned operation; /* CUstreamBatchMemOpType */
  struct {
    unsigned operation;
    unsigned long long address;
    unsigned long long value; /* a 32-bit operation reads the low half */
    unsigned flags;
    unsigned long long alias;
  } value; /* WAIT_VALUE_32/64, WRITE_VALUE_32/64 */
  struct {
    unsigned operation;
    unsigned flags;
  } other; /* BARRIER (flags 0 or 1), FLUSH_REMOTE_WRITES */
  unsigned long long pad[6];
} cuemu_memop;

/* CUstreamBatchMemOpType. */
enum {
  CUEMU_MEMOP_WAIT_VALUE_32 = 1,
  CUEMU_MEMOP_WRITE_VALUE_32 = 2,
  CUEMU_MEMOP_FLUSH_REMOTE_WRITES = 3,
  CUEMU_MEMOP_WAIT_VALUE_64 = 4,
  CUEMU_MEMOP_WRITE_VALUE_64 = 5,
  CUEMU_MEMOP_BARRIER = 6
};

/* cuStreamBatchMemOp: `count` (1 to 255) operations, in order; flags must
 * be 0. Each operation is checked first (its type and flags; a value's
 * address aligned to its size and in device memory, pinned or registered
 * host memory or a module's variable, not managed memory:
 * cudaErrorInvalidValue with a message); into a capturing stream they
 * become one batch memory operation node. */
int cuemu_drv_stream_batch_mem_op(void *stream, unsigned count,
                                  const cuemu_memop *ops, unsigned flags);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_STREAM_MEMOPS_H */
