/*
 * cuemu_pch.h: the precompiled prelude of a whole program's passes
 * (cuemu_pch.c), used by cuemu_compile.c's build().
 */
#ifndef CUEMU_PCH_H
#define CUEMU_PCH_H

/* Splits the translated unit at `tu`, whose main file is `source`, at the
 * end of its prelude (the forced includes of the preprocessing pass):
 * writes the prelude to `header`, after an #include of `qualifiers` (the
 * header that the unit's compile otherwise force-includes), and the unit
 * without it to `trimmed`. Returns 0, or -1 (nothing written) when the
 * unit has no prelude of that form, when the prelude would not compile as
 * its precompiled form does (it holds a header that the user
 * force-included, or a `#pragma GCC diagnostic` outside system headers), or
 * the files cannot be written. */
int cuemu__pch_split_unit(const char *tu, const char *source,
                          const char *qualifiers, const char *header,
                          const char *trimmed);

/* Installs at `header`.gch the compiler's precompiled `header`, from the
 * compile cache, or compiled there on a miss with the compile command
 * `flags` (a NULL-terminated argv: the compiler and the unit's flags, with
 * no input or output; `context` is the key of the compiler's context, which
 * goes into the entry's key; `qualifiers` is the header that `header`
 * includes). The first call for a prelude only marks it as seen, in the
 * cache; a new precompiled header makes the cache drop the least recently
 * used ones beyond its bounds (cuemu_pch.c). Returns 0, or -1 when there is
 * none to use (its first sighting, no usable cache folder, or the header
 * does not compile silently). */
int cuemu__pch_get(const char *const *flags, const char *context,
                   const char *header, const char *qualifiers);

/* Removes `header`.gch, and unless `keep_text`, `header` and `trimmed`. */
void cuemu__pch_remove(const char *header, const char *trimmed, int keep_text);

#endif
