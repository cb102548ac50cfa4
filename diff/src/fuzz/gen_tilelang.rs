//! The TileLang program generator: a `@T.prim_func` over 1-D buffers whose
//! blocks tile the data (the last block ragged), with mixed dtypes, all
//! five division forms, each loop kind, shared/local/var buffers, tile
//! copies at ragged edges, compile-time arithmetic on Python constants,
//! reductions of fragments, `T.ieee_*` with rounding modes and
//! `T.atomic_add` into a histogram. (Real TileLang's C target refuses the
//! programs with reductions and `T.ieee_*`; host and cuda run them all.)
//!
//! Programs are UB-free by construction and stay inside what real TileLang
//! 0.1.15 accepts on its C target (so `--backends interp,tilelang` compares
//! every one): divisors are `(x & 3) + 2` with a constant sign (never 0 or
//! -1), shift amounts are masked to 0..7, floats reach integer dtypes only
//! clamped with `T.min`/`T.max`, names are bound once per loop body (TileLang
//! refuses rebinding), `T.ceildiv` gets positive divisors (divergence T1),
//! at most one shared buffer, never filled (the C target cannot), and local
//! buffers are indexed only by serial loops.

use super::gen::Program;
use super::rng::Rng;
use ksem_interp::dtype::DType;
use ksem_interp::frontend::tilelang::types::{dtype_name, promote};
use serde_json::{json, Value as Json};
use std::collections::BTreeSet;

/// The dtypes values take.
const DTYPES: [DType; 8] = [
    DType::I8,
    DType::I16,
    DType::I32,
    DType::I64,
    DType::U8,
    DType::F16,
    DType::F32,
    DType::F64,
];

/// A value of the program: its Python text, its dtype, and whether it is
/// made of constants only (Python and TileLang fold it at compile time).
#[derive(Clone)]
struct V {
    text: String,
    d: DType,
    k: bool,
}

struct Gen {
    rng: Rng,
    /// Names readable here (name, dtype, constant).
    vars: Vec<(String, DType, bool)>,
    next_var: usize,
    lines: Vec<String>,
    indent: usize,
    features: BTreeSet<&'static str>,
    /// Against real TileLang (see [`generate`]).
    peer: bool,
}

/// The dtypes values take against real TileLang: its C target computes
/// 8- and 16-bit integer arithmetic in C's int without wrapping (divergence
/// T7) and has no fast path for float16 printing, so only these.
const PEER_DTYPES: [DType; 4] = [DType::I32, DType::I64, DType::F32, DType::F64];

