/*
 * cuemu_codegen.c: the translation unit handed to the compiler.
 */
#include "cuemu_codegen.h"

#include <string.h>

/* Writes `s` as the body of a C string literal. */
static void put_escaped(FILE *out, const char *s) {
  for (; *s; ++s) {
    if (*s == '"' || *s == '\\')
      fputc('\\', out);
    fputc(*s, out);
  }
}

static void put_entry(FILE *out, const char *expr, const char *name,
                      const char *path, int line, const char *bounds) {
  fprintf(out, "    ::cuemu::describe< &%s >(\"", expr);
  put_escaped(out, name);
  fputs("\", \"", out);
  put_escaped(out, path);
  fprintf(out, "\", %d", line);
  /* __launch_bounds__'s arguments, evaluated where the kernel's name is
   * (a kernel that is not a template sees only namespace-scope names). */
  if (bounds && *bounds)
    fprintf(out, ", ::cuemu::launch_bounds(%s)", bounds);
  fputs("),\n", out);
}

int cuemu__codegen_write(FILE *out, const char *path,
                         const cuemu_rewrite *rw, int module,
                         const char *const *name_expressions, int count) {
  fputs("#line 1 \"", out);
  put_escaped(out, path);
  fputs("\"\n", out);
  fwrite(rw->text, 1, rw->length, out);
  if (rw->length && rw->text[rw->length - 1] != '\n')
    fputc('\n', out);

  fputs("#line 1 \"<cuemu-generated>\"\n"
        "namespace {\n"
        "const cuemu_module_desc *cuemu_generated_table() {\n"
        "  static const cuemu_kernel_desc kernels[] = {\n",
        out);
  int entries = 0;
  for (int i = 0; i < rw->kernel_count; ++i) {
    const cuemu_kernel_decl *k = &rw->kernels[i];
    if (k->is_template || !k->is_definition)
      continue;
    put_entry(out, k->name, k->name, path, k->line, k->launch_bounds);
    entries++;
  }
  for (int i = 0; i < count; ++i) {
    put_entry(out, name_expressions[i], name_expressions[i], path, 0, NULL);
    entries++;
  }
  if (entries == 0)
    fputs("    {nullptr, nullptr, nullptr, 0, nullptr, nullptr, 0},\n", out);
  fprintf(out,
          "  };\n"
          "  static const cuemu_module_desc desc = {CUEMU_MODULE_ABI, %d, "
          "kernels};\n"
          "  return &desc;\n"
          "}\n",
          entries);
  if (module) {
    fputs("} // namespace\n"
          "extern \"C\" __attribute__((visibility(\"default\"))) const "
          "cuemu_module_desc *cuemu_module_describe(void) {\n"
          "  return cuemu_generated_table();\n"
          "}\n",
          out);
  } else {
    fputs("const int cuemu_generated_registered = "
          "(cuemu_program_register(cuemu_generated_table()), 0);\n"
          "} // namespace\n",
          out);
  }
  return ferror(out) ? -1 : 0;
}
