/*
 * cuemu_string_macro_suffix.h: a string literal followed by __FILE__
 * without a space ("["__FILE__"]", pre-C++11 code), as g++ reads it and
 * clang++ does not, in a unit that clang++ compiles in g++'s place (CUB
 * and Thrust, docs/cccl.md). Internal to libcuemu.
 */
#ifndef CUEMU_STRING_MACRO_SUFFIX_H
#define CUEMU_STRING_MACRO_SUFFIX_H

/* Rewrites the preprocessed unit at `path` (clang++ -E's output, line
 * markers kept) where a string literal is directly followed by __FILE__,
 * __FILE_NAME__ or __BASE_FILE__: g++ (and so nvcc) takes the name for a
 * macro and the two for two strings, where clang++ takes a user-defined
 * literal's suffix that no literal operator serves. The name becomes the
 * string it stands for there: the file of the line marker in effect (the
 * file whose line expanded it, as with g++), its last component, or the
 * unit's first file, where a name that starts with `map_from` starts with
 * `map_to` instead (both NULL: none), as -fmacro-prefix-map maps __FILE__.
 * A suffix that is not one of these stays. Returns 0, or -1 when the file
 * cannot be read or written. */
int cuemu__split_string_macro_suffixes(const char *path, const char *map_from,
                                       const char *map_to);

#endif /* CUEMU_STRING_MACRO_SUFFIX_H */
