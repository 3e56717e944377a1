/*
 * cuemu_driver.h: what the compile of one .cu (cuemu_compile.c) and the
 * nvcc command line (cuemu_nvcc.c) share. Internal to libcuemu.
 */
#ifndef CUEMU_DRIVER_H
#define CUEMU_DRIVER_H

#include <stddef.h>
#include <stdio.h>

/* __CUDA_ARCH__ when -arch says nothing: sm_90, the compute capability of
 * the emulated device (emulator/device/cuemu_device_model.c). */
#define CUEMU_DEFAULT_ARCH 900

/* Writes the end of a link command into argv (at most `max` words, the
 * last one NULL; formatted words go to `buffers`): libcuemu's folder, the
 * library, its run path and what the checkers `checks` need at link time.
 * Returns the number of words. */
int cuemu__link_tail(const char *libdir, unsigned checks, const char **argv,
                     int max, char *buffers, size_t buffer_size);

/* Writes into `buffer` the link option of cuemu's driver library
 * (libdir/cuemu-toolkit/lib64/libcuda.so, a linker script naming
 * libcuda.so.1 and libcuemu: emulator/export/libcuda.am), linked only
 * where an object calls one of its symbols (--as-needed). Returns 0 where
 * there is none (or `size` is too small). cuemu_driver_library.c, as the
 * next one. */
int cuemu__driver_library_option(const char *libdir, char *buffer,
                                 size_t size);

/* After a link of the `n` words `words` failed: where no word names the
 * driver library (-lcuda, libcuda.so) and the link's objects (the words
 * that end in .o) refer to the driver's symbols (cuInit, cuMemAlloc_v2:
 * cuda.h's calls, CUEMU_DRV_SYMBOL), a note that names `source` (the
 * user's file of a one-source program; NULL: "the program") and a few of
 * them, and says to link -lcuda, as nvcc needs. */
void cuemu__driver_link_note(const char *const *words, int n,
                             const char *source);

/* 1 when one of the `argc` words of a command line brings GNU OpenMP
 * (libgomp) into a link by the host compiler `compiler`: -lgomp, libgomp by
 * its path, -fopenmp=libgomp, or -fopenmp where the compiler is not one
 * whose OpenMP is another runtime (clang, icx, icpx, nvc++). Such a link
 * names libgomp before libcuemu (emulator/core/cuemu_omp_wait.c says why). */
int cuemu__links_openmp(const char *compiler, const char *const *argv,
                        int argc);

/* Puts into `words` (at most `max`) the link words of the runtime
 * libraries of LLVM that the `n` objects of `files` (the names that end in
 * .o) call because clang++ compiled them with -fopenmp (libomp, to be
 * named before libgomp) or with --coverage, -fprofile-arcs or
 * -fprofile-instr-generate (libclang_rt.profile), as clang++ finds them,
 * else -lomp or -lclang_rt.profile; returns how many
 * (cuemu_clang_runtimes.c). */
int cuemu__clang_runtime_words(const char *const *files, int n,
                               const char **words, int max);

/* The option that makes the host compiler `compiler` link with GNU gold
 * ("-fuse-ld=gold"), for a link of one compile's own objects whose command
 * line has the `argc` words `argv` of the user; NULL for the compiler's
 * default linker: gold is not installed, the words name options for the
 * linker (-Wl,..., -Xlinker, -T, -fuse-ld, -static), or CUEMU_GOLD=0
 * (cuemu_fast_linker.c). */
const char *cuemu__fast_linker(const char *compiler, const char *const *argv,
                               int argc);

/* 1 when `a` is a host compiler's option that makes compiled code record
 * coverage or a profile (--coverage, -fprofile-arcs, -ftest-coverage,
 * -fprofile-..., -fcoverage-mapping). nvcc gives such options to the host
 * compile and to the link; cuemu's device passes leave them out. */
int cuemu__profile_option(const char *a);

/* 1 when one of the `argc` words of a command line brings link inputs
 * (-l, a library file, -L, -Wl,..., -Xlinker) whose contents a compile
 * cache key cannot cover: a program linked with them is not cached as a
 * whole (cuemu_compile()), so cuemu-nvcc caches its object instead. */
int cuemu__links_other_files(const char *const *argv, int argc);

#include <cuemu/cuemu_status.h>

/* nvcc's version macros (-D__CUDACC_VER_MAJOR__=13 ...,
 * -D__CUDA_API_VER_MAJOR__=13 ...) and its feature macros
 * (__CUDACC_DEVICE_ATOMIC_BUILTINS__, __NVCC_DIAG_PRAGMA_SUPPORT__),
 * NULL-terminated: nvcc defines them in both passes of a .cu file and for
 * its .c and .cpp files. */
extern const char *const cuemu__nvcc_version_macros[];

/* The option of the module that -Xptxas -v and --resource-usage read
 * (cuemu_resource_usage.c): it records every kernel template instance of
 * the unit (CUEMU_MODULE_INSTANCE, shims/cuda_builtins/cuemu_qualifiers.h),
 * in the preprocessing pass and the compile of the translated unit. */
