/* cuemu_clang_plugin_closures.cc: a kernel template instantiated with the
 * closure type of a lambda that is neither an extended lambda nor defined
 * in device code, which nvcc refuses, refused in clang++'s device pass by
 * cuemu's clang plugin (cuemu_clang_plugin.cc) as cuemu's GCC plugin
 * refuses it in g++'s (cuemu_gcc_plugin_closures.cc, whose comment gives
 * nvcc's rule; the words are CUEMU_MSG_HOST_CLOSURE of
 * cuemu_space_rules.h; docs/nvcc-checks.md, "Lambdas passed to kernel
 * templates"):
 *
 *   template <class F> __global__ void apply(F f, int *out);
 *   apply<<<1, 1>>>([c](int x) { return x + c; }, d);
 *
 * An extended lambda reaches a kernel wrapped in
 * cuemu::extended_lambda<KIND, CLOSURE> (cuemu_extended_lambda.h), which
 * is not judged; a closure type nested in another template argument
 * (`Holder<lambda>`) is refused as nvcc refuses it. Only the user's
 * kernels and lambdas are judged (the instances that the consumer
 * collects), and each closure type once; the error is at the lambda's
 * line, as g++'s is. The kernels of a library (CUB's, Thrust's, found
 * from their instances' records: cuemu_clang_plugin_library_kernels.cc)
 * are judged too: nvcc refuses their instances with a plain lambda of the
 * user's (in its own words where the library's device code calls the
 * lambda from a __device__ function, which that file refuses; otherwise
 * its host compile of the kernel's stub fails, "template argument 1 is
 * invalid"). */

#include <cstdio>
#include <set>
#include <string>

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "llvm/Support/Path.h"

#include "cuemu_clang_plugin.h"

using namespace clang;

namespace cuemu_clang {
namespace {

class closures {
  ASTContext &ctx;
  const SourceManager &sm;
  /* The closure types refused (a lambda passed to several kernel
   * templates is reported once). */
  std::set<const CXXRecordDecl *> reported;
  /* Those refused already, for the library's call of their operator. */
  std::set<const CXXRecordDecl *> skipped;

  bool foreign(SourceLocation where) const {
    return where.isInvalid() || sm.isInSystemHeader(where);
  }

  /* Whether `record` is cuemu's wrapper of an extended lambda,
   * cuemu::extended_lambda<KIND, CLOSURE>. */
  static bool extended_lambda_wrapper(const CXXRecordDecl *record) {
    if (!record->getIdentifier() || record->getName() != "extended_lambda")
      return false;
    const NamespaceDecl *scope =
        dyn_cast<NamespaceDecl>(record->getDeclContext());
    return scope && scope->getIdentifier() && scope->getName() == "cuemu";
  }

  /* The function that the lambda of `closure` is defined in, past the
   * lambdas that hold it, or NULL at namespace scope. */
  static const FunctionDecl *function_around(const CXXRecordDecl *closure) {
    for (const DeclContext *dc = closure->getDeclContext(); dc;
         dc = dc->getParent()) {
      const FunctionDecl *fn = dyn_cast<FunctionDecl>(dc);
      const CXXMethodDecl *m = dyn_cast_or_null<CXXMethodDecl>(fn);
      if (fn && !(m && m->getParent()->isLambda()))
        return fn;
    }
    return nullptr;
  }

  /* The lambda as nvcc names it in its message: "lambda [](int)->int". */
  std::string lambda_name(const CXXRecordDecl *closure) const {
    const CXXMethodDecl *op = closure->getLambdaCallOperator();
    if (!op)
      return "lambda []";
    const PrintingPolicy &policy = ctx.getPrintingPolicy();
    std::string name = "lambda [](";
    for (unsigned i = 0; i < op->getNumParams(); ++i)
      name +=
          (i ? ", " : "") + op->getParamDecl(i)->getType().getAsString(policy);
    return name + ")->" + op->getReturnType().getAsString(policy);
  }

  /* Refuses the closure type `closure` unless its lambda is device code
   * (defined in a __device__ or __global__ function). The function around
   * the lambda decides, past the lambdas that hold it: nvcc refuses a
   * plain lambda defined in an extended __device__ lambda of host code,
   * whose body the device pass marks as device code, and accepts one
   * defined in a plain lambda of a kernel. */
  void judge_closure(const CXXRecordDecl *closure) {
    SourceLocation where = closure->getLocation();
    if (foreign(where) || skipped.count(closure) ||
        !reported.insert(closure).second)
      return;
    const FunctionDecl *around = function_around(closure);
    cuemu_space space = around ? space_of(sm, around) : CUEMU_SPACE_HOST;
    if (space == CUEMU_SPACE_DEVICE || space == CUEMU_SPACE_GLOBAL)
      return;
    PresumedLoc at = sm.getPresumedLoc(sm.getExpansionLoc(where));
    std::string file =
        at.isValid() ? llvm::sys::path::filename(at.getFilename()).str() : "";
    char message[2048];
    snprintf(message, sizeof message, CUEMU_MSG_HOST_CLOSURE,
             lambda_name(closure).c_str(), file.c_str(),
             at.isValid() ? (int)at.getLine() : 0);
    DiagnosticsEngine &d = ctx.getDiagnostics();
    d.Report(where, d.getCustomDiagID(DiagnosticsEngine::Error, "%0"))
        << message;
  }

  /* A template argument: a closure type, or a class template's instance
   * whose own arguments are judged in turn. */
  void judge_argument(const TemplateArgument &arg) {
    if (arg.getKind() == TemplateArgument::Pack) {
      for (const TemplateArgument &a : arg.pack_elements())
        judge_argument(a);
      return;
    }
    if (arg.getKind() != TemplateArgument::Type)
      return;
    QualType type = arg.getAsType();
    for (;;) {
      if (const ArrayType *a = ctx.getAsArrayType(type))
        type = a->getElementType();
      else if (!type->getPointeeType().isNull())
        type = type->getPointeeType();
      else
        break;
    }
    const CXXRecordDecl *record = type->getAsCXXRecordDecl();
    if (!record || extended_lambda_wrapper(record))
      return;
    if (record->isLambda()) {
      judge_closure(record);
      return;
    }
    if (const ClassTemplateSpecializationDecl *s =
            dyn_cast<ClassTemplateSpecializationDecl>(record))
      for (const TemplateArgument &a : s->getTemplateArgs().asArray())
        judge_argument(a);
  }

public:
  closures(ASTContext &ctx, const std::set<const CXXRecordDecl *> &skipped)
      : ctx(ctx), sm(ctx.getSourceManager()), skipped(skipped) {}

  /* A kernel template's instance: of the user's code (marked), or of a
   * library's (`library`), whose template arguments may hold the user's
   * lambdas too (thrust::transform's CUB kernel, a transform_iterator). */
  void judge_kernel(const FunctionDecl *fn, bool library) {
    const TemplateArgumentList *args = fn->getTemplateSpecializationArgs();
    if (!args ||
        (!library && (foreign(fn->getLocation()) || !is_kernel(sm, fn))))
      return;
    for (const TemplateArgument &a : args->asArray())
      judge_argument(a);
  }
};

} // namespace

void refuse_host_closures(ASTContext &ctx,
                          const std::vector<const FunctionDecl *> &functions,
                          const library_refusals &library) {
  closures c(ctx, library.lambdas);
  for (const FunctionDecl *fn : functions)
    c.judge_kernel(fn, false);
  for (const FunctionDecl *fn : library.kernels)
    c.judge_kernel(fn, true);
}

} // namespace cuemu_clang
