//! Python numbers as CPython computes with them: the one place ksem decides
//! what a host-side value (a module constant, a `tl.constexpr`, a factory or
//! heuristic argument, a literal expression a dialect's compiler folds with
//! Python) is worth. Every front end folds `bool`/`int`/`float` arithmetic,
//! comparisons and the numeric builtins through this module, so `1.0 // 0.1`
//! is 9.0 in every dialect, as in CPython.
//!
//! Ints are CPython's within ksem's one limit: a compile-time int must fit in
//! 128 bits (`i128`); a result beyond it is [`PyError::TooBig`], in every
//! dialect alike. Floats follow CPython's `floatobject.c` (floor division and
//! modulo through `fmod`, `**`'s special cases, exact int/float comparison,
//! correctly rounded int/int true division).

use rustpython_parser::ast::{CmpOp, Operator, UnaryOp};
use std::cmp::Ordering;
use std::fmt;

/// A Python number: `bool`, `int` or `float`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PyNum {
    Bool(bool),
    Int(i128),
    Float(f64),
}

/// Why CPython raises on an operation (its exception and message), or why
/// ksem cannot follow it ([`PyError::TooBig`]).
#[derive(Clone, Debug, PartialEq)]
pub enum PyError {
    /// `ZeroDivisionError` with CPython's message.
    ZeroDivision(&'static str),
    /// `OverflowError` with CPython's message.
    Overflow(&'static str),
    /// `ValueError` with CPython's message.
    Value(String),
    /// `IndexError` with CPython's message.
    Index(&'static str),
    /// `TypeError`: the operation does not apply to these operands.
    Type(String),
    /// A negative number raised to a fractional power: CPython gives a
    /// `complex`, which no kernel language takes as a constant.
    Complex,
    /// An int result beyond ksem's 128-bit limit on compile-time ints.
    TooBig,
}

impl fmt::Display for PyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PyError::ZeroDivision(m) => write!(f, "ZeroDivisionError: {m}"),
            PyError::Overflow(m) => write!(f, "OverflowError: {m}"),
            PyError::Value(m) => write!(f, "ValueError: {m}"),
            PyError::Index(m) => write!(f, "IndexError: {m}"),
            PyError::Type(m) => write!(f, "TypeError: {m}"),
            PyError::Complex => write!(
                f,
                "a negative number raised to a fractional power is a complex number in Python"
            ),
            PyError::TooBig => write!(
                f,
                "integer constant beyond 128 bits: ksem's compile-time ints are limited to 128 bits"
            ),
        }
    }
}

/// The result of a Python operation on numbers.
pub type PyResult<T> = Result<T, PyError>;

impl PyNum {
    /// The value as an int, where it is one (`bool` counts as 0/1).
    pub fn as_int(self) -> Option<i128> {
        match self {
            PyNum::Bool(b) => Some(b as i128),
            PyNum::Int(i) => Some(i),
            PyNum::Float(_) => None,
        }
    }

    /// The value as a float, as CPython converts an int operand of mixed
    /// arithmetic (correctly rounded, ties to even).
    pub fn as_f64(self) -> f64 {
        match self {
            PyNum::Bool(b) => b as u8 as f64,
            PyNum::Int(i) => i as f64,
            PyNum::Float(f) => f,
        }
    }

    /// Python truthiness.
    pub fn truthy(self) -> bool {
        match self {
            PyNum::Bool(b) => b,
            PyNum::Int(i) => i != 0,
            PyNum::Float(f) => f != 0.0,
        }
    }

    /// Python's name of the value's type.
    pub fn type_name(self) -> &'static str {
        match self {
            PyNum::Bool(_) => "bool",
            PyNum::Int(_) => "int",
            PyNum::Float(_) => "float",
        }
    }
}

fn int(v: Option<i128>) -> PyResult<PyNum> {
    v.map(PyNum::Int).ok_or(PyError::TooBig)
}

/// Python's `x op y` on two numbers.
pub fn binop(op: Operator, a: PyNum, b: PyNum) -> PyResult<PyNum> {
    match (a.as_int(), b.as_int()) {
        (Some(x), Some(y)) => {
            let both_bool = matches!((a, b), (PyNum::Bool(_), PyNum::Bool(_)));
            int_binop(op, x, y, both_bool)
        }
        _ => float_binop(op, a.as_f64(), b.as_f64()),
    }
}

