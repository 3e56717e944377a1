/* cuemu_clang_plugin.h: the parts of cuemu's clang plugin
 * (cuemu_clang_plugin.cc, cuemu_clang_plugin_spaces.cc,
 * cuemu_clang_plugin_closures.cc, cuemu_clang_plugin_library_kernels.cc):
 * the device pass's marks as the plugin's pragma handler records them,
 * the execution space they give a function, and the names its messages
 * write. */
#ifndef CUEMU_CLANG_PLUGIN_H
#define CUEMU_CLANG_PLUGIN_H

#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"

#include "cuemu_space_rules.h"

namespace cuemu_clang {

/* A place in the translation unit that orders as the text does: the file
 * and the offset in it of a location's expansion. */
typedef std::pair<unsigned, unsigned> place;
place place_of(const clang::SourceManager &sm, clang::SourceLocation loc);

/* The marks of the device pass, in the order of the text. */
struct marks {
  /* `#pragma cuemu device_code [global|host]` right after the `{` of each
   * body of device code: where it is and the space it names; and, once
   * the consumer has given each to its body, the space of each body by
   * the place of its `{`. */
  std::vector<std::pair<clang::SourceLocation, cuemu_space>> device_code;
  std::map<place, cuemu_space> bodies;
  /* `#pragma cuemu device_variable [constant] v...` after each declaration
   * of a __device__, __constant__ or __managed__ variable. */
  struct variables {
    clang::SourceLocation where;
    bool constant;
    std::vector<std::string> names;
  };
  std::vector<variables> device_variables;
  /* `#pragma cuemu shared` after each __shared__ declaration in a body. */
  std::vector<clang::SourceLocation> shared;
};
/* The marks of the unit being compiled (one per compiler process). */
marks &unit_marks();

/* The space of `fn`: that of the innermost marked function it is or lies
 * in (a lambda's call operator, a local class's member); a template's
 * instance is marked where its pattern's body is. */
cuemu_space space_of(const clang::SourceManager &sm,
                     const clang::FunctionDecl *fn);
/* Whether `fn` itself is a kernel, or a kernel template's instance. */
bool is_kernel(const clang::SourceManager &sm, const clang::FunctionDecl *fn);
/* Whether `s` runs nothing: a constant expression (a case label, a template
 * argument) or an unevaluated operand (sizeof, alignof, noexcept, _Generic,
 * a typeid of a type or of a non-polymorphic object). */
bool unevaluated(const clang::Stmt *s);
/* The body of `fn` or of the pattern it is instantiated from, or NULL. */
const clang::Stmt *body_of(const clang::FunctionDecl *fn,
                           const clang::FunctionDecl **definition);

/* A declaration's name with its scope and template arguments
 * ("HostStatic<int>::n"); a function's with its parameters too
 * ("HostCounter::next()"); a function's name alone ("min", "operator[]",
 * "pair"); and a name with nvcc's space after each `operator` of a
 * symbol ("HostSum::operator ()(int, int) const"). */
std::string qualified_name(const clang::ASTContext &ctx,
                           const clang::NamedDecl *d);
std::string signature(const clang::ASTContext &ctx,
                      const clang::FunctionDecl *fn);
std::string bare_name(const clang::FunctionDecl *fn);
std::string nvcc_operator_spelling(std::string name);

/* The consumer that refuses what nvcc refuses across execution spaces
 * (cuemu_clang_plugin_spaces.cc): with `default_device`, functions without
 * a space are device ones (NVRTC's -default-device); with `relaxed`,
 * device code may call constexpr host functions (--expt-relaxed-constexpr);
 * with `drop_host_code`, the names of the user's host functions are
 * recorded for the LLVM pass plugin (record_host_code()). */
std::unique_ptr<clang::ASTConsumer> spaces_consumer(bool default_device,
                                                    bool relaxed,
                                                    bool drop_host_code);

/* Records the kind of each name of the user's `functions` (with bodies,
 * templates' instances too) and `variables` (of namespace and class scope)
 * for the LLVM pass plugin (cuemu_clang_plugin_host_code.cc), once the
 * marks are read: the consumer's, given `drop-host-code`. */
void record_host_code(clang::ASTContext &ctx,
                      const std::vector<const clang::FunctionDecl *> &functions,
                      const std::vector<const clang::VarDecl *> &variables);

/* What refuse_library_host_calls() found: the instances of the library's
 * kernel templates, and the closure types whose call operators it
 * refused. */
struct library_refusals {
  std::vector<const clang::FunctionDecl *> kernels;
  std::set<const clang::CXXRecordDecl *> lambdas;
};
/* Refuses each kernel template's instance among the user's `functions`,
 * and each of the library's kernels (`library`, but the lambdas refused
 * there already), whose template arguments hold the closure type of a
 * lambda of the user's that is neither extended nor defined in device
 * code, as nvcc does (cuemu_clang_plugin_closures.cc), once the marks are
 * read. */
void refuse_host_closures(
    clang::ASTContext &ctx,
    const std::vector<const clang::FunctionDecl *> &functions,
    const library_refusals &library);

/* Refuses each call by the device code of a library's kernel templates
 * (CUB's, Thrust's) of a host function of the user's (a plain lambda's
 * call operator, a functor's operator), as nvcc does
 * (cuemu_clang_plugin_library_kernels.cc), at the user's call among
 * `functions` that leads to it; with `relaxed`, a constexpr one is let
 * through (--expt-relaxed-constexpr). Once the marks are read. */
library_refusals refuse_library_host_calls(
    clang::ASTContext &ctx, bool relaxed,
    const std::vector<const clang::FunctionDecl *> &functions);

} // namespace cuemu_clang

#endif
