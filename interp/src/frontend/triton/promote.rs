//! Triton's type promotion: the seed's rules (000/001), and Triton 3.6's
//! behaviour where the seed is silent (division, mixed signedness, literal
//! range checks).

use crate::dtype::{DType, Kind};

/// A Python number taking part in promotion (a literal or constexpr): the
/// one Python number type of every front end.
pub use crate::frontend::py::num::PyNum;

impl PyNum {
    pub fn kind(self) -> Kind {
        match self {
            PyNum::Bool(_) => Kind::Bool,
            PyNum::Int(_) => Kind::Int,
            PyNum::Float(_) => Kind::Float,
        }
    }
    /// The dtype Triton gives a lone Python number (`to_tensor`): the lowest
    /// of int32 < uint32 < int64 < uint64 it fits, float32 when in float32's
    /// normal range (or 0, inf, nan), else float64.
    pub fn natural_dtype(self) -> Result<DType, String> {
        Ok(match self {
            PyNum::Bool(_) => DType::Bool,
            PyNum::Int(v) => {
                if (-(1i128 << 31)..(1i128 << 31)).contains(&v) {
                    DType::I32
                } else if ((1i128 << 31)..(1i128 << 32)).contains(&v) {
                    DType::U32
                } else if (-(1i128 << 63)..(1i128 << 63)).contains(&v) {
                    DType::I64
                } else if ((1i128 << 63)..(1i128 << 64)).contains(&v) {
                    DType::U64
                } else {
                    return Err(format!("integer {v} is not representable in 64 bits"));
                }
            }
            PyNum::Float(f) => {
                let a = f.abs();
                let min32 = 2f64.powi(-126);
                let max32 = (2.0 - 2f64.powi(-23)) * 2f64.powi(127);
                if a.is_infinite() || a == 0.0 || f.is_nan() || (min32..=max32).contains(&a) {
                    DType::F32
                } else {
                    DType::F64
                }
            }
        })
    }
    pub fn is_negative(self) -> bool {
        match self {
            PyNum::Bool(_) => false,
            PyNum::Int(v) => v < 0,
            PyNum::Float(f) => f < 0.0,
        }
    }
}

/// One operand of a binary operation as promotion sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Operand {
    Tensor(DType),
    Scalar(PyNum),
}

/// The common dtype of two tensors (seed rules 1–4).
pub fn tensor_tensor(a: DType, b: DType) -> DType {
    if a == b {
        return a;
    }
    // 1. Kind
    if a.kind() != b.kind() {
        return if a.kind() > b.kind() { a } else { b };
    }
    // 2. Width
    if a.bits() != b.bits() {
        return if a.bits() > b.bits() { a } else { b };
    }
    // 3. Prefer float16 (same width, both floats: fp16/bf16 or the two fp8s)
    if a.is_float() {
        return DType::F16;
    }
    // 4. Prefer unsigned
    if a.is_unsigned_int() {
        a
    } else {
        b
    }
}

/// The dtype an arithmetic operation computes in, and the literal checks
/// Triton applies. `div_or_mod` is true for `/`, `//` and `%`.
pub fn computation_type(a: Operand, b: Operand, div_or_mod: bool) -> Result<DType, String> {
    let ty = match (a, b) {
        (Operand::Tensor(x), Operand::Tensor(y)) => tensor_pair(x, y, div_or_mod)?,
        (Operand::Tensor(t), Operand::Scalar(s)) | (Operand::Scalar(s), Operand::Tensor(t)) => {
            if s.kind() <= t.kind() {
                // The scalar does not participate.
                if div_or_mod && matches!(t, DType::F16 | DType::BF16) {
                    DType::F32
                } else {
                    t
                }
            } else {
                tensor_pair(t, s.natural_dtype()?, div_or_mod)?
            }
        }
        // Arithmetic on two Python numbers folds with Python semantics before
        // promotion; where both must become tensors (tl.where), each takes
        // its natural dtype.
        (Operand::Scalar(x), Operand::Scalar(y)) => {
            tensor_pair(x.natural_dtype()?, y.natural_dtype()?, div_or_mod)?
        }
    };
    for op in [a, b] {
        if let Operand::Scalar(s) = op {
            check_scalar_fits(s, ty)?;
        }
    }
    Ok(ty)
}

fn tensor_pair(x: DType, y: DType, div_or_mod: bool) -> Result<DType, String> {
    let t = tensor_tensor(x, y);
    if !div_or_mod {
        return Ok(t);
    }
    // Triton 3.6 computes `/` and `%` of 16-bit floats in float32 (PTX has no
    // fp16 division), and refuses integer division of mixed signedness.
    if x.is_float() || y.is_float() {
        if matches!(t, DType::F16 | DType::BF16) {
            return Ok(DType::F32);
        }
        return Ok(t);
    }
    // int1 counts as unsigned (Triton's dtype puts it with the unsigned
    // types): bool with a signed int is refused too (measured on Triton
    // 3.6: "Cannot use /, #, or % with int1 and int64 … different signedness").
    // The message is Triton's (3.9 names the dtypes by their repr), which
    // its test suite matches: 'Cannot use .* because they have different
    // signedness'.
    if x.is_signed_int() != y.is_signed_int() {
        return Err(format!(
            "Cannot use /, #, or % with triton.language.{x} and triton.language.{y} because they have different signedness; this is unlikely to result in a useful answer. Cast them to the same signedness."
        ));
    }
    Ok(t)
}

