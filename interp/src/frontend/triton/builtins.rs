//! The `tl.*` builtins (and `tl.math.*`, tensor methods, the few Python
//! builtins a kernel may call) elaborated into typed-program nodes.

use super::elab::{elementwise_unary, err, Elab, MAX_TILE_ELEMS};
use super::promote::{self, Operand, PyNum};
use super::value::{truthy, Value};
use crate::dtype::DType;
use crate::float::{Overflow, Rounding};
use crate::frontend::py;
use crate::ir::*;
use crate::span::{DResult, Diagnostic, Span};

/// What a float narrowing to fp8 does with values beyond the largest finite
/// one. Triton 3.6 on sm_90 converts with `cvt.rn.satfinite`, which clamps.
pub const FP8_OVERFLOW: Overflow = Overflow::Saturate;

pub(super) const CONVERT: CastKind = CastKind::Convert(Rounding::NearestEven, Overflow::Infinity);

/// Refuses `boundary_check`/`padding_option` on a load or store through a
/// tensor of pointers, as Triton 3.6 does (`_load_legacy`); an empty value
/// (`boundary_check=()`, `padding_option=""`) is the default and passes.
fn refuse_block_options(b: &Bound, span: Span) -> DResult<()> {
    let given = |k: &str| match b.opt(k) {
        None => false,
        Some(Value::Tuple(t)) => !t.is_empty(),
        Some(Value::Str(s)) => !s.is_empty(),
        Some(_) => true,
    };
    if given("boundary_check") || given("padding_option") {
        return err(
            span,
            "`padding_option` or `boundary_check` argument is not supported for loading a tensor of pointers or loading a scalar; use `mask` and `other` (Triton 3.6 refuses it too)",
        );
    }
    Ok(())
}

/// Arguments of a builtin call bound to its parameter names.
pub(super) struct Bound {
    fname: String,
    vals: Vec<(&'static str, Option<Value>)>,
    /// Extra positional arguments (for varargs builtins).
    rest: Vec<Value>,
}

impl Bound {
    /// The argument bound to `name`, if any.
    pub(super) fn get(&self, name: &str) -> Option<&Value> {
        self.vals
            .iter()
            .find(|(n, _)| *n == name)
            .and_then(|(_, v)| v.as_ref())
    }
    /// The argument bound to `name`; an error where it is missing.
    pub(super) fn req(&self, name: &str, span: Span) -> DResult<Value> {
        self.get(name).cloned().ok_or_else(|| {
            Diagnostic::new(
                span,
                format!("{}() missing required argument `{name}`", self.fname),
            )
        })
    }
    /// The argument bound to `name` unless it is missing or None.
    pub(super) fn opt(&self, name: &str) -> Option<Value> {
        match self.get(name) {
            None | Some(Value::None) => None,
            Some(v) => Some(v.clone()),
        }
    }
}

/// Keyword arguments that only tune code generation; accepted and ignored.
const HINT_KWARGS: &[&str] = &[
    "cache_modifier",
    "eviction_policy",
    "volatile",
    "sanitize_overflow",
    "_builder",
    "_semantic",
];

/// The value Triton leaves undefined, of dtype `d` and `shape`: the
/// masked-off lanes of a `tl.load` without `other`, the padding of a
/// block-pointer load without `padding_option`.
pub(super) fn undefined(d: DType, shape: &[usize], span: Span) -> Expr {
    Expr {
        kind: ExprKind::Undef,
        ty: Type::num(d, shape.to_vec()),
        span,
    }
}

/// A call's arguments, evaluated: what a builtin binds and a `@triton.jit`
/// helper takes.
#[derive(Clone, Debug, Default)]
pub struct Args {
    /// The positional arguments.
    pub pos: Vec<Value>,
    /// The keyword arguments (name, value), in the order written.
    pub kw: Vec<(String, Value)>,
}

impl From<Vec<Value>> for Args {
    /// Positional arguments only.
    fn from(pos: Vec<Value>) -> Args {
        Args {
            pos,
            kw: Vec::new(),
        }
    }
}

impl Args {
    /// The arguments without keyword `key` (one the caller ignores).
    pub fn without(mut self, key: &str) -> Args {
        self.kw.retain(|(k, _)| k != key);
        self
    }
}

/// Binds a builtin call's arguments to its parameter names.
///
/// `signature` lists the parameters as Python writes them, comma-separated
/// (`"input, axis, keep_dims"`); a last entry `...` accepts further
/// positional arguments, kept in order after the named ones.
pub(super) fn bind(fname: &str, signature: &'static str, args: Args, span: Span) -> DResult<Bound> {
    let mut params: Vec<&'static str> = signature.split(',').map(str::trim).collect();
    let varargs = params.last() == Some(&"...");
    if varargs {
        params.pop();
    }
    let mut vals: Vec<(&'static str, Option<Value>)> = params.iter().map(|p| (*p, None)).collect();
    let mut rest = Vec::new();
    for (i, a) in args.pos.into_iter().enumerate() {
        if i < params.len() {
            vals[i].1 = Some(a);
        } else if varargs {
            rest.push(a);
        } else {
            let what = format!("{fname}()");
            crate::frontend::py::arity::check_args(span, &what, (0, params.len()), i + 1)?;
        }
    }
    for (k, v) in args.kw {
        if let Some(slot) = vals.iter_mut().find(|(n, _)| *n == k) {
            if slot.1.is_some() {
                return err(span, format!("{fname}() got multiple values for `{k}`"));
            }
            slot.1 = Some(v);
        } else if !HINT_KWARGS.contains(&k.as_str()) {
            return err(
                span,
                format!("{fname}() got an unexpected keyword argument `{k}`"),
            );
        }
    }
    Ok(Bound {
        fname: fname.to_string(),
        vals,
        rest,
    })
}

/// A compile-time integer argument.
pub(super) fn const_int(v: &Value, what: &str, span: Span) -> DResult<i128> {
    match v {
        Value::Num(PyNum::Int(i)) => Ok(*i),
        Value::Num(PyNum::Bool(b)) => Ok(*b as i128),
        other => err(
            span,
            format!(
                "{what} must be a compile-time integer, got {}",
                other.describe()
            ),
        ),
    }
}

pub(super) fn const_bool(v: Option<&Value>, default: bool, span: Span) -> DResult<bool> {
    match v {
        None | Some(Value::None) => Ok(default),
        Some(v) => truthy(v).ok_or_else(|| Diagnostic::new(span, "expected a compile-time bool")),
    }
}

/// A dtype argument (a dtype object or a string naming one).
pub(super) fn as_dtype(v: &Value, span: Span) -> DResult<DType> {
    match v {
        Value::DType(d) => Ok(*d),
        Value::Str(s) => {
            DType::from_name(s).ok_or_else(|| Diagnostic::new(span, format!("unknown dtype {s:?}")))
        }
        other => err(
            span,
            format!(
                "expected a dtype such as tl.float32, got {}",
                other.describe()
            ),
        ),
    }
}

/// A shape given as an int, a tuple/list of ints, or varargs.
fn shape_of(v: &Value, rest: &[Value], span: Span) -> DResult<Vec<usize>> {
    let items: Vec<Value> = match v {
        Value::Tuple(t) => t.clone(),
        other => std::iter::once(other.clone())
            .chain(rest.iter().cloned())
            .collect(),
    };
    items
        .iter()
        .map(|d| {
            let n = const_int(d, "a shape dimension", span)?;
            if n < 0 {
                return err(span, format!("negative shape dimension {n}"));
            }
            if n > MAX_TILE_ELEMS as i128 {
                return err(span, format!("shape dimension {n} exceeds ksem's tile limit of {MAX_TILE_ELEMS} elements"));
            }
            Ok(n as usize)
        })
        .collect()
}

fn check_block_shape(shape: &[usize], span: Span) -> DResult<()> {
    for &d in shape {
        if !d.is_power_of_two() {
            return err(
                span,
                format!(
                    "shape {shape:?}: every dimension of a tensor must be a power of 2 (Triton)"
                ),
            );
        }
    }
    super::elab::check_tile_size(shape, span)
}

pub(super) fn normalize_axis(axis: i128, rank: usize, span: Span) -> DResult<usize> {
    let r = rank as i128;
    let a = if axis < 0 { axis + r } else { axis };
    if a < 0 || a >= r {
        return err(
            span,
            // Triton's `_wrap_axis` wording (its tests match it)
            format!("invalid axis {axis}. Expected {} <= axis < {rank}", -r),
        );
    }
    Ok(a as usize)
}

/// The dtype `tl.sum` accumulates and returns (Triton 3.6): integers narrower
/// than 32 bits widen to int32 (signed) or uint32 (unsigned, bool); others keep theirs.
pub fn sum_dtype(d: DType) -> DType {
    match d {
        d if d.is_signed_int() && d.bits() < 32 => DType::I32,
        d if d.is_unsigned_int() && d.bits() < 32 => DType::U32,
        d => d,
    }
}

/// The dtype `tl.max`/`tl.min` return (Triton 3.6): anything narrower than 32
/// bits widens to float32 or int32.
pub fn minmax_dtype(d: DType) -> DType {
    match d {
        d if d.bits() < 32 && d.is_float() => DType::F32,
        d if d.bits() < 32 => DType::I32,
        d => d,
    }
}

/// The math function of libdevice's `name` (`libdevice.tanh(x)`, which
/// Triton dispatches to `__nv_tanhf`/`__nv_tanh` by dtype): the IR's math
/// functions by their names (all but `sigmoid`, which libdevice lacks), and
/// libdevice's own spellings of three of them.
fn libdevice_fn(name: &str) -> Option<MathFn> {
    match name {
        "fast_expf" => Some(MathFn::Exp),
        "fast_logf" => Some(MathFn::Log),
        "fabs" => Some(MathFn::Abs),
        _ => MathFn::ALL
            .iter()
            .copied()
            .find(|f| f.name() == name && *f != MathFn::Sigmoid),
    }
}

/// The signature of libdevice's `name` (see [`bind`]): one operand, or
/// two for `pow` and `fmod`; an error for a function ksem does not model.
fn libdevice_signature(name: &str, span: Span) -> DResult<&'static str> {
    match name {
        _ if libdevice_fn(name).is_some() => Ok("arg0"),
        "pow" | "fmod" => Ok("arg0, arg1"),
        _ => Err(Diagnostic::new(
            span,
            format!("libdevice.{name} is not modelled by ksem"),
        )
        .with_help("supported: exp, exp2, expm1, log, log2, log10, log1p, sqrt, sqrt_rn, rsqrt, sin, cos, tan, asin, acos, atan, sinh, cosh, tanh, asinh, acosh, atanh, erf, floor, ceil, fabs, pow, fmod")),
    }
}

/// The math function `tl.name` (`tl.math.name`) computes.
fn math_fn(name: &str) -> Option<MathFn> {
    const MATH: [MathFn; 13] = {
        use MathFn::*;
        [
            Exp, Exp2, Log, Log2, Sqrt, SqrtRn, Rsqrt, Sin, Cos, Sigmoid, Erf, Floor, Ceil,
        ]
    };
    MathFn::named(name).filter(|m| MATH.contains(m))
}

/// The dtypes a math function accepts: Triton 3.6 checks libdevice's
/// convention (`_check_dtype`), measured on the GPU for every function and
/// float dtype (`tools/probes/triton_features/math_dtypes.py`): float32 and
/// float64, `sqrt_rn` float32 only; float16 and bfloat16 are refused.
fn math_dtypes(f: MathFn) -> &'static [DType] {
    match f {
        MathFn::SqrtRn => &[DType::F32],
        _ => &[DType::F32, DType::F64],
    }
}