fn int_binop(op: Operator, x: i128, y: i128, both_bool: bool) -> PyResult<PyNum> {
    use Operator::*;
    match op {
        Add => int(x.checked_add(y)),
        Sub => int(x.checked_sub(y)),
        Mult => int(x.checked_mul(y)),
        Div => int_true_div(x, y).map(PyNum::Float),
        FloorDiv => {
            if y == 0 {
                return Err(PyError::ZeroDivision("integer division or modulo by zero"));
            }
            int(int_floor_div(x, y))
        }
        Mod => {
            if y == 0 {
                return Err(PyError::ZeroDivision("integer modulo by zero"));
            }
            int(int_floor_mod(x, y))
        }
        Pow => int_pow(x, y),
        LShift => {
            if y < 0 {
                return Err(PyError::Value("negative shift count".into()));
            }
            if x == 0 {
                return Ok(PyNum::Int(0));
            }
            if y >= 127 {
                return Err(PyError::TooBig);
            }
            let r = x << y;
            if r >> y == x {
                Ok(PyNum::Int(r))
            } else {
                Err(PyError::TooBig)
            }
        }
        RShift => {
            if y < 0 {
                return Err(PyError::Value("negative shift count".into()));
            }
            Ok(PyNum::Int(x >> y.min(127)))
        }
        BitAnd | BitOr | BitXor => {
            let r = match op {
                BitAnd => x & y,
                BitOr => x | y,
                _ => x ^ y,
            };
            Ok(if both_bool {
                PyNum::Bool(r != 0)
            } else {
                PyNum::Int(r)
            })
        }
        MatMult => Err(unsupported(op, "int", "int")),
    }
}

fn unsupported(op: Operator, a: &str, b: &str) -> PyError {
    PyError::Type(format!(
        "unsupported operand type(s) for {}: '{a}' and '{b}'",
        super::op_text(op)
    ))
}

/// Python's `x // y` on ints (`None` where the quotient overflows 128 bits).
pub fn int_floor_div(x: i128, y: i128) -> Option<i128> {
    let q = x.checked_div(y)?;
    Some(if x % y != 0 && ((x < 0) != (y < 0)) {
        q - 1
    } else {
        q
    })
}

/// Python's `x % y` on ints: the sign of the divisor.
pub fn int_floor_mod(x: i128, y: i128) -> Option<i128> {
    let r = x.checked_rem(y)?;
    Some(if r != 0 && ((r < 0) != (y < 0)) {
        r + y
    } else {
        r
    })
}

/// `-(-x // y)`: ⌈x / y⌉ on ints, as `triton.cdiv` and `T.ceildiv` compute it.
pub fn int_ceil_div(x: i128, y: i128) -> Option<i128> {
    int_floor_div(x.checked_neg()?, y)?.checked_neg()
}

fn int_pow(x: i128, y: i128) -> PyResult<PyNum> {
    if y < 0 {
        if x == 0 {
            return Err(PyError::ZeroDivision(
                "0.0 cannot be raised to a negative power",
            ));
        }
        return float_binop(Operator::Pow, x as f64, y as f64);
    }
    match x {
        0 => return Ok(PyNum::Int((y == 0) as i128)),
        1 => return Ok(PyNum::Int(1)),
        -1 => return Ok(PyNum::Int(if y % 2 == 0 { 1 } else { -1 })),
        _ => {}
    }
    int(u32::try_from(y).ok().and_then(|e| x.checked_pow(e)))
}

/// CPython's int / int: the exact quotient, correctly rounded to a float.
pub fn int_true_div(x: i128, y: i128) -> PyResult<f64> {
    if y == 0 {
        return Err(PyError::ZeroDivision("division by zero"));
    }
    const EXACT: u128 = 1 << 53;
    if x.unsigned_abs() <= EXACT && y.unsigned_abs() <= EXACT {
        return Ok(x as f64 / y as f64);
    }
    let negative = (x < 0) != (y < 0);
    let q = ratio_to_f64(x.unsigned_abs(), y.unsigned_abs());
    Ok(if negative { -q } else { q })
}

