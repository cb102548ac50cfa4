//! The statement lists a SIMT front end (CUDA Python, Hidet, TileLang)
//! builds while it elaborates: its variables, the open blocks, and the
//! shapes of IR that every one of them emits the same way (a fresh
//! variable, a held operand, a `while` whose condition needs statements,
//! the one-trip loop of an inlined function).

use crate::ir::{Block, Expr, ExprKind, Stmt, Type, UnOp, VarId};
use crate::span::Span;

/// An elaborator that builds SIMT statement lists: it owns the kernel's
/// variables and a stack of open blocks (the last is the current one).
pub trait Blocks {
    /// The kernel's variables: name and type, indexed by [`VarId`].
    fn vars(&self) -> &Vec<(String, Type)>;
    /// The kernel's variables, to add to.
    fn vars_mut(&mut self) -> &mut Vec<(String, Type)>;
    /// The open blocks; the last is where statements go.
    fn blocks_mut(&mut self) -> &mut Vec<Block>;
    /// The open blocks, to read.
    fn blocks(&self) -> &Vec<Block>;

    /// Appends `s` to the current block.
    fn emit(&mut self, s: Stmt) {
        self.blocks_mut()
            .last_mut()
            .expect("a block is open")
            .push(s);
    }

    /// A fresh variable `name` of type `ty`.
    fn new_var(&mut self, name: &str, ty: Type) -> VarId {
        self.vars_mut().push((name.to_string(), ty));
        self.vars().len() - 1
    }

    /// A read of variable `v`.
    fn var_expr(&self, v: VarId, span: Span) -> Expr {
        Expr {
            kind: ExprKind::Var(v),
            ty: self.vars()[v].1.clone(),
            span,
        }
    }

    /// `e` held in a fresh variable unless it is already a variable or a
    /// constant (so that an operand used twice is evaluated once).
    fn temp(&mut self, e: Expr) -> Expr {
        if matches!(e.kind, ExprKind::Var(_) | ExprKind::Const(_)) {
            return e;
        }
        let span = e.span;
        let v = self.new_var("_t", e.ty.clone());
        self.emit(Stmt::Let(v, e));
        self.var_expr(v, span)
    }

    /// Stores `value`, converted to `d`, into the `d` element at `ptr`
    /// (an assignment coerces the value to the array's dtype).
    fn store(&mut self, ptr: Expr, value: Expr, d: crate::dtype::DType, span: Span) {
        let value = crate::ir::build::convert(value, d);
        self.emit(Stmt::Store {
            ptr,
            value,
            mask: None,
            span,
        });
    }

    /// `a if cond else b` as statements: a fresh variable `name` of dtype
    /// `d` that the branch taken sets, after the statements its value
    /// needed (`pre_a`, `pre_b`); the read of that variable.
    fn branch_value(
        &mut self,
        name: &str,
        cond: Expr,
        (pre_a, a): (Block, Expr),
        (pre_b, b): (Block, Expr),
        d: crate::dtype::DType,
        span: Span,
    ) -> Expr {
        use crate::ir::build::convert;
        let r = self.new_var(name, Type::scalar(d));
        let mut then_body = pre_a;
        then_body.push(Stmt::Let(r, convert(a, d)));
        let mut else_body = pre_b;
        else_body.push(Stmt::Let(r, convert(b, d)));
        self.emit(Stmt::If {
            cond,
            then_body,
            else_body,
        });
        self.var_expr(r, span)
    }

    /// `r = v0; if go_on(r) { r = v1; if go_on(r) { r = v2 … } }`: a value
    /// of `n` operands where each one after the first is elaborated (its
    /// statements emitted) only where those before left the value
    /// undecided (`go_on` of `r`). Python's short-circuit `and` (go on
    /// while true) and `or` (while false), and a comparison chain (`a < b
    /// < c`: `b < c` only where `a < b`). `operand(k)` elaborates the k-th
    /// operand's value into the current block.
    fn short_circuit(
        &mut self,
        r: VarId,
        n: usize,
        operand: &mut dyn FnMut(&mut Self, usize) -> crate::span::DResult<Expr>,
        go_on: &dyn Fn(&Self, Expr) -> Expr,
        span: Span,
    ) -> crate::span::DResult<()>
    where
        Self: Sized,
    {
        let v = operand(self, 0)?;
        self.emit(Stmt::Let(r, v));
        if n < 2 {
            return Ok(());
        }
        let (rest, then_body) = self
            .collect(|me| me.short_circuit(r, n - 1, &mut |me, k| operand(me, k + 1), go_on, span));
        rest?;
        let cond = go_on(self, self.var_expr(r, span));
        self.emit(Stmt::If {
            cond,
            then_body,
            else_body: vec![],
        });
        Ok(())
    }

