//! The Triton program generator: random, well-typed, UB-free tile kernels,
//! fully determined by `(seed, index)`.
//!
//! A kernel is built as IR through the Triton front end's own elaboration
//! functions (`Elab::binop`, `compare`, `call_builtin`, `range_loop`,
//! `runtime_if`, …), so each node is exactly what the front end makes of
//! the construct, with Triton's promotion, broadcasting and literal rules;
//! it is printed with `print::triton`, and the campaign re-elaborates the
//! text and checks that it is the same program. Every UB source of an
//! element op is neutralised by the shared guard passes (`fuzz/passes/`:
//! divisors that are never 0 or -1, shift amounts masked into the width,
//! NaN-free float→int conversions clamped into the exact range).
//!
//! Helper functions are not generated: the IR inlines calls, and the
//! printer has no form for an inlined body.
//!
//! Against real Triton (`Config::real_peer`, `fuzz --backends
//! interp,triton`) the generator leaves out what `docs/divergences.md`
//! lists as known differences, so that what a campaign finds is new:
//! bfloat16 (#1), fp8 (#2, #14, #15), float `/` other than float64 and
//! int / int (#4), float `%` (#6), literals in comparisons (#7, compared
//! as tiles of their natural dtype instead), float `tl.sum` (#11, `tl.max`
//! instead), math (#5, #12 approximate; #21 `tl.floor`/`tl.ceil` flush
//! subnormals), the literals -1.0 (#13), NaN (#22) and -0.0 (#23), the
//! negation of int8/int16 (#24, a ptxas miscompile), `tl.argmax`/`tl.argmin`
//! of floats (#25) and over all elements of a 2-D tile (#26), and NaN inputs
//! (LLVM's folds of `x * 1`, `x - 0` keep a NaN's payload where the IEEE
//! operation gives the canonical NaN); real Triton compiles without fma
//! contraction (#3). `Config::divergent_ops` (`fuzz --divergent-ops`) keeps
//! them all the same; triage then buckets what they cause under their rows
//! (`divergence.rs`).

mod expr;
mod stmt;

use super::gen::{knob_list, Config, Knob, Program};
use super::rng::Rng;
use super::safe;
use super::shows;
use ksem_interp::dtype::DType;
use ksem_interp::frontend::triton::builtins::Args;
use ksem_interp::frontend::triton::elab::Elab;
use ksem_interp::frontend::triton::promote::PyNum;
use ksem_interp::frontend::triton::value::Value;
use ksem_interp::frontend::triton::Module;
use ksem_interp::ir::Param;
use ksem_interp::launch::{hex_bits, parse_launch_json};
use ksem_interp::span::{DResult, Diagnostic, Span};
use serde_json::{json, Map, Value as Json};
use std::collections::BTreeSet;

/// The Triton generator's feature switches (fields of [`Config`]), in the
/// order swarm mode draws them, with how each shows in a printed program.
pub const KNOBS: &[Knob] = knob_list!([]
    two_d: |s| s.contains("R: tl.constexpr"),
    loops: |s| shows::line_starts(s, "for ") || shows::line_starts(s, "while "),
    branches: |s| shows::line_starts(s, "if "),
    // (a statement `vN = tl.sum(…)`; a loop's accumulator `accN` may
    // be summed too)
    reductions: |s| {
        shows::in_lines(
            s,
            |l| l.trim_start().starts_with('v'),
            &[
                "tl.sum(",
                "tl.max(",
                "tl.min(",
                "tl.argmax(",
                "tl.argmin(",
                "tl.xor_sum(",
            ],
        )
    },
    masks: |s| s.contains("mask="),
    casts: |s| shows::any(s, &["bitcast=True", "fp_downcast_rounding"]),
    fp8: |s| s.contains("float8"),
    math: |s| {
        shows::any(
            s,
            &[
                "tl.exp(",
                "tl.log(",
                "tl.sin(",
                "tl.cos(",
                "tl.sqrt(",
                "tl.floor(",
                "tl.ceil(",
                "tl.exp2(",
            ],
        )
    },
);

/// The name of every generated kernel.
const KERNEL: &str = "fuzz_kernel";

/// Where generated nodes point (the canonical form erases spans).
fn sp() -> Span {
    Span::default()
}

/// A generator bug as an elaboration error.
fn bug<T>(msg: impl Into<String>) -> DResult<T> {
    Err(Diagnostic::new(sp(), msg))
}