#define CUEMU_RECORD_INSTANCES_MACRO "-DCUEMU_RECORD_INSTANCES=1"

/* Prints on the standard error the lines of nvcc's ptxas for each kernel
 * of the module at `module` (compiled with CUEMU_RECORD_INSTANCES_MACRO),
 * as compiled for the real architecture `image` ("sm_90") as a whole
 * program's code or, with `relocatable`, as relocatable device code (-dc),
 * on an emulated device of that architecture, and silences the standard
 * error otherwise
 * (a message of the loader is no message of nvcc's). For a child process,
 * which it leaves with an emulated device and the module loaded. Returns 0,
 * or the first CUDA error (255 for another failure). */
int cuemu__resource_usage_print(const char *module, const char *image,
                                int relocatable);

/* The cc1 option of clang++ `compiler` (a path) that turns off its
 * `noundef` analysis, which deletes device code's paths that pass a value
 * only one lane set (cuemu_clang_noundef.c), or NULL when it has none (before
 * clang 14, which had no such analysis). Asks the compiler once per
 * process. */
const char *cuemu__clang_noundef_option(const char *compiler);

/* Where the column of a message's place lies in its first line (`len`
 * bytes): the ":110" of "f.cu:6:110: error: ...", from *from to *to (the
 * ':'s around it); 0 if none (cuemu_diag_lines.c). */
int cuemu__diag_place_column(const char *line, size_t len, size_t *from,
                             size_t *to);

/* Line `number` of the file `path` (malloc'ed, without its newline), or
 * NULL (cuemu_diag_lines.c). */
char *cuemu__diag_file_line(const char *path, long number);

/* Prints to `out` the compiler's messages in text[0..size) without the
 * instantiation context that lies in cuemu's translation: in the `ndirs`
 * folders `dirs` (the shims, libcuemu's headers), past the end of the
 * user's line, or naming cuemu's namespace; the user's launch that ends the
 * chain stays, at its first word (cuemu_diag_context.c). */
void cuemu__diag_context(const char *text, size_t size,
                         const char *const *dirs, int ndirs, FILE *out);

/* Removes clang++'s closing lines ("1 error generated.") from
 * text[0..*size), each pass having printed its own; whether there was one
 * (cuemu_diag_context.c). */
int cuemu__diag_drop_summary(char *text, size_t *size);

/* Prints clang++'s closing line for the messages printed of both passes:
 * "1 warning and 2 errors generated." (nothing for none). */
void cuemu__diag_print_summary(int errors, int warnings, FILE *out);

/* Whether the line at text[at] is clang++'s quote of a message's source
 * line: no place of its own, and a caret line after it. */
int cuemu__diag_quote_at(const char *text, size_t size, size_t at);

/* Prints to `out` the compiler's messages in text[0..size), with the
 * user's source line in place of a line of cuemu's translation that
 * clang++ quotes, the caret and the column moved to the same word
 * (cuemu_diag_lines.c). */
void cuemu__diag_print(const char *text, size_t size, FILE *out);

/* The compiler's messages text[0..size) with the columns of the user's
 * lines that the translation edited, or that the preprocessing changed (a
 * macro's expansion), as the user's file has them (and g++'s caret redrawn
 * there): `unit` is the translated unit the compiler read, `edits` the
 * translation's (cuemu_rewrite.h), `input` the preprocessed unit it
 * translated (NULL: columns are mapped through the edits alone); the
 * messages may spell the folder `dir` (ending in '/') of the unit's line
 * markers as `spelled`. Returns the new text (*out_size bytes, to free), or
 * NULL where nothing moved (cuemu_diag_columns.c). */
struct cuemu_column_edit;
char *cuemu__diag_columns(const char *text, size_t size, const char *unit,
                          size_t unit_size,
                          const struct cuemu_column_edit *edits, size_t nedits,
                          const char *input, size_t input_size,
                          const char *dir, const char *spelled,
                          size_t *out_size);

/* After the compiler's messages of the passes (texts[0..ntexts), each of
 * sizes[i] bytes, NULL for none): one note for each name of the runtime
 * API that CUDA has removed (cudaThreadSynchronize, texture references)
 * that an error quotes, with what replaces it (cuemu_diag_removed.c). */
void cuemu__diag_removed(const char *const *texts, const size_t *sizes,
                         int ntexts);

/* Compiles with g++, beside `temp` (a path prefix in the cache's build
 * folder), an object whose debugging information declares the built-in
 * variables (threadIdx, ...) of the shims in `shims` (libcuemu's headers in
 * `include`), for the device pass of a debug build that clang++ compiled
 * (cuemu_debug_vars.c); writes its path to `object`. Returns SUCCESS, or
 * COMPILE without g++ (or when it fails), CACHE or IO_ERROR. */
cuemu_status cuemu__debug_vars_object(const char *shims, const char *include,
                                      const char *temp, char *object,
                                      size_t size);

