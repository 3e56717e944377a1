/* cuemu_clang_plugin_library_kernels.cc: a host function of the user's
 * reached from the device code of a library's templates, which nvcc
 * refuses, refused in clang++'s device pass by cuemu's clang plugin
 * (cuemu_clang_plugin.cc; docs/nvcc-checks.md, "Host functions reached
 * from CUB's and Thrust's device code"):
 *
 *   thrust::device_vector<int> v(8, 1);
 *   thrust::transform(v.begin(), v.end(), v.begin(),
 *                     [](int x) { return x * 3; });
 *   thrust::reduce(v.begin(), v.end(), 0, HostSum());
 *
 * The lambda's call operator and HostSum::operator() are host functions
 * (neither __device__ nor __host__ __device__), which CUB's kernels call.
 * The device pass marks the user's bodies only, so the library's device
 * code is found from its kernels: every instance of a kernel template
 * holds a record naming ::cuemu::register_instance<K, ...> (or, in a
 * further device pass, cuemu_variant_instance; CUEMU_KERNEL_INSTANCE of
 * cuemu_qualifiers.h), whose specializations name each instance K. From
 * each, the calls are followed through the library's functions (and the
 * user's device functions) to the user's functions; a call by a library's
 * __device__ or __global__ function (as its declaration's text says) of a
 * user's host function is refused, a constexpr one (a lambda's) without
 * --expt-relaxed-constexpr only, in nvcc's words.
 *
 * nvcc reports it at the library's line (and, for a lambda, the
 * instantiations down to the user's call); here the error is at the
 * user's call of the library that leads to that kernel (the first, in
 * the text, of the user's calls of a library's template whose template
 * arguments name the function's class, from which the kernel is reached),
 * with notes at the library's call and at the user's function. */

#include <cctype>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

#include "cuemu_clang_plugin.h"

using namespace clang;

namespace cuemu_clang {
namespace {

/* A call of the user's host function `callee` by the library's function
 * `caller`, at `where`. */
struct library_call {
  const FunctionDecl *caller, *callee;
  SourceLocation where;
};

/* A call in the user's code of a library's function. */
struct user_call {
  const FunctionDecl *callee;
  SourceLocation where;
};

class library_kernels {
  ASTContext &ctx;
  const SourceManager &sm;
  bool relaxed;
  std::set<const FunctionDecl *> kernels; /* canonical declarations */
  std::set<const FunctionDecl *> walked;
  std::vector<library_call> found;

  bool foreign(SourceLocation where) const {
    return where.isInvalid() || sm.isInSystemHeader(where);
  }
  /* Whether `fn` is cuemu's own (the shims' namespace cuemu, or a name
   * reserved to the implementation, `__cuemu_...`, such as the constexpr
   * hash that a __shared__ variable's note calls): no function of the
   * user's, and walked as the library's are. */
  static bool cuemu_function(const FunctionDecl *fn) {
    const IdentifierInfo *id = fn->getIdentifier();
    if (id && id->getName().startswith("__cuemu"))
      return true;
    for (const DeclContext *dc = fn->getDeclContext(); dc;
         dc = dc->getParent())
      if (const NamespaceDecl *ns = dyn_cast<NamespaceDecl>(dc))
        if (ns->getIdentifier() && ns->getName() == "cuemu" &&
            ns->getParent()->getRedeclContext()->isTranslationUnit())
          return true;
    return false;
  }

  /* The kernels whose instances the records name: the second template
   * argument of each specialization of cuemu's `name`. */
  void find_kernels(const NamespaceDecl *cuemu, const char *name) {
    for (const NamedDecl *d : cuemu->lookup(&ctx.Idents.get(name))) {
      const FunctionTemplateDecl *t = dyn_cast<FunctionTemplateDecl>(d);
      if (!t)
        continue;
      for (const FunctionDecl *spec : t->specializations()) {
        const TemplateArgumentList *args =
            spec->getTemplateSpecializationArgs();
        if (!args || args->size() < 2 ||
            args->get(1).getKind() != TemplateArgument::Declaration)
          continue;
        if (const FunctionDecl *k =
                dyn_cast<FunctionDecl>(args->get(1).getAsDecl()))
          kernels.insert(k->getCanonicalDecl());
      }
    }
  }