/// n / d (d > 0) correctly rounded (ties to even): the quotient's top 55
/// bits by long division, the rest as a sticky bit.
fn ratio_to_f64(n: u128, d: u128) -> f64 {
    if n == 0 {
        return 0.0;
    }
    // scale so that the integer quotient has 55..=56 significant bits
    let shift = 55i32 - (128 - n.leading_zeros() as i32) + (128 - d.leading_zeros() as i32);
    let (mut q, rem_nonzero) = if shift >= 0 {
        // n << shift may not fit in 128 bits: divide in two steps
        long_div_shifted(n, d, shift as u32)
    } else {
        let dd = d.checked_shl((-shift) as u32);
        match dd {
            Some(dd) if dd >> (-shift) as u32 == d => (n / dd, !n.is_multiple_of(dd)),
            _ => (0, true),
        }
    };
    let mut exp = -shift;
    // keep 54 bits (53 + a rounding bit), folding the rest into sticky
    let mut sticky = rem_nonzero;
    while q >= (1u128 << 54) {
        sticky |= q & 1 != 0;
        q >>= 1;
        exp += 1;
    }
    let round_bit = q & 1 != 0;
    let mut m = q >> 1;
    exp += 1;
    if round_bit && (sticky || m & 1 != 0) {
        m += 1;
    }
    (m as f64) * 2f64.powi(exp)
}

/// (n << shift) / d and whether a remainder is left, without overflow.
fn long_div_shifted(n: u128, d: u128, shift: u32) -> (u128, bool) {
    let mut q = n / d;
    let mut r = n % d;
    for _ in 0..shift {
        q <<= 1;
        // r < d, so 2r may exceed 128 bits only when d does: compare first
        if r >= d - r {
            r -= d - r;
            q |= 1;
        } else {
            r <<= 1;
        }
    }
    (q, r != 0)
}

fn float_binop(op: Operator, x: f64, y: f64) -> PyResult<PyNum> {
    use Operator::*;
    Ok(PyNum::Float(match op {
        Add => x + y,
        Sub => x - y,
        Mult => x * y,
        Div => {
            if y == 0.0 {
                return Err(PyError::ZeroDivision("float division by zero"));
            }
            x / y
        }
        FloorDiv => {
            if y == 0.0 {
                return Err(PyError::ZeroDivision("float floor division by zero"));
            }
            float_divmod(x, y).0
        }
        Mod => {
            if y == 0.0 {
                return Err(PyError::ZeroDivision("float modulo"));
            }
            float_divmod(x, y).1
        }
        Pow => float_pow(x, y)?,
        _ => return Err(unsupported(op, "float", "float")),
    }))
}

/// CPython's `divmod` of two floats (`floatobject.c`, `_float_div_mod`):
/// the remainder through `fmod` with the divisor's sign, the quotient
/// `(x - mod) / y` snapped to the nearest integer below or at it.
pub fn float_divmod(x: f64, y: f64) -> (f64, f64) {
    let mut m = x % y;
    let mut div = (x - m) / y;
    if m != 0.0 {
        if (y < 0.0) != (m < 0.0) {
            m += y;
            div -= 1.0;
        }
    } else {
        m = 0.0f64.copysign(y);
    }
    let floordiv = if div != 0.0 {
        let mut f = div.floor();
        if div - f > 0.5 {
            f += 1.0;
        }
        f
    } else {
        0.0f64.copysign(x / y)
    };
    (floordiv, m)
}

fn is_odd_integer(f: f64) -> bool {
    f.is_finite() && f == f.floor() && (f % 2.0).abs() == 1.0
}

/// CPython's `float ** float` (`float_pow`): its special cases, then C's `pow`.
pub fn float_pow(x: f64, y: f64) -> PyResult<f64> {
    if y == 0.0 {
        return Ok(1.0);
    }
    if x.is_nan() {
        return Ok(x);
    }
    if y.is_nan() {
        return Ok(if x == 1.0 { 1.0 } else { y });
    }
    if y.is_infinite() {
        let ax = x.abs();
        return Ok(if ax == 1.0 {
            1.0
        } else if (y > 0.0) == (ax > 1.0) {
            y.abs()
        } else {
            0.0
        });
    }
    if x.is_infinite() {
        let odd = is_odd_integer(y);
        return Ok(if x > 0.0 {
            if y > 0.0 {
                x
            } else {
                0.0
            }
        } else if y > 0.0 {
            if odd {
                x
            } else {
                -x
            }
        } else if odd {
            -0.0
        } else {
            0.0
        });
    }
    if x == 0.0 {
        if y < 0.0 {
            return Err(PyError::ZeroDivision(
                "0.0 cannot be raised to a negative power",
            ));
        }
        return Ok(if is_odd_integer(y) { x } else { 0.0 });
    }
    if x < 0.0 && y != y.floor() {
        return Err(PyError::Complex);
    }
    if x == 1.0 {
        return Ok(1.0);
    }
    let r = x.powf(y);
    if r.is_infinite() {
        return Err(PyError::Overflow("(34, 'Numerical result out of range')"));
    }
    Ok(r)
}