/* Installs at `object` (a path beside `temp`, a path prefix in the cache's
 * build folder, which the caller removes) the object that defines the
 * ThreadSanitizer entry points of a build with the checkers `checks`
 * (CUEMU_CHECK_* bits with instrumentation: race, mem or init), compiled by
 * the compiler of the `ncxx` words `cxx` (`compiler`: the program they
 * run) with the shims in `shims` and libcuemu's headers in `include`, from
 * the compile cache when `use_cache` and it has one
 * (cuemu_check_entry_object.c). Returns SUCCESS, COMPILE, CACHE or
 * IO_ERROR, with a report. */
cuemu_status cuemu__check_entry_object(char *const *cxx, int ncxx,
                                       const char *compiler, unsigned checks,
                                       const char *shims, const char *include,
                                       int use_cache, const char *temp,
                                       char *object, size_t size);

/* cuemu_command_run() in two halves, so that two compiles (the device and
 * the host pass) run at once: starts argv (output to `log` when not NULL)
 * and sets *pid; then waits for it and sets *exit_status (128 + the signal
 * when it was killed). */
cuemu_status cuemu__command_start(const char *const *argv, const char *log,
                                  int *pid);
cuemu_status cuemu__command_wait(int pid, int *exit_status);

/* Runs argv (argv[0] looked up on $PATH) and puts the first line that it
 * prints (its output and errors) into `line`, without the newline; returns
 * 0 when it exited with 0 and printed a line, else -1 (cuemu_command.c). */
int cuemu__command_first_line(const char *const *argv, char *line,
                              size_t size);

/* The `size` bytes of clang++'s messages `text` with each warning about a
 * constant narrowed in braces made an error, as g++ (nvcc's host compiler)
 * refuses it while it only warns about a variable's value narrowed; the
 * count in *errors, the new text's size in *out_size; NULL when out of
 * memory (cuemu_narrowing.c). */
char *cuemu__constant_narrowing_errors(const char *text, size_t size,
                                       size_t *out_size, int *errors);

/* Whether the `size` bytes of a device pass's messages `log` have an
 * error and every error is g++'s or clang++'s about a name that lookup
 * does not find ("'x' was not declared in this scope", "'arg' has not
 * been declared in '::'") at a line that the host pass's preprocessed unit
 * `host_ii` (`host_size` bytes) does not have, or reads otherwise than the
 * device pass's `device_ii` (`device_size` bytes): 1, else 0
 * (cuemu_undeclared_names.c). */
int cuemu__undeclared_device_only(const char *log, size_t size,
                                  const char *device_ii, size_t device_size,
                                  const char *host_ii, size_t host_size);

/* A place that clang++'s message names, FILE:LINE:COLUMN: a local
 * variable's, or a constexpr declaration's (`declaration`). */
typedef struct cuemu_constexpr_place {
  char *file;
  long line, column;
  int declaration;
} cuemu_constexpr_place;
typedef struct cuemu_constexpr_places {
  cuemu_constexpr_place *at;
  size_t count;
} cuemu_constexpr_places;

/* Whether the `size` bytes of a pass's messages `log` have clang++'s
 * error about a local variable of non-literal type in a constexpr
 * function, each in a templated function of the pass's preprocessed unit
 * `ii` (`ii_size` bytes), which nvcc takes, or its "non-constexpr
 * declaration follows constexpr declaration" about a definition whose
 * `constexpr` was blanked (at one of the `nblanked` offsets `blanked`),
 * and no other of these two: 1, with their places added to *places (the
 * declaration's for the latter), else 0 (*places may have some: free it)
 * (cuemu_constexpr_locals.c). */
int cuemu__constexpr_locals_places(const char *log, size_t size,
                                   const char *ii, size_t ii_size,
                                   const long *blanked, size_t nblanked,
                                   cuemu_constexpr_places *places);

/* Blanks out, in the preprocessed unit `ii` (`size` bytes), the
 * `constexpr` of the templated functions around `places` and of the
 * declarations there; their offsets replace *blanked (*nblanked of them,
 * to free). */
void cuemu__constexpr_locals_blank(char *ii, size_t size,
                                   const cuemu_constexpr_places *places,
                                   long **blanked, size_t *nblanked);

void cuemu__constexpr_places_free(cuemu_constexpr_places *places);

/* Puts into `version` the version of the GCC that the `count` words of
 * `words` run ("g++", "ccache g++"), as its -dumpfullversion prints it
 * ("9.4.0"), so that clang++ compiling in its place defines the same
 * __GNUC__, __GNUC_MINOR__ and __GNUC_PATCHLEVEL__ (-fgnuc-version=), as
 * nvcc's front end defines its host compiler's; GCC 10's for a newer one
 * (the newest whose declarations in glibc's headers clang++ reads);
 * returns 0, or -1 (and an empty `version`) when it does not print one
 * (cuemu_gnu_version.c). */
int cuemu__gnu_version(char *const *words, int count, char *version,
                       size_t size);

/* Gives default visibility, in the relocatable ELF object `object`, to the
 * kernel template instances that its section of kernel instances records
 * (cuemu_elf_instances.c), so that objcopy --localize-hidden leaves them
 * global. Objects that are not 64-bit ELF of this machine are left as they
 * are. Returns SUCCESS, IO_ERROR or COMPILE (a malformed object). */
