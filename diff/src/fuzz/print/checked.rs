//! Checked forms, shared by the printers that ask their front end (Triton's
//! and TileLang's): a candidate text of a node is rebuilt with the
//! elaborator's own functions from its operands' forms, and is the node's
//! form only where the rebuilt value is the node and the front end emitted
//! no statement for it. A printer says how to reach its elaborator; the
//! checking and the infix, comparison and unary candidates are here.

use super::control::PResult;
use super::pattern::describe;
use ksem_interp::ir::canon::canonical_expr;
use ksem_interp::ir::Expr;
use ksem_interp::span::DResult;
use rustpython_parser::ast::{CmpOp, Operator, UnaryOp};

/// A way to write an expression: its text and the value the front end
/// makes of that text.
#[derive(Clone, Debug)]
pub struct Form<V> {
    /// The Python text.
    pub text: String,
    /// The front end's value of the text.
    pub val: V,
}

/// A binary operator of Python: arithmetic or a comparison.
#[derive(Clone, Copy, Debug)]
pub enum PyBinary {
    /// `+`, `//`, `<<`, …
    Arith(Operator),
    /// `==`, `<`, …
    Compare(CmpOp),
}

/// A printer whose candidate forms its front end checks.
pub trait Checked {
    /// The front end's value of an expression.
    type Val: Clone;

    /// A mark of the statements the front end has emitted so far.
    fn mark(&mut self) -> usize;

    /// Whether the front end emitted statements since `mark`; they are
    /// dropped.
    fn emitted_since(&mut self, mark: usize) -> bool;

    /// The IR node a value is, where it is a runtime one.
    fn node(v: &Self::Val) -> Option<&Expr>;

    /// The runtime value that is node `e`.
    fn runtime(e: &Expr) -> Self::Val;

    /// Why Python itself would compute an operation on these operands
    /// before the front end sees it (`None`: it would not).
    fn folded(&self, _operands: &[&Form<Self::Val>]) -> Option<&'static str> {
        None
    }

    /// The front end's binary arithmetic operator.
    fn binop(&mut self, op: Operator, a: Self::Val, b: Self::Val) -> DResult<Self::Val>;

    /// The front end's comparison.
    fn compare(&mut self, op: CmpOp, a: Self::Val, b: Self::Val) -> DResult<Self::Val>;

    /// The front end's unary operator.
    fn unop(&mut self, op: UnaryOp, x: Self::Val) -> DResult<Self::Val>;

    /// `text` as node `e`, where `build` (the front end reading it) makes
    /// `e` without emitting a statement.
    fn checked(
        &mut self,
        e: &Expr,
        text: String,
        build: impl FnOnce(&mut Self) -> DResult<Self::Val>,
    ) -> PResult<Form<Self::Val>> {
        let m = self.mark();
        let v = build(self).map_err(|d| d.message)?;
        let pushed = self.emitted_since(m);
        match Self::node(&v) {
            Some(x) if !pushed && canonical_expr(x) == *e => Ok(Form {
                text,
                val: Self::runtime(e),
            }),
            _ => Err(format!("`{text}` is not {}", describe(e))),
        }
    }

    /// `(a sym b)` of an arithmetic operator or a comparison as node `e`.
    fn try_binary(
        &mut self,
        e: &Expr,
        op: PyBinary,
        sym: &str,
        a: &Form<Self::Val>,
        b: &Form<Self::Val>,
    ) -> PResult<Form<Self::Val>> {
        if let Some(why) = self.folded(&[a, b]) {
            return Err(why.into());
        }
        let text = format!("({} {sym} {})", a.text, b.text);
        let (x, y) = (a.val.clone(), b.val.clone());
        self.checked(e, text, |p| match op {
            PyBinary::Arith(o) => p.binop(o, x, y),
            PyBinary::Compare(o) => p.compare(o, x, y),
        })
    }

    /// `(sym x)` as node `e`.
    fn try_unary(
        &mut self,
        e: &Expr,
        op: UnaryOp,
        sym: &str,
        x: &Form<Self::Val>,
    ) -> PResult<Form<Self::Val>> {
        if let Some(why) = self.folded(&[x]) {
            return Err(why.into());
        }
        let text = format!("({sym}{})", x.text);
        self.checked(e, text, |p| p.unop(op, x.val.clone()))
    }
}

/// The text of a call's arguments: positional ones, then `key=value`.
pub fn call_args<V>(args: &[Form<V>], kw: &[(&str, Form<V>)]) -> String {
    let mut parts: Vec<String> = args.iter().map(|f| f.text.clone()).collect();
    parts.extend(kw.iter().map(|(k, f)| format!("{k}={}", f.text)));
    parts.join(", ")
}