/// Generates program `index` of the campaign `seed`.
pub fn generate(cfg: &Config, seed: u64, index: u64) -> Program {
    let module = Module::parse("fuzz.py", "import triton\nimport triton.language as tl\n")
        .expect("the generator's module header parses");
    let mut el = Elab::new(&module);
    let mut g = Gen::new(cfg, Rng::new(seed, index));
    let built = g.program(&mut el).and_then(|(params, launch)| {
        let l = parse_launch_json(&launch).map_err(|e| Diagnostic::new(sp(), e))?;
        Ok((el.finish(KERNEL, params, &l)?, launch))
    });
    let (kernel, launch) = match built {
        Ok(x) => x,
        Err(e) => return Program::failed(seed, index, &e.message, g.features, KERNEL),
    };
    match super::print::triton::kernel(&kernel) {
        Ok(source) => Program {
            source,
            launch,
            features: g.features,
            ir: Some(kernel),
        },
        Err(e) => Program::failed(seed, index, &e, g.features, KERNEL),
    }
}

/// Shape of a value relative to the program's tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Scalar,
    Full,
    /// `[R, 1]` (2-D programs only).
    Col,
    /// `[1, C]` (2-D programs only).
    Row,
}

/// The state of one program being generated (the elaborator that builds
/// its nodes is passed alongside).
struct Gen<'c> {
    cfg: &'c Config,
    rng: Rng,
    two_d: bool,
    rows: usize,
    cols: usize,
    /// Names expressions may read; those before `fixed` are never reassigned.
    vars: Vec<String>,
    fixed: usize,
    features: BTreeSet<&'static str>,
    next_id: usize,
    /// Launch arguments so far (name → spec).
    args: Map<String, Json>,
    grid: u32,
}