/// Generates program `index` of campaign `seed`; `peer`: for a campaign
/// against real TileLang, leaving out what it refuses (reductions, T.ieee_*)
/// or gets wrong for known reasons (narrow integers T7, folded float
/// constants T5), so that what the campaign finds is new.
pub fn generate(seed: u64, index: u64, peer: bool) -> Program {
    let mut g = Gen {
        rng: Rng::new(seed, index),
        vars: Vec::new(),
        next_var: 0,
        lines: Vec::new(),
        indent: 2,
        features: BTreeSet::new(),
        peer,
    };
    let block = *g.rng.pick(&[4usize, 8, 16]);
    let blocks = 1 + g.rng.below(3);
    // the last block is ragged half of the time
    let n = if g.rng.chance(0.5) && blocks > 1 {
        g.features.insert("ragged-edge");
        blocks * block - 1 - g.rng.below(block - 1)
    } else {
        blocks * block
    };
    let n_inputs = 1 + g.rng.below(3);
    let dtypes: &[DType] = if peer { &PEER_DTYPES } else { &DTYPES };
    let inputs: Vec<DType> = (0..n_inputs).map(|_| *g.rng.pick(dtypes)).collect();
    let out_d = *g.rng.pick(dtypes);
    // a tile of input 0 staged through shared memory (copy in, copy out)
    let staged = g.rng.chance(0.4);
    if staged {
        g.features.insert("shared+copy");
        g.line(&format!(
            "S = T.alloc_shared(({block},), \"{}\")",
            dtype_name(inputs[0])
        ));
        g.line("T.copy(a0[bx * B], S)");
    }
    // T.atomic_add into a histogram shared by every block and iteration
    let hist = g.rng.chance(0.3);
    let acc = g.rng.chance(0.4);
    if acc {
        g.features.insert("alloc_var");
        g.line("acc = T.alloc_var(\"int32\", init=0)");
    }
    let loop_kind = *g
        .rng
        .pick(&["serial", "Parallel", "unroll", "Pipelined", "range", "grid"]);
    g.features.insert(match loop_kind {
        "serial" | "range" => "loop-serial",
        "Parallel" => "loop-parallel",
        "unroll" => "loop-unroll",
        "Pipelined" => "loop-pipelined",
        _ => "loop-grid",
    });
    let (header, idx) = match loop_kind {
        "grid" => ("for r, c in T.grid(B // 2, 2):".to_string(), "(r * 2 + c)"),
        "range" => ("for i in range(B):".to_string(), "i"),
        "Pipelined" => ("for i in T.Pipelined(B, num_stages=2):".to_string(), "i"),
        k => (format!("for i in T.{k}(B):"), "i"),
    };
    g.line(&header);
    g.indent += 1;
    g.line(&format!("g = bx * B + {idx}"));
    g.line("if g < N:");
    g.indent += 1;
    g.vars.push(("g".into(), DType::I32, false));
    for (k, d) in inputs.iter().enumerate() {
        let src = if k == 0 && staged {
            format!("S[{idx}]")
        } else {
            format!("a{k}[g]")
        };
        g.line(&format!("x{k} = {src}"));
        g.vars.push((format!("x{k}"), *d, false));
    }
    let stmts = 2 + g.rng.below(4);
    for _ in 0..stmts {
        match g.rng.below(8) {
            0 => g.branch(),
            1 if acc && loop_kind != "Parallel" => g.accumulate(),
            2 if hist => g.atomic(),
            _ => g.assign(),
        }
    }
    let r = g.expr(3);
    let r = g.convert_to(r, out_d);
    g.line(&format!("out[g] = {}", r.text));
    g.indent -= 2;
    if acc {
        g.line("if bx == 0:");
        g.line("    tail[0] = acc");
    }
    // a reduction of a tile of input 0 in a fragment (TileLang's C target
    // cannot compile reductions: against real TileLang these programs are
    // refusals, against host and cuda they check the canonical order)
    let reduce = !peer && g.rng.chance(0.25);
    let red_d = inputs[0];
    if reduce {
        let op = *g.rng.pick(&[
            "reduce_sum",
            "reduce_max",
            "reduce_min",
            "reduce_abssum",
            "reduce_absmax",
        ]);
        g.features.insert("reduce");
        let half = block / 2;
        let dn = dtype_name(red_d);
        g.line(&format!("R = T.alloc_fragment((2, {half}), \"{dn}\")"));
        g.line(&format!("Rs = T.alloc_fragment((2,), \"{dn}\")"));
        g.line(&format!("for r, c in T.Parallel(2, {half}):"));
        g.line(&format!(
            "    R[r, c] = T.if_then_else(bx * B + r * {half} + c < N, a0[bx * B + r * {half} + c], T.Cast(\"{dn}\", 0))"
        ));
        g.line(&format!("T.{op}(R, Rs, dim=1)"));
        g.line("red[bx * 2] = Rs[0]");
        g.line("red[bx * 2 + 1] = Rs[1]");
    }
    if staged {
        // write the staged tile back, doubled, through a ragged copy
        g.line(&format!("for j in T.serial({block}):"));
        g.line("    S[j] = S[j] + S[j]");
        g.line("T.copy(S, back[bx * B])");
    }

    let mut src = String::from("import tilelang\nimport tilelang.language as T\n\n");
    src.push_str(&format!(
        "N = {n}\nB = {block}\n\n\n@T.prim_func\ndef main("
    ));
    let mut params: Vec<String> = inputs
        .iter()
        .enumerate()
        .map(|(k, d)| format!("a{k}: T.Tensor((N,), \"{}\")", dtype_name(*d)))
        .collect();
    params.push(format!("out: T.Tensor((N,), \"{}\")", dtype_name(out_d)));
    if acc {
        params.push("tail: T.Tensor((1,), \"int32\")".into());
    }
    if hist {
        params.push("hist: T.Tensor((4,), \"int32\")".into());
    }
    if reduce {
        params.push(format!(
            "red: T.Tensor(({},), \"{}\")",
            blocks * 2,
            dtype_name(red_d)
        ));
    }
    if staged {
        params.push(format!(
            "back: T.Tensor((N,), \"{}\")",
            dtype_name(inputs[0])
        ));
    }
    src.push_str(&params.join(", "));
    src.push_str(&format!(
        "):\n    with T.Kernel(T.ceildiv(N, B), threads={}) as bx:\n",
        block
    ));
    for l in &g.lines {
        src.push_str(l);
        src.push('\n');
    }
    let mut args = serde_json::Map::new();
    for (k, d) in inputs.iter().enumerate() {
        let seed = g.rng.next() % 1_000_000;
        let init = match d {
            d if d.is_float() => json!({"seed": seed}),
            d if d.is_signed_int() => json!({"seed": seed, "low": -50, "high": 50}),
            _ => json!({"seed": seed, "low": 0, "high": 100}),
        };
        args.insert(
            format!("a{k}"),
            json!({"buffer": {"dtype": d.json_name(), "len": n, "init": {"random": init}}}),
        );
    }
    args.insert(
        "out".into(),
        json!({"buffer": {"dtype": out_d.json_name(), "len": n}}),
    );
    if acc {
        args.insert(
            "tail".into(),
            json!({"buffer": {"dtype": "int32", "len": 1}}),
        );
    }
    if hist {
        args.insert(
            "hist".into(),
            json!({"buffer": {"dtype": "int32", "len": 4}}),
        );
    }
    if reduce {
        args.insert(
            "red".into(),
            json!({"buffer": {"dtype": red_d.json_name(), "len": blocks * 2}}),
        );
    }
    if staged {
        args.insert(
            "back".into(),
            json!({"buffer": {"dtype": inputs[0].json_name(), "len": n}}),
        );
    }
    Program {
        source: src,
        launch: json!({"args": Json::Object(args)}),
        features: g.features,
        ir: None,
    }
}

