/* cuemu_clang_plugin.cc: a clang plugin that refuses, in the device pass of
 * a unit that clang++ compiles (one that includes CUB or Thrust, or any
 * with CUEMU_CXX=clang++ or -ccbin clang++), what nvcc refuses across
 * CUDA's execution spaces and cuemu's GCC plugin refuses for g++
 * (cuemu_gcc_plugin_spaces.cc, and the variable-length arrays of
 * cuemu_gcc_plugin.cc), in nvcc's words at the user's line
 * (cuemu_clang_plugin_spaces.cc), and a kernel template instantiated with
 * a host lambda's closure type (cuemu_clang_plugin_closures.cc, as
 * cuemu_gcc_plugin_closures.cc).
 *
 * cuemu-cc loads it (-fplugin, cuemu_compile.c) when its compiler is the
 * clang++ that configure built it for; it adds its consumer before
 * clang++'s code generation, which an error then stops. Its arguments
 * (-Xclang -plugin-arg-cuemu_clang_plugin -Xclang ARG) are
 * `default-device` (NVRTC's -default-device), `relaxed-constexpr`
 * (--expt-relaxed-constexpr) and `drop-host-code` (the device pass of a
 * program), as the GCC plugin's.
 *
 * Which functions and variables are device code comes from the marks that
 * the device pass writes for the GCC plugin, read here by a pragma handler
 * where the preprocessor meets them: `#pragma cuemu device_code
 * [global|host]` right after the `{` of each body of device code, `#pragma
 * cuemu device_variable [constant] v...` after each declaration of a
 * __device__, __constant__ or __managed__ variable, `#pragma cuemu shared`
 * after each __shared__ declaration in a body. A handler sees no
 * declarations, so it records where each mark is; the consumer gives each
 * one to the function body that it opens, or to the variable declared last
 * before it under its name. */

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/Pragma.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>

#include "cuemu_clang_plugin.h"

using namespace clang;