/// Exact ordering of an int and a float (CPython compares them without
/// rounding the int); `None` when the float is NaN.
fn cmp_int_float(i: i128, f: f64) -> Option<Ordering> {
    if f.is_nan() {
        return None;
    }
    if f.is_infinite() {
        return Some(if f > 0.0 {
            Ordering::Less
        } else {
            Ordering::Greater
        });
    }
    let fl = f.floor();
    // every finite float at or beyond 2^127 in magnitude exceeds any i128
    if fl >= 2f64.powi(127) {
        return Some(Ordering::Less);
    }
    if fl < -(2f64.powi(127)) {
        return Some(Ordering::Greater);
    }
    let fi = fl as i128;
    Some(match i.cmp(&fi) {
        Ordering::Equal if f > fl => Ordering::Less,
        o => o,
    })
}

/// The ordering of two numbers as Python's comparisons see it (`None`
/// when either is NaN).
pub fn order(a: PyNum, b: PyNum) -> Option<Ordering> {
    match (a.as_int(), b.as_int()) {
        (Some(x), Some(y)) => Some(x.cmp(&y)),
        (Some(x), None) => cmp_int_float(x, b.as_f64()),
        (None, Some(y)) => cmp_int_float(y, a.as_f64()).map(Ordering::reverse),
        (None, None) => a.as_f64().partial_cmp(&b.as_f64()),
    }
}

/// Python's `a op b` for a comparison operator on two numbers (`is` and
/// `in` are not comparisons of numbers: a type error).
pub fn compare(op: CmpOp, a: PyNum, b: PyNum) -> PyResult<bool> {
    let o = order(a, b);
    Ok(match op {
        CmpOp::Eq => o == Some(Ordering::Equal),
        CmpOp::NotEq => o != Some(Ordering::Equal),
        CmpOp::Lt => o == Some(Ordering::Less),
        CmpOp::LtE => matches!(o, Some(Ordering::Less | Ordering::Equal)),
        CmpOp::Gt => o == Some(Ordering::Greater),
        CmpOp::GtE => matches!(o, Some(Ordering::Greater | Ordering::Equal)),
        _ => {
            return Err(PyError::Type(
                "`is`/`in` do not compare numbers by value".into(),
            ))
        }
    })
}

/// Python's unary `-x`, `+x`, `~x`, `not x`.
pub fn unary(op: UnaryOp, a: PyNum) -> PyResult<PyNum> {
    match (op, a) {
        (UnaryOp::Not, a) => Ok(PyNum::Bool(!a.truthy())),
        (UnaryOp::USub, PyNum::Float(f)) => Ok(PyNum::Float(-f)),
        (UnaryOp::USub, a) => int(a.as_int().and_then(i128::checked_neg)),
        (UnaryOp::UAdd, PyNum::Float(f)) => Ok(PyNum::Float(f)),
        (UnaryOp::UAdd, a) => Ok(PyNum::Int(a.as_int().unwrap_or(0))),
        (UnaryOp::Invert, PyNum::Float(_)) => Err(PyError::Type(
            "bad operand type for unary ~: 'float'".into(),
        )),
        (UnaryOp::Invert, a) => Ok(PyNum::Int(!a.as_int().unwrap_or(0))),
    }
}

/// Python's `int(x)`: truncation toward zero.
pub fn to_int(a: PyNum) -> PyResult<i128> {
    match a {
        PyNum::Float(f) if f.is_nan() => {
            Err(PyError::Value("cannot convert float NaN to integer".into()))
        }
        PyNum::Float(f) if f.is_infinite() => Err(PyError::Overflow(
            "cannot convert float infinity to integer",
        )),
        PyNum::Float(f) => {
            let t = f.trunc();
            if t.abs() >= 2f64.powi(127) {
                Err(PyError::TooBig)
            } else {
                Ok(t as i128)
            }
        }
        other => Ok(other.as_int().unwrap_or(0)),
    }
}

/// Python's `round(x)`: to the nearest int, ties to even.
pub fn round(a: PyNum) -> PyResult<PyNum> {
    match a {
        PyNum::Float(f) => to_int(PyNum::Float(f.round_ties_even())).map(PyNum::Int),
        other => Ok(PyNum::Int(other.as_int().unwrap_or(0))),
    }
}

