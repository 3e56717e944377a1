/*
 * cuemu_rt_symbol_valid.h: whether an address may be a symbol (a __device__
 * or __constant__ variable) for the runtime's symbol calls.
 */
#ifndef CUEMU_RT_SYMBOL_VALID_H
#define CUEMU_RT_SYMBOL_VALID_H

/* 0 when `symbol` (not null) can be no variable: no loaded object holds
 * it (the stack, the heap, device memory), or it lies in a loaded object's
 * read-only segment, where no registered __constant__ or __device__
 * variable lies, and is code or no data object's symbol starts there (a
 * string literal); cudaErrorInvalidSymbol then, as CUDA answers. 1
 * otherwise (cuemu_rt_symbol_valid.c). */
int cuemu__rt_symbol_valid(const void *symbol);

#endif