cuemu_status cuemu__elf_export_instances(const char *object);

/* Calls each(symbol, data) with the symbol (an assembler name) of every
 * kernel template instance that the records of the first device pass in
 * the relocatable ELF object `object` name, until it returns non-zero.
 * Returns as cuemu__elf_export_instances(). */
cuemu_status cuemu__elf_instance_symbols(const char *object,
                                         int (*each)(const char *symbol,
                                                     void *data),
                                         void *data);

/* The layout of a state space's variables that the relocatable object (or
 * shared object) `object` of a pass that notes them defines, from the
 * records of its `section` (cuemu_constant_bytes: `__constant__` data,
 * cuemu_global_bytes: `__device__` and `__managed__` data; see
 * CUEMU_SPACE_BYTES_, shims/cuda_builtins/cuemu_qualifiers.h): the bytes
 * in the records' order, each variable padded to its alignment (`in_order`:
 * ptxas's constant bank of a whole program), the bytes packed by
 * decreasing alignment, which need no padding (`packed`: ptxas's global
 * memory, and the constant bank of relocatable device code), and the
 * number of variables (`count`); all 0 for an object without records. */
typedef struct cuemu_space_layout {
  unsigned long long in_order, packed, count;
} cuemu_space_layout;

/* Fills *layout as above. Returns as cuemu__elf_export_instances(). */
cuemu_status cuemu__elf_space_layout(const char *object, const char *section,
                                    cuemu_space_layout *layout);

/* Makes weak, in the 64-bit ELF shared object `shared_object` (in place),
 * every global symbol of its dynamic symbol table that it does not define,
 * so that it loads even where nothing defines them (they are bound to
 * address 0): the reading module of --resource-usage, whose unit of
 * relocatable device code uses variables of other files
 * (cuemu_elf_weak_references.c). Other files are left as they are.
 * Returns SUCCESS, IO_ERROR or COMPILE (a malformed object). */
cuemu_status cuemu__elf_weaken_references(const char *shared_object);

/* Gives hidden visibility to the global symbols that the relocatable ELF
 * object `object` defines (a device pass's kernels and variables, after
 * objcopy --localize-hidden), as nvcc's objects have them: the program
 * links them, a shared library does not export them. Returns as
 * cuemu__elf_export_instances(). */
cuemu_status cuemu__elf_hide_globals(const char *object);
/* Appends to `argv` (room for `max` words) objcopy's options that rename
 * the C library's math functions to libdevice's (cuemu_device_math.c),
 * to its fast intrinsics where nvcc's --use_fast_math (`fast_math`) makes
 * them so; returns how many it appended (none without libdevice). */
size_t cuemu__device_math_renames(const char **argv, size_t max,
                                  int fast_math);
/* Prepares the object of a further device pass (one per virtual
 * architecture) for its link with the first's: its variables become weak
 * (the first pass's objects win), the hidden ones marked protected so that
 * they stay global when objcopy --localize-hidden makes the other hidden
 * symbols local; its functions of default visibility become weak too.
 * With `restore`, after that objcopy, the marked ones are hidden again. */
cuemu_status cuemu__elf_weaken_variant(const char *object, int restore);

/* Writes to the file `list` the renames (objcopy --redefine-syms: "OLD
 * NEW", one a line, NEW being OLD followed by `suffix`) of the global
 * functions and references of protected visibility of the relocatable ELF
 * object `object`: those of a further device pass of relocatable device
 * code (-rdc, -dc) are its visible __device__ functions, defined or
 * called (cuemu_rewrite.c's variant_linkage). Renamed alike in every unit,
 * each architecture's code calls that architecture's functions when the
 * program links, as nvlink links each architecture apart. Its __device__
 * variables (protected too) are renamed where referenced; a defined one
 * whose initializer points at code (a device function's address) is
 * renamed, the pass's own copy, and the others are listed in the linker
 * script `aliases` ("NEW = OLD;", *naliases lines; none with NULL), to be
 * linked with the first pass's object, whose variable they name: one
 * object for every pass. The copies are listed in the file `copies`
 * ("NAME SIZE", *ncopies lines; none with NULL). The virtual tables of
 * the user's classes, defined or referenced, are renamed too (a device
 * pass's names its code of the virtual functions): a defined one is made
 * protected (kept global), a reference weak and hidden (0 where no device
 * pass defines the table: host code that a device pass also compiles,
 * never run). Sets *count to the
 * number of lines (0: no file written). Returns as
 * cuemu__elf_export_instances(). */
cuemu_status cuemu__elf_variant_renames(const char *object,
                                        const char *suffix, const char *list,
                                        int *count, const char *aliases,
                                        int *naliases, const char *copies,
                                        int *ncopies);