/// Refuses `x` as the operand of `what` where its dtype is not one of
/// `accepted` ([`math_dtypes`] for the math functions).
fn check_math_dtype(what: &str, accepted: &[DType], x: &Expr, span: Span) -> DResult<()> {
    if accepted.contains(&x.ty.dtype()) {
        return Ok(());
    }
    let names: Vec<&str> = accepted.iter().map(|d| d.json_name()).collect();
    let triton: Vec<String> = accepted.iter().map(|d| format!("'{}'", d.name())).collect();
    // Triton's own words first (`_check_dtype`), which its tests match
    Err(Diagnostic::new(
        span,
        format!(
            "Expected dtype [{}] but got {}: {what} takes {} tensors (Triton 3.6 refuses it)",
            triton.join(", "),
            x.ty.dtype().name(),
            names.join(" or "),
        ),
    )
    .with_help("convert first: x.to(tl.float32)"))
}

/// Builtins by name, each with its Python signature (see [`bind`]).
pub(super) type Signatures = &'static [(&'static str, &'static str)];

/// The signature of builtin `name` in `table`, if it is there.
pub(super) fn signature(table: Signatures, name: &str) -> Option<&'static str> {
    table.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
}

/// How a module of builtins elaborates a call of one of its names from
/// the arguments bound to that builtin's signature.
type ElaborateBuiltin<'m> = fn(&mut Elab<'m>, &str, Bound, Span) -> DResult<Value>;

/// The builtins of this file that bind their arguments to a signature
/// before anything else (see [`bind`]); the others read their arguments
/// themselves in [`Elab::call_builtin`].
const BUILTINS: Signatures = &[
    ("constexpr", "value"),
    ("program_id", "axis"),
    ("num_programs", "axis"),
    ("arange", "start, end"),
    ("zeros", "shape, dtype"),
    ("full", "shape, value, dtype"),
    ("zeros_like", "input, dtype"),
    ("full_like", "input, fill_value, dtype"),
    (
        "load",
        "pointer, mask, other, boundary_check, padding_option",
    ),
    ("store", "pointer, value, mask, boundary_check"),
    ("where", "condition, x, y"),
    ("clamp", "x, min, max, propagate_nan"),
    ("abs", "x"),
    ("py:abs", "x"),
    ("fma", "x, y, z"),
    ("next_power_of_2", "n"),
    ("cdiv", "x, div"),
    ("div_rn", "x, y"),
    ("fdiv", "x, y, ieee_rounding"),
    ("cast", "input, dtype, fp_downcast_rounding, bitcast"),
    ("to", "input, dtype, fp_downcast_rounding, bitcast"),
    ("sum", "input, axis, keep_dims, dtype"),
    ("xor_sum", "input, axis, keep_dims"),
    (
        "max",
        "input, axis, return_indices, return_indices_tie_break_left, keep_dims",
    ),
    (
        "min",
        "input, axis, return_indices, return_indices_tie_break_left, keep_dims",
    ),
    ("argmax", "input, axis, tie_break_left, keep_dims"),
    ("argmin", "input, axis, tie_break_left, keep_dims"),
    ("reduce", "input, axis, combine_fn, keep_dims"),
    ("cumsum", "input, axis, reverse, dtype"),
    ("cumprod", "input, axis, reverse"),
    ("associative_scan", "input, axis, combine_fn, reverse"),
    ("broadcast_to", "input, shape, ..."),
    ("broadcast", "input, other"),
    ("expand_dims", "input, axis"),
    ("trans", "input, dims, ..."),
    ("permute", "input, dims, ..."),
    ("multiple_of", "input, values"),
    ("max_contiguous", "input, values"),
    ("max_constancy", "input, values"),
    ("device_assert", "cond, msg, mask"),
    ("static_assert", "cond, msg"),
    ("tuple", "iterable"),
    ("py:tuple", "iterable"),
    ("py:isinstance", "obj, class_or_tuple"),
    ("py:int", "x"),
    ("py:float", "x"),
    ("py:bool", "x"),
];