impl Gen {
    fn line(&mut self, s: &str) {
        self.lines
            .push(format!("{}{s}", "    ".repeat(self.indent)));
    }

    fn fresh(&mut self) -> String {
        self.next_var += 1;
        format!("v{}", self.next_var)
    }

    /// A leaf: a variable or a small Python constant (int literals are int32).
    fn leaf(&mut self) -> V {
        if self.rng.chance(0.8) && !self.vars.is_empty() {
            let (n, d, k) = self.rng.pick(&self.vars).clone();
            return V { text: n, d, k };
        }
        if self.rng.chance(0.6) {
            let v = self.rng.below(31) as i64 - 15;
            // constant arithmetic Python folds before TileLang sees it
            let text = if self.rng.chance(0.2) {
                self.features.insert("python-constants");
                format!("(B * {v} // 3)")
            } else if v < 0 {
                format!("({v})")
            } else {
                v.to_string()
            };
            V {
                text,
                d: DType::I32,
                k: true,
            }
        } else {
            let v = (self.rng.below(401) as f64 - 200.0) / 16.0;
            V {
                text: if v < 0.0 {
                    format!("({v:?})")
                } else {
                    format!("{v:?}")
                },
                d: DType::F32,
                k: true,
            }
        }
    }

    /// `x` converted to `to`: floats clamped first where `to` is an integer.
    fn convert_to(&mut self, x: V, to: DType) -> V {
        if x.d == to {
            return x;
        }
        // TileLang refuses a constant outside an integer dtype (measured:
        // "cannot make uint from negative value", "Literal value 1984
        // exceeds maximum of uint8"): constants are clamped into range first
        let x = if to.is_int() && x.k && !x.d.is_float() {
            let (lo, hi) = to.int_range();
            let (lo, hi) = (lo.max(-1000), hi.min(1000));
            V {
                text: format!("T.min(T.max({}, {lo}), {hi})", x.text),
                ..x
            }
        } else {
            x
        };
        let inner = if x.d.is_float() && !to.is_float() {
            let (lo, hi) = match to {
                DType::U8 => (0, 255),
                DType::I8 => (-128, 127),
                d if d.is_unsigned_int() => (0, 1000),
                _ => (-1000, 1000),
            };
            format!("T.min(T.max({}, {lo}.0), {hi}.0)", x.text)
        } else {
            x.text
        };
        V {
            text: format!("T.Cast(\"{}\", {inner})", dtype_name(to)),
            d: to,
            k: x.k,
        }
    }

