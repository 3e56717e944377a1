/* cuemu_clang_plugin_spaces.cc: what nvcc refuses across CUDA's execution
 * spaces, refused in clang++'s device pass by cuemu's clang plugin
 * (cuemu_clang_plugin.cc) as cuemu's GCC plugin refuses it in g++'s
 * (cuemu_gcc_plugin_spaces.cc, whose comment lists the rules and nvcc's
 * words; the words and the C++ library's lists are cuemu_space_rules.h):
 * a host function called from a __global__ or __device__ function (a
 * constexpr one without --expt-relaxed-constexpr), a kernel called without
 * a configuration, a host variable used in device code, a __device__ or
 * __constant__ variable that needs dynamic initialization, an assignment
 * to a __constant__ variable in device code, a __shared__ variable in a
 * host function, a virtual function overriding one of another execution
 * space, and a variable-length array in device code.
 *
 * g++ has folded some constant expressions before its plugin walks a body,
 * and clang++ folds none: an element of a namespace's constexpr array read
 * in a constant expression (a constexpr variable's initializer, an array's
 * bound, a template argument, a case label) is skipped here, as is an
 * unevaluated operand. And where g++ takes an array's address to decay it
 * (`Table::v + i`), clang++ has a decay of its own: that counts as taking
 * the address, but not the decay of an array that is indexed. A
 * reference bound to a host variable (a reference's initializer, a call's
 * reference parameter) is refused, constants too, as nvcc refuses it. */

#include <set>

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/Support/raw_ostream.h"

#include "cuemu_clang_plugin.h"

using namespace clang;

namespace cuemu_clang {
namespace {

/* A call to judge when every body has been seen. */
struct pending_call {
  const FunctionDecl *caller, *callee;
  SourceLocation where;
  cuemu_space space; /* the caller's */
};

/* The functions with bodies, and the variables of namespace and class
 * scope, of the user's code (templates' instances too). The declarations
 * of system headers (the C++ library, CUB, Thrust) are not walked: they
 * hold no marks and are not judged, and walking them would cost most of
 * the plugin's time in a unit that includes Thrust. */
struct collector : RecursiveASTVisitor<collector> {
  const SourceManager &sm;
  std::vector<const FunctionDecl *> functions;
  std::set<const FunctionDecl *> seen;
  std::vector<const VarDecl *> variables;
  explicit collector(const SourceManager &sm) : sm(sm) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool TraverseDecl(Decl *d) {
    if (d && !isa<TranslationUnitDecl>(d) && d->getLocation().isValid() &&
        sm.isInSystemHeader(d->getLocation()))
      return true;
    return RecursiveASTVisitor<collector>::TraverseDecl(d);
  }
  void add(const FunctionDecl *fn) {
    if (fn->doesThisDeclarationHaveABody() && seen.insert(fn).second)
      functions.push_back(fn);
  }
  bool VisitFunctionDecl(FunctionDecl *fn) {
    add(fn);
    return true;
  }
  /* A lambda's call operator (each instance of a generic one's). */
  bool VisitLambdaExpr(LambdaExpr *e) {
    add(e->getCallOperator());
    if (FunctionTemplateDecl *t = e->getDependentCallOperator())
      for (FunctionDecl *spec : t->specializations())
        add(spec);
    return true;
  }
  bool VisitVarDecl(VarDecl *v) {
    if (!v->isLocalVarDeclOrParm() && v->getIdentifier())
      variables.push_back(v);
    return true;
  }
};

class spaces : public ASTConsumer {
  bool default_device, relaxed, drop_host_code;
  ASTContext *ctx = nullptr;
  const SourceManager *sm = nullptr;
  /* The __device__, __constant__ and __managed__ variables (canonical
   * declarations), and those of them that are __constant__. */
  std::set<const VarDecl *> device_variables, constant_variables;
  std::vector<pending_call> pending;
  /* The bodies of the unit, by the place of their `{`: their functions. */
  std::map<place, const FunctionDecl *> bodies;

  void error(SourceLocation where, const std::string &message) {
    DiagnosticsEngine &d = ctx->getDiagnostics();
    d.Report(where, d.getCustomDiagID(DiagnosticsEngine::Error, "%0"))
        << message;
  }
  static std::string format(const char *fmt, const char *a = "",
                            const char *b = "", const char *c = "",
                            const char *e = "") {
    char buffer[1024];
    snprintf(buffer, sizeof buffer, fmt, a, b, c, e);
    return buffer;
  }

