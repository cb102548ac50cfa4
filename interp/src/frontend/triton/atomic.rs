//! Triton's atomics: `tl.atomic_add/max/min/and/or/xor/xchg(pointer, val,
//! mask=None, sem=None, scope=None)` and `tl.atomic_cas(pointer, cmp, val,
//! sem=None, scope=None)`, with Triton 3.6's type rules (its
//! `semantic.atom_red_typechecking_impl` and `atomic_cas`, each refusal
//! measured on sm_90: `tools/probes/triton_features/measure_atomics_random.py`,
//! `docs/triton-measured.md` (h)).
//!
//! `tl.atomic_poll(pointer, expected_value, sem=None, scope=None,
//! timeout_ns=None)` (Triton 3.9) loads each element once, atomically, and
//! is true where it equals `expected_value`. ksem runs one program at a time,
//! so no other program can change the element while this one polls: a poll
//! that does not match gives false, also without a timeout (where the GPU
//! would go on polling for a value another program writes).
//!
//! Each call becomes one IR `Atomic` bound to a variable of its own, so it
//! runs once where it stands whether or not its result is used. The memory
//! order (`sem`) and scope only order other memory accesses around the
//! atomic; ksem checks their names and otherwise needs nothing of them.

use super::builtins::{Bound, Signatures, CONVERT};
use super::elab::{err, Elab};
use super::value::Value;
use super::version::Rule;
use crate::dtype::DType;
use crate::ir::*;
use crate::span::{DResult, Span};

/// The names `sem=` accepts (Triton 3.6 `_str_to_sem`).
const SEMS: &[&str] = &["acquire", "release", "acq_rel", "relaxed"];
/// The names `scope=` accepts (`_str_to_scope`).
const SCOPES: &[&str] = &["gpu", "cta", "sys"];

/// The atomic builtins (without `tl.`), each with its Python signature
/// (see [`super::builtins::bind`]).
pub const BUILTINS: Signatures = &[
    ("atomic_add", "pointer, val, mask, sem, scope"),
    ("atomic_max", "pointer, val, mask, sem, scope"),
    ("atomic_min", "pointer, val, mask, sem, scope"),
    ("atomic_and", "pointer, val, mask, sem, scope"),
    ("atomic_or", "pointer, val, mask, sem, scope"),
    ("atomic_xor", "pointer, val, mask, sem, scope"),
    ("atomic_xchg", "pointer, val, mask, sem, scope"),
    ("atomic_cas", "pointer, cmp, val, sem, scope"),
    (
        "atomic_poll",
        "pointer, expected_value, sem, scope, timeout_ns",
    ),
];

