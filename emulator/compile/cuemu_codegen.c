/*
 * cuemu_codegen.c: the translation unit handed to the compiler.
 */
#include "cuemu_codegen.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cuemu/cuemu_device.h>

/* Writes `s` as the body of a C string literal. */
static void put_escaped(FILE *out, const char *s) {
  for (; *s; ++s) {
    if (*s == '"' || *s == '\\')
      fputc('\\', out);
    fputc(*s, out);
  }
}

static void put_entry(FILE *out, const char *expr, const char *name,
                      const char *path, int line, const char *bounds,
                      const char *cluster, const char *scoped, int launches,
                      const char *type_alias) {
  /* A kernel whose name is also an ordinary function's is picked out of the
   * overload set by its type (see cuemu__rewrite_preprocessed()). */
  if (type_alias)
    fprintf(out,
            "    ::cuemu::describe<CUEMU_KERNEL_CAST_ARGS((%s *)(&::%s))>"
            "(\"",
            type_alias, expr);
  else
    fprintf(out, "    ::cuemu::describe<CUEMU_KERNEL_ARGS(&%s)>(\"", expr);
  put_escaped(out, name);
  fputs("\", \"", out);
  put_escaped(out, path);
  fprintf(out, "\", %d", line);
  /* __launch_bounds__'s arguments, evaluated where the kernel's name is;
   * a kernel of a named namespace has them evaluated in that namespace
   * (`scoped`, put_scoped_bounds()), where its constants are. */
  if (scoped)
    fprintf(out, ", %s", scoped);
  else if (bounds && *bounds)
    fprintf(out, ", ::cuemu::launch_bounds(%s)", bounds);
  else if ((cluster && *cluster) || launches)
    fputs(", ::cuemu::bounds{0, 0}", out);
  /* __cluster_dims__'s, the same way, and whether it launches grids. */
  if (cluster && *cluster && !scoped)
    fprintf(out, ".with_cluster(%s)", cluster);
  if (launches)
    fputs(".__cuemu_with_launches()", out);
  fputs("),\n", out);
}

/* Writes the line [line, end) (its newline excluded), resolving an
 * `#include "name"` directive (see cuemu__codegen_write()). Any other line,
 * including directives inside comments or inactive branches (where the
 * change is harmless), is written as it is. */
static void put_line(FILE *out, const char *line, const char *end,
                     const char *const *quote_dirs) {
  const char *p = line;
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  if (p < end && *p == '#') {
    p++;
    while (p < end && (*p == ' ' || *p == '\t'))
      p++;
    if ((size_t)(end - p) > 7 && strncmp(p, "include", 7) == 0) {
      const char *q = p + 7;
      while (q < end && (*q == ' ' || *q == '\t'))
        q++;
      const char *close = q < end && *q == '"' ? memchr(q + 1, '"', (size_t)(end - q - 1)) : NULL;
      if (close && close > q + 1 && q[1] != '/') {
        char name[PATH_MAX];
        int n = (int)(close - q - 1);
        snprintf(name, sizeof name, "%.*s", n, q + 1);
        char found[PATH_MAX * 2];
        struct stat st;
        for (int i = 0; quote_dirs && quote_dirs[i]; ++i) {
          if (snprintf(found, sizeof found, "%s/%s", quote_dirs[i], name) <
                  (int)sizeof found &&
              !strpbrk(found, "\"\\") && stat(found, &st) == 0 &&
              S_ISREG(st.st_mode)) {
            fprintf(out, "#include \"%s\"", found);
            fwrite(close + 1, 1, (size_t)(end - close - 1), out);
            return;
          }
        }
        if (!strchr(name, '>')) {
          fprintf(out, "#include <%s>", name);
          fwrite(close + 1, 1, (size_t)(end - close - 1), out);
          return;
        }
      }
    }
  }
  fwrite(line, 1, (size_t)(end - line), out);
}