/// The builtins bound to their signature before elaboration, with the
/// function that elaborates them: the modules of builtins, then this file's
/// [`BUILTINS`]; one list, searched before the builtins of this file that
/// read their arguments themselves.
fn builtin_modules<'m>() -> [(Signatures, ElaborateBuiltin<'m>); 10] {
    [
        (super::block_ptr::BUILTINS, Elab::block_ptr_builtin),
        (super::descriptor::BUILTINS, Elab::descriptor_builtin),
        (super::join::BUILTINS, Elab::join_split),
        (super::scaled_dot::BUILTINS, Elab::scaled_dot_builtin),
        (super::shape::BUILTINS, Elab::shape_builtin),
        (super::index::BUILTINS, Elab::index_builtin),
        (super::standard::BUILTINS, Elab::standard_builtin),
        (super::random::BUILTINS, Elab::random),
        (super::atomic::BUILTINS, Elab::atomic),
        (BUILTINS, Elab::bound_builtin),
    ]
}

impl Elab<'_> {
    /// Elaborates a call of builtin `name`.
    pub fn call_builtin(
        &mut self,
        name: &str,
        args: impl Into<Args>,
        span: Span,
    ) -> DResult<Value> {
        let args: Args = args.into();
        if let Some(ld) = name.strip_prefix("libdevice:") {
            let b = bind(ld, libdevice_signature(ld, span)?, args, span)?;
            return self.libdevice(ld, b, span);
        }
        if let Some(f) = math_fn(name) {
            let b = bind(name, "x", args, span)?;
            return self.math_of(f, b.req("x", span)?, name, &format!("tl.{name}"), span);
        }
        for (table, elaborate) in builtin_modules() {
            if let Some(sig) = signature(table, name) {
                let b = bind(name, sig, args, span)?;
                return elaborate(self, name, b, span);
            }
        }
        match name {
            "minimum" | "maximum" => self.min_max(name == "minimum", args, span),
            "py:min" | "py:max" => {
                // Triton 3.6's code generator binds Python's `min`/`max` to
                // tl.minimum/tl.maximum (`builtin_namespace`), with no
                // constant folding: min(2, 3) is a 0-d int32 tensor.
                let short = &name[3..];
                let help = || {
                    format!(
                        "Triton's {short}(a, b) is tl.{short}imum(a, b); nest calls for more \
                         operands ({short}({short}(a, b), c)); tl.{short}(x) reduces a tensor"
                    )
                };
                if args.pos.len() < 2 && !args.kw.iter().any(|(k, _)| k == "y") {
                    return Err(Diagnostic::new(
                        span,
                        format!(
                            "{short}() takes two operands in a Triton kernel, got {}",
                            args.pos.len()
                        ),
                    )
                    .with_help(help()));
                }
                if args.pos.len() > 2 && !matches!(args.pos[2], Value::NanMode(_)) {
                    return Err(Diagnostic::new(
                        span,
                        format!(
                            "{short}() with {} operands: Triton passes the third to \
                             tl.{short}imum as propagate_nan (an error for floats, \
                             ignored for integers)",
                            args.pos.len()
                        ),
                    )
                    .with_help(help()));
                }
                self.min_max(short == "min", args, span)
            }
            "reshape" | "view" => {
                // reshape(input, *shape, can_reorder=False): can_reorder is
                // keyword-only, so `x.reshape(4, 8)` is the shape (4, 8)
                let args = args.without("can_reorder");
                let b = bind(name, "input, shape, ...", args, span)?;
                let x = self.to_tensor(b.req("input", span)?, span)?;
                let shape = shape_of(&b.req("shape", span)?, &b.rest, span)?;
                check_block_shape(&shape, span)?;
                if shape.iter().product::<usize>() != x.ty.numel() {
                    return err(
                        span,
                        format!(
                            "cannot reshape {} ({} elements) to {shape:?}",
                            x.ty,
                            x.ty.numel()
                        ),
                    );
                }
                Ok(Value::Tensor(self.reshape(x, shape, span)))
            }
            "debug_barrier" => Ok(Value::None),
            "static_print" => {
                let parts: Vec<String> = args
                    .pos
                    .iter()
                    .map(|a| match a {
                        Value::Str(s) => s.clone(),
                        Value::Num(PyNum::Int(i)) => i.to_string(),
                        Value::Num(PyNum::Float(f)) => f.to_string(),
                        Value::Num(PyNum::Bool(b)) => {
                            if *b {
                                "True".into()
                            } else {
                                "False".into()
                            }
                        }
                        other => other.describe(),
                    })
                    .collect();
                eprintln!("{}", parts.join(" "));
                Ok(Value::None)
            }
            "device_print" => {
                let b = bind(name, "prefix, ...", args.without("hex"), span)?;
                let prefix = match b.req("prefix", span)? {
                    Value::Str(s) => s,
                    _ => {
                        return err(
                            span,
                            "tl.device_print's first argument must be a string prefix",
                        )
                    }
                };
                let mut es = Vec::new();
                for a in b.rest {
                    es.push(self.to_tensor(a, span)?);
                }
                self.out.push(Stmt::Print {
                    prefix,
                    args: es,
                    span,
                });
                Ok(Value::None)
            }
            "py:getattr" | "py:hasattr" => {
                // Python's getattr(obj, name[, default]) / hasattr(obj, name)
                // on a constexpr name: the attribute as `obj.name` reads it
                let n = if name == "py:getattr" { 2..=3 } else { 2..=2 };
                let (args, no_kw) = (args.pos, args.kw.is_empty());
                if !n.contains(&args.len()) || !no_kw {
                    return err(
                        span,
                        format!(
                            "{}() takes {} arguments",
                            &name[3..],
                            if name == "py:getattr" { "2 or 3" } else { "2" }
                        ),
                    );
                }
                let Value::Str(attr) = &args[1] else {
                    return err(
                        span,
                        format!(
                            "{}()'s attribute name must be a constexpr string, got {}",
                            &name[3..],
                            args[1].describe()
                        ),
                    );
                };
                let attr = attr.clone();
                let found = self.attribute(args[0].clone(), &attr, span);
                if name == "py:hasattr" {
                    return Ok(Value::Num(PyNum::Bool(found.is_ok())));
                }
                match (found, args.get(2)) {
                    (Ok(v), _) => Ok(v),
                    (Err(_), Some(default)) => Ok(default.clone()),
                    (Err(e), None) => Err(e),
                }
            }
            "range" | "static_range" | "py:range" => err(
                span,
                "range()/tl.range/tl.static_range may only appear as the iterable of a `for` loop",
            ),
            "jit" => err(span, "triton.jit cannot be called inside a kernel"),
            "dot" => self.dot(args, span),
            other => err(
                span,
                format!("`{other}` is not a Triton builtin ksem knows"),
            ),
        }
    }

    /// Elaborates `tl.<name>(…)`, one of [`BUILTINS`].
    fn bound_builtin(&mut self, name: &str, b: Bound, span: Span) -> DResult<Value> {
        match name {
            "constexpr" => b.req("value", span),
            "program_id" | "num_programs" => {
                let axis = const_int(&b.req("axis", span)?, "axis", span)?;
                if !(0..3).contains(&axis) {
                    // Triton's wording (its tests match it)
                    return err(
                        span,
                        format!("{name} axis must be 0, 1, or 2 but got {axis}"),
                    );
                }
                let kind = if name == "program_id" {
                    ExprKind::BlockId(axis as u8)
                } else {
                    ExprKind::GridDim(axis as u8)
                };
                Ok(Value::Tensor(Expr {
                    kind,
                    ty: Type::scalar(DType::I32),
                    span,
                }))
            }
            "arange" => {
                let s = const_int(&b.req("start", span)?, "arange start", span)?;
                let e = const_int(&b.req("end", span)?, "arange end", span)?;
                if e <= s || s < i32::MIN as i128 || e > i32::MAX as i128 + 1 {
                    return err(
                        span,
                        format!("arange({s}, {e}): end must be greater than start, within int32"),
                    );
                }
                let n = (e - s) as usize;
                if !n.is_power_of_two() {
                    return err(
                        span,
                        format!("arange's range must be a power of 2, got {n}"),
                    );
                }
                check_block_shape(&[n], span)?;
                Ok(Value::Tensor(Expr {
                    kind: ExprKind::Iota(s as i64, e as i64),
                    ty: Type::num(DType::I32, vec![n]),
                    span,
                }))
            }
            "zeros" | "full" => {
                let shape = shape_of(&b.req("shape", span)?, &[], span)?;
                let d = as_dtype(&b.req("dtype", span)?, span)?;
                let v = if name == "zeros" {
                    Value::Num(PyNum::Int(0))
                } else {
                    b.req("value", span)?
                };
                self.full(shape, v, d, span)
            }
            "zeros_like" | "full_like" => {
                let x = self.to_tensor(b.req("input", span)?, span)?;
                let d = match b.opt("dtype") {
                    Some(d) => as_dtype(&d, span)?,
                    None => x.ty.dtype(),
                };
                let v = if name == "zeros_like" {
                    Value::Num(PyNum::Int(0))
                } else {
                    b.req("fill_value", span)?
                };
                self.full(x.ty.shape.clone(), v, d, span)
            }
            "load" => {
                let pointer = b.req("pointer", span)?;
                if let Value::BlockPtr(bp) = &pointer {
                    if b.opt("mask").is_some() || b.opt("other").is_some() {
                        return err(span, "`mask` and `other` arguments cannot be specified for loading block pointers");
                    }
                    return self.block_load(
                        bp,
                        b.opt("boundary_check"),
                        b.opt("padding_option"),
                        span,
                    );
                }
                refuse_block_options(&b, span)?;
                let (ptr, d, shape) = self.pointer(pointer, "tl.load", span)?;
                let mask = match b.opt("mask") {
                    Some(m) => Some(Box::new(self.mask(m, &shape, span)?)),
                    None => None,
                };
                let other = match b.opt("other") {
                    Some(Value::None) | None if mask.is_some() => {
                        // Triton leaves masked-off lanes without `other` undefined
                        Some(Box::new(undefined(d, &shape, span)))
                    }
                    Some(Value::None) | None => None,
                    Some(o) => {
                        let o = self.value_as(o, d, span)?;
                        Some(Box::new(self.broadcast_to(o, &shape, span)?))
                    }
                };
                Ok(Value::Tensor(Expr {
                    kind: ExprKind::Load {
                        ptr: Box::new(ptr),
                        mask,
                        other,
                    },
                    ty: Type::num(d, shape),
                    span,
                }))
            }
            "store" => {
                let pointer = b.req("pointer", span)?;
                if let Value::BlockPtr(bp) = &pointer {
                    if b.opt("mask").is_some() {
                        return err(span, "`mask` and `other` arguments cannot be specified for loading block pointers");
                    }
                    self.block_store(bp, b.req("value", span)?, b.opt("boundary_check"), span)?;
                    return Ok(Value::None);
                }
                refuse_block_options(&b, span)?;
                let (ptr, d, shape) = self.pointer(pointer, "tl.store", span)?;
                let value = self.value_as(b.req("value", span)?, d, span)?;
                let value = self.broadcast_to(value, &shape, span)?;
                let mask = match b.opt("mask") {
                    Some(m) => Some(self.mask(m, &shape, span)?),
                    None => None,
                };
                self.out.push(Stmt::Store {
                    ptr,
                    value,
                    mask,
                    span,
                });
                Ok(Value::None)
            }
            "where" => {
                let c = self.to_tensor(b.req("condition", span)?, span)?;
                let c = if c.ty.dtype() == DType::Bool && !c.ty.is_ptr() {
                    c
                } else {
                    self.cast(c, DType::Bool, CONVERT)
                };
                let (x, y) = (b.req("x", span)?, b.req("y", span)?);
                let (x, y) = self.promote_pair(x, y, span)?;
                let (x, y) = self.broadcast_pair(x, y, span)?;
                let (c, x) = self.broadcast_pair(c, x, span)?;
                let (x, y) = self.broadcast_pair(x, y, span)?;
                let ty = x.ty.clone();
                Ok(Value::Tensor(Expr {
                    kind: ExprKind::Select(Box::new(c), Box::new(x), Box::new(y)),
                    ty,
                    span,
                }))
            }
            "clamp" => {
                let nm = Value::NanMode(self.nan_mode(b.opt("propagate_nan"), span)?);
                let lo = vec![b.req("x", span)?, b.req("min", span)?, nm.clone()];
                let lo = self.call_builtin("maximum", lo, span)?;
                if matches!(&lo, Value::Tensor(e) if !e.ty.dtype().is_float()) {
                    return err(
                        span,
                        "tl.clamp is only defined for floating-point tensors (Triton)",
                    );
                }
                let hi = vec![lo, b.req("max", span)?, nm];
                self.call_builtin("minimum", hi, span)
            }
            "abs" | "py:abs" => {
                let x = b.req("x", span)?;
                if let Value::Num(n) = x {
                    return Ok(Value::Num(match n {
                        PyNum::Int(i) => PyNum::Int(i.abs()),
                        PyNum::Bool(v) => PyNum::Int(v as i128),
                        PyNum::Float(f) => PyNum::Float(f.abs()),
                    }));
                }
                let x = self.to_tensor(x, span)?;
                if x.ty.is_ptr() {
                    return err(span, "abs of a pointer");
                }
                if x.ty.dtype().is_unsigned_int() {
                    return Ok(Value::Tensor(x));
                }
                let abs = UnOp::Math(MathFn::Abs);
                Ok(Value::Tensor(elementwise_unary(abs, x, span)))
            }
            "fma" => {
                let (x, y) = self.promote_pair(b.req("x", span)?, b.req("y", span)?, span)?;
                let z = b.req("z", span)?;
                let (x, z) = self.promote_pair(Value::Tensor(x), z, span)?;
                let d = x.ty.dtype();
                if !d.is_float() {
                    return err(
                        span,
                        format!("tl.fma needs floating-point operands, got {d}"),
                    );
                }
                let y = self.cast(y, d, CONVERT);
                let (x, y) = self.broadcast_pair(x, y, span)?;
                let (x, z) = self.broadcast_pair(x, z, span)?;
                let (x, y) = self.broadcast_pair(x, y, span)?;
                let ty = x.ty.clone();
                Ok(Value::Tensor(Expr {
                    kind: ExprKind::Fma(
                        Box::new(x),
                        Box::new(y),
                        Box::new(z),
                        crate::float::Rounding::NearestEven,
                    ),
                    ty,
                    span,
                }))
            }
            "next_power_of_2" => {
                // triton.next_power_of_2: a host helper Triton lets kernels
                // call on compile-time ints
                match b.req("n", span)? {
                    Value::Num(PyNum::Int(n)) => {
                        Ok(Value::Num(PyNum::Int(super::value::next_power_of_2(n))))
                    }
                    other => err(
                        span,
                        format!(
                            "triton.next_power_of_2 takes a compile-time int, got {}",
                            other.describe()
                        ),
                    ),
                }
            }
            "cdiv" => {
                let (x, d) = (b.req("x", span)?, b.req("div", span)?);
                use rustpython_parser::ast::Operator as O;
                let s = self.binop(O::Add, x, d.clone(), span)?;
                let s = self.binop(O::Sub, s, Value::Num(PyNum::Int(1)), span)?;
                self.binop(O::FloorDiv, s, d, span)
            }
            "div_rn" | "fdiv" => {
                let (x, y) = self.promote_pair(b.req("x", span)?, b.req("y", span)?, span)?;
                if !x.ty.dtype().is_float() {
                    return err(
                        span,
                        format!("tl.math.{name} needs floating-point operands, got {}", x.ty),
                    );
                }
                let (x, y) = self.broadcast_pair(x, y, span)?;
                let d = x.ty.dtype();
                Ok(Value::Tensor(self.mk_binary(BinOp::FDiv, x, y, d, span)))
            }
            "cast" | "to" => {
                let x = self.to_tensor(b.req("input", span)?, span)?;
                let target = b.req("dtype", span)?;
                if let Value::PtrDType(pd) = target {
                    return Ok(Value::Tensor(self.cast_to_pointer(x, pd, span)?));
                }
                if x.ty.is_ptr() && !const_bool(b.get("bitcast"), false, span)? {
                    let d = as_dtype(&target, span)?;
                    return Ok(Value::Tensor(self.pointer_to_number(x, d, span)?));
                }
                let d = as_dtype(&target, span)?;
                let bitcast = const_bool(b.get("bitcast"), false, span)?;
                let rounding = match b.opt("fp_downcast_rounding") {
                    None => None,
                    Some(Value::Str(s)) if s == "rtne" => Some(Rounding::NearestEven),
                    Some(Value::Str(s)) if s == "rtz" => Some(Rounding::TowardZero),
                    Some(v) => {
                        return err(
                            span,
                            format!(
                                "fp_downcast_rounding must be \"rtne\" or \"rtz\", got {}",
                                v.describe()
                            ),
                        )
                    }
                };
                let mut c = self.convert(x, d, bitcast, rounding, span)?;
                if matches!(c.kind, ExprKind::Cast(..)) {
                    c.span = span; // UB of the conversion points at the call
                }
                Ok(Value::Tensor(c))
            }
            "sum" | "xor_sum" => {
                let x = self.to_tensor(b.req("input", span)?, span)?;
                let d = x.ty.dtype();
                let x = if name == "sum" {
                    let out = match b.opt("dtype") {
                        Some(v) => as_dtype(&v, span)?,
                        None => sum_dtype(d),
                    };
                    match out {
                        o if o != d => self.cast(x, o, CONVERT),
                        _ => x,
                    }
                } else {
                    if !d.is_int() {
                        return err(
                            span,
                            format!("xor_sum needs an integer tensor, got {}", x.ty),
                        );
                    }
                    x
                };
                let comb = if name == "sum" {
                    Combiner::Sum
                } else {
                    Combiner::Xor
                };
                let keep = const_bool(b.get("keep_dims"), false, span)?;
                self.reduce(x, b.opt("axis"), keep, comb, span)
            }
            "max" | "min" => {
                let x = self.to_tensor(b.req("input", span)?, span)?;
                let keep = const_bool(b.get("keep_dims"), false, span)?;
                let is_max = name == "max";
                if const_bool(b.get("return_indices"), false, span)? {
                    let axis = b.opt("axis");
                    // the extreme values, then their indices
                    let arg = |value| {
                        if is_max {
                            Combiner::ArgMax { value }
                        } else {
                            Combiner::ArgMin { value }
                        }
                    };
                    let vals = self.reduce(x.clone(), axis.clone(), keep, arg(true), span)?;
                    let idx = self.reduce(x, axis, keep, arg(false), span)?;
                    return Ok(Value::Tuple(vec![vals, idx]));
                }
                let d = x.ty.dtype();
                let x = if minmax_dtype(d) != d {
                    self.cast(x, minmax_dtype(d), CONVERT)
                } else {
                    x
                };
                let comb = if is_max {
                    Combiner::Max(NanMode::Ignore)
                } else {
                    Combiner::Min(NanMode::Ignore)
                };
                self.reduce(x, b.opt("axis"), keep, comb, span)
            }
            "argmax" | "argmin" => {
                let x = self.to_tensor(b.req("input", span)?, span)?;
                // tie_break_left=False leaves the index of tied values to
                // the reduction's order; ksem gives the tie-left one, one of
                // the outcomes Triton allows (docs/semantics.md)
                const_bool(b.get("tie_break_left"), true, span)?;
                let keep = const_bool(b.get("keep_dims"), false, span)?;
                let comb = if name == "argmax" {
                    Combiner::ArgMax { value: false }
                } else {
                    Combiner::ArgMin { value: false }
                };
                self.reduce(x, b.opt("axis"), keep, comb, span)
            }
            "reduce" => {
                let input = b.req("input", span)?;
                let Value::Func(f) = b.req("combine_fn", span)? else {
                    return err(
                        span,
                        "tl.reduce's combine_fn must be a @triton.jit function",
                    );
                };
                let keep = const_bool(b.get("keep_dims"), false, span)?;
                if let Value::Tuple(inputs) = input {
                    let axis = match b.opt("axis") {
                        Some(a) => Some(const_int(&a, "axis", span)?),
                        None => None,
                    };
                    return self.tuple_reduce(inputs, &f, axis, keep, span);
                }
                let x = self.to_tensor(input, span)?;
                let comb = self.custom_combiner(&f, x.ty.dtype(), span)?;
                self.reduce(x, b.opt("axis"), keep, comb, span)
            }
            "cumsum" | "cumprod" => {
                let x = self.to_tensor(b.req("input", span)?, span)?;
                super::combine::check_tile_operand(&x, &format!("tl.{name}"), "scans", span)?;
                let axis = match b.opt("axis") {
                    Some(a) => {
                        normalize_axis(const_int(&a, "axis", span)?, x.ty.shape.len(), span)?
                    }
                    None => 0,
                };
                let reverse = const_bool(b.get("reverse"), false, span)?;
                // Triton 3.6 (standard.py): bfloat16 scans in float32; cumsum
                // then converts to `dtype` or widens narrow integers (as tl.sum)
                let x = if x.ty.dtype() == DType::BF16 {
                    self.cast(x, DType::F32, CONVERT)
                } else {
                    x
                };
                let (x, op) = if name == "cumsum" {
                    let out = match b.opt("dtype") {
                        Some(v) => as_dtype(&v, span)?,
                        None => sum_dtype(x.ty.dtype()),
                    };
                    (self.convert(x, out, false, None, span)?, BinOp::Add)
                } else {
                    (x, BinOp::Mul)
                };
                let ty = x.ty.clone();
                Ok(Value::Tensor(Expr {
                    kind: ExprKind::Scan {
                        arg: Box::new(x),
                        axis,
                        reverse,
                        op,
                    },
                    ty,
                    span,
                }))
            }
            "associative_scan" => {
                let Value::Func(f) = b.req("combine_fn", span)? else {
                    return err(
                        span,
                        "tl.associative_scan's combine_fn must be a @triton.jit function",
                    );
                };
                let axis = const_int(&b.req("axis", span)?, "axis", span)?;
                let reverse = const_bool(b.get("reverse"), false, span)?;
                self.associative_scan(b.req("input", span)?, &f, axis, reverse, span)
            }
            "broadcast_to" => {
                let x = self.to_tensor(b.req("input", span)?, span)?;
                let shape = shape_of(&b.req("shape", span)?, &b.rest, span)?;
                check_block_shape(&shape, span)?;
                Ok(Value::Tensor(self.broadcast_to(x, &shape, span)?))
            }
            "broadcast" => {
                let x = self.to_tensor(b.req("input", span)?, span)?;
                let y = self.to_tensor(b.req("other", span)?, span)?;
                let (x, y) = self.broadcast_pair(x, y, span)?;
                Ok(Value::Tuple(vec![Value::Tensor(x), Value::Tensor(y)]))
            }
            "expand_dims" => {
                let x = self.to_tensor(b.req("input", span)?, span)?;
                let axes: Vec<i128> = match b.req("axis", span)? {
                    Value::Tuple(t) => t
                        .iter()
                        .map(|a| const_int(a, "axis", span))
                        .collect::<DResult<_>>()?,
                    v => vec![const_int(&v, "axis", span)?],
                };
                let rank = x.ty.shape.len() + axes.len();
                let mut norm: Vec<usize> = axes
                    .iter()
                    .map(|&a| normalize_axis(a, rank, span))
                    .collect::<DResult<_>>()?;
                norm.sort();
                if norm.windows(2).any(|w| w[0] == w[1]) {
                    // Triton's semantic.expand_dims refuses it so
                    return err(
                        span,
                        format!("expand_dims received duplicate axes, normalized axes = {norm:?}"),
                    );
                }
                let mut shape = x.ty.shape.clone();
                for a in norm {
                    shape.insert(a, 1);
                }
                Ok(Value::Tensor(self.reshape(x, shape, span)))
            }
            "trans" | "permute" => {
                let x = self.to_tensor(b.req("input", span)?, span)?;
                let rank = x.ty.shape.len();
                let dims: Vec<usize> = match b.opt("dims") {
                    None => {
                        if rank != 2 {
                            return err(
                                span,
                                format!("tl.trans without dims needs a 2-D tensor, got {}", x.ty),
                            );
                        }
                        vec![1, 0]
                    }
                    Some(v) => {
                        let items: Vec<Value> = match v {
                            Value::Tuple(t) => t,
                            o => std::iter::once(o).chain(b.rest.iter().cloned()).collect(),
                        };
                        items
                            .iter()
                            .map(|a| {
                                const_int(a, "dim", span)
                                    .and_then(|a| normalize_axis(a, rank, span))
                            })
                            .collect::<DResult<_>>()?
                    }
                };
                let mut sorted = dims.clone();
                sorted.sort();
                if sorted != (0..rank).collect::<Vec<_>>() {
                    return err(
                        span,
                        format!("{dims:?} is not a permutation of the {rank} axes"),
                    );
                }
                Ok(Value::Tensor(self.permute(x, &dims, span)))
            }
            "multiple_of" | "max_contiguous" | "max_constancy" => b.req("input", span),
            "device_assert" => {
                // Triton compiles `tl.device_assert` only for kernels built
                // with debug=True (`semantic.device_assert` returns at once
                // otherwise, on the GPU and in its interpreter alike); ksem
                // runs the default build, so it checks only the arguments
                let cond = b.req("cond", span)?;
                if matches!(cond, Value::Tensor(_) | Value::Num(_)) {
                    Ok(Value::None)
                } else {
                    err(
                        span,
                        format!(
                            "tl.device_assert takes a condition, got {}",
                            cond.describe()
                        ),
                    )
                }
            }
            "static_assert" => match truthy(&b.req("cond", span)?) {
                Some(true) => Ok(Value::None),
                Some(false) => {
                    let msg = match b.opt("msg") {
                        Some(Value::Str(s)) => s,
                        _ => String::new(),
                    };
                    err(span, format!("static_assert failed: {msg}"))
                }
                None => err(span, "tl.static_assert needs a compile-time condition"),
            },
            "tuple" | "py:tuple" => {
                // tl.tuple(t) / tuple(t): a tuple of a tuple's elements
                match b.req("iterable", span)? {
                    Value::Tuple(t) => Ok(Value::Tuple(t)),
                    other => err(
                        span,
                        format!("tl.tuple() takes a tuple, got {}", other.describe()),
                    ),
                }
            }
            "py:isinstance" => {
                let obj = b.req("obj", span)?;
                let classes = match b.req("class_or_tuple", span)? {
                    Value::Tuple(t) => t,
                    one => vec![one],
                };
                let mut any = false;
                for c in &classes {
                    any |= is_instance(&obj, c, span)?;
                }
                Ok(Value::Num(PyNum::Bool(any)))
            }
            "py:int" | "py:float" | "py:bool" => {
                let x = b.req("x", span)?;
                if let (Value::Str(s), "py:float") = (&x, name) {
                    let f = match s.trim().to_ascii_lowercase().as_str() {
                        "inf" | "+inf" | "infinity" => f64::INFINITY,
                        "-inf" | "-infinity" => f64::NEG_INFINITY,
                        "nan" => f64::NAN,
                        t => t.parse().map_err(|_| {
                            Diagnostic::new(
                                span,
                                format!("could not convert string to float: {s:?}"),
                            )
                        })?,
                    };
                    return Ok(Value::Num(PyNum::Float(f)));
                }
                match x {
                    Value::Num(n) => Ok(Value::Num(match (name, n) {
                        ("py:int", PyNum::Float(_)) => PyNum::Int(
                            crate::frontend::py::num::to_int(n)
                                .map_err(|e| Diagnostic::new(span, e.to_string()))?,
                        ),
                        ("py:int", PyNum::Bool(v)) => PyNum::Int(v as i128),
                        ("py:int", n) => n,
                        ("py:float", PyNum::Int(i)) => PyNum::Float(i as f64),
                        ("py:float", PyNum::Bool(v)) => PyNum::Float(v as u8 as f64),
                        ("py:float", n) => n,
                        (_, n) => PyNum::Bool(truthy(&Value::Num(n)).unwrap_or(false)),
                    })),
                    other => Err(Diagnostic::new(
                        span,
                        format!("{}() of {}", &name[3..], other.describe()),
                    )
                    .with_help("use x.to(dtype) for tensors")),
                }
            }
            _ => unreachable!("BUILTINS lists the names this match elaborates"),
        }
    }

    /// `tl.minimum`/`tl.maximum` as Triton 3.6 computes them: each operand
    /// made a tensor first (a literal with its natural dtype), bfloat16
    /// widened to float32, then the usual promotion ([`promote::minmax_type`]).
    fn min_max(&mut self, is_min: bool, args: Args, span: Span) -> DResult<Value> {
        let fname = if is_min { "minimum" } else { "maximum" };
        let b = bind(fname, "x, y, propagate_nan", args, span)?;
        let mode = self.nan_mode(b.opt("propagate_nan"), span)?;
        let mut ops = Vec::new();
        for v in [b.req("x", span)?, b.req("y", span)?] {
            let e = match v {
                Value::Tensor(e) => e,
                v @ Value::Num(_) => self.to_tensor(v, span)?,
                other => {
                    return err(
                        span,
                        format!(
                            "tl.{fname} expects tensors or numbers, got {}",
                            other.describe()
                        ),
                    )
                }
            };
            if e.ty.is_ptr() {
                return err(span, format!("tl.{fname} of a pointer ({})", e.ty));
            }
            ops.push(e);
        }
        let (y, x) = (ops.pop().expect("two"), ops.pop().expect("two"));
        let d = promote::minmax_type(Operand::Tensor(x.ty.dtype()), Operand::Tensor(y.ty.dtype()))
            .map_err(|m| Diagnostic::new(span, m))?;
        let (x, y) = (self.cast(x, d, CONVERT), self.cast(y, d, CONVERT));
        let (x, y) = self.broadcast_pair(x, y, span)?;
        let op = if is_min {
            BinOp::Min(mode)
        } else {
            BinOp::Max(mode)
        };
        Ok(Value::Tensor(self.mk_binary(op, x, y, d, span)))
    }

    fn nan_mode(&self, v: Option<Value>, span: Span) -> DResult<NanMode> {
        match v {
            None => Ok(NanMode::Ignore),
            Some(Value::NanMode(m)) => Ok(m),
            Some(o) => err(
                span,
                format!(
                    "propagate_nan must be tl.PropagateNan.ALL or NONE, got {}",
                    o.describe()
                ),
            ),
        }
    }

    /// `libdevice.NAME(…)`: one-argument functions as the math functions
    /// (float32 or float64, the dtypes libdevice has), `pow(x, y)` and
    /// `fmod(x, y)` of two operands of one float dtype.
    fn libdevice(&mut self, name: &str, b: Bound, span: Span) -> DResult<Value> {
        let what = format!("libdevice.{name}");
        if let Some(f) = libdevice_fn(name) {
            return self.math_of(f, b.req("arg0", span)?, name, &what, span);
        }
        let op = if name == "pow" {
            BinOp::Pow
        } else {
            BinOp::FRem
        };
        let x = self.float_tensor(b.req("arg0", span)?, name, span)?;
        let y = self.float_tensor(b.req("arg1", span)?, name, span)?;
        check_math_dtype(&what, &[DType::F32, DType::F64], &x, span)?;
        if y.ty.dtype() != x.ty.dtype() {
            return err(
                span,
                format!(
                    "libdevice.{name} takes two operands of one dtype, got {} and {}",
                    x.ty.dtype().json_name(),
                    y.ty.dtype().json_name()
                ),
            );
        }
        let (x, y) = self.broadcast_pair(x, y, span)?;
        let d = x.ty.dtype();
        Ok(Value::Tensor(self.mk_binary(op, x, y, d, span)))
    }

    /// Math function `f` of the float tensor `v` (`fname`: the builtin's
    /// name; `what`: how dtype errors name the call).
    fn math_of(
        &mut self,
        f: MathFn,
        v: Value,
        fname: &str,
        what: &str,
        span: Span,
    ) -> DResult<Value> {
        let x = self.float_tensor(v, fname, span)?;
        check_math_dtype(what, math_dtypes(f), &x, span)?;
        Ok(Value::Tensor(elementwise_unary(UnOp::Math(f), x, span)))
    }

    fn float_tensor(&mut self, v: Value, fname: &str, span: Span) -> DResult<Expr> {
        let x = self.to_tensor(v, span)?;
        if x.ty.is_ptr() || !x.ty.dtype().is_float() {
            return err(
                span,
                format!("tl.{fname} expects a floating-point tensor, got {}", x.ty),
            );
        }
        Ok(x)
    }

    pub(super) fn mask(&mut self, m: Value, shape: &[usize], span: Span) -> DResult<Expr> {
        let m = self.to_tensor(m, span)?;
        if m.ty.dtype() != DType::Bool || m.ty.is_ptr() {
            return err(
                span,
                format!("a mask must be a boolean (int1) tensor, got {}", m.ty),
            );
        }
        self.broadcast_to(m, shape, span)
    }

    fn full(&mut self, shape: Vec<usize>, v: Value, d: DType, span: Span) -> DResult<Value> {
        check_block_shape(&shape, span)?;
        if matches!(&v, Value::Tensor(e) if !e.ty.shape.is_empty()) {
            return err(
                span,
                format!("the fill value must be a scalar, got {}", v.describe()),
            );
        }
        let c = self.value_as(v, d, span)?;
        Ok(Value::Tensor(self.broadcast_to(c, &shape, span)?))
    }

    /// A pointer argument: the tile of pointers, the pointee dtype and the shape.
    pub(super) fn pointer(
        &mut self,
        v: Value,
        what: &str,
        span: Span,
    ) -> DResult<(Expr, DType, Vec<usize>)> {
        let ptr = self.to_tensor(v, span)?;
        let Elem::Ptr(d, _) = ptr.ty.elem else {
            return err(span, format!("{what} needs a pointer, got {}", ptr.ty));
        };
        let shape = ptr.ty.shape.clone();
        Ok((ptr, d, shape))
    }

    /// A number or tensor converted to dtype `d` (literals exactly or rounded
    /// once; tensors with a conversion node), as loads, stores and fills do.
    fn value_as(&mut self, v: Value, d: DType, span: Span) -> DResult<Expr> {
        Ok(match v {
            Value::Num(n) => self.num_const(n, d, span),
            v => {
                let e = self.to_tensor(v, span)?;
                if e.ty.is_ptr() {
                    // Triton's store casts the value to the element type
                    return self.pointer_to_number(e, d, span);
                }
                self.cast(e, d, CONVERT)
            }
        })
    }

    /// Promotes two operands as Triton's binary operations do (both scalars:
    /// each takes its natural dtype).
    pub fn promote_pair(&mut self, x: Value, y: Value, span: Span) -> DResult<(Expr, Expr)> {
        let op = |v: &Value| -> DResult<Operand> {
            match v {
                Value::Tensor(e) => Ok(Operand::Tensor(e.ty.dtype())),
                Value::Num(n) => Ok(Operand::Scalar(*n)),
                o => err(
                    span,
                    format!("expected a tensor or number, got {}", o.describe()),
                ),
            }
        };
        let (mut ox, mut oy) = (op(&x)?, op(&y)?);
        if let (Operand::Scalar(a), Operand::Scalar(b)) = (ox, oy) {
            ox = Operand::Tensor(a.natural_dtype().map_err(|m| Diagnostic::new(span, m))?);
            oy = Operand::Tensor(b.natural_dtype().map_err(|m| Diagnostic::new(span, m))?);
        }
        let px = matches!(&x, Value::Tensor(e) if e.ty.is_ptr());
        let py = matches!(&y, Value::Tensor(e) if e.ty.is_ptr());
        if px || py {
            let (a, b) = (self.to_tensor(x, span)?, self.to_tensor(y, span)?);
            if a.ty.elem != b.ty.elem {
                return err(span, format!("cannot combine {} and {}", a.ty, b.ty));
            }
            return Ok((a, b));
        }
        let d = promote::computation_type(ox, oy, false).map_err(|m| Diagnostic::new(span, m))?;
        let side = |v: Value| -> DResult<Expr> {
            Ok(match v {
                Value::Num(n) => self.num_const(n, d, span),
                v => {
                    let e = self.to_tensor(v, span)?;
                    self.cast(e, d, CONVERT)
                }
            })
        };
        Ok((side(x)?, side(y)?))
    }

    /// Triton's `cast`: value conversion, bitcast, or a rounding-mode downcast.
    pub fn convert(
        &mut self,
        x: Expr,
        d: DType,
        bitcast: bool,
        rounding: Option<Rounding>,
        span: Span,
    ) -> DResult<Expr> {
        if x.ty.is_ptr() {
            return err(span, "casting pointers is not supported by ksem");
        }
        let s = x.ty.dtype();
        if bitcast {
            let b = d.bits() as usize;
            py::arity::count(span, s.bits() as usize, (b, b), |a| {
                format!("cannot bitcast {s} ({a} bits) to {d} ({b} bits)")
            })?;
            return Ok(self.cast(x, d, CastKind::Bitcast));
        }
        if s == d {
            return Ok(x);
        }
        if let Some(r) = rounding {
            if !(s.is_float() && d.is_float() && d.bits() < s.bits()) {
                return err(span, format!("fp_downcast_rounding is only allowed for narrowing float conversions, not {s} -> {d}"));
            }
            let over = if d.is_fp8() {
                FP8_OVERFLOW
            } else {
                Overflow::Infinity
            };
            return Ok(self.cast(x, d, CastKind::Convert(r, over)));
        }
        let over = if d.is_fp8() && s.is_float() {
            FP8_OVERFLOW
        } else {
            Overflow::Infinity
        };
        Ok(self.cast(x, d, CastKind::Convert(Rounding::NearestEven, over)))
    }

    fn reduce(
        &mut self,
        x: Expr,
        axis: Option<Value>,
        keep_dims: bool,
        comb: Combiner,
        span: Span,
    ) -> DResult<Value> {
        if x.ty.is_ptr() {
            return err(span, "cannot reduce pointers");
        }
        let rank = x.ty.shape.len();
        if rank == 0 {
            return err(span, "cannot reduce a 0-d value");
        }
        if matches!(comb, Combiner::Xor) && x.ty.dtype().is_float() {
            return err(span, "xor_sum needs integers");
        }
        let (x, axis_n, out_shape) = match axis {
            None => {
                let n = x.ty.numel();
                let flat = self.reshape(x, vec![n], span);
                let out = if keep_dims { vec![1; rank] } else { vec![] };
                (flat, 0usize, out)
            }
            Some(a) => {
                let a = normalize_axis(const_int(&a, "axis", span)?, rank, span)?;
                let mut out = x.ty.shape.clone();
                if keep_dims {
                    out[a] = 1;
                } else {
                    out.remove(a);
                }
                (x, a, out)
            }
        };
        let d = match comb {
            Combiner::ArgMax { value: false } | Combiner::ArgMin { value: false } => DType::I32,
            _ => x.ty.dtype(),
        };
        let reduced_rank = x.ty.shape.len();
        let mut natural = x.ty.shape.clone();
        natural.remove(axis_n);
        let e = Expr {
            kind: ExprKind::Reduce {
                arg: Box::new(x),
                axis: Some(axis_n),
                keep_dims: false,
                combiner: Box::new(comb),
            },
            ty: Type::num(d, natural),
            span,
        };
        let _ = reduced_rank;
        Ok(Value::Tensor(self.reshape(e, out_shape, span)))
    }

    /// The combiner of a reduction or scan of one operand of dtype `d` by
    /// combine function `f`.
    fn custom_combiner(&mut self, f: &str, d: DType, span: Span) -> DResult<Combiner> {
        let mut c = self.combine_region(f, &[d], span)?;
        Ok(Combiner::Custom {
            lhs: c.lhs[0],
            rhs: c.rhs[0],
            body: c.body,
            result: Box::new(c.results.remove(0)),
        })
    }
}