/* Writes to `source` the assembly of the records (section
 * cuemu_variable_copies, cuemu_variable_copy of cuemu_device.h: the first
 * pass's object, the further pass's copy, its size, the pass's
 * architecture `arch`, 80) of the copies that `list` names ("NAME SIZE"
 * lines, cuemu__elf_variant_renames()'s `copies`), whose copies are named
 * NAME followed by `suffix`. The host's symbol calls (cudaMemcpyToSymbol,
 * cudaMemcpyFromSymbol, cudaGetSymbolAddress) then reach the copy of the
 * pass that the current device runs, as on a GPU its cubin's. Returns
 * SUCCESS or IO_ERROR. */
cuemu_status cuemu__variable_copies_source(const char *list,
                                           const char *suffix, int arch,
                                           const char *source);

/* What cuemu__elf_link_symbols() tells of a symbol. */
enum cuemu_link_symbol {
  CUEMU_LINK_DEFINED,    /* a global or weak definition */
  CUEMU_LINK_UNDEFINED,  /* a strong reference */
  CUEMU_LINK_WEAK_TABLE  /* a weak reference to a device pass's virtual
                          * table of a user's class (NAME.cuemu_device,
                          * NAME.cuemu_arch_800: cuemu__elf_variant_renames()) */
};

/* Calls each(ctx, NAME, KIND) for the global symbols of the relocatable ELF
 * object of `size` bytes at `offset` of the file `path` (size 0: to the
 * file's end; an archive's member), KIND a cuemu_link_symbol (weak
 * references other than tables are not told), stopping at the first
 * status other than SUCCESS, which it returns; a file or object of
 * another kind has none. */
cuemu_status cuemu__elf_link_symbols(const char *path, long long offset,
                                     size_t size,
                                     cuemu_status (*each)(void *ctx,
                                                          const char *name,
                                                          int kind),
                                     void *ctx);

/* Calls each(ctx, NAME) once a name for each weak reference to a device
 * pass's virtual table (CUEMU_LINK_WEAK_TABLE) of the link's objects (the
 * files of `files` that end in .o, n files) and of the archive members
 * that the link pulls in (as ld pulls them: by a strong reference that
 * nothing read defines, or by such a table, until no member is added) that
 * the symbol index of one of its archives defines: the files that end in
 * .a, and those that the link options `link` (m words: -L, -l, -Xlinker)
 * name as ld finds them. Such a reference is weak (host code that a device pass compiles
 * may name a table no device pass defines), so it pulls no archive's
 * member into the link, where nvcc's device link, whose references are
 * strong, does: the link names these undefined (`-u`, or the -dlink
 * object's undefined symbols) to pull the member as nvlink does. */
cuemu_status cuemu__archive_vtable_pulls(const char *const *files, int n,
                                         const char *const *link, int m,
                                         cuemu_status (*each)(void *ctx,
                                                              const char *name),
                                         void *ctx);

/* The suffix of a further device pass's names of relocatable device code:
 * ".cuemu_arch_800" for sm_80's pass (cuemu__elf_variant_renames()). */
#define CUEMU_ARCH_SUFFIX_PREFIX ".cuemu_arch_"

/* Calls each(ctx, NAME) for each strong reference of the link's objects
 * (as cuemu__archive_vtable_pulls() takes `files` and `link`) that neither
 * an object nor an archive member that the link pulls in defines. Those to
 * a further device pass's function or variable (NAME.cuemu_arch_800) are
 * device code's, what nvcc's device link refuses ("Undefined reference
 * to"); a build for one architecture names its device code as its host
 * code, whose references cuemu__reach_undefined() tells apart. */
cuemu_status cuemu__archive_undefined(
    const char *const *files, int n, const char *const *link, int m,
    cuemu_status (*each)(void *ctx, const char *name), void *ctx);

/* Calls each(ctx, NAME, OBJECT) for the references of the device code of
 * the link's objects (`files`, n, and the archives that `link`, m words,
 * names with -l; the summaries of cuemu__elf_shared_calls()'s `reach`)
 * that undefined(ctx, NAME) says no input defines, as nvlink tells them
 * ("Undefined reference to 'NAME' in 'OBJECT'"; OBJECT a path of `files`,
 * or ARCHIVE:MEMBER): object by object in the link's order, the functions
 * that the kernels reach (through other objects' functions too; an
 * archive's member that they reach is linked), then the variables that
 * the object's functions reference; each name once. Returns SUCCESS,
 * OUT_OF_MEMORY, or the first other status of each(). */
cuemu_status cuemu__reach_undefined(
    const char *const *files, int n, const char *const *link, int m,
    int (*undefined)(void *ctx, const char *name),
    cuemu_status (*each)(void *ctx, const char *name, const char *object),
    void *ctx);

/* Non-zero when a library of every program's link defines `name`: the C,
 * math and C++ runtimes (libc, libm, libstdc++, libgcc_s), and libcuemu.so
 * and libcuemu_cudart.so of the folder `libdir` (cuemu_runtime_names.c). */
int cuemu__runtime_defines(const char *libdir, const char *name);

