/*
 * cuemu_device_symbols.h: the renames that objcopy applies to the device
 * pass's object (objcopy wants one target per name), so that kernel code's malloc, free and global operators
 * new and delete (every form: arrays, sizes, alignment, nothrow) reach the
 * device heap (cuemu_device_runtime.h), and, in a checked build, its
 * memcpy, memmove and memset reach the checkers. The device pass holds only
 * device code (its initializers are removed), so nothing else is renamed. Itanium
 * C++ ABI names for a 64-bit size_t. Internal to cuemu-cc.
 */
#ifndef CUEMU_DEVICE_SYMBOLS_H
#define CUEMU_DEVICE_SYMBOLS_H

#define CUEMU_RENAME_(from, to) "--redefine-sym", from "=" to
#define CUEMU_DEVICE_HEAP_RENAMES \
  CUEMU_RENAME_("malloc", "cuemu_device_malloc"), \
  CUEMU_RENAME_("free", "cuemu_device_free"), \
  CUEMU_RENAME_("_Znwm", "cuemu_device_new"), \
  CUEMU_RENAME_("_Znam", "cuemu_device_new_array"), \
  CUEMU_RENAME_("_ZnwmRKSt9nothrow_t", "cuemu_device_new_nothrow"), \
  CUEMU_RENAME_("_ZnamRKSt9nothrow_t", "cuemu_device_new_array_nothrow"), \
  CUEMU_RENAME_("_ZnwmSt11align_val_t", "cuemu_device_new_aligned"), \
  CUEMU_RENAME_("_ZnamSt11align_val_t", "cuemu_device_new_array_aligned"), \
  CUEMU_RENAME_("_ZnwmSt11align_val_tRKSt9nothrow_t", "cuemu_device_new_aligned_nothrow"), \
  CUEMU_RENAME_("_ZnamSt11align_val_tRKSt9nothrow_t", "cuemu_device_new_array_aligned_nothrow"), \
  CUEMU_RENAME_("_ZdlPv", "cuemu_device_delete"), \
  CUEMU_RENAME_("_ZdaPv", "cuemu_device_delete_array"), \
  CUEMU_RENAME_("_ZdlPvm", "cuemu_device_delete_sized"), \
  CUEMU_RENAME_("_ZdaPvm", "cuemu_device_delete_array_sized"), \
  CUEMU_RENAME_("_ZdlPvRKSt9nothrow_t", "cuemu_device_delete_nothrow"), \
  CUEMU_RENAME_("_ZdaPvRKSt9nothrow_t", "cuemu_device_delete_array_nothrow"), \
  CUEMU_RENAME_("_ZdlPvSt11align_val_t", "cuemu_device_delete_aligned"), \
  CUEMU_RENAME_("_ZdaPvSt11align_val_t", "cuemu_device_delete_array_aligned"), \
  CUEMU_RENAME_("_ZdlPvmSt11align_val_t", "cuemu_device_delete_sized_aligned"), \
  CUEMU_RENAME_("_ZdaPvmSt11align_val_t", "cuemu_device_delete_array_sized_aligned")

/* In a checked build (checkers that need the instrumentation, `on`),
 * kernel code's calls of memcpy, memmove and memset (the program's own
 * and those the compiler makes for a copy of a struct) go to libcuemu's
 * __wrap_* (check/cuemu_check_tsan.c), which tell the checkers what they
 * touch: the object says so itself, whatever links it (cuemu-cc's link
 * also has --wrap for them, but a CMake target that the C++ compiler links
 * does not). "--wildcard", which changes nothing, fills the places of an
 * unchecked build. */
#define CUEMU_CHECK_RENAME_(on, from, to)                                      \
  (on) ? "--redefine-sym" : "--wildcard", (on) ? from "=" to : "--wildcard"
#define CUEMU_DEVICE_CHECK_RENAMES(on)                                         \
  CUEMU_CHECK_RENAME_(on, "memcpy", "__wrap_memcpy"),                          \
  CUEMU_CHECK_RENAME_(on, "memmove", "__wrap_memmove"),                        \
  CUEMU_CHECK_RENAME_(on, "memset", "__wrap_memset")

#endif /* CUEMU_DEVICE_SYMBOLS_H */
