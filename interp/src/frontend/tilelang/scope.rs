//! Python's name resolution where ksem needs it for an error: whether a
//! name a kernel uses is defined at all (else Python raises NameError), as
//! opposed to defined by host code whose value ksem does not know.

use crate::frontend::py::visit::target_binds;
use rustpython_parser::ast::{self, Ranged};

/// The names of Python 3.11's `builtins` module (`dir(builtins)` without
/// the underscored ones).
const BUILTINS: &str = "
ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup BlockingIOError
BrokenPipeError BufferError BytesWarning ChildProcessError ConnectionAbortedError ConnectionError
ConnectionRefusedError ConnectionResetError DeprecationWarning EOFError Ellipsis EncodingWarning
EnvironmentError Exception ExceptionGroup False FileExistsError FileNotFoundError
FloatingPointError FutureWarning GeneratorExit IOError ImportError ImportWarning IndentationError
IndexError InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError
ModuleNotFoundError NameError None NotADirectoryError NotImplemented NotImplementedError OSError
OverflowError PendingDeprecationWarning PermissionError ProcessLookupError RecursionError
ReferenceError ResourceWarning RuntimeError RuntimeWarning StopAsyncIteration StopIteration
SyntaxError SyntaxWarning SystemError SystemExit TabError TimeoutError True TypeError
UnboundLocalError UnicodeDecodeError UnicodeEncodeError UnicodeError UnicodeTranslateError
UnicodeWarning UserWarning ValueError Warning ZeroDivisionError abs aiter all anext any ascii bin
bool breakpoint bytearray bytes callable chr classmethod compile complex copyright credits
delattr dict dir divmod enumerate eval exec exit filter float format frozenset getattr globals
hasattr hash help hex id input int isinstance issubclass iter len license list locals map max
memoryview min next object oct open ord pow print property quit range repr reversed round set
setattr slice sorted staticmethod str sum super tuple type vars zip";

/// Where Python finds a name a kernel uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binding {
    /// A builtin, a module-level name, or a name of the enclosing function.
    Found,
    /// Only the `if __name__ == "__main__":` block binds it: a global when
    /// the file runs as a script (once that block has run), not when it is
    /// imported; ksem does not run that block.
    ScriptOnly,
    /// Nowhere: Python raises NameError.
    Nowhere,
}

/// Where `name`, used at `at` (a byte offset) in a module of top-level
/// statements `body`, is bound: a builtin; at module level (an assignment,
/// import, `def`, `class`, also under `if`/`try`/`for`/`with`); in the
/// module-level function (or class) that contains `at`, or any function
/// nested in it. A module with `from x import *` may bind anything.
pub fn binding(body: &[ast::Stmt], at: ast::TextSize, name: &str) -> Binding {
    if BUILTINS.split_whitespace().any(|b| b == name) || star_import(body) {
        return Binding::Found;
    }
    let (main, rest): (Vec<&ast::Stmt>, Vec<&ast::Stmt>) =
        body.iter().partition(|s| is_main_block(s));
    if rest.iter().any(|s| stmt_binds(s, name, false)) {
        return Binding::Found;
    }
    let enclosing = body.iter().find(|s| s.range().contains(at));
    if enclosing.is_some_and(|s| stmt_binds(s, name, true)) {
        return Binding::Found;
    }
    if main.iter().any(|s| stmt_binds(s, name, false)) {
        return Binding::ScriptOnly;
    }
    Binding::Nowhere
}

/// Whether `s` is `if __name__ == "__main__":`.
fn is_main_block(s: &ast::Stmt) -> bool {
    let ast::Stmt::If(i) = s else { return false };
    let ast::Expr::Compare(c) = &*i.test else {
        return false;
    };
    let is = |e: &ast::Expr, what: &str| match e {
        ast::Expr::Name(n) => n.id.as_str() == what,
        ast::Expr::Constant(k) => matches!(&k.value, ast::Constant::Str(t) if t == what),
        _ => false,
    };
    matches!((c.ops.as_slice(), c.comparators.as_slice()), ([ast::CmpOp::Eq], [r])
        if is(&c.left, "__name__") && is(r, "__main__") || is(&c.left, "__main__") && is(r, "__name__"))
}

/// The value of the first `name = value` assignment in the module-level
/// statement that contains `at` (searched through nested blocks and
/// functions), or at module level.
pub fn assigned_value<'a>(
    body: &'a [ast::Stmt],
    at: ast::TextSize,
    name: &str,
) -> Option<&'a ast::Expr> {
    let enclosing = body.iter().filter(|s| s.range().contains(at));
    enclosing
        .chain(body.iter())
        .find_map(|s| first_assignment(std::slice::from_ref(s), name))
}

