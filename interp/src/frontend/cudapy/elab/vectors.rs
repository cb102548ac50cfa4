//! CUDA vector types (`cuda.float32x4`, `cuda.short2`, … numba-cuda's
//! `vector_types`): a constructor takes numbers and vectors whose
//! components add up to the type's count (`float32x3(float32x2(…), 1.0)`),
//! each converted to the base type; `.x`, `.y`, `.z`, `.w` read the
//! components.

use super::*;

/// The base dtype and component count of a vector type named `name`
/// (`float32x4`, `int8x2`, and CUDA's `float4`, `short2`, `uchar3`,
/// `longlong1`, …).
pub(super) fn vector_type(name: &str) -> Option<(DType, usize)> {
    let (base, n) = name.split_at(name.len().checked_sub(1)?);
    let n: usize = n.parse().ok()?;
    if !(1..=4).contains(&n) {
        return None;
    }
    let d = match base.strip_suffix('x') {
        // numba's vector types: of the integer widths, float32 and float64
        Some(b) => DType::from_json_name(b).filter(|d| {
            !matches!(
                d,
                DType::Bool | DType::F8E4Nv | DType::F8E5 | DType::F16 | DType::BF16
            )
        })?,
        None => match base {
            "char" => DType::I8,
            "short" => DType::I16,
            "int" => DType::I32,
            "long" | "longlong" => DType::I64,
            "uchar" => DType::U8,
            "ushort" => DType::U16,
            "uint" => DType::U32,
            "ulong" | "ulonglong" => DType::U64,
            "float" => DType::F32,
            "double" => DType::F64,
            _ => return None,
        },
    };
    Some((d, n))
}

/// The component names, in order.
const FIELDS: [&str; 4] = ["x", "y", "z", "w"];

impl Elab<'_> {
    /// `cuda.<vector type>(…)`; `None` where `f` names no vector type.
    pub(super) fn vector_make(&mut self, call: Call) -> DResult<Option<Val>> {
        let (f, span) = (call.name, call.span);
        let Some((d, n)) = vector_type(f) else {
            return Ok(None);
        };
        call.no_keywords(&format!("cuda.{f}"))?;
        let mut parts = Vec::new();
        for a in call.args() {
            match self.expr(a)? {
                Val::Vector(xs) => parts.extend(xs),
                v => parts.push(self.num(v, self.span(a))?),
            }
        }
        if parts.len() != n {
            return err(
                span,
                format!("cuda.{f} takes {n} components, {} given", parts.len()),
            );
        }
        let parts = parts
            .into_iter()
            .map(|e| self.temp(convert(e, d)))
            .collect();
        Ok(Some(Val::Vector(parts)))
    }

    /// `.x`, `.y`, `.z`, `.w` of a vector.
    pub(super) fn vector_field(&self, xs: &[Expr], attr: &str, span: Span) -> DResult<Val> {
        match FIELDS.iter().position(|f| *f == attr) {
            Some(i) if i < xs.len() => Ok(Val::Num(xs[i].clone())),
            _ => err(
                span,
                format!(
                    "a vector of {} components has no attribute `{attr}`",
                    xs.len()
                ),
            ),
        }
    }
}