  /* Not the user's code: a built-in place, or a system header. */
  bool foreign(SourceLocation where) const {
    return where.isInvalid() || sm->isInSystemHeader(where);
  }
  cuemu_space space(const FunctionDecl *fn) const { return space_of(*sm, fn); }

  /* ---- The marks ---------------------------------------------------- */

  /* Gives each `device_code` mark to the body whose `{` comes last before
   * it, and each `device_variable` mark's names to the variables declared
   * last before it under those names. */
  void read_marks(const collector &c) {
    marks &m = unit_marks();
    for (const FunctionDecl *fn : c.functions) {
      const Stmt *body = fn->getBody();
      if (const CXXTryStmt *t = dyn_cast_or_null<CXXTryStmt>(body))
        body = t->getTryBlock();
      if (const CompoundStmt *block = dyn_cast_or_null<CompoundStmt>(body))
        bodies.emplace(place_of(*sm, block->getLBracLoc()), fn);
    }
    for (const auto &mark : m.device_code) {
      auto it = bodies.upper_bound(place_of(*sm, mark.first));
      if (it != bodies.begin())
        m.bodies[(--it)->first] = mark.second;
    }
    std::map<place, const VarDecl *> by_place;
    for (const VarDecl *v : c.variables)
      if (v->getLocation().isValid())
        by_place.emplace(place_of(*sm, v->getLocation()), v);
    for (const marks::variables &mark : m.device_variables) {
      place at = place_of(*sm, mark.where);
      auto end = by_place.upper_bound(at);
      for (const std::string &name : mark.names) {
        const VarDecl *v = nullptr;
        for (auto it = end; it != by_place.begin();) {
          --it;
          if (it->first.first != at.first)
            break;
          if (it->second->getName() == name) {
            v = it->second;
            break;
          }
        }
        /* A name that names nothing is a declarator the device pass
         * misread: its variable is the one just declared, unless that is
         * cuemu's own (the note of the variable before, `__device__ float
         * g = 1; __device__ float f(float);`, where the name is a
         * function's prototype's). */
        if (!v && end != by_place.begin() &&
            std::prev(end)->first.first == at.first &&
            !std::prev(end)->second->getName().startswith("cuemu_"))
          v = std::prev(end)->second;
        if (!v)
          continue;
        device_variables.insert(v->getCanonicalDecl());
        if (mark.constant)
          constant_variables.insert(v->getCanonicalDecl());
        if (!v->isTemplated() &&
            v->isThisDeclarationADefinition() != VarDecl::DeclarationOnly)
          judge_initialization(v, mark.constant);
      }
    }
  }

  /* The declaration that the device pass marks for `v`: a variable
   * template's or a class template's static member's pattern for their
   * instances. */
  static const VarDecl *marked_variable(const VarDecl *v) {
    for (;;) {
      const VarDecl *from = nullptr;
      if (const VarTemplateSpecializationDecl *s =
              dyn_cast<VarTemplateSpecializationDecl>(v))
        from = s->getSpecializedTemplate()->getTemplatedDecl();
      else if (const VarDecl *member = v->getInstantiatedFromStaticDataMember())
        from = member;
      if (!from || from == v)
        return v;
      v = from;
    }
  }

  /* ---- Dynamic initialization of device variables -------------------- */

  /* Whether a constructor's work is none: no store, and no call but of
   * empty constructors (nvcc's rule: the default constructors of its
   * bases and of its members of class type, or arrays of them, are
   * empty). A class with virtual functions stores its vtable's address. */
  bool empty_constructor(const CXXConstructorDecl *ctor) const {
    const CXXRecordDecl *record = ctor->getParent();
    if (record->isPolymorphic() || record->getNumVBases())
      return false;
    if (ctor->isTrivial())
      return true;
    const FunctionDecl *definition = nullptr;
    if (!body_of(ctor, &definition))
      return false;
    const CompoundStmt *block = dyn_cast<CompoundStmt>(definition->getBody());
    if (!block || !block->body_empty())
      return false;
    for (const CXXCtorInitializer *init :
         cast<CXXConstructorDecl>(definition)->inits()) {
      const Expr *e = init->getInit();
      if (const ExprWithCleanups *w = dyn_cast_or_null<ExprWithCleanups>(e))
        e = w->getSubExpr();
      const CXXConstructExpr *c = dyn_cast_or_null<CXXConstructExpr>(e);
      if (!c || c->getNumArgs() || !empty_constructor(c->getConstructor()))
        return false;
    }
    return true;
  }