    /// An integer expression (floats converted to int32 after clamping).
    fn int_expr(&mut self, depth: usize) -> V {
        let x = self.expr(depth);
        if x.d.is_float() {
            self.convert_to(x, DType::I32)
        } else {
            x
        }
    }

    /// A divisor that is never 0 or -1: `(x & 3) + 2`, negated half the time
    /// (not for unsigned dtypes, and not when `positive`).
    /// The divisor's text and whether it is made of constants only.
    fn divisor(&mut self, d: DType, depth: usize, positive: bool) -> (String, bool) {
        let x = self.int_expr(depth);
        let x = self.convert_to(x, d);
        let base = format!("((({}) & 3) + 2)", x.text);
        let text = if !positive && d.is_signed_int() && self.rng.chance(0.5) {
            format!("(0 - {base})")
        } else {
            base
        };
        (text, x.k)
    }

    fn expr(&mut self, depth: usize) -> V {
        if depth == 0 || self.rng.chance(0.25) {
            return self.leaf();
        }
        match self.rng.below(10) {
            0..=2 => {
                let (a, b) = (self.expr(depth - 1), self.expr(depth - 1));
                let d = promote(a.d, b.d).unwrap_or(DType::F32);
                if !self.peer && matches!(d, DType::F32 | DType::F64) && self.rng.chance(0.3) {
                    // IEEE operations with a rounding mode (the C target
                    // cannot compile them: refusals against real TileLang)
                    self.features.insert("ieee");
                    let f = *self.rng.pick(&["ieee_add", "ieee_sub", "ieee_mul"]);
                    let mode = *self.rng.pick(&["rn", "rz", "ru", "rd"]);
                    let (a, b) = (self.convert_to(a, d), self.convert_to(b, d));
                    return V {
                        text: format!("T.{f}({}, {}, \"{mode}\")", a.text, b.text),
                        d,
                        k: false,
                    };
                }
                let op = *self.rng.pick(&["+", "-", "*"]);
                self.features.insert("arith");
                self.bin(a, op, b)
            }
            3 => {
                let a = self.expr(depth - 1);
                let b = self.expr(depth - 1);
                let Some(d) = promote(a.d, b.d).filter(|d| d.is_float()) else {
                    return self.bin(a, "+", b);
                };
                if self.peer && b.k {
                    // a folded constant divisor (divergence T5)
                    return a;
                }
                // a float divisor away from 0 (the C target has no float
                // T.abs: measured "Unresolved call tirx.fabs")
                self.features.insert("float-div");
                let b = self.convert_to(b, d);
                V {
                    text: format!("({} / ({} * {} + 1.0))", a.text, b.text, b.text),
                    d,
                    k: a.k && b.k,
                }
            }
            4 | 5 => {
                let a = self.int_expr(depth - 1);
                let b = self.int_expr(depth - 1);
                let d = promote(a.d, b.d).unwrap_or(DType::I32);
                let form = *self.rng.pick(&[
                    "//", "%", "floordiv", "floormod", "truncdiv", "truncmod", "ceildiv",
                ]);
                self.features.insert(match form {
                    "//" | "%" | "floordiv" | "floormod" => "floordiv/mod",
                    "truncdiv" | "truncmod" => "truncdiv/mod",
                    _ => "ceildiv",
                });
                let (q, qk) = self.divisor(d, depth - 1, form == "ceildiv");
                let a = self.convert_to(a, d);
                let text = match form {
                    "//" | "%" => format!("({} {form} {q})", a.text),
                    f => format!("T.{f}({}, {q})", a.text),
                };
                // Python folds `//` and `%` of constants, TVM the T.* forms
                let k = a.k && qk;
                V { text, d, k }
            }
            6 => {
                let a = self.int_expr(depth - 1);
                let b = self.int_expr(depth - 1);
                let op = *self.rng.pick(&["&", "|", "^", "<<", ">>"]);
                self.features.insert("bitwise");
                let b = if op == "<<" || op == ">>" {
                    V {
                        text: format!("({} & 7)", b.text),
                        ..b
                    }
                } else {
                    b
                };
                self.bin(a, op, b)
            }
            7 => {
                let x = self.expr(depth - 1);
                let to = if self.peer {
                    *self.rng.pick(&PEER_DTYPES)
                } else {
                    *self.rng.pick(&DTYPES)
                };
                self.features.insert("convert");
                self.convert_to(x, to)
            }
            8 => {
                let (a, b) = (self.expr(depth - 1), self.expr(depth - 1));
                let f = *self.rng.pick(&["T.min", "T.max"]);
                self.features.insert("minmax");
                let d = promote(a.d, b.d).unwrap_or(DType::F32);
                V {
                    text: format!("{f}({}, {})", a.text, b.text),
                    d,
                    k: a.k && b.k,
                }
            }
            _ => {
                let c = self.cond(depth - 1);
                let (a, b) = (self.expr(depth - 1), self.expr(depth - 1));
                self.features.insert("if_then_else");
                let d = promote(a.d, b.d).unwrap_or(DType::F32);
                let (a, b) = (self.convert_to(a, d), self.convert_to(b, d));
                V {
                    text: format!("T.if_then_else({c}, {}, {})", a.text, b.text),
                    d,
                    k: false,
                }
            }
        }
    }