/* Writes to the assembly file `source` the records (section
 * cuemu_static_shared_calls: the function's address, the declaration's id,
 * its size; ::cuemu::__cuemu_static_shared_call) of the static __shared__
 * declarations of the functions that each global function of the device
 * pass's relocatable ELF object `object` (a kernel) can call, read from
 * the object's notes (CUEMU_DEVICE_SHARED_NOTE, section
 * cuemu_shared_notes: where each declaration lies in the code) and from
 * the relocations between its sections of code (-ffunction-sections: the
 * calls; another object's functions are not seen). Sets *count to the
 * number of records (0: no file written), *noted to whether the object
 * has notes (to be removed: they name code sections, which a link may
 * discard with their group). With `unit` (the source file, for messages),
 * also holds each kernel of the object (the records of the sections
 * cuemu_static_shared and cuemu_kernel_marks) to nvcc's limit on static
 * shared memory, 48 KiB for its body's declarations and those of the code
 * it reaches together, and returns COMPILE for one past it, as ptxas
 * refuses it. Returns as cuemu__elf_export_instances(). */
cuemu_status cuemu__elf_shared_calls(const char *object, const char *source,
                                     int *count, int *noted, const char *reach,
                                     int *nreach, const char *unit);

/* The name that nvcc's ptxas gives the kernel whose symbol is `symbol`
 * (in buf, of `size` bytes, or symbol itself): a static kernel's, which
 * g++ mangles `_ZL...` and the translation puts in the unit's namespace
 * (cuemu_internal_linkage.c), is `_Z...`, as nvcc mangles it. */
const char *cuemu__ptxas_entry_name(const char *symbol, char *buf,
                                    size_t size);

/* With `reach` (relocatable device code), cuemu__elf_shared_calls() also
 * writes there, for the device link, what each global function reaches in
 * its object: "N FUNCTION ID BYTES" for a static __shared__ declaration,
 * "C FUNCTION NAME" for a reference to another object's symbol (*nreach
 * lines; kept in the unit's object as the section cuemu_shared_reach).
 * cuemu__shared_reach_source() writes to the assembly file `source` the
 * records (section cuemu_static_shared_calls) that the link's objects
 * `files` (n files; those ending in .o, and the members of those ending in
 * .a and of the archives that the link options `link`, m words, name with
 * -l) give across their units (a function is referenced weakly: one of an
 * archive's member that the link leaves out is 0, and is not pulled in):
 * for each function, the declarations of the functions of other units
 * that it can call, through them transitively, as nvlink counts them
 * in a kernel's static shared memory; *count records (0: no file). */
cuemu_status cuemu__shared_reach_source(const char *const *files, int n,
                                        const char *const *link, int m,
                                        const char *source, int *count);

/* The file of the thin archive's (`ar rcT`) member whose header is at
 * `offset` of the archive at `archive` (the name it keeps, relative to the
 * archive's folder unless absolute), or NULL (not such a member). Returns
 * a string to free (cuemu_thin_archive.c). */
char *cuemu__thin_member(const char *archive, unsigned long long offset);

/* The offset of the member after the one whose ar header `header` is at
 * `at` of an archive, thin (`thin` non-zero: only the symbol index and the
 * long names hold their data) or not. */
unsigned long long cuemu__archive_next(const unsigned char *header,
                                       unsigned long long at, int thin);

/* The archive that `-lNAME` (or `-l:FILE`, name ":FILE") names among the
 * -L folders of the link options `link` (m words), as ld finds it (a
 * shared library first), or NULL (none, or a shared library). Returns a
 * string to free. */
char *cuemu__link_archive(const char *const *link, int m, const char *name);

/* The suffix of the first device pass's names of the __host__ __device__
 * functions of relocatable device code (cuemu_rewrite.c's
 * host_device_linkage()): its device code, named apart from the host
 * pass's. A further pass's are NAME.cuemu_arch_800, as its __device__
 * functions'. */
#define CUEMU_DEVICE_SUFFIX ".cuemu_device"

/* Appends to the file `list` ("NEW OLD", one a line, NEW being OLD followed
 * by `suffix`) the fallbacks of the undefined references of protected
 * visibility of a device pass's relocatable ELF object `object`, before
 * its renames (cuemu__elf_variant_renames()), that name __host__ __device__
 * functions: all of them in a first device pass (first: NULL), whose
 * protected references are those alone; in a further pass, those whose
 * NAME.cuemu_device the first pass's object `first` has. The device pass
 * also compiles host code, which may call such a function that only a
 * host-only file defines (`HD int f();` with HD empty for g++): a weak
 * NEW that jumps to OLD, the host's (cuemu__device_fallbacks_source()),
 * links it; a unit's device pass that defines NEW wins. Adds the number of
 * lines to *count. Returns as cuemu__elf_export_instances(). */
cuemu_status cuemu__elf_device_fallbacks(const char *object,
                                         const char *suffix, const char *first,
                                         const char *list, int *count);

/* Writes to `source` the assembly of the fallbacks that `list` names
 * (cuemu__elf_device_fallbacks()): for each line "NEW OLD", a weak hidden
 * function NEW that jumps to OLD. Returns SUCCESS, IO_ERROR, or
 * NOT_SUPPORTED on a machine for which cuemu has no jump (then the
 * references stay undefined, as nvlink leaves them). */
