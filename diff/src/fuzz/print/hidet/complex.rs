//! Complex values in the printed Hidet script. The front end holds a
//! complex variable `c` as two part variables `c.0` (real) and `c.1`
//! (imaginary), defined one after the other, and builds `*` and `/` as
//! libgcc's routines (`complex::CxBuilder`: a block of statements on
//! temporaries `_ca`, `_cb`, `_cc`, `_cd` = the operands' parts, whose
//! result is `_cre`, `_cim`). The printer recognises those shapes:
//! a definition pair is `c = make_complex(x, y)`, `c = a + b`, `a - b`,
//! `-a`, `conj(a)` or (after a builder block) `a * b` / `a / b`; a part
//! read is `real(c)` / `imag(c)`; both parts compared is `a == b` /
//! `a != b`. The round trip (re-elaborating the text) checks the result.

use super::{Form, PResult, Printer};
use crate::fuzz::gen_hidet::nodes::HVal;
use crate::fuzz::print::control::Structured;
use ksem_interp::dtype::DType;
use ksem_interp::ir::*;

/// The complex variable and part (`0` real, `1` imaginary) an IR
/// variable name `c.k` stands for.
pub(super) fn split_part(name: &str) -> Option<(&str, usize)> {
    let (base, k) = name.rsplit_once('.')?;
    match k {
        "0" => Some((base, 0)),
        "1" => Some((base, 1)),
        _ => None,
    }
}

/// The compound variable and part an IR variable name `v.k` stands for
/// (any part number: a vector's lanes too).
pub(super) fn split_part_any(name: &str) -> Option<(&str, usize)> {
    let (base, k) = name.rsplit_once('.')?;
    if k.is_empty() || !k.bytes().all(|c| c.is_ascii_digit()) || (k.len() > 1 && k.starts_with('0'))
    {
        return None;
    }
    Some((base, k.parse().ok()?))
}

impl<'k> Printer<'k> {
    /// The complex variable (its base name) a pair of part expressions
    /// reads, where they are `Var(c.0)` and `Var(c.1)` of one visible `c`.
    fn complex_operand(&self, re: &Expr, im: &Expr) -> Option<String> {
        let (ExprKind::Var(a), ExprKind::Var(b)) = (&re.kind, &im.kind) else {
            return None;
        };
        let (ba, ka) = split_part(self.var_name(*a))?;
        let (bb, kb) = split_part(self.var_name(*b))?;
        (ba == bb && ka == 0 && kb == 1 && self.visible(*a) && self.visible(*b))
            .then(|| ba.to_string())
    }

    /// `real(c)` / `imag(c)` for a read of part variable `v`.
    pub(super) fn part_form(&self, v: VarId, e: &Expr) -> Option<Form> {
        let (base, k) = split_part(self.var_name(v))?;
        let f = if k == 0 { "real" } else { "imag" };
        Some(Form {
            text: format!("{f}({base})"),
            v: HVal::num(e.clone(), e.ty.dtype()),
        })
    }

    /// `a == b` / `a != b` of two complex variables.
    pub(super) fn complex_compare_form(&self, e: &Expr) -> Option<Form> {
        let (ExprKind::Binary(join, l, r), DType::Bool) = (&e.kind, e.ty.dtype()) else {
            return None;
        };
        let (cmp, text) = match join {
            BinOp::LogicalAnd => (BinOp::Eq, "=="),
            BinOp::LogicalOr => (BinOp::Ne, "!="),
            _ => return None,
        };
        let (ExprKind::Binary(c0, a0, b0), ExprKind::Binary(c1, a1, b1)) = (&l.kind, &r.kind)
        else {
            return None;
        };
        if *c0 != cmp || *c1 != cmp {
            return None;
        }
        let a = self.complex_operand(a0, a1)?;
        let b = self.complex_operand(b0, b1)?;
        Some(Form {
            text: format!("({a} {text} {b})"),
            v: HVal::num(e.clone(), DType::Bool),
        })
    }

    /// The statements at `b[i]` that define a complex variable, printed;
    /// how many there are (`None`: not a complex definition).
    pub(super) fn complex_at(&mut self, b: &'k [Stmt], i: usize) -> PResult<Option<usize>> {
        let Stmt::Let(v, _) = &b[i] else {
            return Ok(None);
        };
        if self.var_name(*v) == "_ca" {
            return self.complex_builder(b, i).map(Some);
        }
        let Some((v0, e0, v1, e1)) = self.part_pair(b, i) else {
            return Ok(None);
        };
        let base = split_part(self.var_name(v0))
            .map_or("", |x| x.0)
            .to_string();
        let text = self.complex_value(e0, e1)?;
        self.define_complex(&base, v0, v1, &text)?;
        Ok(Some(2))
    }