  /* ---- The library's spaces ------------------------------------------- */

  /* The identifiers of CUDA's spaces written in the translated unit's text
   * from `from` backwards (past other identifiers and attributes, to the
   * end of a template's header or of the declaration before) and forwards
   * to `name`: the translation keeps `__device__` and its siblings as
   * tokens (the macros of CCCL's, `_CCCL_DEVICE`, expanded), which the
   * compile's macros make empty. */
  unsigned written_spaces(SourceLocation from, SourceLocation name) const {
    from = sm.getExpansionLoc(from);
    name = sm.getExpansionLoc(name);
    std::pair<FileID, unsigned> at = sm.getDecomposedLoc(from);
    std::pair<FileID, unsigned> end = sm.getDecomposedLoc(name);
    bool invalid = false;
    llvm::StringRef text = sm.getBufferData(at.first, &invalid);
    if (invalid || at.second > text.size())
      return 0;
    unsigned found = 0;
    auto word = [&](llvm::StringRef w) {
      found |= w == "__host__" ? 1u : w == "__device__" ? 2u
                               : w == "__global__" ? 4u : 0u;
    };
    size_t i = at.second;
    for (int steps = 0; i > 0 && steps < 64; ++steps) {
      char c = text[i - 1];
      if (isspace((unsigned char)c)) {
        --i;
      } else if (c == ')') {
        int depth = 0;
        while (i > 0) {
          char d = text[--i];
          depth += d == ')' ? 1 : d == '(' ? -1 : 0;
          if (depth == 0)
            break;
        }
      } else if (isalnum((unsigned char)c) || c == '_') {
        size_t stop = i;
        while (i > 0 && (isalnum((unsigned char)text[i - 1]) ||
                         text[i - 1] == '_'))
          --i;
        word(text.slice(i, stop));
      } else {
        break;
      }
    }
    if (end.first == at.first && end.second > at.second &&
        end.second <= text.size())
      for (size_t j = at.second; j < end.second;) {
        if (isalnum((unsigned char)text[j]) || text[j] == '_') {
          size_t start = j;
          while (j < end.second &&
                 (isalnum((unsigned char)text[j]) || text[j] == '_'))
            ++j;
          word(text.slice(start, j));
        } else {
          ++j;
        }
      }
    return found;
  }

  /* The space of the library's function `fn`: a kernel's, that its
   * declaration writes, or, for a lambda, that of the function it is
   * defined in. */
  cuemu_space library_space(const FunctionDecl *fn) const {
    if (kernels.count(fn->getCanonicalDecl()))
      return CUEMU_SPACE_GLOBAL;
    const CXXMethodDecl *m = dyn_cast<CXXMethodDecl>(fn);
    if (m && m->getParent()->isLambda()) {
      for (const DeclContext *dc = m->getParent()->getDeclContext(); dc;
           dc = dc->getParent())
        if (const FunctionDecl *around = dyn_cast<FunctionDecl>(dc))
          return foreign(around->getLocation()) ? library_space(around)
                                                : space_of(sm, around);
      return CUEMU_SPACE_HOST;
    }
    const FunctionDecl *pattern = fn->getTemplateInstantiationPattern();
    const FunctionDecl *written = pattern ? pattern : fn;
    unsigned found =
        written_spaces(written->getBeginLoc(), written->getLocation());
    return found & 4u   ? CUEMU_SPACE_GLOBAL
           : found == 3 ? CUEMU_SPACE_HOST_DEVICE
           : found & 2u ? CUEMU_SPACE_DEVICE
           : found & 1u ? CUEMU_SPACE_HOST
                        : CUEMU_SPACE_HOST_DEVICE;
  }

