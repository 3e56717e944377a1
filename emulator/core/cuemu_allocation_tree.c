/*
 * cuemu_allocation_tree.c: the table of allocations' search tree (see
 * cuemu_allocation_tree.h). A treap: a binary search tree by base that is
 * also a heap by a priority, here a hash of the base, so that its shape
 * is that of a tree built in random order (expected depth O(log n))
 * whatever the order in which allocations come, and the same for the same
 * addresses. Adding and removing are a split and a merge.
 */
#include "core/cuemu_allocation_tree.h"

#include <stdlib.h>

typedef cuemu__allocation_node node;

static uintptr_t key_of(const node *t) { return (uintptr_t)t->entry.base; }

/* The priority of a base: a bit mixer (splitmix64's finaliser). */
static uint64_t priority(uintptr_t key) {
  uint64_t z = (uint64_t)key + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Splits `t` into the entries below `key` (*lo) and the others (*hi). */
static void split(node *t, uintptr_t key, node **lo, node **hi) {
  if (!t) {
    *lo = *hi = NULL;
  } else if (key_of(t) < key) {
    split(t->right, key, &t->right, hi);
    *lo = t;
  } else {
    split(t->left, key, lo, &t->left);
    *hi = t;
  }
}

/* Joins `lo` and `hi`, every key of `lo` below every key of `hi`. */
static node *merge(node *lo, node *hi) {
  if (!lo)
    return hi;
  if (!hi)
    return lo;
  if (priority(key_of(lo)) > priority(key_of(hi))) {
    lo->right = merge(lo->right, hi);
    return lo;
  }
  hi->left = merge(lo, hi->left);
  return hi;
}

node *cuemu__allocation_tree_floor(const cuemu__allocation_tree *tree,
                                   uintptr_t p) {
  node *best = NULL;
  for (node *t = tree->root; t;)
    if (key_of(t) <= p) {
      best = t;
      t = t->right;
    } else {
      t = t->left;
    }
  return best;
}

node *cuemu__allocation_tree_ceil(const cuemu__allocation_tree *tree,
                                  uintptr_t p) {
  node *best = NULL;
  for (node *t = tree->root; t;)
    if (key_of(t) >= p) {
      best = t;
      t = t->left;
    } else {
      t = t->right;
    }
  return best;
}

/* Puts `n` into `t` where its priority places it. */
static node *insert(node *t, node *n) {
  if (!t)
    return n;
  if (priority(key_of(n)) > priority(key_of(t))) {
    split(t, key_of(n), &n->left, &n->right);
    return n;
  }
  if (key_of(n) < key_of(t))
    t->left = insert(t->left, n);
  else
    t->right = insert(t->right, n);
  return t;
}

node *cuemu__allocation_tree_insert(cuemu__allocation_tree *tree,
                                    const cuemu_rt_allocation *entry) {
  node *n = malloc(sizeof *n);
  if (!n)
    return NULL;
  *n = (node){*entry, NULL, NULL};
  tree->root = insert(tree->root, n);
  tree->len++;
  return n;
}

/* Removes the node of `key` from `t`; the tree's new root. */
static node *remove_key(node *t, uintptr_t key, size_t *len) {
  if (!t)
    return NULL;
  if (key_of(t) == key) {
    node *rest = merge(t->left, t->right);
    free(t);
    --*len;
    return rest;
  }
  if (key < key_of(t))
    t->left = remove_key(t->left, key, len);
  else
    t->right = remove_key(t->right, key, len);
  return t;
}

void cuemu__allocation_tree_remove(cuemu__allocation_tree *tree,
                                   uintptr_t base) {
  tree->root = remove_key(tree->root, base, &tree->len);
}

static cuemu_rt_allocation *copy(const node *t, cuemu_rt_allocation *out) {
  if (!t)
    return out;
  out = copy(t->left, out);
  *out++ = t->entry;
  return copy(t->right, out);
}

void cuemu__allocation_tree_copy(const cuemu__allocation_tree *tree,
                                 cuemu_rt_allocation *out) {
  copy(tree->root, out);
}

static node *sweep(node *t, int (*visit)(cuemu_rt_allocation *, void *),
                   void *ctx, size_t *len) {
  if (!t)
    return NULL;
  t->left = sweep(t->left, visit, ctx, len);
  t->right = sweep(t->right, visit, ctx, len);
  if (!visit(&t->entry, ctx))
    return t;
  node *rest = merge(t->left, t->right);
  free(t);
  --*len;
  return rest;
}

void cuemu__allocation_tree_sweep(cuemu__allocation_tree *tree,
                                  int (*visit)(cuemu_rt_allocation *, void *),
                                  void *ctx) {
  tree->root = sweep(tree->root, visit, ctx, &tree->len);
}