namespace cuemu_clang {

place place_of(const SourceManager &sm, SourceLocation loc) {
  std::pair<FileID, unsigned> at =
      sm.getDecomposedLoc(sm.getExpansionLoc(loc));
  return place(at.first.getHashValue(), at.second);
}

marks &unit_marks() {
  static marks the_marks;
  return the_marks;
}

bool unevaluated(const Stmt *s) {
  if (isa<ConstantExpr>(s) || isa<UnaryExprOrTypeTraitExpr>(s) ||
      isa<CXXNoexceptExpr>(s) || isa<GenericSelectionExpr>(s))
    return true;
  const CXXTypeidExpr *t = dyn_cast<CXXTypeidExpr>(s);
  return t && !t->isPotentiallyEvaluated();
}

const Stmt *body_of(const FunctionDecl *fn, const FunctionDecl **definition) {
  const FunctionDecl *d = nullptr;
  if (!(fn->hasBody(d) && d->getBody())) {
    const FunctionDecl *pattern = fn->getTemplateInstantiationPattern();
    if (!pattern || !(pattern->hasBody(d) && d->getBody()))
      return nullptr;
  }
  if (definition)
    *definition = d;
  return d->getBody();
}

std::string qualified_name(const ASTContext &ctx, const NamedDecl *d) {
  std::string s;
  llvm::raw_string_ostream os(s);
  d->getNameForDiagnostic(os, ctx.getPrintingPolicy(), true);
  return os.str();
}

std::string signature(const ASTContext &ctx, const FunctionDecl *fn) {
  std::string s = qualified_name(ctx, fn) + "(";
  for (unsigned i = 0; i < fn->getNumParams(); ++i)
    s += (i ? ", " : "") +
         fn->getParamDecl(i)->getType().getAsString(ctx.getPrintingPolicy());
  s += ")";
  if (const CXXMethodDecl *m = dyn_cast<CXXMethodDecl>(fn))
    if (m->isConst())
      s += " const";
  return s;
}

std::string bare_name(const FunctionDecl *fn) {
  std::string s = fn->getNameAsString();
  size_t angle = s.find('<');
  if (angle != std::string::npos && s.compare(0, 8, "operator") != 0)
    s.resize(angle);
  return s;
}

std::string nvcc_operator_spelling(std::string name) {
  for (size_t at = name.find("operator"); at != std::string::npos;
       at = name.find("operator", at + 1)) {
    size_t after = at + 8;
    if (after < name.size() && !isalnum((unsigned char)name[after]) &&
        name[after] != '_' && name[after] != ' ')
      name.insert(after, " ");
  }
  return name;
}

namespace {

/* The mark of `fn`'s own body, if it has one. */
bool marked(const SourceManager &sm, const FunctionDecl *fn,
            cuemu_space *space) {
  const Stmt *body = body_of(fn, nullptr);
  if (const CXXTryStmt *t = dyn_cast_or_null<CXXTryStmt>(body))
    body = t->getTryBlock();
  const CompoundStmt *block = dyn_cast_or_null<CompoundStmt>(body);
  if (!block)
    return false;
  const marks &m = unit_marks();
  auto it = m.bodies.find(place_of(sm, block->getLBracLoc()));
  if (it == m.bodies.end())
    return false;
  *space = it->second;
  return true;
}

} // namespace

cuemu_space space_of(const SourceManager &sm, const FunctionDecl *fn) {
  const FunctionDecl *definition = nullptr;
  if (body_of(fn, &definition))
    fn = definition;
  cuemu_space space;
  for (const DeclContext *dc = fn; dc; dc = dc->getParent())
    if (const FunctionDecl *f = dyn_cast<FunctionDecl>(dc))
      if (marked(sm, f, &space))
        return space;
  return CUEMU_SPACE_HOST;
}

bool is_kernel(const SourceManager &sm, const FunctionDecl *fn) {
  cuemu_space space;
  return marked(sm, fn, &space) && space == CUEMU_SPACE_GLOBAL;
}

namespace {

/* `#pragma cuemu ...`: the marks of the device pass, recorded where they
 * are. */
class cuemu_pragma : public PragmaHandler {
public:
  cuemu_pragma() : PragmaHandler("cuemu") {}
  void HandlePragma(Preprocessor &pp, PragmaIntroducer introducer,
                    Token &) override {
    std::vector<std::string> words;
    Token token;
    for (pp.Lex(token); !token.is(tok::eod) && !token.is(tok::eof);
         pp.Lex(token))
      if (token.getIdentifierInfo())
        words.push_back(token.getIdentifierInfo()->getName().str());
    if (words.empty())
      return;
    marks &m = unit_marks();
    SourceLocation where =
        pp.getSourceManager().getExpansionLoc(introducer.Loc);
    if (words[0] == "device_code") {
      cuemu_space space = CUEMU_SPACE_DEVICE;
      for (const std::string &w : words)
        space = w == "global" ? CUEMU_SPACE_GLOBAL
                : w == "host" ? CUEMU_SPACE_HOST_DEVICE
                              : space;
      m.device_code.push_back({where, space});
    } else if (words[0] == "device_variable") {
      marks::variables v = {where, false, {}};
      for (size_t i = 1; i < words.size(); ++i)
        if (i == 1 && words[i] == "constant")
          v.constant = true;
        else
          v.names.push_back(words[i]);
      m.device_variables.push_back(v);
    } else if (words[0] == "shared") {
      m.shared.push_back(where);
    }
  }
};

/* The plugin's action: the consumer, added before code generation. */
class spaces_action : public PluginASTAction {
  bool default_device = false, relaxed = false, drop_host_code = false;

protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 llvm::StringRef) override {
    return spaces_consumer(default_device, relaxed, drop_host_code);
  }
  bool ParseArgs(const CompilerInstance &ci,
                 const std::vector<std::string> &args) override {
    for (const std::string &a : args) {
      if (a == "default-device")
        default_device = true;
      else if (a == "relaxed-constexpr")
        relaxed = true;
      else if (a == "drop-host-code")
        /* The device pass of a program: its LLVM pass plugin compiles no
         * host code that device code does not reach
         * (cuemu_clang_plugin_host_code.cc). */
        drop_host_code = true;
      else {
        DiagnosticsEngine &d = ci.getDiagnostics();
        d.Report(d.getCustomDiagID(DiagnosticsEngine::Error,
                                   "cuemu_clang_plugin: unknown argument %0"))
            << a;
        return false;
      }
    }
    return true;
  }
  ActionType getActionType() override { return AddBeforeMainAction; }
};

} // namespace
} // namespace cuemu_clang

static PragmaHandlerRegistry::Add<cuemu_clang::cuemu_pragma>
    cuemu_pragma_handler("cuemu", "the device pass's marks for cuemu");
static FrontendPluginRegistry::Add<cuemu_clang::spaces_action>
    cuemu_spaces_action("cuemu_clang_plugin",
                        "cuemu: what nvcc refuses across execution spaces");