/// Python's `round(x, ndigits)`: a float rounded to the decimal digit
/// `ndigits` places after the point (before it when negative), correctly
/// rounded from x's exact value, ties to even; an int stays an int.
pub fn round_digits(a: PyNum, ndigits: i128) -> PyResult<PyNum> {
    match a {
        PyNum::Float(f) => Ok(PyNum::Float(round_float_digits(f, ndigits))),
        other => {
            let x = other.as_int().unwrap_or(0);
            if ndigits >= 0 {
                return Ok(PyNum::Int(x));
            }
            let Some(p) = u32::try_from(-ndigits)
                .ok()
                .and_then(|e| 10i128.checked_pow(e))
            else {
                return Ok(PyNum::Int(0));
            };
            // to the nearest multiple of p, ties to even
            let q = int_floor_div(x, p).ok_or(PyError::TooBig)?;
            let r = x - q * p;
            let up = match (2 * r).cmp(&p) {
                Ordering::Greater => true,
                Ordering::Equal => q % 2 != 0,
                Ordering::Less => false,
            };
            int((q + up as i128).checked_mul(p))
        }
    }
}

fn round_float_digits(f: f64, ndigits: i128) -> f64 {
    if !f.is_finite() || f == 0.0 {
        return f;
    }
    // beyond 17 significant digits after the point, or 308 before, CPython
    // returns x (or a signed zero)
    if ndigits > 323 {
        return f;
    }
    if ndigits < -308 {
        return 0.0f64.copysign(f);
    }
    if ndigits >= 0 {
        // Rust formats the exact decimal value, rounded half to even
        let s = format!("{f:.prec$}", prec = ndigits as usize);
        return s.parse::<f64>().unwrap_or(f);
    }
    // to a multiple of 10^k: the exact decimal expansion of the integral
    // part decides (a float's fractional part is below one unit)
    let k = (-ndigits) as usize;
    let digits = format!("{:.0}", f.abs().trunc());
    let frac_nonzero = f.abs() != f.abs().trunc();
    if digits.len() <= k {
        // |f| < 10^k: rounds to 0 or to 10^k
        let half_cmp = compare_half(&digits, k, frac_nonzero);
        let r = if half_cmp == Ordering::Greater {
            format!("1{}", "0".repeat(k)).parse::<f64>().unwrap_or(0.0)
        } else {
            0.0
        };
        return r.copysign(f);
    }
    let (head, tail) = digits.split_at(digits.len() - k);
    let half_cmp = compare_half(tail, k, frac_nonzero);
    let last_odd = head.bytes().last().is_some_and(|b| (b - b'0') % 2 == 1);
    let up = half_cmp == Ordering::Greater || (half_cmp == Ordering::Equal && last_odd);
    let mut h: Vec<u8> = head.bytes().collect();
    if up {
        let mut i = h.len();
        loop {
            if i == 0 {
                h.insert(0, b'1');
                break;
            }
            i -= 1;
            if h[i] == b'9' {
                h[i] = b'0';
            } else {
                h[i] += 1;
                break;
            }
        }
    }
    let text = format!("{}{}", String::from_utf8_lossy(&h), "0".repeat(k));
    text.parse::<f64>().unwrap_or(f).copysign(f)
}

/// How the decimal tail `tail` (k digits, plus a nonzero fraction beyond)
/// compares with half of 10^k.
fn compare_half(tail: &str, k: usize, frac_nonzero: bool) -> Ordering {
    let padded = format!("{tail:0>k$}");
    let half = format!("5{}", "0".repeat(k - 1));
    match padded.cmp(&half) {
        Ordering::Equal if frac_nonzero => Ordering::Greater,
        o => o,
    }
}

/// Python's `min`/`max` of two or more numbers: the first of the extreme
/// values, unchanged (`max(1, 1.0)` is `1`). NaN never compares, so it
/// stays only where it comes first, as in CPython.
pub fn min_max(is_max: bool, args: &[PyNum]) -> Option<PyNum> {
    let mut it = args.iter().copied();
    let mut best = it.next()?;
    for x in it {
        let better = if is_max {
            order(x, best) == Some(Ordering::Greater)
        } else {
            order(x, best) == Some(Ordering::Less)
        };
        if better {
            best = x;
        }
    }
    Some(best)
}

/// Python's `abs(x)`.
pub fn abs(a: PyNum) -> PyResult<PyNum> {
    match a {
        PyNum::Float(f) => Ok(PyNum::Float(f.abs())),
        other => int(other.as_int().and_then(i128::checked_abs)),
    }
}