  /* ---- The device code's calls ----------------------------------------- */

  /* A function that device code calls: the library's and the user's device
   * functions are walked in turn; a user's host function called by the
   * library is found. */
  void reach(const FunctionDecl *caller, const FunctionDecl *callee,
             SourceLocation where) {
    if (!callee)
      return;
    if (foreign(callee->getLocation()) || cuemu_function(callee)) {
      walk_function(callee);
      return;
    }
    if (callee->isImplicit() || callee->isDefaulted() ||
        !body_of(callee, nullptr))
      return;
    if (space_of(sm, callee) != CUEMU_SPACE_HOST) {
      walk_function(callee);
      return;
    }
    /* The user's own calls are judged where they are
     * (cuemu_clang_plugin_spaces.cc). */
    if (!foreign(caller->getLocation()))
      return;
    /* nvcc refuses it from a __device__ or __global__ function only (the
     * library's __host__ __device__ functions mostly disable its check,
     * `#pragma nv_exec_check_disable`: a host functor that Thrust's
     * transform_iterator calls builds), and a constexpr one (a lambda's
     * call operator) without --expt-relaxed-constexpr only. */
    if (!cuemu_space_device_only(library_space(caller)) ||
        (relaxed && callee->isConstexpr()))
      return;
    found.push_back({caller, callee, where});
  }

  void walk_function(const FunctionDecl *fn) {
    if (!walked.insert(fn->getCanonicalDecl()).second)
      return;
    const FunctionDecl *definition = nullptr;
    if (!fn->hasBody(definition) || !definition->getBody())
      return;
    walk(definition, definition->getBody());
    if (const CXXConstructorDecl *ctor =
            dyn_cast<CXXConstructorDecl>(definition))
      for (const CXXCtorInitializer *init : ctor->inits())
        walk(definition, init->getInit());
  }

  void walk(const FunctionDecl *fn, const Stmt *s) {
    if (!s)
      return;
    /* Constant expressions and unevaluated operands call nothing at run
     * time; a lambda's body is its call operator's, walked when called. */
    if (unevaluated(s))
      return;
    if (const LambdaExpr *l = dyn_cast<LambdaExpr>(s)) {
      for (const Expr *init : l->capture_inits())
        walk(fn, init);
      return;
    }
    if (const CallExpr *c = dyn_cast<CallExpr>(s))
      reach(fn, c->getDirectCallee(), c->getExprLoc());
    else if (const CXXConstructExpr *c = dyn_cast<CXXConstructExpr>(s))
      reach(fn, c->getConstructor(), c->getBeginLoc());
    for (const Stmt *child : s->children())
      walk(fn, child);
  }

  /* ---- The user's call that leads there ------------------------------- */

  /* Whether `type` names `record`: is it, or a pointer or reference to
   * it, or a class template's instance with it among its arguments. */
  bool names(QualType type, const CXXRecordDecl *record, int depth) const {
    if (type.isNull() || depth > 8)
      return false;
    if (!type->getPointeeType().isNull())
      return names(type->getPointeeType(), record, depth + 1);
    const CXXRecordDecl *r = type->getAsCXXRecordDecl();
    if (!r)
      return false;
    if (r->getCanonicalDecl() == record->getCanonicalDecl())
      return true;
    if (const ClassTemplateSpecializationDecl *s =
            dyn_cast<ClassTemplateSpecializationDecl>(r))
      return names(s->getTemplateArgs(), record, depth + 1);
    return false;
  }
  bool names(const TemplateArgumentList &args, const CXXRecordDecl *record,
             int depth) const {
    for (const TemplateArgument &a : args.asArray())
      if (names(a, record, depth))
        return true;
    return false;
  }
  bool names(const TemplateArgument &a, const CXXRecordDecl *record,
             int depth) const {
    if (a.getKind() == TemplateArgument::Pack) {
      for (const TemplateArgument &p : a.pack_elements())
        if (names(p, record, depth))
          return true;
      return false;
    }
    return a.getKind() == TemplateArgument::Type &&
           names(a.getAsType(), record, depth);
  }
  /* Whether the library's function `fn` (a template's instance, or a
   * member of a class template's) is instantiated with `record`. */
  bool instantiated_with(const FunctionDecl *fn,
                         const CXXRecordDecl *record) const {
    if (const TemplateArgumentList *args = fn->getTemplateSpecializationArgs())
      if (names(*args, record, 0))
        return true;
    const ClassTemplateSpecializationDecl *s =
        dyn_cast<ClassTemplateSpecializationDecl>(fn->getDeclContext());
    return s && names(s->getTemplateArgs(), record, 0);
  }