  /* Whether `init` calls anything, and whether all it calls are empty
   * constructors. */
  void calls_in(const Stmt *s, bool *any, bool *only_empty) const {
    if (!s)
      return;
    if (const CXXConstructExpr *c = dyn_cast<CXXConstructExpr>(s)) {
      *any = true;
      if (!empty_constructor(c->getConstructor()))
        *only_empty = false;
    } else if (isa<CallExpr>(s)) {
      *any = true;
      *only_empty = false;
    }
    for (const Stmt *child : s->children())
      calls_in(child, any, only_empty);
  }

  void judge_initialization(const VarDecl *v, bool constant) {
    /* The CUDA headers' types (__half, __nv_bfloat16, ...), whose
     * constructors nvcc compiles as trivial, are not judged. */
    QualType type = ctx->getBaseElementType(v->getType());
    if (const CXXRecordDecl *r = type->getAsCXXRecordDecl())
      if (foreign(r->getLocation()))
        return;
    const Expr *init = v->getInit();
    if (!init || v->getType()->isDependentType() ||
        v->hasConstantInitialization())
      return;
    /* An integer or pointer holding an address, `(unsigned long long)&x`
     * (+ an offset), alone or in a plain structure, is no constant
     * expression of C++ but one that the linker writes, which nvcc
     * initialises statically as g++ does (PTX's `generic(x)`); a byte of
     * an address is not. */
    const CXXRecordDecl *record = type->getAsCXXRecordDecl();
    if ((type->isScalarType() || (record && record->isPOD())) &&
        init->isConstantInitializer(*ctx, false))
      return;
    bool any = false, only_empty = true;
    calls_in(init, &any, &only_empty);
    if (any && only_empty)
      return;
    error(v->getLocation(),
          format(CUEMU_MSG_DYNAMIC_INIT,
                 constant ? "__constant__" : "__device__"));
  }

  /* ---- Bodies ---------------------------------------------------------- */

  /* A variable of the user's code, of static storage at namespace or class
   * scope, that the device pass did not mark: host memory. */
  bool host_variable(const VarDecl *v) const {
    if (!v || v->isImplicit() || v->getTLSKind() != VarDecl::TLS_None ||
        !v->hasGlobalStorage() || v->isLocalVarDeclOrParm() ||
        foreign(v->getLocation()))
      return false;
    if (device_variables.count(v->getCanonicalDecl()) ||
        device_variables.count(marked_variable(v)->getCanonicalDecl()))
      return false;
    return !cuemu_space_own_variable(v->getName().str().c_str());
  }
  /* A variable whose value is a constant, which device code may read by
   * value (nvcc accepts const and constexpr variables so). */
  bool constant_variable(const VarDecl *v) const {
    return v->isUsableInConstantExpressions(*ctx) ||
           (v->getType().isConstant(*ctx) &&
            !v->getType().isVolatileQualified() && v->getAnyInitializer());
  }
  /* The variable under the member and element accesses of `e` (an array
   * indexed through its decay), and whether each index is a constant. */
  const VarDecl *base_variable(const Expr *e, bool *constant_index) const {
    *constant_index = true;
    for (;;) {
      e = e->IgnoreParens();
      if (const ArraySubscriptExpr *a = dyn_cast<ArraySubscriptExpr>(e)) {
        const ImplicitCastExpr *decay =
            dyn_cast<ImplicitCastExpr>(a->getBase()->IgnoreParens());
        if (!decay || decay->getCastKind() != CK_ArrayToPointerDecay)
          return nullptr;
        if (!a->getIdx()->isIntegerConstantExpr(*ctx))
          *constant_index = false;
        e = decay->getSubExpr();
      } else if (const MemberExpr *m = dyn_cast<MemberExpr>(e)) {
        if (m->isArrow())
          return nullptr;
        e = m->getBase();
      } else if (const ImplicitCastExpr *c = dyn_cast<ImplicitCastExpr>(e)) {
        if (c->getCastKind() != CK_NoOp &&
            c->getCastKind() != CK_DerivedToBase &&
            c->getCastKind() != CK_UncheckedDerivedToBase)
          return nullptr;
        e = c->getSubExpr();
      } else if (const DeclRefExpr *d = dyn_cast<DeclRefExpr>(e)) {
        return dyn_cast<VarDecl>(d->getDecl());
      } else {
        return nullptr;
      }
    }
  }
  /* Whether `e`, read by value, is an indirection (`*p`, `p[i]` of a
   * pointer). */
  static bool indirection(const Expr *e) {
    e = e->IgnoreParens();
    if (const UnaryOperator *u = dyn_cast<UnaryOperator>(e))
      return u->getOpcode() == UO_Deref;
    if (const ArraySubscriptExpr *a = dyn_cast<ArraySubscriptExpr>(e)) {
      const ImplicitCastExpr *decay =
          dyn_cast<ImplicitCastExpr>(a->getBase()->IgnoreParens());
      return !decay || decay->getCastKind() != CK_ArrayToPointerDecay;
    }
    return false;
  }
  /* Whether the read `e` is a constant of scalar type as a whole (a
   * number, a function's address): nvcc folds it (`*&Table::v[1]`) and
   * uses no host variable. */
  bool folded_constant(const Expr *e) const {
    if (!e->getType()->isScalarType() || e->isValueDependent())
      return false;
    Expr::EvalResult r;
    if (!e->EvaluateAsRValue(r, *ctx) || r.HasSideEffects)
      return false;
    if (r.Val.isInt() || r.Val.isFloat() || r.Val.isMemberPointer())
      return true;
    if (r.Val.isLValue()) {
      const ValueDecl *d =
          r.Val.getLValueBase().dyn_cast<const ValueDecl *>();
      return (d && isa<FunctionDecl>(d)) || r.Val.isNullPointer();
    }
    return false;
  }