impl<'c> Gen<'c> {
    fn new(cfg: &'c Config, rng: Rng) -> Gen<'c> {
        Gen {
            cfg,
            rng,
            two_d: false,
            rows: 1,
            cols: 1,
            vars: Vec::new(),
            fixed: 0,
            features: BTreeSet::new(),
            next_id: 0,
            args: Map::new(),
            grid: 1,
        }
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.next_id += 1;
        format!("{prefix}{}", self.next_id)
    }

    fn arith_dtype(&mut self) -> DType {
        let d = *self.rng.pick(&self.cfg.dtypes);
        if self.cfg.avoid_divergences() && d == DType::BF16 {
            return DType::F16; // divergence 1
        }
        d
    }

    /// fp8 values (not against real Triton: divergences 2, 14, 15).
    fn fp8(&self) -> bool {
        self.cfg.fp8 && !self.cfg.avoid_divergences()
    }

    /// The tile shape of a [`Shape`].
    fn dims(&self, s: Shape) -> Vec<usize> {
        match s {
            Shape::Scalar => vec![],
            Shape::Full if self.two_d => vec![self.rows, self.cols],
            Shape::Full => vec![self.rows],
            Shape::Col => vec![self.rows, 1],
            Shape::Row => vec![1, self.cols],
        }
    }

    /// The [`Shape`] of a value.
    fn shape(&self, v: &Value) -> Shape {
        let dims = match v {
            Value::Tensor(e) => e.ty.shape.clone(),
            _ => vec![],
        };
        match dims.as_slice() {
            [] => Shape::Scalar,
            [r, 1] if self.two_d && *r == self.rows && self.cols != 1 => Shape::Col,
            [1, c] if self.two_d && *c == self.cols && self.rows != 1 => Shape::Row,
            _ => Shape::Full,
        }
    }

    /// The launch argument `name` as its own one-argument launch (what
    /// `Elab::bind_param` reads), recorded for the program's launch.
    fn param(&mut self, el: &mut Elab, name: &str, spec: Json, constexpr: bool) -> DResult<Param> {
        self.args.insert(name.to_string(), spec.clone());
        let one = json!({"kernel": KERNEL, "grid": [1], "args": {name: spec}});
        let l = parse_launch_json(&one).map_err(|e| Diagnostic::new(sp(), e))?;
        el.bind_param(name, constexpr, l.arg(name), None, sp())
    }

    /// A buffer argument of `total` elements with edge-biased contents.
    fn input_spec(&mut self, d: DType, total: usize) -> Json {
        let bits: Vec<Json> = (0..total)
            .map(|_| {
                json!(hex_bits(
                    d,
                    safe::input_bits(&mut self.rng, d, self.cfg.avoid_divergences())
                ))
            })
            .collect();
        json!({"buffer": {"dtype": d.json_name(), "bits": bits}})
    }

    /// The whole kernel: parameters, the tile's offsets and mask, loads,
    /// statements and stores. Gives the parameters in signature order and
    /// the launch.
    fn program(&mut self, el: &mut Elab) -> DResult<(Vec<Param>, Json)> {
        self.two_d = self.cfg.two_d && self.rng.chance(0.3);
        self.grid = 1 + self.rng.below(self.cfg.max_grid as usize) as u32;
        let sizes = self.cfg.tile_sizes.clone();
        self.rows = *self.rng.pick(&sizes);
        if self.two_d {
            self.features.insert("2d");
            self.cols = *self.rng.pick(&sizes);
        }
        let n_elems = self.rows * self.cols;
        let total = n_elems * self.grid as usize;
        let masked = self.cfg.masks && self.rng.chance(0.4);
        let limit = total - self.rng.below(n_elems.max(2) / 2 + 1);
        let scalar = self.rng.chance(0.5).then(|| {
            let d = *self.rng.pick(&[DType::I32, DType::I64, DType::F32]);
            let v = if d.is_float() {
                json!(*self.rng.pick(&[0.5, -3.25, 1e-3, 65504.0, -0.0]))
            } else {
                json!(*self
                    .rng
                    .pick(&[0i64, 1, -1, 7, -13, 2147483647, -2147483648]))
            };
            (d, v)
        });
        let n_in = 1 + self.rng.below(3);
        let in_dtypes: Vec<DType> = (0..n_in)
            .map(|_| {
                if self.fp8() && self.rng.chance(0.1) {
                    *self.rng.pick(&[DType::F8E4Nv, DType::F8E5])
                } else {
                    self.arith_dtype()
                }
            })
            .collect();
        let n_out = 1 + self.rng.below(2);

        // parameters in signature order: inputs, outputs, scalars, sizes
        let mut inputs = Vec::new();
        for (i, d) in in_dtypes.iter().enumerate() {
            let spec = self.input_spec(*d, total);
            inputs.push(self.param(el, &format!("in{i}_ptr"), spec, false)?);
        }
        let mut scalars = Vec::new();
        if masked {
            self.features.insert("mask");
            let spec = json!({"scalar": {"dtype": "int32", "value": limit}});
            scalars.push(self.param(el, "n", spec, false)?);
        }
        if let Some((d, v)) = &scalar {
            self.features.insert("scalar_arg");
            let spec = json!({"scalar": {"dtype": d.json_name(), "value": v}});
            scalars.push(self.param(el, "s0", spec, false)?);
        }
        let mut sizes_p = Vec::new();
        if self.two_d {
            sizes_p.push(self.param(el, "R", json!({"constexpr": self.rows}), true)?);
            sizes_p.push(self.param(el, "C", json!({"constexpr": self.cols}), true)?);
        } else {
            sizes_p.push(self.param(el, "N", json!({"constexpr": self.rows}), true)?);
        }
        el.begin_kernel(KERNEL);

        let offs = self.offsets(el)?;
        if masked {
            let m = el.compare(
                rustpython_parser::ast::CmpOp::Lt,
                offs.clone(),
                read(el, "n")?,
                sp(),
            )?;
            el.assign_name("mask", m, false, sp())?;
        }
        self.vars.push("pid".into());
        self.vars.push("offs".into());
        self.fixed = self.vars.len();
        if scalar.is_some() {
            self.vars.push("s0".into());
        }
        for (i, d) in in_dtypes.iter().enumerate() {
            let ptr = el.binop(
                rustpython_parser::ast::Operator::Add,
                read(el, &format!("in{i}_ptr"))?,
                offs.clone(),
                sp(),
            )?;
            let fp8 = matches!(d, DType::F8E4Nv | DType::F8E5);
            let mut kw = Vec::new();
            if masked {
                kw.push(("mask".to_string(), read(el, "mask")?));
                let other = safe::literal(&mut self.rng, if fp8 { DType::F32 } else { *d });
                kw.push(("other".to_string(), Value::Num(other)));
            }
            let mut x = el.call_builtin("load", Args { pos: vec![ptr], kw }, sp())?;
            if fp8 {
                self.features.insert("fp8");
                x = self.to(el, x, DType::F32)?;
            }
            let name = format!("x{i}");
            el.assign_name(&name, x, false, sp())?;
            self.vars.push(name);
        }
        let n_stmts = 1 + self.rng.below(self.cfg.max_stmts);
        for _ in 0..n_stmts {
            self.stmt(el, 0)?;
        }

        // outputs: the last value, plus maybe others
        let mut chosen = vec![self.vars.last().cloned().unwrap_or_default()];
        for _ in 1..n_out {
            let v = self.rng.pick(&self.vars[self.fixed..]).clone();
            chosen.push(v);
        }
        let mut outputs = Vec::new();
        for (i, v) in chosen.into_iter().enumerate() {
            let name = format!("out{i}_ptr");
            let mut value = read(el, &v)?;
            if self.shape(&value) != Shape::Full {
                value = self.full_of(el, value)?;
            }
            let mut d = dtype_of(&value);
            if self.fp8() && d == DType::F32 && self.rng.chance(0.1) {
                // a rounding edge: narrow to fp8 on the way out
                d = *self.rng.pick(&[DType::F8E4Nv, DType::F8E5]);
                value = self.to(el, value, d)?;
                self.features.insert("fp8");
            }
            let spec = json!({"buffer": {"dtype": d.json_name(), "len": total}});
            outputs.push(self.param(el, &name, spec, false)?);
            let ptr = el.binop(
                rustpython_parser::ast::Operator::Add,
                read(el, &name)?,
                offs.clone(),
                sp(),
            )?;
            let mut kw = Vec::new();
            if masked {
                kw.push(("mask".to_string(), read(el, "mask")?));
            }
            el.call_builtin(
                "store",
                Args {
                    pos: vec![ptr, value],
                    kw,
                },
                sp(),
            )?;
        }
        let mut params = inputs;
        params.extend(outputs);
        params.extend(scalars);
        params.extend(sizes_p);
        let mut args = Map::new();
        for p in &params {
            args.insert(p.name.clone(), self.args[&p.name].clone());
        }
        let launch = json!({"kernel": KERNEL, "grid": [self.grid], "args": Json::Object(args)});
        Ok((params, launch))
    }

    /// `pid` and the tile's element offsets `offs`.
    fn offsets(&mut self, el: &mut Elab) -> DResult<Value> {
        use rustpython_parser::ast::Operator as O;
        let pid = el.call_builtin("program_id", vec![int(0)], sp())?;
        el.assign_name("pid", pid, false, sp())?;
        let pid = read(el, "pid")?;
        let offs = if self.two_d {
            let rows = el.call_builtin("arange", vec![int(0), read(el, "R")?], sp())?;
            el.assign_name("rows", rows, false, sp())?;
            let cols = el.call_builtin("arange", vec![int(0), read(el, "C")?], sp())?;
            el.assign_name("cols", cols, false, sp())?;
            let (r, c) = (self.rows as i128, self.cols as i128);
            let base = el.binop(O::Mult, pid, int(r), sp())?;
            let base = el.binop(O::Mult, base, int(c), sp())?;
            let col = reshape(el, read(el, "rows")?, &[self.rows, 1])?;
            let row = reshape(el, read(el, "cols")?, &[1, self.cols])?;
            let col = el.binop(O::Mult, col, int(c), sp())?;
            let s = el.binop(O::Add, base, col, sp())?;
            el.binop(O::Add, s, row, sp())?
        } else {
            let base = el.binop(O::Mult, pid, int(self.rows as i128), sp())?;
            let iota = el.call_builtin("arange", vec![int(0), int(self.rows as i128)], sp())?;
            el.binop(O::Add, base, iota, sp())?
        };
        el.assign_name("offs", offs, false, sp())?;
        read(el, "offs")
    }

    /// `v` broadcast to the full tile (a literal first becomes a tile of
    /// its natural dtype).
    fn full_of(&mut self, el: &mut Elab, v: Value) -> DResult<Value> {
        let v = self.tensorize(el, v)?;
        if self.shape(&v) == Shape::Full {
            return Ok(v);
        }
        let dims = self.dims(Shape::Full);
        el.call_builtin("broadcast_to", vec![v, shape_value(&dims)], sp())
    }

    /// A literal as a full tile of its natural dtype (`tl.full`); other
    /// values unchanged.
    fn tensorize(&mut self, el: &mut Elab, v: Value) -> DResult<Value> {
        let Value::Num(n) = v else { return Ok(v) };
        let d = n.natural_dtype().unwrap_or(DType::I32);
        let dims = self.dims(Shape::Full);
        el.call_builtin(
            "full",
            vec![shape_value(&dims), Value::Num(n), Value::DType(d)],
            sp(),
        )
    }

    /// `v.to(d)` (no UB guard: for values whose conversion is defined).
    fn to(&mut self, el: &mut Elab, v: Value, d: DType) -> DResult<Value> {
        el.call_builtin("to", vec![v, Value::DType(d)], sp())
    }
}

/// The current value of name `n`.
fn read(el: &Elab, n: &str) -> DResult<Value> {
    match el.env.get(n) {
        Some(v) => Ok(v.clone()),
        None => bug(format!("generator reads unbound `{n}`")),
    }
}

/// A Python int.
fn int(v: i128) -> Value {
    Value::Num(PyNum::Int(v))
}

/// A shape as the tuple of Python ints a builtin takes.
fn shape_value(dims: &[usize]) -> Value {
    Value::Tuple(dims.iter().map(|&d| int(d as i128)).collect())
}

/// `tl.reshape(v, dims)`.
fn reshape(el: &mut Elab, v: Value, dims: &[usize]) -> DResult<Value> {
    el.call_builtin("reshape", vec![v, shape_value(dims)], sp())
}

/// The dtype of a value (a literal's natural dtype).
fn dtype_of(v: &Value) -> DType {
    match v {
        Value::Tensor(e) => e.ty.dtype(),
        Value::Num(n) => n.natural_dtype().unwrap_or(DType::I32),
        _ => DType::I32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzz::selftest;

    fn cfg() -> Config {
        Config::default()
    }

    fn peer_cfg() -> Config {
        Config {
            real_peer: true,
            ..Config::default()
        }
    }

    /// Against real Triton the generator leaves out the documented
    /// divergences (see the module documentation); without a peer it
    /// uses them all. Checked on the IR, node by node.
    #[test]
    fn peer_programs_leave_out_the_known_divergences() {
        use ksem_interp::ir::{walk, BinOp, Combiner, Elem, ExprKind, MathFn, UnOp};
        let kinds = |c: &Config| {
            let mut seen = BTreeSet::new();
            for i in 0..300 {
                let p = generate(c, 4, i);
                let k = p.ir.expect("IR");
                for (_, t) in &k.vars {
                    let (Elem::Num(d) | Elem::Ptr(d, _)) = t.elem;
                    seen.insert(format!("{d}"));
                }
                walk::for_each_expr(&k.body, &mut |e| {
                    e.for_each(&mut |x| {
                        let float = x.ty.dtype().is_float();
                        match &x.kind {
                            ExprKind::Unary(UnOp::Math(m), _) if !matches!(m, MathFn::Abs) => {
                                seen.insert("math".into());
                            }
                            ExprKind::Binary(BinOp::FDiv, a, _) if a.ty.dtype() != DType::F64 => {
                                seen.insert("fdiv<f64".into());
                            }
                            ExprKind::Binary(BinOp::FRem, ..) => {
                                seen.insert("frem".into());
                            }
                            ExprKind::Reduce { combiner, .. }
                                if float && matches!(**combiner, Combiner::Sum) =>
                            {
                                seen.insert("float-sum".into());
                            }
                            _ => {}
                        }
                        seen.insert(format!("{}", x.ty.dtype()));
                    })
                });
            }
            seen
        };
        let (all, peer) = (kinds(&cfg()), kinds(&peer_cfg()));
        for k in [
            "bf16",
            "fp8e4nv",
            "fp8e5",
            "math",
            "fdiv<f64",
            "frem",
            "float-sum",
        ] {
            assert!(all.contains(k), "{k} never generated: {all:?}");
            assert!(!peer.contains(k), "{k} generated against real Triton");
        }
    }

    #[test]
    fn generated_programs_exercise_every_feature() {
        let names = [
            "2d",
            "mask",
            "scalar_arg",
            "fp8",
            "for",
            "while",
            "if",
            "reduce",
            "literal",
            "fdiv",
            "fmod",
            "div",
            "mod",
            "bitwise",
            "shift",
            "cmp",
            "where",
            "minmax",
            "bitcast",
            "cast",
            "rtz",
            "math",
            "fma",
        ];
        selftest::assert_features(300, |i| generate(&cfg(), 2, i), &names);
    }

    /// A printer that drops a conversion is caught by the round trip.
    #[test]
    fn a_dropped_conversion_is_caught() {
        let to = ".to(tl.float16)";
        let caught =
            selftest::dropped_conversions_caught(60, |i| generate(&cfg(), 5, i), to, to.len());
        assert!(
            caught >= 5,
            "only {caught} programs had a conversion to drop"
        );
    }
}