cuemu_status cuemu__device_fallbacks_source(const char *list,
                                            const char *source);

/* Makes weak, in the host pass's relocatable ELF object `host`, the
 * STB_GNU_UNIQUE definitions (g++'s binding of a variable template's
 * instance) of the symbols that the device pass's object `device` defines
 * as global or weak, so that the program links the device pass's object
 * (linked first) and host code uses it; an instance that the device pass
 * never made stays the host pass's own (cuemu_variable_template.c).
 * Returns as cuemu__elf_export_instances(). */
cuemu_status cuemu__elf_weaken_unique(const char *host, const char *device);

/* The suffix of the host pass's own objects of __device__ and __constant__
 * variables (shadows, as nvcc's host code has them):
 * cuemu__elf_variable_shadows(). */
#define CUEMU_SHADOW_SUFFIX ".cuemu_shadow"

/* The bytes of zeros that come before the host pass's objects in its data
 * and bss (cuemu__elf_variable_shadows()), after the device pass's
 * variables, which the program links first: an index just past the unit's
 * last device variable reads these, as one past another variable reads its
 * neighbour, not a shadow, which memcheck reports as host memory (a kernel
 * given host code's `&d_var`). As many as memcheck's redzone. */
#define CUEMU_SHADOW_GUARD 256

/* In the host pass's relocatable ELF object `host`: the symbols of
 * protected visibility (CUEMU_HOST_SHADOW_MARK of cuemu_rewriter.h, the
 * host pass's device and constant variables, defined or referenced) are
 * made hidden, and written to the file `renames` ("NAME
 * NAME.cuemu_shadow", one a line, for objcopy --redefine-syms), so that
 * host code names its own objects, apart from the device pass's. For each
 * one that `host` defines, the assembly of a record (section
 * cuemu_variable_shadows, cuemu_variable_shadow of cuemu_device.h: the
 * shadow, the device pass's object NAME, referenced weakly, and the
 * shadow's size) goes to the file `records`, by which the symbol calls
 * reach the device's object. Sets *count to the number of renamed
 * symbols, *defined to the number of records (0: no file written).
 * Returns as cuemu__elf_export_instances(). */
cuemu_status cuemu__elf_variable_shadows(const char *host, const char *renames,
                                         int *count, const char *records,
                                         int *defined);

/* Writes to the file `list`, one a line, the names of the symbols that the
 * device pass's relocatable ELF object `device` must make local (objcopy
 * --localize-symbols) so that the program's host code links the host
 * pass's copies, and sets *count to their number (the file is written only
 * when there is one). They are: the strong globals that the host pass's
 * object `host` defines too (a host function or variable of default
 * visibility that the user's attribute or pragma, as a shared library's
 * export macro gives it, kept global in the device pass's object, which
 * has every host function too, though nvcc's device code has none); and
 * the weak functions, virtual tables and type information of default
 * visibility (namespace std's templates, a library's exported class), but
 * the kernel template instances, which the device pass's object must
 * give: linked first, its copies would otherwise be the ones host code
 * runs (std::vector's growth through the device heap's operator new, a
 * std::shared_ptr's virtual functions through its free(), under
 * AddressSanitizer a mismatch of new and free). With `separate` (-rdc),
 * whose other units' device code may link a weak one (an explicit
 * instance of a device function template), only namespace std's and the
 * virtual tables and type information that the host pass defines too.
 * Returns as cuemu__elf_export_instances(). */
cuemu_status cuemu__elf_shared_globals(const char *host, const char *device,
                                       int separate, const char *list,
                                       int *count);

/* Writes to `out` (NULL: the standard output) the rule `target : ...`
 * whose prerequisites are those of the compiler's -M files `device` and
 * `host` (cuemu_deps_merge.c): the device pass's, then the host pass's not
 * listed yet, as nvcc lists them; with `phony`, an empty rule for each
 * header (-MP). */
cuemu_status cuemu__deps_merge(const char *device, const char *host,
                               const char *target, int phony,
                               const char *out);

/* The name the driver was invoked by ("cuemu-nvcc", "nvcc", "cuemu-cc"),
 * and a message of `kind` ("note", "warning") in that program's form on
 * stderr: `cuemu-nvcc warning : ...` for a name of nvcc, as nvcc words
 * its own, `cuemu-cc: warning: ...` otherwise, and `NAME: note: ...`
 * (cuemu_driver_name.c). */