  /* Whether `target` is reached from `fn` by calls and by the functions
   * it names (a kernel's address, which a launch takes). */
  bool leads_to(const FunctionDecl *fn, const FunctionDecl *target,
                std::set<const FunctionDecl *> &seen) const {
    if (!fn || !seen.insert(fn->getCanonicalDecl()).second)
      return false;
    if (fn->getCanonicalDecl() == target->getCanonicalDecl())
      return true;
    const FunctionDecl *definition = nullptr;
    if (!fn->hasBody(definition) || !definition->getBody())
      return false;
    std::vector<const Stmt *> todo = {definition->getBody()};
    if (const CXXConstructorDecl *ctor =
            dyn_cast<CXXConstructorDecl>(definition))
      for (const CXXCtorInitializer *init : ctor->inits())
        todo.push_back(init->getInit());
    while (!todo.empty()) {
      const Stmt *s = todo.back();
      todo.pop_back();
      if (!s)
        continue;
      const FunctionDecl *next = nullptr;
      if (const CallExpr *c = dyn_cast<CallExpr>(s))
        next = c->getDirectCallee();
      else if (const CXXConstructExpr *c = dyn_cast<CXXConstructExpr>(s))
        next = c->getConstructor();
      else if (const DeclRefExpr *d = dyn_cast<DeclRefExpr>(s))
        next = dyn_cast<FunctionDecl>(d->getDecl());
      if (next && leads_to(next, target, seen))
        return true;
      /* A function named as a template argument of the callee
       * (::cuemu::launch_static<K>). */
      if (next)
        if (const TemplateArgumentList *args =
                next->getTemplateSpecializationArgs())
          for (const TemplateArgument &a : args->asArray())
            if (a.getKind() == TemplateArgument::Declaration)
              if (const FunctionDecl *k =
                      dyn_cast<FunctionDecl>(a.getAsDecl()))
                if (leads_to(k, target, seen))
                  return true;
      for (const Stmt *child : s->children())
        todo.push_back(child);
    }
    return false;
  }

  /* The user's calls of library functions, in the text's order. */
  static void user_calls(const Stmt *s, std::vector<user_call> &calls,
                         const SourceManager &sm) {
    if (!s)
      return;
    const FunctionDecl *callee = nullptr;
    SourceLocation where;
    if (const CallExpr *c = dyn_cast<CallExpr>(s)) {
      callee = c->getDirectCallee();
      where = c->getBeginLoc();
    } else if (const CXXConstructExpr *c = dyn_cast<CXXConstructExpr>(s)) {
      callee = c->getConstructor();
      where = c->getBeginLoc();
    }
    if (callee && callee->getLocation().isValid() &&
        sm.isInSystemHeader(callee->getLocation()))
      calls.push_back({callee, where});
    for (const Stmt *child : s->children())
      user_calls(child, calls, sm);
  }

