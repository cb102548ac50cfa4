//! `@triton.constexpr_function`: a Python function Triton calls on its
//! arguments' values while compiling. Its body runs as Python on
//! compile-time values: an assignment keeps a Python value, and its loops
//! (`while`, `for` over `range` or a tuple, with `break`, `continue` and
//! `return` anywhere in them) run here, iteration by iteration, as CPython
//! runs them.

use super::{counted_range, err, holds_runtime, range_bounds, Elab};
use crate::frontend::triton::builtins::Args;
use crate::frontend::triton::promote::PyNum;
use crate::frontend::triton::value::Value;
use crate::span::{DResult, Diagnostic, Span};
use rustpython_parser::ast;

/// Iterations one compile-time loop may run before ksem stops it (a
/// `while` whose condition never turns false).
pub const MAX_ITERATIONS: usize = 1 << 20;

/// How one iteration of a compile-time loop ended.
enum Flow {
    /// It ran to its end or met `continue`: the loop goes on.
    Next,
    /// It met `break`.
    Break,
    /// It met `return`: the function ends.
    Return,
}

impl Elab<'_> {
    /// Runs `@triton.constexpr_function` `name` of the current module on
    /// `args` (neither they nor its result may be runtime values, nor may
    /// it compute one).
    pub(super) fn call_constexpr_function(
        &mut self,
        name: &str,
        args: Args,
        span: Span,
    ) -> DResult<Value> {
        let what = format!("`{name}` is a @triton.constexpr_function");
        for v in args.pos.iter().chain(args.kw.iter().map(|(_, v)| v)) {
            if holds_runtime(v) {
                return err(
                    span,
                    format!(
                        "{what}: its arguments must be compile-time values, got {}",
                        v.describe()
                    ),
                );
            }
        }
        let m = self.m;
        let Some(f) = m.constexpr_funcs.get(name) else {
            // (one of another module, passed into a helper of this one)
            return err(
                span,
                format!("{what} of another module: ksem calls one only in its own module or as that module's member"),
            );
        };
        let emitted = self.out.len();
        let saved = std::mem::replace(&mut self.compile_time, true);
        let saved_loops = std::mem::take(&mut self.ct_loops);
        let r = self.inline_call(name, f, args, span);
        self.compile_time = saved;
        self.ct_loops = saved_loops;
        let v = r?;
        if self.out.len() != emitted || holds_runtime(&v) {
            return Err(Diagnostic::new(
                span,
                format!("{what} but computes a runtime value"),
            )
            .with_help("a constexpr_function runs on the host while compiling: use Python values only, or make it a @triton.jit function"));
        }
        Ok(v)
    }

    /// `for target in iter:` in a constexpr_function: `iter` is a `range`
    /// (or `tl.static_range`) of compile-time integers or a tuple, and the
    /// body runs once per item with `target` bound to it.
    pub(super) fn compile_time_for(&mut self, f: &ast::StmtFor) -> DResult<()> {
        let span = self.span(f);
        let items = self.compile_time_items(&f.iter, span)?;
        for v in items {
            self.assign(&f.target, v)?;
            match self.compile_time_iteration(&f.body)? {
                Flow::Next => {}
                Flow::Break | Flow::Return => break,
            }
        }
        Ok(())
    }

    /// The items a constexpr_function's `for` runs over.
    fn compile_time_items(&mut self, iter: &ast::Expr, span: Span) -> DResult<Vec<Value>> {
        if let ast::Expr::Call(call) = iter {
            let func = self.expr(&call.func)?;
            if matches!(&func, Value::Builtin(b) if b == "range" || b == "py:range" || b == "static_range")
            {
                if let Some(k) = call.keywords.first() {
                    return err(self.span(k), "range() takes no keyword arguments");
                }
                let bounds = self.positional_args(&call.args)?;
                return self.compile_time_range(bounds, span);
            }
        }
        match self.expr(iter)? {
            Value::Tuple(t) | Value::Named(_, t) => Ok(t),
            other => err(
                span,
                format!(
                    "a constexpr_function's `for` runs over range() or a tuple, not {}",
                    other.describe()
                ),
            ),
        }
    }

    /// The integers of `range(*bounds)`, as CPython counts them.
    fn compile_time_range(&mut self, bounds: Vec<Value>, span: Span) -> DResult<Vec<Value>> {
        let (start, end, step) = range_bounds(bounds, span)?;
        let (a, s, n) = counted_range(
            [&start, &end, &step],
            span,
            "range() bounds in a constexpr_function must be integers",
        )?;
        if n > MAX_ITERATIONS as u128 {
            return err(
                span,
                format!("a constexpr_function's loop runs more than {MAX_ITERATIONS} iterations"),
            );
        }
        Ok((0..n as i128)
            .map(|k| Value::Num(PyNum::Int(a + k * s)))
            .collect())
    }

    /// `while test:` in a constexpr_function: the test is evaluated before
    /// every iteration and must be a compile-time value.
    pub(super) fn compile_time_while(&mut self, w: &ast::StmtWhile) -> DResult<()> {
        let span = self.span(w);
        for _ in 0..MAX_ITERATIONS {
            let c = self.expr(&w.test)?;
            let Ok(go) = self.cond_of(c, span)? else {
                return err(
                    span,
                    "a constexpr_function's `while` condition must be a compile-time value",
                );
            };
            if !go {
                return Ok(());
            }
            match self.compile_time_iteration(&w.body)? {
                Flow::Next => {}
                Flow::Break | Flow::Return => return Ok(()),
            }
        }
        err(
            span,
            format!("a constexpr_function's loop runs more than {MAX_ITERATIONS} iterations"),
        )
    }

    /// Runs one iteration of a compile-time loop's `body`: how it ended
    /// (a `return` leaves the block terminated, for the function's end).
    fn compile_time_iteration(&mut self, body: &[ast::Stmt]) -> DResult<Flow> {
        self.ct_loops += 1;
        let r = self.stmts(body);
        self.ct_loops -= 1;
        r?;
        if !self.terminated {
            return Ok(Flow::Next);
        }
        Ok(match self.ct_jump.take() {
            Some(true) => {
                self.terminated = false;
                Flow::Break
            }
            Some(false) => {
                self.terminated = false;
                Flow::Next
            }
            None => Flow::Return,
        })
    }

    /// `break` (`is_break`) or `continue` in a constexpr_function's loop:
    /// the rest of the iteration's blocks are skipped.
    pub(super) fn compile_time_jump(&mut self, is_break: bool) {
        self.ct_jump = Some(is_break);
        self.terminated = true;
    }
}