/// A function of Python's `math` module on numbers, by name (`floor`,
/// `ceil`, `trunc`, `sqrt`, `exp`, `log`, `log2`, `log10`, `gcd`, `isnan`,
/// `isinf`, `isfinite`, `fabs`, `pow`); `None` for one this module does not
/// know.
pub fn math_call(name: &str, args: &[PyNum]) -> Option<PyResult<PyNum>> {
    let one = |f: fn(f64) -> f64| -> Option<PyResult<PyNum>> {
        match args {
            [x] => Some(Ok(PyNum::Float(f(x.as_f64())))),
            _ => None,
        }
    };
    let domain = |ok: bool, v: f64| -> PyResult<PyNum> {
        if ok {
            Ok(PyNum::Float(v))
        } else {
            Err(PyError::Value("math domain error".into()))
        }
    };
    Some(match (name, args) {
        ("floor" | "ceil" | "trunc", [x]) => match x {
            PyNum::Float(f) => {
                let g = match name {
                    "floor" => f.floor(),
                    "ceil" => f.ceil(),
                    _ => f.trunc(),
                };
                to_int(PyNum::Float(g)).map(PyNum::Int)
            }
            other => Ok(PyNum::Int(other.as_int().unwrap_or(0))),
        },
        ("sqrt", [x]) => {
            let v = x.as_f64();
            domain(v >= 0.0 || v.is_nan(), v.sqrt())
        }
        ("log" | "log2" | "log10", [x]) => {
            let v = x.as_f64();
            let r = match name {
                "log" => v.ln(),
                "log2" => v.log2(),
                _ => v.log10(),
            };
            domain(v > 0.0 || v.is_nan(), r)
        }
        ("log", [x, base]) => {
            let (v, b) = (x.as_f64(), base.as_f64());
            // NaN is no domain error: log(nan) is nan
            if v <= 0.0 || b <= 0.0 {
                return Some(Err(PyError::Value("math domain error".into())));
            }
            let d = b.ln();
            if d == 0.0 {
                return Some(Err(PyError::ZeroDivision("float division by zero")));
            }
            Ok(PyNum::Float(v.ln() / d))
        }
        ("exp", [x]) => {
            let r = x.as_f64().exp();
            if r.is_infinite() && x.as_f64().is_finite() {
                Err(PyError::Overflow("math range error"))
            } else {
                Ok(PyNum::Float(r))
            }
        }
        ("fabs", [_]) => return one(f64::abs),
        ("isnan", [x]) => Ok(PyNum::Bool(x.as_f64().is_nan())),
        ("isinf", [x]) => Ok(PyNum::Bool(x.as_f64().is_infinite())),
        ("isfinite", [x]) => Ok(PyNum::Bool(x.as_f64().is_finite())),
        ("gcd", _) => {
            let ints: Option<Vec<i128>> = args.iter().map(|a| a.as_int()).collect();
            let Some(ints) = ints else {
                return Some(Err(PyError::Type(
                    "'float' object cannot be interpreted as an integer".into(),
                )));
            };
            let mut g: u128 = 0;
            for v in ints {
                let (mut a, mut b) = (g, v.unsigned_abs());
                while b != 0 {
                    (a, b) = (b, a % b);
                }
                g = a;
            }
            int(i128::try_from(g).ok())
        }
        ("pow", [x, y]) => float_pow(x.as_f64(), y.as_f64()).map(PyNum::Float),
        _ => return None,
    })
}