  /* The user's call from which the library's `caller` is reached with the
   * user's `callee`, or an invalid place. */
  SourceLocation leading_call(const std::vector<user_call> &calls,
                              const library_call &c) const {
    const CXXMethodDecl *m = dyn_cast<CXXMethodDecl>(c.callee);
    const CXXRecordDecl *record = m ? m->getParent() : nullptr;
    SourceLocation first;
    for (const user_call &u : calls) {
      if (record && !instantiated_with(u.callee, record))
        continue;
      std::set<const FunctionDecl *> seen;
      if (leads_to(u.callee, c.caller, seen))
        return u.where;
      if (first.isInvalid())
        first = u.where;
    }
    return first;
  }

  void error(SourceLocation where, const std::string &message) {
    DiagnosticsEngine &d = ctx.getDiagnostics();
    d.Report(where, d.getCustomDiagID(DiagnosticsEngine::Error, "%0"))
        << message;
  }
  void note(SourceLocation where, const std::string &message) {
    DiagnosticsEngine &d = ctx.getDiagnostics();
    d.Report(where, d.getCustomDiagID(DiagnosticsEngine::Note, "%0"))
        << message;
  }

  /* nvcc's words: a constexpr function (a lambda's call operator) named
   * bare, its caller too, as nvcc's front end names them; another with
   * its scope and parameters, as its device-code check does
   * ("HostSum::operator ()(int, int) const"), its caller with its
   * scope. */
  void refuse(const library_call &c, SourceLocation at) {
    const char *space = cuemu_space_name(library_space(c.caller));
    char message[4096];
    if (c.callee->isConstexpr())
      snprintf(message, sizeof message, CUEMU_MSG_CONSTEXPR_CALL,
               cuemu_space_nvcc_name(bare_name(c.callee).c_str()), space,
               bare_name(c.caller).c_str());
    else
      snprintf(message, sizeof message, CUEMU_MSG_HOST_CALL,
               nvcc_operator_spelling(signature(ctx, c.callee)).c_str(),
               space, qualified_name(ctx, c.caller).c_str());
    error(at.isValid() ? at : c.where, message);
    if (at.isValid())
      note(c.where, "called here, in the library's device code, which "
                    "this call instantiates");
    note(c.callee->getLocation(),
         "a __host__ function: device code may call it if it is "
         "__device__ or __host__ __device__");
  }

public:
  library_kernels(ASTContext &ctx, bool relaxed)
      : ctx(ctx), sm(ctx.getSourceManager()), relaxed(relaxed) {}

  library_refusals run(const std::vector<const FunctionDecl *> &functions) {
    library_refusals result;
    TranslationUnitDecl *unit = ctx.getTranslationUnitDecl();
    for (const NamedDecl *d : unit->lookup(&ctx.Idents.get("cuemu")))
      if (const NamespaceDecl *ns = dyn_cast<NamespaceDecl>(d)) {
        find_kernels(ns, "register_instance");
        find_kernels(ns, "cuemu_variant_instance");
      }
    for (const FunctionDecl *k : kernels)
      walk_function(k);
    result.kernels.assign(kernels.begin(), kernels.end());
    if (found.empty())
      return result;
    std::vector<user_call> calls;
    for (const FunctionDecl *fn : functions)
      user_calls(fn->getBody(), calls, sm);
    /* Each of the user's functions once for each call of the user's that
     * leads to it, as the library's instances that call it may be many. */
    std::set<std::pair<const FunctionDecl *, unsigned>> reported;
    for (const library_call &c : found) {
      SourceLocation at = leading_call(calls, c);
      if (reported
              .insert({c.callee->getCanonicalDecl(),
                       at.isValid() ? at.getRawEncoding() : 0u})
              .second)
        refuse(c, at);
      const CXXMethodDecl *m = dyn_cast<CXXMethodDecl>(c.callee);
      if (m && m->getParent()->isLambda())
        result.lambdas.insert(m->getParent());
    }
    return result;
  }
};

} // namespace

library_refusals refuse_library_host_calls(
    ASTContext &ctx, bool relaxed,
    const std::vector<const FunctionDecl *> &functions) {
  return library_kernels(ctx, relaxed).run(functions);
}

} // namespace cuemu_clang