  /* The walk of one body. */
  struct body_walk {
    const FunctionDecl *fn;
    cuemu_space space;
    bool device;                        /* __global__ or __device__ */
    std::set<const VarDecl *> reported; /* the host variables refused */
    std::set<const Expr *> indexed;     /* decays of arrays indexed */
  };

  void refuse_variable(body_walk &w, const VarDecl *v, SourceLocation where) {
    if (!w.reported.insert(v->getCanonicalDecl()).second)
      return;
    error(where, format(CUEMU_MSG_HOST_VARIABLE, qualified_name(*ctx, v).c_str()));
  }

  void note_call(body_walk &w, const FunctionDecl *callee,
                 SourceLocation where) {
    if (!callee || implementation_function(callee))
      return;
    if (w.device && libc_host_function(callee)) {
      pending.push_back({w.fn, callee, where, w.space});
      return;
    }
    if (callee->getBuiltinID())
      return;
    if (!foreign(callee->getLocation()) ||
        (w.device && library_host_function(callee)))
      pending.push_back({w.fn, callee, where, w.space});
  }

  /* Whether `fn` is one of cuemu's own, named `__cuemu_...` (a name
   * reserved to the implementation), such as the constexpr hash that the
   * shims' CUEMU_DEVICE_SHARED_NOTE calls in the constexpr initializer it
   * puts beside each __shared__ variable of a device function: like a
   * builtin, it is no call of the user's. */
  static bool implementation_function(const FunctionDecl *fn) {
    const IdentifierInfo *id = fn->getIdentifier();
    return id && id->getName().startswith("__cuemu");
  }

  /* Whether `fn` is a host function of the C library (strcmp, atoi, rand,
   * fopen): of the global namespace, declared in the system's C headers,
   * and not one that CUDA declares for device code too
   * (cuemu_space_libc_host()). Many are clang++'s built-ins too (strlen,
   * strcmp). */
  bool libc_host_function(const FunctionDecl *fn) const {
    if (!fn->getIdentifier() || fn->getLocation().isInvalid() ||
        !fn->getDeclContext()->getRedeclContext()->isTranslationUnit())
      return false;
    PresumedLoc at = sm->getPresumedLoc(fn->getLocation());
    return at.isValid() &&
           cuemu_space_libc_host(at.getFilename(),
                                 fn->getName().str().c_str(),
                                 fn->isExternC());
  }

  /* Whether `fn` is a host function of the C++ library (libstdc++'s
   * headers): in namespace std or a class of it (cuemu_space_rules.h). */
  bool library_host_function(const FunctionDecl *fn) const {
    bool in_std = false;
    for (const DeclContext *dc = fn->getDeclContext(); dc;
         dc = dc->getParent())
      if (dc->isStdNamespace())
        in_std = true;
    if (!in_std)
      return false;
    PresumedLoc at = sm->getPresumedLoc(fn->getLocation());
    std::string name =
        fn->getIdentifier() ? fn->getIdentifier()->getName().str() : "";
    return at.isValid() &&
           cuemu_space_library_host(at.getFilename(), name.c_str(),
                                    fn->getDeclContext()->isNamespace());
  }

