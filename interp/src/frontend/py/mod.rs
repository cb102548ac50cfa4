//! The Python-subset machinery every front end shares: parsing with
//! CPython-like error positions, spans, the "unsupported syntax → supported
//! alternative" diagnostic, and recognising a file's dialect from its imports.

pub mod arity;
pub mod call;
pub mod consts;
pub mod exprs;
pub mod inline;
pub mod modules;
pub mod num;
pub mod pick;
pub mod scanned;
pub mod simt;
mod syntax_error;
pub mod value;
pub mod visit;
pub mod walk;

use crate::span::{DResult, Diagnostic, LineIndex, Span};
use rustpython_parser::ast::{self, Ranged};

/// A parsed Python source file.
pub struct Source {
    pub file: String,
    pub src: String,
    pub lines: LineIndex,
    /// The module's top-level statements.
    pub body: Vec<ast::Stmt>,
}

impl Source {
    /// Parses `src`; a syntax error points where CPython would.
    pub fn parse(file: &str, src: &str) -> DResult<Source> {
        let lines = LineIndex::new(src);
        let parsed =
            rustpython_parser::parse(src, rustpython_parser::Mode::Module, file).map_err(|e| {
                let (off, msg) =
                    syntax_error::locate(src, usize::from(e.offset), &e.error.to_string());
                Diagnostic::new(lines.span(src, off), msg)
            })?;
        let body = match parsed {
            ast::Mod::Module(m) => m.body,
            _ => unreachable!("parsed in module mode"),
        };
        Ok(Source {
            file: file.to_string(),
            src: src.to_string(),
            lines,
            body,
        })
    }

    /// The span of a syntax node.
    pub fn span(&self, node: &impl Ranged) -> Span {
        self.lines.span(&self.src, usize::from(node.start()))
    }
}

/// The error for a construct the dialect does not support, naming the
/// supported alternative (as the TileLang seed's tables do).
pub fn unsupported<T>(span: Span, what: &str, dialect: &str, alternative: &str) -> DResult<T> {
    Err(Diagnostic::new(
        span,
        format!("{what} is not supported in a {dialect} kernel"),
    )
    .with_help(alternative.to_string())
    .unsupported())
}

/// The dotted name of an expression such as `cuda.threadIdx.x`, if it is one.
pub fn dotted(e: &ast::Expr) -> Option<String> {
    match e {
        ast::Expr::Name(n) => Some(n.id.to_string()),
        ast::Expr::Attribute(a) => Some(format!("{}.{}", dotted(&a.value)?, a.attr)),
        _ => None,
    }
}

/// The top-level packages a module imports (`import a.b` and `from a.b import c` give `a`).
pub fn imported_packages(body: &[ast::Stmt]) -> Vec<String> {
    let mut out = Vec::new();
    for s in body {
        match s {
            ast::Stmt::Import(i) => {
                for a in &i.names {
                    out.push(a.name.split('.').next().unwrap_or("").to_string());
                }
            }
            ast::Stmt::ImportFrom(f) => {
                if let Some(m) = &f.module {
                    out.push(m.split('.').next().unwrap_or("").to_string());
                }
            }
            _ => {}
        }
    }
    out
}

/// A Python operator of two operands (arithmetic and bitwise by default, or
/// a comparison: `Op = ast::CmpOp`) applied to two values as a front end
/// holds them, written at `span`: what the front ends' operator rules take.
#[derive(Clone, Debug)]
pub struct Binary<V, Op = ast::Operator> {
    /// The operator.
    pub op: Op,
    /// The left operand.
    pub l: V,
    /// The right operand.
    pub r: V,
    /// Where the operation is written.
    pub span: Span,
}

/// The name of a Python operator as written.
pub fn op_text(op: ast::Operator) -> &'static str {
    use ast::Operator as O;
    match op {
        O::Add => "+",
        O::Sub => "-",
        O::Mult => "*",
        O::MatMult => "@",
        O::Div => "/",
        O::Mod => "%",
        O::Pow => "**",
        O::LShift => "<<",
        O::RShift => ">>",
        O::BitOr => "|",
        O::BitXor => "^",
        O::BitAnd => "&",
        O::FloorDiv => "//",
    }
}

/// The IR comparison of a Python comparison of values (`==`, `!=`, `<`,
/// `<=`, `>`, `>=`); `None` for the identity and membership tests
/// (`is`, `is not`, `in`, `not in`), which each dialect decides itself.
pub fn value_cmp(op: ast::CmpOp) -> Option<crate::ir::BinOp> {
    use crate::ir::BinOp;
    use ast::CmpOp as C;
    Some(match op {
        C::Eq => BinOp::Eq,
        C::NotEq => BinOp::Ne,
        C::Lt => BinOp::Lt,
        C::LtE => BinOp::Le,
        C::Gt => BinOp::Gt,
        C::GtE => BinOp::Ge,
        C::Is | C::IsNot | C::In | C::NotIn => return None,
    })
}

/// A function's parameters that a call can bind, in order: the
/// positional-only, the ordinary and the keyword-only ones.
pub fn params(args: &ast::Arguments) -> Vec<&ast::ArgWithDefault> {
    args.posonlyargs
        .iter()
        .chain(&args.args)
        .chain(&args.kwonlyargs)
        .collect()
}

/// A function's [`params`], where it has no `*args` or `**kwargs`: those
/// are refused at the first of them (`span_of`), in one message form with
/// the dialect's `help`.
pub fn plain_params<'a>(
    args: &'a ast::Arguments,
    span_of: impl Fn(&ast::Arg) -> Span,
    dialect: &str,
    help: &str,
) -> DResult<Vec<&'a ast::ArgWithDefault>> {
    if let Some(v) = args.vararg.as_deref().or(args.kwarg.as_deref()) {
        return unsupported(span_of(v), "`*args`/`**kwargs`", dialect, help);
    }
    Ok(params(args))
}
