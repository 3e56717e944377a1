/*
 * cuemu_allocation_tree.h: the entries of the table of allocations
 * (cuemu_allocations.c) ordered by base address, in a balanced search
 * tree (a treap whose priorities are a hash of the base), so that finding
 * the entry holding an address, adding one and removing one take
 * O(log n) however many allocations live (a sorted array took O(n) to add
 * or remove: 100,000 live cudaMallocAsync(16) spent most of 38 s moving
 * it). Not thread-safe: the table's lock guards it. Internal to libcuemu.
 */
#ifndef CUEMU_ALLOCATION_TREE_H
#define CUEMU_ALLOCATION_TREE_H

#include <stddef.h>
#include <stdint.h>

#include <cuemu/cuemu_runtime.h>

typedef struct cuemu__allocation_node {
  cuemu_rt_allocation entry; /* its base is the key; never change it */
  struct cuemu__allocation_node *left, *right;
} cuemu__allocation_node;

/* Zero-initialised, it is empty. */
typedef struct cuemu__allocation_tree {
  cuemu__allocation_node *root;
  size_t len;
} cuemu__allocation_tree;

/* The entry with the greatest base at or below `p`, or NULL. */
cuemu__allocation_node *
cuemu__allocation_tree_floor(const cuemu__allocation_tree *tree, uintptr_t p);

/* The entry with the least base at or above `p`, or NULL. */
cuemu__allocation_node *
cuemu__allocation_tree_ceil(const cuemu__allocation_tree *tree, uintptr_t p);

/* Adds a copy of `entry`, whose base no entry has; returns its node, or
 * NULL without memory. */
cuemu__allocation_node *
cuemu__allocation_tree_insert(cuemu__allocation_tree *tree,
                              const cuemu_rt_allocation *entry);

/* Removes (and frees) the node of `base`, when there is one. */
void cuemu__allocation_tree_remove(cuemu__allocation_tree *tree,
                                   uintptr_t base);

/* Copies the entries, by base, into `out` (room for tree->len). */
void cuemu__allocation_tree_copy(const cuemu__allocation_tree *tree,
                                 cuemu_rt_allocation *out);

/* Calls `visit` on every entry (in no particular order); it may change the
 * entry but its base, and returns non-zero to have it removed. O(n). */
void cuemu__allocation_tree_sweep(cuemu__allocation_tree *tree,
                                  int (*visit)(cuemu_rt_allocation *entry,
                                               void *ctx),
                                  void *ctx);

#endif /* CUEMU_ALLOCATION_TREE_H */