/* Declares the bounds of the section of static shared records
 * (CUEMU_STATIC_SHARED_NOTE) of the program or module being linked, which
 * its registration hands to ::cuemu::declare_static_shared(). */
/* The first reference of each pass's object of a program or -c unit: a
 * call, never made, in a text section of its own, which the compilers emit
 * before the functions (their top-level asm comes first), `ld -r` keeps
 * first among the text sections, and a link with --gc-sections drops.
 * Linked without libcuemu, the object's first "undefined reference" names
 * what to do (cuemu_device.h). A call needs no text relocation where the
 * object is linked right. */
static void put_link_advice(FILE *out) {
  static const char symbol[] =
      "cuemu_objects_need_libcuemu_link_with_cuemu_nvcc_or_the_cuemu_toolkit_"
      "lib64";
  fprintf(out,
          "#if defined(__x86_64__)\n"
          "__asm__(\".pushsection .text.cuemu_link_advice,\\\"ax\\\",@progbits"
          "\\n\\tcall %s@PLT\\n\\t.popsection\");\n"
          "#elif defined(__aarch64__)\n"
          "__asm__(\".pushsection .text.cuemu_link_advice,\\\"ax\\\",%%progbits"
          "\\n\\tbl %s\\n\\t.popsection\");\n"
          "#endif\n",
          symbol, symbol);
}

static void put_static_shared_section(FILE *out) {
  fputs("extern \"C\" const ::cuemu::static_shared_record "
        "__start_cuemu_static_shared[] __attribute__((weak, "
        "visibility(\"hidden\")));\n"
        "extern \"C\" const ::cuemu::static_shared_record "
        "__stop_cuemu_static_shared[] __attribute__((weak, "
        "visibility(\"hidden\")));\n",
        out);
}

/* Declares the bounds of the section of the device passes' string literals
 * (cuemu_device_strings.h) of the program being linked, which the device
 * pass's registration hands to ::cuemu::declare_device_strings(). */
static void put_device_strings_section(FILE *out) {
  fputs("extern \"C\" const char __start_cuemu_device_strings[] "
        "__attribute__((weak, visibility(\"hidden\")));\n"
        "extern \"C\" const char __stop_cuemu_device_strings[] "
        "__attribute__((weak, visibility(\"hidden\")));\n",
        out);
}

/* Writes the kernel table and its registration: for a module,
 * cuemu_module_describe(); for the device pass of unit `unit_id`, the
 * function cuemu__register_UNIT_ID(); else a static initializer. */
/* Each further pass ("800:sm_80,compute_80;...") as its architecture's
 * name part ("800"), for cuemu__register_UNIT_ARCH(). */
static void put_variant_calls(FILE *out, const char *unit_id,
                              const char *passes, int declare) {
  for (const char *p = passes; p && *p;) {
    const size_t n = strcspn(p, ":");
    if (declare)
      fprintf(out,
              "extern \"C\" void cuemu__register_%s_%.*s("
              "const cuemu_module_desc *) __attribute__((weak));\n",
              unit_id, (int)n, p);
    else
      fprintf(out,
              "  if (cuemu__register_%s_%.*s)\n"
              "    cuemu__register_%s_%.*s(cuemu_generated_table());\n",
              unit_id, (int)n, p, unit_id, (int)n, p);
    p = strchr(p, ';');
    p = p ? p + 1 : NULL;
  }
}

/* The length of the namespace ("a::b") of the kernel `k` ("a::b::k") when
 * it has __launch_bounds__ or __cluster_dims__ to evaluate there, else 0. */
static int bounds_scope(const cuemu_kernel_decl *k) {
  const char *last = NULL;
  for (const char *p = strstr(k->name, "::"); p; p = strstr(p + 2, "::"))
    last = p;
  if (!last || last == k->name || strchr(k->name, '<') ||
      (!(k->launch_bounds && *k->launch_bounds) &&
       !(k->cluster_dims && *k->cluster_dims)))
    return 0;
  return (int)(last - k->name);
}

