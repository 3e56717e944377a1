/*
 * cuemu_implicit_template.c: the `template` keyword that nvcc does not ask
 * for in a typename-specifier.
 *
 * In `typename std::allocator_traits<A>::rebind_alloc<T>` or
 * `typename A::rebind<U>::other`, a name after `::` followed by `<` can
 * only start a template-id (the whole is a type), and C++20 says so (a `<`
 * after a name in a typename-specifier begins template arguments, P1787).
 * nvcc 13 and g++ 12 read it that way in every dialect; clang++ 14, which
 * cuemu-nvcc uses for units that include CUB or Thrust, refuses it ("use
 * 'template' keyword to treat 'rebind_alloc' as a dependent template
 * name"), as BGHT's hash tables met (trialcoll). So in the user's code,
 * within a typename-specifier (`typename`, an optional `::`, then names,
 * template-ids and `::`), `template ` is inserted before each name that
 * follows a `::` and is followed by `<`, where the keyword is not already
 * there (not after a leading `::`). Both compilers take the keyword even where the scope is not
 * dependent or is a namespace (`typename std::template vector<int>::
 * iterator`). A `typename` that declares a template parameter is followed
 * by a name and `,`, `=`, `>` or `...`, and is left as it is.
 * Test: tests/programs/dialect/dependent_template_name.cu.
 */
#include "cuemu_rewriter.h"

cuemu_status cuemu__implicit_template(cuemu_rewriter *rw, size_t i) {
  if (!cuemu__rw_is(rw, i, "typename"))
    return CUEMU_SUCCESS;
  size_t k = i + 1;
  if (cuemu__rw_is(rw, k, "::"))
    ++k;
  for (;;) {
    int keyword = cuemu__rw_is(rw, k, "template");
    if (keyword)
      ++k;
    if (k + 1 >= rw->n || !cuemu__rw_ident(rw, k) ||
        cuemu__rw_is(rw, k, "operator"))
      return CUEMU_SUCCESS;
    size_t next = k + 1;
    if (cuemu__rw_is(rw, next, "<")) {
      size_t close = cuemu__rw_template_close(rw, next);
      if (close >= rw->n)
        return CUEMU_SUCCESS;
      if (!keyword && k > i + 2 && cuemu__rw_is(rw, k - 1, "::")) {
        static const char word[] = "template ";
        cuemu_status st = cuemu__rw_edit(rw, rw->toks[k].offset, 0, word,
                                         sizeof word - 1);
        if (st != CUEMU_SUCCESS)
          return st;
      }
      next = close + 1;
    }
    if (!cuemu__rw_is(rw, next, "::"))
      return CUEMU_SUCCESS;
    k = next + 1;
  }
}