  /* A store to a __constant__ variable itself (not an element or member,
   * which nvcc lets through to ptxas's warning). */
  void judge_store(body_walk &w, const Expr *target, SourceLocation where) {
    const DeclRefExpr *d = dyn_cast<DeclRefExpr>(target->IgnoreParens());
    const VarDecl *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
    if (w.space != CUEMU_SPACE_HOST && v &&
        constant_variables.count(v->getCanonicalDecl()))
      error(where, CUEMU_MSG_CONSTANT_STORE);
  }

  /* A reference bound to a variable, or to its element or member, in
   * device code: an odr-use, which nvcc refuses of a host variable even
   * when it is a constant (`const int &r = Table::s;`, `f(Table::s)` of a
   * `const int &` parameter). */
  void judge_binding(body_walk &w, const Expr *e) {
    /* A conditional lvalue binds either of its operands. */
    if (const AbstractConditionalOperator *c =
            dyn_cast<AbstractConditionalOperator>(e->IgnoreParens())) {
      judge_binding(w, c->getTrueExpr());
      judge_binding(w, c->getFalseExpr());
      return;
    }
    bool constant_index;
    const VarDecl *v = base_variable(e, &constant_index);
    if (w.device && host_variable(v))
      refuse_variable(w, v, e->getExprLoc());
  }

  /* The arguments of a call (`call`, of `callee`) bound to its reference
   * parameters, from the argument `first` (1 for a member operator, whose
   * object is the first). A call of a constexpr function that is a
   * constant as a whole (`std::min(Table::s, 3)`) binds nothing: nvcc
   * folds it (cuemu_space_folded_call()). */
  void judge_arguments(body_walk &w, const Expr *call,
                       const FunctionDecl *callee, const Expr *const *args,
                       unsigned n, unsigned first) {
    if (!callee || !w.device)
      return;
    if (cuemu_space_folded_call(callee->isConstexpr(),
                                !call->isValueDependent() &&
                                    call->isCXX11ConstantExpr(*ctx)))
      return;
    for (unsigned i = first; i < n && i - first < callee->getNumParams(); ++i)
      if (callee->getParamDecl(i - first)->getType()->isReferenceType())
        judge_binding(w, args[i]);
  }