/* For the kernel `k` (index `index`) of a named namespace with
 * __launch_bounds__ or __cluster_dims__, defines in that namespace a
 * function returning their values, so that the namespace's names are in
 * scope as they are at the kernel (`__launch_bounds__(TILE)` with
 * `md::TILE`); its name goes into `call`, else `call` is left empty. */
static void put_scoped_bounds(FILE *out, const cuemu_kernel_decl *k,
                              int index, char *call, size_t size) {
  const int scope = bounds_scope(k);
  call[0] = '\0';
  if (!scope)
    return;
  int depth = 0;
  for (const char *p = k->name; p < k->name + scope; depth++) {
    const char *q = strstr(p, "::");
    fprintf(out, "namespace %.*s { ", (int)(q - p), p);
    p = q + 2;
  }
  fprintf(out, "constexpr ::cuemu::bounds cuemu_kernel_bounds_%d() { return ",
          index);
  if (k->launch_bounds && *k->launch_bounds)
    fprintf(out, "::cuemu::launch_bounds(%s)", k->launch_bounds);
  else
    fputs("::cuemu::bounds{0, 0}", out);
  if (k->cluster_dims && *k->cluster_dims)
    fprintf(out, ".with_cluster(%s)", k->cluster_dims);
  fputs("; }", out);
  while (depth--)
    fputs(" }", out);
  fputc('\n', out);
  snprintf(call, size, "::%.*s::cuemu_kernel_bounds_%d()", scope, k->name,
           index);
}

