//! The ids that join the lowering to `runtime.cuh`: dtype, math-function,
//! comparison and shift-range ids are generated here from the Rust enums
//! (as `#define`s ahead of the runtime), so the two sides cannot disagree.

use ksem_interp::dtype::{DType, FloatFormat, Specials};
use ksem_interp::ir::{AtomicOp, BinOp, MathFn, ShiftRange};
use std::fmt::Write;

/// The C macro naming a dtype's id (`KF32`).
pub fn dtype_macro(d: DType) -> &'static str {
    match d {
        DType::Bool => "KB",
        DType::I8 => "KI8",
        DType::I16 => "KI16",
        DType::I32 => "KI32",
        DType::I64 => "KI64",
        DType::U8 => "KU8",
        DType::U16 => "KU16",
        DType::U32 => "KU32",
        DType::U64 => "KU64",
        DType::F8E4Nv => "KF8E4",
        DType::F8E5 => "KF8E5",
        DType::F8E4B15 => "KF8E4B15",
        DType::F8E4B8 => "KF8E4B8",
        DType::F8E5B16 => "KF8E5B16",
        DType::F16 => "KF16",
        DType::BF16 => "KBF16",
        DType::F32 => "KF32",
        DType::F64 => "KF64",
    }
}

/// The runtime's id of a dtype (its position in `DType::ALL`; the runtime
/// relies on the floats coming last).
pub fn dtype_id(d: DType) -> usize {
    DType::ALL
        .iter()
        .position(|&x| x == d)
        .expect("every dtype is in ALL")
}

/// The runtime's id of a math function (`ksem_math`).
pub fn math_id(f: MathFn) -> usize {
    MathFn::ALL
        .iter()
        .position(|&x| x == f)
        .expect("every function is in ALL")
}

/// The C macro naming a math function's id (`KSEM_MATH_EXP`).
pub fn math_macro(f: MathFn) -> String {
    format!("KSEM_MATH_{}", f.name().to_uppercase())
}

/// The comparisons in runtime order (`ksem_icmp`/`ksem_fcmp`).
const COMPARISONS: [(BinOp, &str); 6] = [
    (BinOp::Eq, "EQ"),
    (BinOp::Ne, "NE"),
    (BinOp::Lt, "LT"),
    (BinOp::Le, "LE"),
    (BinOp::Gt, "GT"),
    (BinOp::Ge, "GE"),
];

/// The runtime's id of a comparison.
pub fn cmp_id(op: BinOp) -> usize {
    COMPARISONS
        .iter()
        .position(|&(o, _)| o == op)
        .unwrap_or_else(|| panic!("{op:?} is not a comparison"))
}

/// The runtime's id of a shift-range policy (`ksem_shl`/`ksem_shr`).
pub fn shift_range_id(r: ShiftRange) -> usize {
    match r {
        ShiftRange::Ub => 0,
        ShiftRange::Mask => 1,
        ShiftRange::Saturate => 2,
    }
}

/// The runtime's id of an atomic operation (`ksem_atomic`).
pub fn atomic_id(op: AtomicOp) -> usize {
    AtomicOp::ALL
        .iter()
        .position(|&x| x == op)
        .expect("every atomic is in ALL")
}

/// The C macro naming an atomic operation's id (`KSEM_ATOMIC_ADD`).
pub fn atomic_macro(op: AtomicOp) -> String {
    format!("KSEM_ATOMIC_{}", op.name().to_uppercase())
}

/// The id of where a float format's infinities and NaNs are
/// (`KSEM_SPECIALS_*`, `runtime.cuh`'s `kspecials`).
fn specials_id(s: Specials) -> u32 {
    match s {
        Specials::Ieee => 0,
        Specials::MaxIsNan => 1,
        Specials::NegZeroIsNan => 2,
        Specials::AllFinite => 3,
    }
}

/// `#define NAME(d)`: a float dtype id's `field` of its format
/// (`dtype.rs`'s `float_format`), as one conditional expression.
fn format_macro(s: &mut String, name: &str, field: impl Fn(FloatFormat) -> i64) {
    let _ = write!(s, "#define {name}(d) (");
    for d in DType::ALL {
        if let Some(f) = d.float_format() {
            let _ = write!(s, "(d) == {} ? {} : ", dtype_macro(d), field(f));
        }
    }
    let _ = writeln!(s, "0)");
}

/// The `#define`s of every id, which `runtime.cuh` is written against, and
/// the float formats' parameters (so the header and `dtype.rs` cannot
/// disagree on a format).
pub fn header() -> String {
    let mut s = String::from("// ---- ids generated from the Rust enums (gpu/src/ids.rs)\n");
    for d in DType::ALL {
        let _ = writeln!(s, "#define {} {}", dtype_macro(d), dtype_id(d));
    }
    for f in MathFn::ALL {
        let _ = writeln!(s, "#define {} {}", math_macro(f), math_id(f));
    }
    for (op, name) in COMPARISONS {
        let _ = writeln!(s, "#define KSEM_CMP_{name} {}", cmp_id(op));
    }
    for (r, name) in [
        (ShiftRange::Ub, "UB"),
        (ShiftRange::Mask, "MASK"),
        (ShiftRange::Saturate, "SATURATE"),
    ] {
        let _ = writeln!(s, "#define KSEM_SHIFT_{name} {}", shift_range_id(r));
    }
    for op in AtomicOp::ALL {
        let _ = writeln!(s, "#define {} {}", atomic_macro(op), atomic_id(op));
    }
    for (sp, name) in [
        (Specials::Ieee, "IEEE"),
        (Specials::MaxIsNan, "MAX_IS_NAN"),
        (Specials::NegZeroIsNan, "NEG_ZERO_IS_NAN"),
        (Specials::AllFinite, "ALL_FINITE"),
    ] {
        let _ = writeln!(s, "#define KSEM_SPECIALS_{name} {}", specials_id(sp));
    }
    format_macro(&mut s, "KSEM_EXPBITS", |f| f.exp_bits.into());
    format_macro(&mut s, "KSEM_MANBITS", |f| f.man_bits.into());
    format_macro(&mut s, "KSEM_BIAS", |f| f.bias.into());
    format_macro(&mut s, "KSEM_SPECIALS", |f| specials_id(f.specials).into());
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_distinct_and_the_floats_come_last() {
        let first_float = DType::ALL.iter().position(|d| d.is_float()).unwrap();
        assert!(DType::ALL[first_float..].iter().all(|d| d.is_float()));
        let h = header();
        assert!(h.contains("#define KF8E4 9\n"), "{h}");
        let mut names: Vec<&str> = h
            .lines()
            .filter_map(|l| l.strip_prefix("#define "))
            .map(|l| l.split(' ').next().unwrap())
            .collect();
        let n = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), n, "a macro is defined twice");
    }
}