  void walk(body_walk &w, const Stmt *s) {
    if (!s)
      return;
    /* Constant expressions (case labels, template arguments) and
     * unevaluated operands use nothing. */
    if (unevaluated(s))
      return;
    /* A lambda's body is a function of its own: only its captures'
     * initializers are this body's. */
    if (const LambdaExpr *l = dyn_cast<LambdaExpr>(s)) {
      for (const Expr *init : l->capture_inits())
        walk(w, init);
      return;
    }
    /* A constexpr variable's initializer is a constant expression; a
     * local class's members are functions of their own. */
    if (const DeclStmt *ds = dyn_cast<DeclStmt>(s)) {
      for (const Decl *d : ds->decls()) {
        const VarDecl *v = dyn_cast<VarDecl>(d);
        if (!v)
          continue;
        if (v->getType()->isReferenceType() && v->getInit())
          judge_binding(w, v->getInit());
        if (!v->isConstexpr())
          walk(w, v->getInit());
        /* A local object's destructor is called at the end of its scope
         * (a static one's, a __shared__ one's, never in the body). */
        if (const CXXRecordDecl *r = v->getType()->getAsCXXRecordDecl())
          if (v->hasLocalStorage() && r->hasDefinition() &&
              !r->hasTrivialDestructor())
            note_call(w, r->getDestructor(), v->getLocation());
      }
      return;
    }
    const Expr *e = dyn_cast<Expr>(s);
    SourceLocation where = e ? e->getExprLoc() : s->getBeginLoc();
    bool constant_index;
    if (const CallExpr *c = dyn_cast<CallExpr>(s)) {
      const FunctionDecl *callee = c->getDirectCallee();
      Expr::EvalResult value;
      if (!(w.device && callee && libc_host_function(callee) &&
            cuemu_space_libc_folded(
                callee->getName().str().c_str(),
                !c->isValueDependent() &&
                    c->EvaluateAsRValue(value, *ctx) && value.Val.isInt())))
        note_call(w, callee, c->getBeginLoc());
      /* An operator that is a member takes its object as the first
       * argument. */
      unsigned first = isa<CXXOperatorCallExpr>(c) && callee &&
                               isa<CXXMethodDecl>(callee) &&
                               !cast<CXXMethodDecl>(callee)->isStatic()
                           ? 1
                           : 0;
      judge_arguments(w, c, callee, c->getArgs(), c->getNumArgs(), first);
    } else if (const CXXConstructExpr *c = dyn_cast<CXXConstructExpr>(s)) {
      note_call(w, c->getConstructor(), c->getBeginLoc());
      judge_arguments(w, c, c->getConstructor(), c->getArgs(),
                      c->getNumArgs(), 0);
    } else if (const ImplicitCastExpr *c = dyn_cast<ImplicitCastExpr>(s)) {
      if (c->getCastKind() == CK_LValueToRValue && w.device &&
          indirection(c->getSubExpr()) && folded_constant(c))
        return; /* a read by value that is a constant as a whole */
      if (c->getCastKind() == CK_ArrayToPointerDecay && w.device &&
          !w.indexed.count(c)) {
        const VarDecl *v = base_variable(c->getSubExpr(), &constant_index);
        if (host_variable(v))
          refuse_variable(w, v, where); /* the array's address */
      }
    } else if (const UnaryOperator *u = dyn_cast<UnaryOperator>(s)) {
      if (u->getOpcode() == UO_AddrOf && w.device) {
        const VarDecl *v = base_variable(u->getSubExpr(), &constant_index);
        if (host_variable(v))
          refuse_variable(w, v, where);
      }
      if (u->isIncrementDecrementOp())
        judge_store(w, u->getSubExpr(), where);
    } else if (const BinaryOperator *b = dyn_cast<BinaryOperator>(s)) {
      if (b->isAssignmentOp())
        judge_store(w, b->getLHS(), where);
    } else if (const ArraySubscriptExpr *a = dyn_cast<ArraySubscriptExpr>(s)) {
      w.indexed.insert(a->getBase()->IgnoreParens());
      /* An element at a constant index of a class's constexpr static
       * array is a constant; of a const one, or of a constexpr array at
       * namespace scope, nvcc refuses it, but in a constant expression. */
      const VarDecl *v = base_variable(a, &constant_index);
      if (w.device && host_variable(v) &&
          !(constant_index && v->isConstexpr() && v->isStaticDataMember()))
        refuse_variable(w, v, where);
    } else if (const DeclRefExpr *d = dyn_cast<DeclRefExpr>(s)) {
      const VarDecl *v = dyn_cast<VarDecl>(d->getDecl());
      if (w.device && host_variable(v) && !constant_variable(v))
        refuse_variable(w, v, where);
    }
    for (const Stmt *child : s->children())
      walk(w, child);
  }