static int put_table(FILE *out, const char *path, const cuemu_rewrite *rw,
                     int module, const char *unit_id, int arch,
                     const char *images, int variant, const char *passes,
                     const char *const *name_expressions,
                     const char *const *name_code, int count) {
  put_static_shared_section(out);
  if (!module && unit_id)
    put_device_strings_section(out);
  /* Each kernel's scoped bounds function, NULL where it has none. */
  char **scoped = calloc((size_t)rw->kernel_count + 1, sizeof *scoped);
  if (!scoped)
    return -1;
  for (int i = 0; i < rw->kernel_count; ++i) {
    const cuemu_kernel_decl *k = &rw->kernels[i];
    char call[PATH_MAX];
    if (!k->is_template && k->is_definition) {
      put_scoped_bounds(out, k, i, call, sizeof call);
      if (call[0] && !(scoped[i] = strdup(call))) {
        for (int j = 0; j < i; ++j)
          free(scoped[j]);
        free(scoped);
        return -1;
      }
    }
  }
  fputs("namespace {\n"
        "const cuemu_module_desc *cuemu_generated_table() {\n"
        "  static const cuemu_kernel_desc kernels[] = {\n",
        out);
  int entries = 0;
  for (int i = 0; i < rw->kernel_count; ++i) {
    const cuemu_kernel_decl *k = &rw->kernels[i];
    if (k->is_template || !k->is_definition)
      continue;
    put_entry(out, k->name, k->name, k->file ? k->file : path, k->line,
              k->launch_bounds, k->cluster_dims, scoped[i], k->launches,
              k->type_alias);
    entries++;
  }
  for (int i = 0; i < rw->kernel_count; ++i)
    free(scoped[i]);
  free(scoped);
  for (int i = 0; i < count; ++i) {
    put_entry(out, name_code ? name_code[i] : name_expressions[i],
              name_expressions[i], path, 0, NULL, NULL, NULL, 0, NULL);
    entries++;
  }
  if (entries == 0)
    fputs("    {nullptr, nullptr, nullptr, 0, nullptr, nullptr, 0},\n", out);
  fprintf(out,
          "  };\n"
          "  static const cuemu_module_desc desc = {%d, %d, "
          "kernels};\n"
          "  return &desc;\n"
          "}\n",
          CUEMU_MODULE_ABI, entries);
  if (module) {
    fputs("} // namespace\n"
          "extern \"C\" __attribute__((visibility(\"default\"))) const "
          "cuemu_module_desc *cuemu_module_describe(void) {\n"
          "  ::cuemu::declare_static_shared(__start_cuemu_static_shared, "
          "__stop_cuemu_static_shared);\n"
          "  return cuemu_generated_table();\n"
          "}\n",
          out);
    /* The module's images (-cubin, -fatbin), which cuemu_module_load()
     * checks against the device, as CUDA's cuModuleLoadData does; weak, as
     * modules of -rdc=true are linked together (cuLink). */
    if (images)
      fprintf(out,
              "extern \"C\" __attribute__((visibility(\"default\"), weak)) "
              "const char cuemu_module_images[] = \"%s\";\n",
              images);
  } else if (unit_id && variant) {
    /* A further device pass: its table is a variant of the first pass's,
     * whose registration calls this. */
    fprintf(out,
            "} // namespace\n"
            "extern \"C\" __attribute__((visibility(\"default\"))) void "
            "cuemu__register_%s(const cuemu_module_desc *first) {\n"
            "  cuemu_program_register_variant(first, cuemu_generated_table(), "
            "%d, \"%s\");\n"
            "}\n",
            unit_id, arch / 10, images ? images : "");
  } else if (unit_id) {
    /* The device pass of a program: the host pass calls this when the
     * program starts (the device pass runs no initializers of its own). */
    fputs("} // namespace\n", out);
    put_variant_calls(out, unit_id, passes, 1);
    fprintf(out,
            "extern \"C\" __attribute__((visibility(\"default\"))) void "
            "cuemu__register_%s(void) {\n"
            "  cuemu_program_register_target(cuemu_generated_table(), %d, "
            "%s%s%s);\n",
            unit_id, arch / 10, images ? "\"" : "", images ? images : "0",
            images ? "\"" : "");
    put_variant_calls(out, unit_id, passes, 0);
    fputs("  ::cuemu::declare_device_strings(__start_cuemu_device_strings, "
          "__stop_cuemu_device_strings);\n"
          "}\n",
          out);
  } else {
    fputs("const int cuemu_generated_registered = "
          "(cuemu_program_register(cuemu_generated_table()), "
          "::cuemu::declare_static_shared(__start_cuemu_static_shared, "
          "__stop_cuemu_static_shared), 0);\n"
          "} // namespace\n",
          out);
  }
  return ferror(out) ? -1 : 0;
}

int cuemu__codegen_write(FILE *out, const char *path,
                         const char *const *quote_dirs,
                         const cuemu_rewrite *rw, int module,
                         const char *const *name_expressions, int count) {
  fputs("#line 1 \"", out);
  put_escaped(out, path);
  fputs("\"\n", out);
  for (const char *line = rw->text, *end = rw->text + rw->length;
       line < end;) {
    const char *nl = memchr(line, '\n', (size_t)(end - line));
    const char *stop = nl ? nl : end;
    put_line(out, line, stop, quote_dirs);
    if (nl)
      fputc('\n', out);
    line = nl ? nl + 1 : end;
  }
  if (rw->length && rw->text[rw->length - 1] != '\n')
    fputc('\n', out);
  fputs("#line 1 \"<cuemu-generated>\"\n", out);
  return put_table(out, path, rw, module, NULL, 0, NULL, 0, NULL,
                   name_expressions, NULL, count);
}