/// The dtype `tl.minimum`/`tl.maximum` (and Python's `min`/`max`, which
/// Triton 3.6's code generator binds to them) compute and return. Triton
/// first makes each operand a tensor (`to_tensor`: a literal takes its
/// natural dtype and takes part in promotion like any tensor), then widens
/// bfloat16 to float32 ("hardware doesn't support FMAX, FMIN, CMP for
/// bfloat16"), then promotes the two tensors (seed rules 1-4).
pub fn minmax_type(a: Operand, b: Operand) -> Result<DType, String> {
    let tensor = |o: Operand| -> Result<DType, String> {
        let d = match o {
            Operand::Tensor(d) => d,
            Operand::Scalar(s) => s.natural_dtype()?,
        };
        Ok(if d == DType::BF16 { DType::F32 } else { d })
    };
    Ok(tensor_tensor(tensor(a)?, tensor(b)?))
}

/// A literal must be representable in the integer type it is converted to.
fn check_scalar_fits(s: PyNum, ty: DType) -> Result<(), String> {
    if ty.is_unsigned_int() && s.is_negative() && ty != DType::Bool {
        return Err(format!(
            "cannot perform a binary operation between an unsigned tensor ({ty}) and a negative scalar; cast one of them explicitly"
        ));
    }
    if ty.is_int() {
        let v = match s {
            PyNum::Bool(b) => b as i128,
            PyNum::Int(v) => v,
            PyNum::Float(_) => return Ok(()),
        };
        let (lo, hi) = ty.int_range();
        if v < lo || v > hi {
            return Err(format!("scalar {v} is out of range for type {ty}"));
        }
    }
    Ok(())
}

/// Triton's integer promotion for bitwise operations and shifts (C's usual
/// arithmetic conversions without the promotion to int).
pub fn integer_promote(a: DType, b: DType) -> DType {
    let (ra, rb) = (a.bits(), b.bits());
    match (a.is_unsigned_int(), b.is_unsigned_int()) {
        (x, y) if x == y => {
            if ra > rb {
                a
            } else {
                b
            }
        }
        (true, false) => {
            if ra >= rb {
                a
            } else {
                b
            }
        }
        _ => {
            if rb >= ra {
                b
            } else {
                a
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use DType::*;

    fn t(d: DType) -> Operand {
        Operand::Tensor(d)
    }

    #[test]
    fn seed_tensor_tensor_examples() {
        assert_eq!(tensor_tensor(I32, BF16), BF16); // kind
        assert_eq!(tensor_tensor(F32, F16), F32); // width
        assert_eq!(tensor_tensor(F16, BF16), F16); // prefer float16
        assert_eq!(tensor_tensor(I32, U32), U32); // prefer unsigned
                                                  // the rules are symmetric
        for a in DType::ALL {
            for b in DType::ALL {
                assert_eq!(tensor_tensor(a, b), tensor_tensor(b, a), "{a} {b}");
            }
        }
        assert_eq!(tensor_tensor(F8E4Nv, F8E5), F16);
        assert_eq!(tensor_tensor(Bool, I8), I8);
        assert_eq!(tensor_tensor(I8, U16), U16);
        assert_eq!(tensor_tensor(U8, I16), I16);
    }

    #[test]
    fn seed_tensor_scalar_examples() {
        let int = |v| Operand::Scalar(PyNum::Int(v));
        let fl = |v| Operand::Scalar(PyNum::Float(v));
        assert_eq!(computation_type(t(U8), int(3), false), Ok(U8));
        assert_eq!(computation_type(t(I16), fl(4.0), false), Ok(F32));
        assert_eq!(computation_type(t(Bool), int(1), false), Ok(I32));
        assert_eq!(computation_type(t(Bool), int(1 << 40), false), Ok(I64));
        assert_eq!(
            computation_type(t(Bool), int(3_000_000_000), false),
            Ok(U32)
        );
        assert_eq!(computation_type(t(I16), fl(1e300), false), Ok(F64));
        assert_eq!(computation_type(t(F16), int(100000), false), Ok(F16));
        assert_eq!(computation_type(t(F16), fl(1.0), true), Ok(F32));
    }

    #[test]
    fn literal_checks() {
        let int = |v| Operand::Scalar(PyNum::Int(v));
        assert!(computation_type(t(U8), int(-1), false).is_err());
        assert!(computation_type(t(I8), int(200), false).is_err());
        assert!(computation_type(t(I8), int(-128), false).is_ok());
        assert!(computation_type(t(I8), int(1 << 40), false).is_err());
    }

    #[test]
    fn minimum_makes_literals_tensors_and_widens_bfloat16() {
        let int = |v| Operand::Scalar(PyNum::Int(v));
        let fl = |v| Operand::Scalar(PyNum::Float(v));
        // a literal takes part: float16 with a float32 literal is float32
        assert_eq!(minmax_type(t(F16), fl(2.0)), Ok(F32));
        assert_eq!(minmax_type(t(I8), int(3)), Ok(I32));
        assert_eq!(minmax_type(t(U32), int(-1)), Ok(U32));
        assert_eq!(minmax_type(int(2), int(3_000_000_000)), Ok(U32));
        // bfloat16 computes (and stays) in float32
        assert_eq!(minmax_type(t(BF16), t(BF16)), Ok(F32));
        assert_eq!(minmax_type(t(BF16), t(F16)), Ok(F32));
        assert_eq!(minmax_type(t(F16), t(F16)), Ok(F16));
        assert!(minmax_type(int(1 << 70), int(0)).is_err());
    }

    #[test]
    fn division_rules_where_the_seed_is_silent() {
        assert_eq!(computation_type(t(F16), t(F16), true), Ok(F32));
        assert_eq!(computation_type(t(F16), t(F16), false), Ok(F16));
        assert!(computation_type(t(I32), t(U32), true).is_err());
        assert_eq!(computation_type(t(I32), t(U32), false), Ok(U32));
    }
}