const char *cuemu__driver_name(void);
void cuemu__driver_say(const char *kind, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* Whether the device pass of `compiler` (a real path) loads cuemu's GCC
 * plugin, which gives run-time shifts and float-to-integer conversions their
 * GPU results (cuemu_gcc_plugin.cc): 1 with its path in `path` (libdir's
 * cuemu_gcc_plugin.so, when it was built for that compiler's GCC), else 0
 * and "". */
int cuemu__gcc_plugin(const char *compiler, const char *libdir, char *path,
                      size_t size);

/* The same for cuemu's LLVM plugin (cuemu_llvm_plugin.cc: the GCC plugin's
 * shifts, conversions and volatile lockstep for clang++): 1 with libdir's
 * cuemu_llvm_plugin.so in `path` when `compiler` is the clang++ it was
 * built for, else 0 and "" (cuemu_plugin_find.c). */
int cuemu__llvm_plugin(const char *compiler, const char *libdir, char *path,
                       size_t size);
/* The same for cuemu's clang plugin (cuemu_clang_plugin.cc: what nvcc
 * refuses across execution spaces, in clang++'s device pass), built for the
 * same clang++ as the LLVM plugin, where configure found clang's headers. */
int cuemu__clang_plugin(const char *compiler, const char *libdir, char *path,
                        size_t size);

/* Reads the whole file at `path` into a NUL-terminated buffer (which the
 * caller frees) and sets *size to its length; NULL when it cannot be read
 * (cuemu_compile.c). */
char *cuemu__read_file(const char *path, size_t *size);

/* The offset of the first line of `text` (of `size` bytes) at or after
 * `from` that is exactly `line` (with its newline), or -1 (cuemu_pch.c). */
long cuemu__find_line(const char *text, size_t size, size_t from,
                      const char *line);

/* Non-zero when the line at `p` (of `end - p` bytes, without its newline)
 * of a preprocessor's output is a line marker, `# LINE "FILE" FLAGS`: sets
 * the file's name and length, and whether it is entered (flag 1) and a
 * system header (3) (cuemu_pch.c). */
int cuemu__line_marker(const char *p, const char *end, const char **file,
                       size_t *len, int *enter, int *system);

/* Keeps, of the compile cache's entries whose content begins with the `n`
 * bytes of one of `magics` (a list ending with NULL: one kind of entry,
 * such as precompiled headers, of g++ and of clang++), the most recently
 * used (cached or found) ones, at most `max_entries` of them and
 * `max_bytes` in all: the others are removed (cuemu_cache.c). */
void cuemu__cache_bound(const char *const *magics, size_t n,
                        size_t max_entries, unsigned long long max_bytes);

struct cuemu_rewrite;
/* Checks a translated unit against `dialect`, the dialect older than C++14
 * that cuemu-nvcc compiles as C++14 ("11" for -std=c++11, "03"; NULL: no
 * check): a generic lambda is nvcc's error, reported (cuemu__report())
 * at the lambda's file and line. Returns CUEMU_SUCCESS or CUEMU_COMPILE.
 * (cuemu_dialect_check.c; needs cuemu_rewrite.h) */
cuemu_status cuemu__dialect_check(const struct cuemu_rewrite *rw,
                                  const char *dialect);

/* The start of the name that an unnamed namespace gets in both passes,
 * followed by the unit's cache key (cuemu_internal_linkage.c). */
#define CUEMU_UNNAMED_NAMESPACE "cuemu_unnamed_"

/* A kernel template that the device pass alone defines: its qualified
 * name ("ns::k"), and the file and line of its name. */
typedef struct cuemu_device_template {
  char *name, *file;
  int line;
} cuemu_device_template;

/* Refuses, as nvcc does, a kernel that the device pass `device` defines
 * and the host pass `host` does not declare (a __global__ function within
 * #if __CUDA_ARCH__), reported (cuemu__report()) at its file and line
 * (`source` where the kernel has none). Such a kernel template is judged
 * by its instances, which the device pass's object knows: the templates
 * are listed in *templates (*count of them; free them with
 * cuemu__device_templates_free()) for cuemu__device_template_instances().
 * Returns CUEMU_SUCCESS, CUEMU_COMPILE or CUEMU_OUT_OF_MEMORY.
 * (cuemu_device_only_kernels.c; needs cuemu_rewrite.h) */
cuemu_status cuemu__device_only_kernels(const struct cuemu_rewrite *device,
                                        const struct cuemu_rewrite *host,
                                        const char *source,
                                        cuemu_device_template **templates,
                                        int *count);

/* Refuses, as nvcc does (its host stub names every instance that its
 * device pass makes), the first of the `count` kernel templates of the
 * device pass alone (cuemu__device_only_kernels()) of which the device
 * pass's relocatable object `object` holds an instance: a launch, an
 * explicit instantiation or specialization. Returns as
 * cuemu__device_only_kernels(), or IO_ERROR. */
cuemu_status cuemu__device_template_instances(
    const char *object, const cuemu_device_template *templates, int count);

/* Frees the `count` templates `templates`. */
void cuemu__device_templates_free(cuemu_device_template *templates, int count);

/* A library of CUDA's toolkit named `name` (as in -lNAME): 1 when cuemu
 * builds its own (cuBLAS, cuRAND: emulator/libs), -1 when cuemu does not
 * emulate it (cuFFT, cuSPARSE, ...), 0 for any other name; *what (when
 * what is not NULL) is the library's name in words. */
int cuemu__cuda_library(const char *name, const char **what);
/* The same for a file named on a command line (libNAME.so, .so.N or .a,
 * in any folder), with its NAME in name (cap bytes); 0 for any other
 * file. */
int cuemu__cuda_library_file(const char *path, char *name, size_t cap);

#endif /* CUEMU_DRIVER_H */