    /// `b[i]`, `b[i + 1]` as the definitions of parts `c.0`, `c.1` of one
    /// complex variable.
    fn part_pair(&self, b: &'k [Stmt], i: usize) -> Option<(VarId, &'k Expr, VarId, &'k Expr)> {
        let (Stmt::Let(v0, e0), Some(Stmt::Let(v1, e1))) = (&b[i], b.get(i + 1)) else {
            return None;
        };
        let (b0, k0) = split_part(self.var_name(*v0))?;
        let (b1, k1) = split_part(self.var_name(*v1))?;
        (b0 == b1 && k0 == 0 && k1 == 1).then_some((*v0, e0, *v1, e1))
    }

    fn define_complex(&mut self, base: &str, v0: VarId, v1: VarId, text: &str) -> PResult<()> {
        if self.visible(v0) || self.visible(v1) {
            return Err(format!("the complex variable `{base}` is assigned twice"));
        }
        if self.names.iter().any(|n| n == base) {
            return Err(format!(
                "the complex variable `{base}` shares a printed name"
            ));
        }
        self.declare(v0);
        self.declare(v1);
        self.line(&format!("{base} = {text}"));
        Ok(())
    }

    /// The script form of a complex value with parts `re`, `im`.
    fn complex_value(&mut self, re: &'k Expr, im: &'k Expr) -> PResult<String> {
        use ExprKind::{Binary, Unary};
        if let Some(a) = self.complex_operand(re, im) {
            return Ok(a);
        }
        match (&re.kind, &im.kind) {
            (Binary(o0, a0, b0), Binary(o1, a1, b1))
                if o0 == o1 && matches!(o0, BinOp::Add | BinOp::Sub) =>
            {
                if let (Some(a), Some(b)) =
                    (self.complex_operand(a0, a1), self.complex_operand(b0, b1))
                {
                    let op = if *o0 == BinOp::Add { "+" } else { "-" };
                    return Ok(format!("{a} {op} {b}"));
                }
            }
            (Unary(UnOp::Neg, a0), Unary(UnOp::Neg, a1)) => {
                if let Some(a) = self.complex_operand(a0, a1) {
                    return Ok(format!("-{a}"));
                }
            }
            (_, Unary(UnOp::Neg, a1)) => {
                if let Some(a) = self.complex_operand(re, a1) {
                    return Ok(format!("conj({a})"));
                }
            }
            _ => {}
        }
        // make_complex(x, y): parts of one float type, as they are
        let d = re.ty.dtype();
        if !matches!(d, DType::F32 | DType::F64) || im.ty.dtype() != d {
            return Err("a complex value whose parts are not of one float type".into());
        }
        let x = self.pick(re, |f| (f.v.hty == d).then(|| f.v.e.clone()))?;
        let y = self.pick(im, |f| (f.v.hty == d).then(|| f.v.e.clone()))?;
        Ok(format!("make_complex({}, {})", x.text, y.text))
    }

    /// A `CxBuilder` block at `b[i]` (`_ca = a.0`, …) and the definition
    /// pair of its result after it: `c = a * b` or `c = a / b`.
    fn complex_builder(&mut self, b: &'k [Stmt], i: usize) -> PResult<usize> {
        let lets: Vec<(&str, &'k Expr)> = b[i..]
            .iter()
            .take(5)
            .filter_map(|s| match s {
                Stmt::Let(v, e) => Some((self.var_name(*v), e)),
                _ => None,
            })
            .collect();
        let [("_ca", ar), ("_cb", ai), ("_cc", br), ("_cd", bi), (fifth, _)] = lets.as_slice()
        else {
            return Err("a complex operation's operands are not in place".into());
        };
        let op = if *fifth == "_ac" { "*" } else { "/" };
        let a = self.complex_operand(ar, ai);
        let c = self.complex_operand(br, bi);
        let (Some(a), Some(c)) = (a, c) else {
            return Err("a complex operation whose operands are not complex variables".into());
        };
        let end = (i + 4..b.len())
            .find(|&j| self.part_pair(b, j).is_some())
            .ok_or("a complex operation whose result is not held")?;
        let (v0, e0, v1, e1) = self.part_pair(b, end).expect("found above");
        let reads =
            |e: &Expr, name: &str| matches!(e.kind, ExprKind::Var(w) if self.var_name(w) == name);
        if !reads(e0, "_cre") || !reads(e1, "_cim") {
            return Err("a complex operation whose result is not held".into());
        }
        let base = split_part(self.var_name(v0))
            .map_or("", |x| x.0)
            .to_string();
        self.define_complex(&base, v0, v1, &format!("{a} {op} {c}"))?;
        Ok(end + 2 - i)
    }
}