fn first_assignment<'a>(body: &'a [ast::Stmt], name: &str) -> Option<&'a ast::Expr> {
    use ast::Stmt as S;
    body.iter().find_map(|s| match s {
        S::Assign(a) if matches!(a.targets.as_slice(), [ast::Expr::Name(n)] if n.id.as_str() == name) => {
            Some(&*a.value)
        }
        S::FunctionDef(f) => first_assignment(&f.body, name),
        S::If(i) => first_assignment(&i.body, name).or_else(|| first_assignment(&i.orelse, name)),
        S::For(f) => first_assignment(&f.body, name),
        S::While(w) => first_assignment(&w.body, name),
        S::With(w) => first_assignment(&w.body, name),
        _ => None,
    })
}

/// Whether a module-level `from x import *` is among `body`.
fn star_import(body: &[ast::Stmt]) -> bool {
    body.iter().any(|s| match s {
        ast::Stmt::ImportFrom(f) => f.names.iter().any(|a| a.name.as_str() == "*"),
        _ => false,
    })
}

/// Whether statements `body` bind `name`; `deep`: also inside the bodies
/// of the functions and classes they define (their parameters included).
fn binds(body: &[ast::Stmt], name: &str, deep: bool) -> bool {
    body.iter().any(|s| stmt_binds(s, name, deep))
}

fn stmt_binds(s: &ast::Stmt, name: &str, deep: bool) -> bool {
    use ast::Stmt as S;
    let target = |e: &ast::Expr| target_binds(e, name);
    match s {
        S::Assign(a) => a.targets.iter().any(target),
        S::AnnAssign(a) => target(&a.target),
        S::AugAssign(a) => target(&a.target),
        S::For(f) => {
            target(&f.target) || binds(&f.body, name, deep) || binds(&f.orelse, name, deep)
        }
        S::AsyncFor(f) => {
            target(&f.target) || binds(&f.body, name, deep) || binds(&f.orelse, name, deep)
        }
        S::While(w) => binds(&w.body, name, deep) || binds(&w.orelse, name, deep),
        S::If(i) => binds(&i.body, name, deep) || binds(&i.orelse, name, deep),
        S::With(w) => {
            w.items
                .iter()
                .any(|i| i.optional_vars.as_deref().is_some_and(target))
                || binds(&w.body, name, deep)
        }
        S::AsyncWith(w) => {
            w.items
                .iter()
                .any(|i| i.optional_vars.as_deref().is_some_and(target))
                || binds(&w.body, name, deep)
        }
        S::Try(t) => {
            binds(&t.body, name, deep)
                || binds(&t.orelse, name, deep)
                || binds(&t.finalbody, name, deep)
                || t.handlers.iter().any(|h| {
                    let ast::ExceptHandler::ExceptHandler(h) = h;
                    h.name.as_deref() == Some(name) || binds(&h.body, name, deep)
                })
        }
        S::Import(i) => i.names.iter().any(|a| match &a.asname {
            Some(n) => n.as_str() == name,
            None => a.name.split('.').next() == Some(name),
        }),
        S::ImportFrom(f) => f
            .names
            .iter()
            .any(|a| a.asname.as_ref().unwrap_or(&a.name).as_str() == name),
        S::Global(g) => g.names.iter().any(|n| n.as_str() == name),
        S::Nonlocal(g) => g.names.iter().any(|n| n.as_str() == name),
        S::FunctionDef(f) => {
            f.name.as_str() == name
                || deep && (params_bind(&f.args, name) || binds(&f.body, name, deep))
        }
        S::AsyncFunctionDef(f) => {
            f.name.as_str() == name
                || deep && (params_bind(&f.args, name) || binds(&f.body, name, deep))
        }
        S::ClassDef(c) => c.name.as_str() == name || deep && binds(&c.body, name, deep),
        S::Match(_) => true,
        _ => false,
    }
}

/// Whether a function's parameters include `name`.
fn params_bind(a: &ast::Arguments, name: &str) -> bool {
    a.posonlyargs
        .iter()
        .chain(&a.args)
        .chain(&a.kwonlyargs)
        .any(|p| p.def.arg.as_str() == name)
        || a.vararg.as_ref().is_some_and(|v| v.arg.as_str() == name)
        || a.kwarg.as_ref().is_some_and(|v| v.arg.as_str() == name)
}

/// The names an expression reads, in source order (not those bound inside
/// its own lambdas and comprehensions, which it does not walk into).
pub fn names_read(e: &ast::Expr) -> Vec<&ast::ExprName> {
    let mut out = Vec::new();
    collect(e, &mut out);
    out
}

fn collect<'e>(e: &'e ast::Expr, out: &mut Vec<&'e ast::ExprName>) {
    crate::frontend::py::visit::walk(e, &mut |x| {
        if let ast::Expr::Name(n) = x {
            out.push(n);
        }
    });
}