impl Elab<'_> {
    /// Elaborates `tl.<name>(…)`, one of [`BUILTINS`].
    pub(super) fn atomic(&mut self, name: &str, b: Bound, span: Span) -> DResult<Value> {
        if name == "atomic_poll" {
            return self.atomic_poll(b, span);
        }
        let cas = name == "atomic_cas";
        check_option(&b.opt("sem"), "sem", SEMS, span)?;
        check_option(&b.opt("scope"), "scope", SCOPES, span)?;
        let (ptr, d, shape) = self.pointer(b.req("pointer", span)?, &format!("tl.{name}"), span)?;
        let op = &name["atomic_".len()..];
        if cas {
            return self.cas(
                ptr,
                d,
                &shape,
                b.req("cmp", span)?,
                b.req("val", span)?,
                span,
            );
        }
        check_element(op, d, span)?;
        // core.atomic_*: to_tensor(val); semantic: broadcast to the
        // pointer's shape, then cast to the element type
        let val = self.to_tensor(b.req("val", span)?, span)?;
        if val.ty.is_ptr() {
            return err(
                span,
                format!("tl.{name} takes a number operand, got {}", val.ty),
            );
        }
        let val = self.broadcast_operand(val, &shape, name, span)?;
        let val = self.cast(val, d, CONVERT);
        let mask = match b.opt("mask") {
            Some(m) => Some(Box::new(self.mask(m, &shape, span)?)),
            None => None,
        };
        let aop = match (op, d.is_float()) {
            ("add", _) => AtomicOp::Add,
            ("max", true) => AtomicOp::BitsMax,
            ("min", true) => AtomicOp::BitsMin,
            ("max", false) => AtomicOp::Max,
            ("min", false) => AtomicOp::Min,
            ("xchg", _) => AtomicOp::Exch,
            (bitwise, true) => {
                return err(
                    span,
                    format!(
                        "tl.atomic_{bitwise} needs an integer pointer, got a pointer to {}",
                        d.json_name()
                    ),
                )
            }
            ("and", false) => AtomicOp::And,
            ("or", false) => AtomicOp::Or,
            _ => AtomicOp::Xor,
        };
        Ok(self.bind_atomic(aop, ptr, val, None, mask, d, shape, span))
    }

    /// `tl.atomic_poll`: an atomic load of each element (an atomic `or`
    /// with 0) compared with the expected value.
    fn atomic_poll(&mut self, b: Bound, span: Span) -> DResult<Value> {
        check_option(&b.opt("sem"), "sem", SEMS, span)?;
        check_option(&b.opt("scope"), "scope", SCOPES, span)?;
        let (ptr, d, shape) = self.pointer(b.req("pointer", span)?, "tl.atomic_poll", span)?;
        if !d.is_int() || d == DType::Bool || d.bits() < 16 {
            return err(
                span,
                format!(
                    "tl.atomic_poll needs a pointer to 16-, 32- or 64-bit integers, got {}",
                    d.json_name()
                ),
            );
        }
        let zero = self.broadcast_to(crate::ir::build::konst(d, 0, span), &shape, span)?;
        let old = self.bind_atomic(AtomicOp::Or, ptr, zero, None, None, d, shape.clone(), span);
        let Value::Tensor(old) = old else {
            return err(span, "tl.atomic_poll: an atomic load without a value");
        };
        let want = self.to_tensor(b.req("expected_value", span)?, span)?;
        let want = self.broadcast_operand(want, &shape, "atomic_poll", span)?;
        let want = self.cast(want, d, CONVERT);
        Ok(Value::Tensor(crate::ir::build::bin(
            BinOp::Eq,
            old,
            want,
            span,
        )))
    }

    /// `tl.atomic_cas`: Triton 3.6 converts neither `cmp` nor `val` (they
    /// must already have the pointer's element type and shape).
    fn cas(
        &mut self,
        ptr: Expr,
        d: DType,
        shape: &[usize],
        cmp: Value,
        val: Value,
        span: Span,
    ) -> DResult<Value> {
        match d.bits() {
            32 | 64 => {}
            16 if self.version.has(Rule::SixteenBitCas) => {}
            16 => {
                return err(
                    span,
                    format!(
                        "tl.atomic_cas on {} elements: Triton {}'s compiler fails on 16-bit \
                         compare-and-swap (\"error encountered during parsing\"); Triton {}.{} \
                         and later run it (\"target\": {{\"triton\": …}} in the launch)",
                        d.json_name(),
                        self.version,
                        Rule::SixteenBitCas.since().0,
                        Rule::SixteenBitCas.since().1,
                    ),
                )
            }
            _ => {
                return err(
                    span,
                    "atomic_cas only supports elements with width {16, 32, 64}",
                )
            }
        }
        let typed = |v: Value, what: &str| -> DResult<Expr> {
            let e = self.to_tensor(v, span)?;
            if e.ty != Type::num(d, shape.to_vec()) {
                return err(
                    span,
                    format!(
                        "tl.atomic_cas: `{what}` is {} but the pointer is {}; Triton 3.6 does not \
                         convert it (give it the pointer's element type and shape, e.g. \
                         x.to(tl.{}) or tl.full(shape, v, dtype))",
                        e.ty,
                        Type {
                            elem: Elem::Ptr(d, AddrSpace::Global),
                            shape: shape.to_vec()
                        },
                        d.json_name()
                    ),
                );
            }
            Ok(e)
        };
        let cmp = typed(cmp, "cmp")?;
        let val = typed(val, "val")?;
        Ok(self.bind_atomic(
            AtomicOp::Cas,
            ptr,
            val,
            Some(cmp),
            None,
            d,
            shape.to_vec(),
            span,
        ))
    }

    /// Broadcasts an atomic's operand to the pointer's shape (one way only:
    /// a scalar pointer takes only a scalar operand).
    fn broadcast_operand(
        &self,
        val: Expr,
        shape: &[usize],
        name: &str,
        span: Span,
    ) -> DResult<Expr> {
        if shape.is_empty() && !val.ty.shape.is_empty() {
            return err(
                span,
                format!(
                    "tl.{name} through a scalar pointer takes a scalar operand, got a tensor of shape {:?}",
                    val.ty.shape
                ),
            );
        }
        self.broadcast_to(val, shape, span)
    }

    /// Binds the atomic to a variable of its own, so that it runs exactly
    /// once, where the call stands.
    #[allow(clippy::too_many_arguments)]
    fn bind_atomic(
        &mut self,
        op: AtomicOp,
        ptr: Expr,
        val: Expr,
        cmp: Option<Expr>,
        mask: Option<Box<Expr>>,
        d: DType,
        shape: Vec<usize>,
        span: Span,
    ) -> Value {
        let e = Expr {
            kind: ExprKind::Atomic {
                op,
                ptr: Box::new(ptr),
                val: Box::new(val),
                cmp: cmp.map(Box::new),
                mask,
            },
            ty: Type::num(d, shape),
            span,
        };
        Value::Tensor(self.bind("_atomic", e))
    }
}

/// Refuses element types Triton 3.6 refuses for the read-modify-write `op`:
/// float16/bfloat16 except for `add`, 16-bit integers, and anything
/// narrower than 16 bits (bool, int8, fp8); float max/min only for
/// float32/float64.
fn check_element(op: &str, d: DType, span: Span) -> DResult<()> {
    let name = format!("atomic_{op}");
    let refused = match d {
        DType::F16 if op != "add" => Some("fp16"),
        DType::BF16 if op != "add" => Some("bf16"),
        DType::I16 | DType::U16 => Some(d.json_name()),
        _ if d.bits() < 16 => Some(if d == DType::Bool {
            "int1"
        } else {
            d.json_name()
        }),
        _ => None,
    };
    match refused {
        Some(what) => err(
            span,
            format!("{name} does not support {what} (Triton 3.6 refuses it)"),
        ),
        None => Ok(()),
    }
}

/// Refuses a `sem=`/`scope=` value outside Triton's names.
fn check_option(v: &Option<Value>, what: &str, names: &[&str], span: Span) -> DResult<()> {
    match v {
        None => Ok(()),
        Some(Value::Str(s)) if names.contains(&s.as_str()) => Ok(()),
        Some(other) => err(
            span,
            format!(
                "{what}= must be one of {}, got {}",
                names.join(", "),
                other.describe()
            ),
        ),
    }
}