  /* The calls of a device body's constant expressions, which walk()
   * leaves out, as they use no variable: a constexpr variable's
   * initializer, an array's bound and a template argument (in the types
   * the body writes), a static_assert, an enumerator, a case label, an
   * `if constexpr` condition. nvcc 13.0 refuses a call of a constexpr
   * host function there as at run time (without --expt-relaxed-constexpr);
   * clang++ keeps them in its tree, where g++ has folded them before its
   * plugin's walk. Unevaluated operands (sizeof, decltype, noexcept) call
   * nothing, as nvcc has it, and a lambda's or a local class's functions
   * are bodies of their own. */
  struct constant_calls : RecursiveASTVisitor<constant_calls> {
    typedef RecursiveASTVisitor<constant_calls> base;
    spaces &s;
    body_walk &w;
    int constant = 0; /* inside a constant expression */
    constant_calls(spaces &s, body_walk &w) : s(s), w(w) {}
    template <typename F> bool constantly(F traverse) {
      ++constant;
      bool go_on = traverse();
      --constant;
      return go_on;
    }
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool TraverseCXXRecordDecl(CXXRecordDecl *) { return true; }
    bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *) {
      return true;
    }
    bool TraverseCXXNoexceptExpr(CXXNoexceptExpr *) { return true; }
    bool TraverseDecltypeTypeLoc(DecltypeTypeLoc) { return true; }
    bool TraverseTypeOfExprTypeLoc(TypeOfExprTypeLoc) { return true; }
    bool TraverseCXXTypeidExpr(CXXTypeidExpr *e) {
      return !e->isPotentiallyEvaluated() || base::TraverseCXXTypeidExpr(e);
    }
    bool TraverseConstantExpr(ConstantExpr *e) {
      return constantly([&] { return base::TraverseConstantExpr(e); });
    }
    bool TraverseTypeLoc(TypeLoc t) {
      return constantly([&] { return base::TraverseTypeLoc(t); });
    }
    bool TraverseTemplateArgumentLoc(const TemplateArgumentLoc &a) {
      return constantly([&] { return base::TraverseTemplateArgumentLoc(a); });
    }
    bool TraverseStaticAssertDecl(StaticAssertDecl *d) {
      return constantly([&] { return base::TraverseStaticAssertDecl(d); });
    }
    bool TraverseEnumConstantDecl(EnumConstantDecl *d) {
      return constantly([&] { return base::TraverseEnumConstantDecl(d); });
    }
    bool TraverseVarDecl(VarDecl *v) {
      if (!v->isConstexpr())
        return base::TraverseVarDecl(v);
      return constantly([&] { return base::TraverseVarDecl(v); });
    }
    bool VisitCallExpr(CallExpr *c) {
      if (constant)
        s.note_call(w, c->getDirectCallee(), c->getBeginLoc());
      return true;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *c) {
      if (constant)
        s.note_call(w, c->getConstructor(), c->getBeginLoc());
      return true;
    }
  };

  /* Whether `fn` is the lambda by which cuemu-cc launches a kernel
   * template with deduced arguments (`[&](auto &&...cuemu_arg_) {
   * k(cuemu_arg_...); }`, cuemu_launch_rewrite.c), whose call of the
   * kernel is the launch. */
  static bool launching_lambda(const FunctionDecl *fn) {
    const CXXMethodDecl *m = dyn_cast<CXXMethodDecl>(fn);
    if (!m || !m->getParent()->isLambda())
      return false;
    const FunctionDecl *pattern = fn->getTemplateInstantiationPattern();
    for (const FunctionDecl *f : {fn, pattern})
      if (f)
        for (const ParmVarDecl *p : f->parameters())
          if (p->getName().startswith("cuemu_arg_"))
            return true;
    return false;
  }

  /* Variable-length arrays in device code (a __host__ __device__
   * function's too), as cuemu_gcc_plugin.cc refuses them. */
  void refuse_vlas(const Stmt *s) {
    if (!s || isa<LambdaExpr>(s))
      return;
    if (const DeclStmt *ds = dyn_cast<DeclStmt>(s))
      for (const Decl *d : ds->decls()) {
        QualType type;
        if (const VarDecl *v = dyn_cast<VarDecl>(d))
          type = v->getType();
        else if (const TypedefNameDecl *t = dyn_cast<TypedefNameDecl>(d))
          type = t->getUnderlyingType();
        if (!type.isNull() && type->isVariablyModifiedType())
          error(d->getLocation(),
                format(CUEMU_MSG_VLA,
                       ("'" + cast<NamedDecl>(d)->getNameAsString() + "'")
                           .c_str()));
      }
    for (const Stmt *child : s->children())
      refuse_vlas(child);
  }

  void judge_body(const FunctionDecl *fn) {
    if (fn->isDependentContext() || foreign(fn->getLocation()))
      return;
    cuemu_space fn_space = space(fn);
    if (fn_space != CUEMU_SPACE_HOST)
      refuse_vlas(fn->getBody());
    if (launching_lambda(fn) || default_device)
      return;
    body_walk w = {fn, fn_space, cuemu_space_device_only(fn_space), {}, {}};
    walk(w, fn->getBody());
    if (w.device)
      constant_calls(*this, w).TraverseStmt(fn->getBody());
    if (const CXXConstructorDecl *ctor = dyn_cast<CXXConstructorDecl>(fn))
      for (const CXXCtorInitializer *init : ctor->inits())
        if (init->isWritten())
          walk(w, init->getInit());
    if (const CXXMethodDecl *m = dyn_cast<CXXMethodDecl>(fn))
      if (m->isVirtual() && !m->isImplicit())
        judge_override(m);
  }

  /* ---- Overrides ------------------------------------------------------- */