int cuemu__codegen_write_unit(FILE *out, const char *path,
                              const cuemu_rewrite *rw, int module,
                              const char *unit_id, int arch,
                              const char *images, int host_pass,
                              const char *passes,
                              const char *const *name_expressions,
                              const char *const *name_code, int count) {
  /* A further device pass records its kernel template instances as
   * variants of the first pass's, with its __CUDA_ARCH__. */
  if (host_pass == CUEMU_UNIT_VARIANT)
    fprintf(out,
            "#undef CUEMU_KERNEL_INSTANCE\n"
            "#define CUEMU_KERNEL_INSTANCE(...) "
            "CUEMU_KERNEL_VARIANT_INSTANCE(%d, __VA_ARGS__)\n",
            arch);
  fwrite(rw->text, 1, rw->length, out);
  if (rw->length && rw->text[rw->length - 1] != '\n')
    fputc('\n', out);
  fputs("# 1 \"<cuemu-generated>\"\n", out);
  if (!module)
    put_link_advice(out);
  if (host_pass == 1) {
    /* The kernel table is the device pass's; the host pass registers it
     * when the program starts, the kernel template instances that the
     * device passes of the program recorded (cuemu_kernel_instances.h),
     * the further passes' own copies of variables
     * (cuemu__variable_copies_source()) and their static shared variables
     * (cuemu_kernel_thunks.h). */
    put_static_shared_section(out);
    fprintf(out,
            "extern \"C\" void cuemu__register_%s(void);\n"
            "extern \"C\" const ::cuemu::instance_record "
            "__start_cuemu_instances[] __attribute__((weak, "
            "visibility(\"hidden\")));\n"
            "extern \"C\" const ::cuemu::instance_record "
            "__stop_cuemu_instances[] __attribute__((weak, "
            "visibility(\"hidden\")));\n"
            "extern \"C\" const ::cuemu_variable_copy "
            "__start_cuemu_variable_copies[] __attribute__((weak, "
            "visibility(\"hidden\")));\n"
            "extern \"C\" const ::cuemu_variable_copy "
            "__stop_cuemu_variable_copies[] __attribute__((weak, "
            "visibility(\"hidden\")));\n"
            "namespace {\n"
            "const int cuemu_device_registered = "
            "(cuemu__register_%s(), ::cuemu_program_register_instances("
            "__start_cuemu_instances, __stop_cuemu_instances), "
            "::cuemu_program_register_variable_copies("
            "__start_cuemu_variable_copies, __stop_cuemu_variable_copies), "
            "::cuemu::declare_static_shared(__start_cuemu_static_shared, "
            "__stop_cuemu_static_shared), 0);\n"
            "} // namespace\n",
            unit_id, unit_id);
    /* The host objects (shadows) of device variables, before the
     * program's static initializers, whose notes of a variable name its
     * shadow (cuemu__elf_variable_shadows()), until the program or shared
     * library is unloaded; then, for a shared library, the tables it
     * registered are forgotten too (cuemu_program_unload()). */
    fputs("extern \"C\" const ::cuemu_variable_shadow "
          "__start_cuemu_variable_shadows[] __attribute__((weak, "
          "visibility(\"hidden\")));\n"
          "extern \"C\" const ::cuemu_variable_shadow "
          "__stop_cuemu_variable_shadows[] __attribute__((weak, "
          "visibility(\"hidden\")));\n"
          "namespace {\n"
          "__attribute__((constructor(101))) void cuemu_shadows_register() {\n"
          "  ::cuemu_program_register_variable_shadows("
          "__start_cuemu_variable_shadows, __stop_cuemu_variable_shadows);\n"
          "}\n"
          "__attribute__((destructor(101))) void cuemu_shadows_unregister() {\n"
          "  ::cuemu_program_unregister_variable_shadows("
          "__start_cuemu_variable_shadows);\n"
          "  ::cuemu_program_unload("
          "reinterpret_cast<const void *>(&cuemu_shadows_unregister));\n"
          "}\n"
          "} // namespace\n",
          out);
    return ferror(out) ? -1 : 0;
  }
  return put_table(out, path, rw, module, unit_id, arch, images,
                   host_pass == CUEMU_UNIT_VARIANT, passes, name_expressions,
                   name_code, count);
}