/// A builtin of Python's on numbers, by name (`abs`, `int`, `float`,
/// `bool`, `round`, `min`, `max`, `pow`); `None` for one this module does
/// not know or an arity it does not take.
pub fn builtin_call(name: &str, args: &[PyNum]) -> Option<PyResult<PyNum>> {
    Some(match (name, args) {
        ("abs", [x]) => abs(*x),
        ("int", [x]) => to_int(*x).map(PyNum::Int),
        ("float", [x]) => Ok(PyNum::Float(x.as_f64())),
        ("bool", [x]) => Ok(PyNum::Bool(x.truthy())),
        ("round", [x]) => round(*x),
        ("round", [x, n]) => match n.as_int() {
            Some(n) => round_digits(*x, n),
            None => Err(PyError::Type(
                "'float' object cannot be interpreted as an integer".into(),
            )),
        },
        ("min" | "max", _) if args.len() >= 2 => Ok(min_max(name == "max", args)?),
        ("pow", [x, y]) => binop(Operator::Pow, *x, *y),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use PyNum::{Bool as B, Float as F, Int as I};

    fn bits(r: PyResult<PyNum>) -> Result<(char, u128), PyError> {
        r.map(|n| match n {
            B(b) => ('b', b as u128),
            I(i) => ('i', i as u128),
            F(f) => ('f', f.to_bits() as u128),
        })
    }

    // Every expected value below was printed by CPython 3.11.7
    // (`python3 -c 'print(repr(EXPR))'`) on this machine, or follows from
    // the Python language reference by the hand reasoning beside it.
    /// Asserts that `a op b` raises ZeroDivisionError with message `m`.
    fn zero_div(op: Operator, a: PyNum, b: PyNum, m: &'static str) {
        assert_eq!(binop(op, a, b), Err(PyError::ZeroDivision(m)));
    }

    #[test]
    fn float_floor_division_and_modulo_follow_cpython() {
        // 1.0 // 0.1 -> 9.0 (not 10.0: fmod(1.0, 0.1) = 0.09999999999999995)
        assert_eq!(binop(Operator::FloorDiv, F(1.0), F(0.1)), Ok(F(9.0)));
        assert_eq!(
            binop(Operator::Mod, F(1.0), F(0.1)),
            Ok(F(0.09999999999999995))
        );
        assert_eq!(binop(Operator::FloorDiv, F(-1.0), F(0.1)), Ok(F(-10.0)));
        assert_eq!(
            binop(Operator::Mod, F(-1.0), F(0.1)),
            Ok(F(5.551115123125783e-17))
        );
        // -0.0 // 1.0 -> -0.0 and 0.0 // -1.0 -> -0.0 (sign of x / y)
        assert_eq!(
            bits(binop(Operator::FloorDiv, F(-0.0), F(1.0))),
            Ok(('f', (-0.0f64).to_bits() as u128))
        );
        assert_eq!(
            bits(binop(Operator::FloorDiv, F(0.0), F(-1.0))),
            Ok(('f', (-0.0f64).to_bits() as u128))
        );
        // 6.0 % -3.0 -> -0.0 (a zero remainder takes the divisor's sign)
        assert_eq!(
            bits(binop(Operator::Mod, F(6.0), F(-3.0))),
            Ok(('f', (-0.0f64).to_bits() as u128))
        );
        zero_div(Operator::Mod, F(1.0), F(0.0), "float modulo");
        zero_div(
            Operator::FloorDiv,
            I(1),
            F(0.0),
            "float floor division by zero",
        );
    }

    #[test]
    fn int_arithmetic_floors_and_raises_as_cpython() {
        assert_eq!(binop(Operator::FloorDiv, I(-7), I(2)), Ok(I(-4)));
        assert_eq!(binop(Operator::Mod, I(-7), I(2)), Ok(I(1)));
        assert_eq!(binop(Operator::Mod, I(7), I(-2)), Ok(I(-1)));
        zero_div(Operator::Mod, I(1), I(0), "integer modulo by zero");
        zero_div(
            Operator::FloorDiv,
            I(1),
            I(0),
            "integer division or modulo by zero",
        );
        assert_eq!(binop(Operator::Div, I(7), I(2)), Ok(F(3.5)));
        // 2 ** -1 -> 0.5; 0 ** -1 raises
        assert_eq!(binop(Operator::Pow, I(2), I(-1)), Ok(F(0.5)));
        assert!(matches!(
            binop(Operator::Pow, I(0), I(-1)),
            Err(PyError::ZeroDivision(_))
        ));
        assert_eq!(
            binop(Operator::LShift, I(1), I(-1)),
            Err(PyError::Value("negative shift count".into()))
        );
        // big ints within 128 bits: (2**100 + 7) % 2**64 == 7
        let big = binop(Operator::Pow, I(2), I(100)).unwrap();
        let big = binop(Operator::Add, big, I(7)).unwrap();
        assert_eq!(binop(Operator::Mod, big, I(1 << 64)), Ok(I(7)));
        assert_eq!(binop(Operator::RShift, I(-5), I(1000)), Ok(I(-1)));
        assert_eq!(
            binop(Operator::Pow, I(2), I(200)),
            Err(PyError::TooBig),
            "beyond ksem's 128-bit ints"
        );
        // bool arithmetic: True + True -> 2, True & False -> False, True | 2 -> 3
        assert_eq!(binop(Operator::Add, B(true), B(true)), Ok(I(2)));
        assert_eq!(binop(Operator::BitAnd, B(true), B(false)), Ok(B(false)));
        assert_eq!(binop(Operator::BitOr, B(true), I(2)), Ok(I(3)));
        assert_eq!(unary(UnaryOp::Invert, B(true)), Ok(I(-2)));
        assert_eq!(unary(UnaryOp::USub, B(true)), Ok(I(-1)));
    }

    #[test]
    fn int_true_division_is_correctly_rounded() {
        // CPython: 3**70 / 7**30 -> 111057177.03844833, while
        // float(3**70) / float(7**30) -> 111057177.03844835 (two roundings)
        let (a, b) = (3i128.pow(70), 7i128.pow(30));
        assert_eq!(int_true_div(a, b), Ok(111057177.03844833));
        assert_ne!(a as f64 / b as f64, 111057177.03844833);
        assert_eq!(int_true_div((1 << 60) + 1, 3), Ok(3.843071682022823e17));
        assert_eq!(int_true_div(-(1 << 70), 1 << 10), Ok(-(2f64.powi(60))));
        assert_eq!(int_true_div(1, 3), Ok(1.0 / 3.0));
    }

    #[test]
    fn int_float_comparison_is_exact() {
        // 2**53 + 1 == 2.0**53 -> False in CPython
        let n = I((1 << 53) + 1);
        assert_eq!(compare(CmpOp::Eq, n, F(2f64.powi(53))), Ok(false));
        assert_eq!(compare(CmpOp::Gt, n, F(2f64.powi(53))), Ok(true));
        assert_eq!(compare(CmpOp::Lt, I(1), F(1.5)), Ok(true));
        assert_eq!(compare(CmpOp::Eq, I(1), F(1.0)), Ok(true));
        assert_eq!(compare(CmpOp::Eq, B(true), F(1.0)), Ok(true));
        assert_eq!(compare(CmpOp::NotEq, F(f64::NAN), F(f64::NAN)), Ok(true));
        assert_eq!(compare(CmpOp::Lt, I(-3), F(-2.5)), Ok(true));
        assert_eq!(compare(CmpOp::Lt, I(i128::MAX), F(f64::INFINITY)), Ok(true));
    }

    #[test]
    fn float_pow_special_cases() {
        assert_eq!(float_pow(f64::NAN, 0.0), Ok(1.0));
        assert_eq!(float_pow(1.0, f64::NAN), Ok(1.0));
        assert_eq!(float_pow(-1.0, f64::INFINITY), Ok(1.0));
        assert_eq!(float_pow(0.5, f64::INFINITY), Ok(0.0));
        assert_eq!(float_pow(f64::NEG_INFINITY, 3.0), Ok(f64::NEG_INFINITY));
        assert_eq!(float_pow(-8.0, 1.0 / 3.0), Err(PyError::Complex));
        assert!(matches!(float_pow(10.0, 400.0), Err(PyError::Overflow(_))));
        assert_eq!(float_pow(-2.0, 3.0), Ok(-8.0));
    }

    #[test]
    fn rounding_builtins() {
        // round(2.5) -> 2, round(-0.5) -> 0, round(2.675, 2) -> 2.67
        // (2.675 is 2.67499999999999982236431605997495353221893310546875),
        // round(1234.5, -1) -> 1230.0, round(1250, -2) -> 1200
        assert_eq!(round(F(2.5)), Ok(I(2)));
        assert_eq!(round(F(-0.5)), Ok(I(0)));
        assert_eq!(round_digits(F(2.675), 2), Ok(F(2.67)));
        assert_eq!(round_digits(F(1234.5), -1), Ok(F(1230.0)));
        assert_eq!(round_digits(F(1235.0), -1), Ok(F(1240.0)));
        assert_eq!(round_digits(I(1250), -2), Ok(I(1200)));
        assert_eq!(round_digits(I(1350), -2), Ok(I(1400)));
        assert_eq!(
            to_int(F(f64::NAN)),
            Err(PyError::Value("cannot convert float NaN to integer".into()))
        );
        assert_eq!(min_max(true, &[I(1), F(1.0)]), Some(I(1)));
        assert_eq!(min_max(true, &[F(1.0), I(1)]), Some(F(1.0)));
        assert_eq!(
            math_call("sqrt", &[F(-1.0)]),
            Some(Err(PyError::Value("math domain error".into())))
        );
        assert_eq!(math_call("floor", &[F(-2.5)]), Some(Ok(I(-3))));
        assert_eq!(math_call("gcd", &[I(12), I(-18)]), Some(Ok(I(6))));
    }
}
