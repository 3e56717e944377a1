/* cuemu_clang_plugin_host_code.cc: cuemu's clang plugin records, for the
 * LLVM pass plugin that drops the host code that device code does not
 * reach (cuemu_llvm_plugin_host_code.cc), which names of the unit are the
 * host functions of the user's files (cuemu_plugin_host_code.h).
 *
 * A host function, as for g++ (cuemu_gcc_plugin_host_code.cc): one of the
 * user's files (not of a system header, which the shims, the C++ library,
 * CUB and Thrust are), that the device pass did not mark device code
 * (space_of(), cuemu_clang_plugin.cc), that the compiler did not make (an
 * implicit member), and that has no explicit visibility other than hidden
 * (a kernel's or a device variable's default visibility, which
 * cuemu_rewrite.c's device_linkage writes where the host pass names it).
 * Each of its names is recorded (a constructor's and a destructor's
 * variants, a virtual function's thunks); the other functions and the
 * variables of the user's files are recorded as the user's, so that the
 * pass knows which visible definitions to keep. */

#include <string>
#include <unordered_map>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Mangle.h"

#include "cuemu_clang_plugin.h"
#include "cuemu_plugin_host_code.h"

using namespace clang;

namespace {

/* The names recorded, and whether the plugin recorded any. */
std::unordered_map<std::string, cuemu_host_code_kind> &recorded() {
  static std::unordered_map<std::string, cuemu_host_code_kind> names;
  return names;
}
bool recording = false;

/* Whether `d` has an explicit visibility other than hidden. */
bool visible(const NamedDecl *d) {
  llvm::Optional<Visibility> v =
      d->getExplicitVisibility(NamedDecl::VisibilityForValue);
  return v && *v != HiddenVisibility;
}

void record(ASTNameGenerator &names, const NamedDecl *d,
            cuemu_host_code_kind kind) {
  recorded()[names.getName(d)] = kind;
  for (const std::string &name : names.getAllManglings(d))
    recorded()[name] = kind;
}

} // namespace

namespace cuemu_clang {

void record_host_code(ASTContext &ctx,
                      const std::vector<const FunctionDecl *> &functions,
                      const std::vector<const VarDecl *> &variables) {
  const SourceManager &sm = ctx.getSourceManager();
  ASTNameGenerator names(ctx);
  recording = true;
  for (const FunctionDecl *fn : functions) {
    if (fn->isDependentContext() || fn->isInvalidDecl() ||
        fn->getLocation().isInvalid() || sm.isInSystemHeader(fn->getLocation()))
      continue;
    bool host = !fn->isImplicit() && !visible(fn) &&
                space_of(sm, fn) == CUEMU_SPACE_HOST;
    record(names, fn, host ? CUEMU_HOST_CODE_HOST : CUEMU_HOST_CODE_USER);
  }
  for (const VarDecl *v : variables)
    if (!v->getDeclContext()->isDependentContext() && !v->isInvalidDecl() &&
        !isa<VarTemplatePartialSpecializationDecl>(v) &&
        !(v->getDescribedVarTemplate()))
      record(names, v, CUEMU_HOST_CODE_USER);
}

} // namespace cuemu_clang

/* The lookup of cuemu_plugin_host_code.h, found by the LLVM pass plugin
 * by its name. */
extern "C" __attribute__((visibility("default"))) cuemu_host_code_kind
cuemu_clang_plugin_host_code_kind(const char *name) {
  if (!recording)
    return CUEMU_HOST_CODE_OFF;
  auto it = recorded().find(name);
  return it == recorded().end() ? CUEMU_HOST_CODE_FOREIGN : it->second;
}