/// Python's `isinstance(obj, cls)` inside a kernel, for the types of
/// `triton.language` that Triton's code generator gives values of: a
/// runtime value (a tensor or a block pointer) is a `tl.tensor`; a dtype, a
/// pointer type or a block type is a `tl.dtype`, and each its own kind.
/// Python's own types are refused: Triton wraps compile-time values in
/// `tl.constexpr`, so `isinstance(N, int)` is not what it reads.
fn is_instance(obj: &Value, cls: &Value, span: Span) -> DResult<bool> {
    let Value::Builtin(name) = cls else {
        return err(
            span,
            format!(
                "isinstance() takes a type of triton.language, got {}",
                cls.describe()
            ),
        );
    };
    Ok(match name.as_str() {
        "tensor" => matches!(obj, Value::Tensor(_) | Value::BlockPtr(_)),
        "dtype" => matches!(
            obj,
            Value::DType(_) | Value::PtrDType(_) | Value::BlockType(..)
        ),
        "pointer_type" => matches!(obj, Value::PtrDType(_)),
        "block_type" => matches!(obj, Value::BlockType(..)),
        other => {
            return Err(Diagnostic::new(
                span,
                format!(
                    "isinstance() against `{}` is not supported in a Triton kernel",
                    other.trim_start_matches("py:")
                ),
            )
            .with_help(
                "test isinstance(x, tl.tensor), tl.dtype, tl.pointer_type or tl.block_type, \
                 or compare x.dtype with a dtype",
            ))
        }
    })
}