  std::string override_name(const CXXMethodDecl *m) const {
    return qualified_name(*ctx, m->getParent()) + "::" + m->getNameAsString();
  }

  /* Judges the virtual function `m` against the functions it overrides,
   * nearest first; stops at the first refused. */
  void judge_override(const CXXMethodDecl *m) {
    for (const CXXMethodDecl *over : m->overridden_methods()) {
      if (foreign(over->getLocation()) || over->isImplicit() ||
          over->isDefaulted() || !body_of(over, nullptr))
        continue;
      cuemu_space mine = space(m), theirs = space(over);
      if (mine == theirs)
        continue;
      error(m->getLocation(),
            format(CUEMU_MSG_OVERRIDE, override_name(over).c_str(),
                   cuemu_space_name(theirs), override_name(m).c_str(),
                   cuemu_space_name(mine)));
      return;
    }
  }

  /* ---- The calls, once every body is marked ----------------------------- */

  void judge_calls() {
    for (const pending_call &c : pending) {
      const FunctionDecl *callee = c.callee;
      if (is_kernel(*sm, callee)) {
        error(c.where, CUEMU_MSG_UNCONFIGURED);
        continue;
      }
      if (!cuemu_space_device_only(c.space))
        continue;
      /* A function of the C++ library is a host one whether this unit
       * defines it or not. */
      bool library = foreign(callee->getLocation());
      if (callee->isImplicit() || callee->isDefaulted() ||
          space(callee) != CUEMU_SPACE_HOST ||
          !(library || body_of(callee, nullptr)))
        continue;
      const char *caller_space = cuemu_space_name(c.space);
      std::string caller = c.caller->getNameAsString();
      if (callee->isConstexpr()) {
        if (!relaxed)
          error(c.where, format(CUEMU_MSG_CONSTEXPR_CALL,
                                cuemu_space_nvcc_name(bare_name(callee).c_str()),
                                caller_space,
                                caller.c_str()));
        continue;
      }
      /* nvcc names a function of the C library bare ("strcmp"). */
      error(c.where, format(CUEMU_MSG_HOST_CALL,
                            libc_host_function(callee)
                                ? callee->getName().str().c_str()
                                : signature(*ctx, callee).c_str(),
                            caller_space, caller.c_str()));
    }
    pending.clear();
  }

  /* ---- __shared__ in a host function ------------------------------------ */

  void judge_shared() {
    for (SourceLocation where : unit_marks().shared) {
      if (foreign(where))
        continue;
      place at = place_of(*sm, where);
      /* The innermost body around the mark: the last `{` before it whose
       * body closes after it. */
      auto it = bodies.upper_bound(at);
      while (it != bodies.begin()) {
        --it;
        const CompoundStmt *block = dyn_cast_or_null<CompoundStmt>(
            it->second->getBody());
        if (const CXXTryStmt *t =
                dyn_cast_or_null<CXXTryStmt>(it->second->getBody()))
          block = t->getTryBlock();
        if (block && it->first.first == at.first &&
            place_of(*sm, block->getRBracLoc()) > at) {
          if (space(it->second) == CUEMU_SPACE_HOST)
            error(where, CUEMU_MSG_HOST_SHARED);
          break;
        }
      }
    }
  }

public:
  spaces(bool default_device, bool relaxed, bool drop_host_code)
      : default_device(default_device), relaxed(relaxed),
        drop_host_code(drop_host_code) {}

  void HandleTranslationUnit(ASTContext &context) override {
    ctx = &context;
    sm = &context.getSourceManager();
    if (context.getDiagnostics().hasErrorOccurred())
      return;
    collector c(*sm);
    c.TraverseDecl(context.getTranslationUnitDecl());
    read_marks(c);
    if (drop_host_code)
      record_host_code(context, c.functions, c.variables);
    for (const FunctionDecl *fn : c.functions)
      judge_body(fn);
    judge_calls();
    judge_shared();
    /* With NVRTC's -default-device, a lambda of a function without a
     * space is a lambda of device code, which a kernel may take. */
    if (!default_device) {
      refuse_host_closures(
          context, c.functions,
          refuse_library_host_calls(context, relaxed, c.functions));
    }
  }
};

} // namespace

std::unique_ptr<ASTConsumer> spaces_consumer(bool default_device,
                                             bool relaxed,
                                             bool drop_host_code) {
  return std::make_unique<spaces>(default_device, relaxed, drop_host_code);
}

} // namespace cuemu_clang