    /// After a loop inside an inlined function whose "returned" flag is
    /// `done` (`None` outside one): a `return` in the loop left only that
    /// loop, so the function's one-trip loop is left too: `if done { break }`.
    fn leave_if_returned(&mut self, done: Option<VarId>) {
        if let Some(d) = done {
            let cond = self.var_expr(d, Span::default());
            self.emit(Stmt::If {
                cond,
                then_body: vec![Stmt::Break],
                else_body: vec![],
            });
        }
    }

    /// Where the current block stands (statements emitted so far).
    fn mark(&self) -> usize {
        self.blocks().last().map_or(0, |b| b.len())
    }

    /// Runs `f` with a fresh block open and returns that block (the
    /// block is closed also where `f` fails).
    fn collect<T>(
        &mut self,
        f: impl FnOnce(&mut Self) -> crate::span::DResult<T>,
    ) -> (crate::span::DResult<T>, Block)
    where
        Self: Sized,
    {
        self.blocks_mut().push(Vec::new());
        let r = f(self);
        let b = self.blocks_mut().pop().expect("pushed above");
        (r, b)
    }
}

/// Implements [`Blocks`] for an elaborator type whose fields `vars` and
/// `blocks` are the kernel's variables and its open blocks.
macro_rules! impl_blocks {
    ($t:ty) => {
        impl $crate::frontend::py::simt::Blocks for $t {
            fn vars(&self) -> &Vec<(String, $crate::ir::Type)> {
                &self.vars
            }
            fn vars_mut(&mut self) -> &mut Vec<(String, $crate::ir::Type)> {
                &mut self.vars
            }
            fn blocks(&self) -> &Vec<$crate::ir::Block> {
                &self.blocks
            }
            fn blocks_mut(&mut self) -> &mut Vec<$crate::ir::Block> {
                &mut self.blocks
            }
        }
    };
}
pub(crate) use impl_blocks;

/// Whether `a and …` (`is_and`) or `a or …` goes on past an operand
/// whose truth is `truth`: `and` while it is true, `or` while it is false.
pub fn undecided(is_and: bool, truth: Expr, span: Span) -> Expr {
    if is_and {
        truth
    } else {
        crate::ir::build::unary(UnOp::LogicalNot, truth, span)
    }
}

/// The most elements ksem gives one local or shared array of a SIMT kernel.
pub const MAX_ARRAY_ELEMS: usize = 1 << 20;

/// The number of elements of a local or shared array of `shape` (`what`:
/// "shared array", "local tensor"), refused where it is over
/// [`MAX_ARRAY_ELEMS`] (checked: a shape such as (2**40, 2**40) must not
/// overflow).
pub fn array_elems(shape: &[usize], what: &str, span: Span) -> crate::span::DResult<usize> {
    let n = shape
        .iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d))
        .unwrap_or(usize::MAX);
    if n > MAX_ARRAY_ELEMS {
        return Err(crate::span::Diagnostic::new(
            span,
            format!("{n} elements is too large for a {what}"),
        ));
    }
    Ok(n)
}

/// `break` (`is_break`) or `continue`, emitted into the current block.
pub fn jump(b: &mut impl Blocks, is_break: bool) -> crate::span::DResult<()> {
    b.emit(if is_break {
        Stmt::Break
    } else {
        Stmt::Continue
    });
    Ok(())
}

/// The loop of `while c:` whose condition needed the statements `pre`
/// (short-circuit operators, inlined calls): with none, `while c { body }`;
/// else the condition is evaluated at the top of an endless loop that it
/// leaves: `while true { pre; if !c { break }; body }`.
pub fn while_loop(pre: Block, cond: Expr, body: Block, span: Span) -> Stmt {
    if pre.is_empty() {
        return Stmt::While { cond, body, span };
    }
    let mut all = pre;
    all.push(Stmt::If {
        cond: crate::ir::build::unary(UnOp::LogicalNot, cond, span),
        then_body: vec![Stmt::Break],
        else_body: vec![],
    });
    all.extend(body);
    Stmt::While {
        cond: crate::ir::build::konst(crate::dtype::DType::Bool, 1, span),
        body: all,
        span,
    }
}

/// The one-trip loop an inlined function's body runs in (a `return` in
/// it is a `break` out of this loop), with its fresh counter `once`.
pub fn once_loop(once: VarId, body: Block, span: Span) -> Stmt {
    let int = |v| crate::ir::build::int_const(crate::dtype::DType::I32, v, span);
    Stmt::For {
        var: once,
        start: int(0),
        end: int(1),
        step: int(1),
        body,
        span,
        parallel: None,
    }
}