    /// `a op b` in the promoted dtype.
    fn bin(&mut self, a: V, op: &str, b: V) -> V {
        let d = promote(a.d, b.d).unwrap_or(DType::F32);
        if self.peer && a.k && b.k && d.is_float() {
            // Python would fold it into a constant that real TileLang's C
            // target prints with 7 digits (divergence T5)
            return a;
        }
        // unsigned minus a larger value wraps (defined); keep it
        V {
            text: format!("({} {op} {})", a.text, b.text),
            d,
            k: a.k && b.k,
        }
    }

    fn cond(&mut self, depth: usize) -> String {
        let (a, b) = (self.expr(depth), self.expr(depth));
        let op = *self.rng.pick(&["<", "<=", ">", ">=", "==", "!="]);
        let c = format!("{} {op} {}", a.text, b.text);
        if self.rng.chance(0.25) {
            self.features.insert("and/or");
            let j = *self.rng.pick(&["and", "or"]);
            let d = self.expr(depth);
            return format!("({c}) {j} ({} > 0)", d.text);
        }
        c
    }

    /// A fresh name bound once (TileLang refuses rebinding in a loop).
    fn assign(&mut self) {
        let e = self.expr(3);
        let n = self.fresh();
        self.line(&format!("{n} = {}", e.text));
        self.vars.push((n, e.d, e.k));
    }

    /// `if`/`else` writing `out[g]` on both sides (the final store overwrites
    /// it; the branch's reads and arithmetic still run).
    fn branch(&mut self) {
        self.features.insert("if");
        let c = self.cond(2);
        self.line(&format!("if {c}:"));
        self.indent += 1;
        let e = self.expr(2);
        let n = self.fresh();
        self.line(&format!("{n} = {}", e.text));
        self.indent -= 1;
        self.line("else:");
        self.indent += 1;
        let e = self.expr(2);
        let n = self.fresh();
        self.line(&format!("{n} = {}", e.text));
        self.indent -= 1;
    }

    /// `T.atomic_add(hist[x & 3], 1)`: integer totals do not depend on the
    /// order of the updates.
    fn atomic(&mut self) {
        self.features.insert("atomic");
        let e = self.int_expr(2);
        let e = self.convert_to(e, DType::I32);
        self.line(&format!("T.atomic_add(hist[({}) & 3], 1)", e.text));
    }

    /// `acc += int` on the block's `T.alloc_var` (serial loops only).
    fn accumulate(&mut self) {
        let e = self.int_expr(2);
        let e = self.convert_to(e, DType::I32);
        self.line(&format!("acc += {}", e.text));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against real TileLang the generator leaves out narrow integers and
    /// float16 (T7), reductions and T.ieee_* (refused by its C target); for
    /// host and cuda it uses them all.
    #[test]
    fn peer_programs_leave_out_what_real_tilelang_refuses_or_gets_wrong() {
        let has = |peer: bool, needle: &str| {
            (0..300).any(|i| generate(9, i, peer).source.contains(needle))
        };
        for needle in [
            "\"int8\"",
            "\"uint8\"",
            "\"int16\"",
            "\"float16\"",
            "T.reduce_",
            "T.ieee_",
        ] {
            assert!(has(false, needle), "{needle} never generated");
            assert!(
                !has(true, needle),
                "{needle} generated against real TileLang"
            );
        }
    }
}
