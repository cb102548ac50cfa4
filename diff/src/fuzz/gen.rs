//! The program generator: random, well-typed, UB-free Triton kernels as
//! ordinary `@triton.jit` source text plus a launch spec, fully determined
//! by `(seed, index)`. Types are tracked with ksem's own promotion rules so
//! every expression is known to elaborate; each UB source is neutralised by
//! one of the rewrites in [`super::safe`].

use super::rng::Rng;
use super::safe;
use ksem_interp::dtype::DType;
use ksem_interp::frontend::triton::builtins::{minmax_dtype, sum_dtype};
use ksem_interp::frontend::triton::promote::{self, Operand, PyNum};
use ksem_interp::launch::hex_bits;
use serde_json::{json, Map, Value as Json};
use std::collections::BTreeSet;

/// Every knob of the generator.
#[derive(Clone, Debug)]
pub struct Config {
    /// The language programs are written in (Triton tile programs or CUDA
    /// Python SIMT programs, `gen_cudapy`; the other knobs are Triton's).
    pub dialect: ksem_interp::frontend::Dialect,
    /// Dtypes that arithmetic uses (fp8 only ever appears through conversions).
    pub dtypes: Vec<DType>,
    /// Tile lengths (powers of two) of 1-D programs; rows/cols of 2-D ones.
    pub tile_sizes: Vec<usize>,
    /// Largest grid.
    pub max_grid: u32,
    /// Statements in the kernel body (not counting loads and stores).
    pub max_stmts: usize,
    /// Deepest expression nesting.
    pub max_depth: usize,
    pub two_d: bool,
    pub loops: bool,
    pub branches: bool,
    pub helpers: bool,
    pub reductions: bool,
    pub masks: bool,
    pub casts: bool,
    pub fp8: bool,
    /// Approximate math (exp, log, sin, cos) — compared within a ULP bound.
    pub math: bool,
    /// A real system (TileLang) is one of the backends: leave out what it
    /// refuses or gets wrong for known reasons (documented divergences), so
    /// that what the campaign finds is new.
    pub real_peer: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            dialect: ksem_interp::frontend::Dialect::Triton,
            dtypes: vec![
                DType::Bool,
                DType::I8,
                DType::I16,
                DType::I32,
                DType::I64,
                DType::U8,
                DType::U16,
                DType::U32,
                DType::U64,
                DType::F16,
                DType::BF16,
                DType::F32,
                DType::F64,
            ],
            tile_sizes: vec![4, 8, 16, 32],
            max_grid: 4,
            max_stmts: 8,
            max_depth: 3,
            two_d: true,
            loops: true,
            branches: true,
            helpers: true,
            reductions: true,
            masks: true,
            casts: true,
            fp8: true,
            math: true,
            real_peer: false,
        }
    }
}

/// A generated test case.
#[derive(Clone, Debug)]
pub struct Program {
    pub source: String,
    pub launch: Json,
    /// Language features the program exercises (for the summary).
    pub features: BTreeSet<&'static str>,
    /// The kernel the source was printed from, where the generator builds
    /// IR: the campaign checks that the source elaborates to the same program.
    pub ir: Option<ksem_interp::ir::Kernel>,
}

/// Shape of a value relative to the program's tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Scalar,
    Full,
    /// `[R, 1]` (2-D programs only).
    Col,
    /// `[1, C]` (2-D programs only).
    Row,
}

fn bshape(a: Shape, b: Shape) -> Shape {
    match (a, b) {
        (x, y) if x == y => x,
        (Shape::Scalar, y) => y,
        (x, Shape::Scalar) => x,
        _ => Shape::Full,
    }
}

/// A generated expression: its text, dtype and shape; `lit` for a literal
/// (a Python number, which promotes as a scalar).
#[derive(Clone, Debug)]
pub struct E {
    pub code: String,
    pub d: DType,
    pub shape: Shape,
    pub lit: Option<PyNum>,
}

impl E {
    fn operand(&self) -> Operand {
        match self.lit {
            Some(n) => Operand::Scalar(n),
            None => Operand::Tensor(self.d),
        }
    }
    fn var(name: &str, d: DType, shape: Shape) -> E {
        E {
            code: name.to_string(),
            d,
            shape,
            lit: None,
        }
    }
}

/// Generates program `index` of the campaign `seed`.
pub fn generate(cfg: &Config, seed: u64, index: u64) -> Program {
    match cfg.dialect {
        ksem_interp::frontend::Dialect::CudaPy => return super::gen_cudapy::generate(seed, index),
        ksem_interp::frontend::Dialect::TileLang => {
            return super::gen_tilelang::generate(seed, index, cfg.real_peer)
        }
        ksem_interp::frontend::Dialect::Hidet => {
            return super::gen_hidet::generate(seed, index, cfg.real_peer)
        }
        ksem_interp::frontend::Dialect::Triton => {}
    }
    let mut g = Gen::new(cfg, Rng::new(seed, index));
    g.program()
}

pub(crate) fn tl_dtype(d: DType) -> &'static str {
    match d {
        DType::Bool => "tl.int1",
        DType::I8 => "tl.int8",
        DType::I16 => "tl.int16",
        DType::I32 => "tl.int32",
        DType::I64 => "tl.int64",
        DType::U8 => "tl.uint8",
        DType::U16 => "tl.uint16",
        DType::U32 => "tl.uint32",
        DType::U64 => "tl.uint64",
        DType::F8E4Nv => "tl.float8e4nv",
        DType::F8E5 => "tl.float8e5",
        DType::F16 => "tl.float16",
        DType::BF16 => "tl.bfloat16",
        DType::F32 => "tl.float32",
        DType::F64 => "tl.float64",
    }
}

struct Gen<'c> {
    cfg: &'c Config,
    rng: Rng,
    two_d: bool,
    rows: usize,
    cols: usize,
    vars: Vec<E>,
    body: Vec<String>,
    indent: usize,
    helpers: Vec<String>,
    features: BTreeSet<&'static str>,
    next_id: usize,
    inputs: Vec<(String, DType)>,
    outputs: Vec<(String, DType)>,
    scalars: Vec<(String, DType, Json)>,
    /// Names that may not be reassigned (loop variables, pid, offsets).
    fixed: usize,
    /// Generating the body of a helper function.
    in_helper: bool,
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
            body: Vec::new(),
            indent: 1,
            helpers: Vec::new(),
            features: BTreeSet::new(),
            next_id: 0,
            inputs: Vec::new(),
            outputs: Vec::new(),
            scalars: Vec::new(),
            fixed: 0,
            in_helper: false,
        }
    }

    fn line(&mut self, s: String) {
        self.body.push(format!("{}{s}", "    ".repeat(self.indent)));
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.next_id += 1;
        format!("{prefix}{}", self.next_id)
    }

    fn shape_text(&self, s: Shape) -> String {
        match s {
            Shape::Scalar => "()".into(),
            Shape::Full if self.two_d => "(R, C)".to_string(),
            Shape::Full => "(N,)".into(),
            Shape::Col => "(R, 1)".into(),
            Shape::Row => "(1, C)".into(),
        }
    }

    fn arith_dtype(&mut self) -> DType {
        *self.rng.pick(&self.cfg.dtypes)
    }

    fn program(&mut self) -> Program {
        self.two_d = self.cfg.two_d && self.rng.chance(0.3);
        let grid = 1 + self.rng.below(self.cfg.max_grid as usize) as u32;
        let sizes = self.cfg.tile_sizes.clone();
        let (n_elems, offs) = if self.two_d {
            self.features.insert("2d");
            self.rows = *self.rng.pick(&sizes);
            self.cols = *self.rng.pick(&sizes);
            self.line("rows = tl.arange(0, R)".into());
            self.line("cols = tl.arange(0, C)".into());
            self.line("offs = pid * R * C + rows[:, None] * C + cols[None, :]".into());
            (self.rows * self.cols, "offs")
        } else {
            self.rows = *self.rng.pick(&sizes);
            self.line("offs = pid * N + tl.arange(0, N)".into());
            (self.rows, "offs")
        };
        let total = n_elems * grid as usize;
        // a mask that cuts the last program short, through a runtime bound
        let masked = self.cfg.masks && self.rng.chance(0.4);
        let limit = if masked {
            self.features.insert("mask");
            total - self.rng.below(n_elems.max(2) / 2 + 1)
        } else {
            total
        };
        if masked {
            self.scalars.push(("n".into(), DType::I32, json!(limit)));
            self.line(format!("mask = {offs} < n"));
        }
        self.vars.push(E::var("pid", DType::I32, Shape::Scalar));
        self.vars.push(E::var(offs, DType::I32, Shape::Full));
        self.fixed = self.vars.len();
        // runtime scalar arguments
        if self.rng.chance(0.5) {
            self.features.insert("scalar_arg");
            let d = *self.rng.pick(&[DType::I32, DType::I64, DType::F32]);
            let v = if d.is_float() {
                json!(*self.rng.pick(&[0.5, -3.25, 1e-3, 65504.0, -0.0]))
            } else {
                json!(*self
                    .rng
                    .pick(&[0i64, 1, -1, 7, -13, 2147483647, -2147483648]))
            };
            self.scalars.push(("s0".into(), d, v));
            self.vars.push(E::var("s0", d, Shape::Scalar));
        }
        // inputs
        let n_in = 1 + self.rng.below(3);
        for i in 0..n_in {
            let fp8 = self.cfg.fp8 && self.rng.chance(0.1);
            let d = if fp8 {
                *self.rng.pick(&[DType::F8E4Nv, DType::F8E5])
            } else {
                self.arith_dtype()
            };
            let name = format!("in{i}_ptr");
            let v = format!("x{i}");
            let load = if masked {
                let other = self.literal_for(if fp8 { DType::F32 } else { d });
                format!("tl.load({name} + {offs}, mask=mask, other={})", other.code)
            } else {
                format!("tl.load({name} + {offs})")
            };
            if fp8 {
                self.features.insert("fp8");
                self.line(format!("{v} = {load}.to(tl.float32)"));
                self.vars.push(E::var(&v, DType::F32, Shape::Full));
            } else {
                self.line(format!("{v} = {load}"));
                self.vars.push(E::var(&v, d, Shape::Full));
            }
            self.inputs.push((name, d));
        }
        let n_stmts = 1 + self.rng.below(self.cfg.max_stmts);
        for _ in 0..n_stmts {
            self.stmt(0);
        }
        // outputs: the last value, plus maybe others
        let n_out = 1 + self.rng.below(2);
        let mut chosen: Vec<E> = vec![self.vars.last().expect("vars").clone()];
        for _ in 1..n_out {
            let v = self.rng.pick(&self.vars[self.fixed..]).clone();
            chosen.push(v);
        }
        for (i, v) in chosen.into_iter().enumerate() {
            let name = format!("out{i}_ptr");
            let mut value = v.code.clone();
            if v.shape != Shape::Full {
                value = format!("tl.broadcast_to({value}, {})", self.shape_text(Shape::Full));
            }
            let mut d = v.d;
            if self.cfg.fp8 && d == DType::F32 && self.rng.chance(0.1) {
                // a rounding edge: narrow to fp8 on the way out
                d = *self.rng.pick(&[DType::F8E4Nv, DType::F8E5]);
                value = format!("{value}.to({})", tl_dtype(d));
                self.features.insert("fp8");
            }
            let mask = if masked { ", mask=mask" } else { "" };
            self.line(format!("tl.store({name} + {offs}, {value}{mask})"));
            self.outputs.push((name, d));
        }
        self.render(grid, total)
    }

    fn render(&mut self, grid: u32, total: usize) -> Program {
        let mut params: Vec<String> = self.inputs.iter().map(|(n, _)| n.clone()).collect();
        params.extend(self.outputs.iter().map(|(n, _)| n.clone()));
        params.extend(self.scalars.iter().map(|(n, _, _)| n.clone()));
        if self.two_d {
            params.push("R: tl.constexpr".into());
            params.push("C: tl.constexpr".into());
        } else {
            params.push("N: tl.constexpr".into());
        }
        let mut src = String::from("import triton\nimport triton.language as tl\n\n");
        for h in &self.helpers {
            src.push_str(h);
            src.push('\n');
        }
        src.push_str(&format!(
            "\n@triton.jit\ndef fuzz_kernel({}):\n    pid = tl.program_id(0)\n",
            params.join(", ")
        ));
        for l in &self.body {
            src.push_str(l);
            src.push('\n');
        }
        let mut args = Map::new();
        for (n, d) in self.inputs.clone() {
            let bits: Vec<Json> = (0..total)
                .map(|_| json!(hex_bits(d, safe::edge_bits(&mut self.rng, d))))
                .collect();
            args.insert(n, json!({"buffer": {"dtype": d.json_name(), "bits": bits}}));
        }
        for (n, d) in &self.outputs {
            args.insert(
                n.clone(),
                json!({"buffer": {"dtype": d.json_name(), "len": total}}),
            );
        }
        for (n, d, v) in &self.scalars {
            args.insert(
                n.clone(),
                json!({"scalar": {"dtype": d.json_name(), "value": v}}),
            );
        }
        if self.two_d {
            args.insert("R".into(), json!({"constexpr": self.rows}));
            args.insert("C".into(), json!({"constexpr": self.cols}));
        } else {
            args.insert("N".into(), json!({"constexpr": self.rows}));
        }
        Program {
            source: src,
            launch: json!({"kernel": "fuzz_kernel", "grid": [grid], "args": Json::Object(args)}),
            features: std::mem::take(&mut self.features),
            ir: None,
        }
    }

    // ----- statements -------------------------------------------------------

    fn assign(&mut self, e: E) -> E {
        let name = self.fresh("v");
        self.line(format!("{name} = {}", e.code));
        let v = E::var(&name, e.d, e.shape);
        self.vars.push(v.clone());
        v
    }

    /// `e` as something cheap to repeat: itself when it is a name or a
    /// literal, else a fresh variable assigned `e` just before the statement
    /// being generated (so a rewrite that repeats its operand repeats a name,
    /// and generated code grows linearly with expression depth).
    fn bind(&mut self, e: E) -> E {
        let atom = e.lit.is_some()
            || e.code
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_');
        if atom {
            return e;
        }
        let name = self.fresh("t");
        self.line(format!("{name} = {}", e.code));
        E::var(&name, e.d, e.shape)
    }

    /// [`safe::convert`], with an operand it would repeat bound first.
    fn convert(&mut self, e: E, t: DType) -> E {
        let e = if safe::convert_repeats_operand(&e, t) {
            self.bind(e)
        } else {
            e
        };
        safe::convert(&e, t)
    }

    /// [`safe::divisor`] of `b` bound to a name.
    fn divisor(&mut self, b: E, d: DType) -> E {
        let b = self.bind(b);
        safe::divisor(&b, d)
    }

    fn stmt(&mut self, depth: usize) {
        let r = self.rng.below(100);
        if depth < 2 && self.cfg.loops && r < 10 {
            self.for_loop(depth);
        } else if depth < 2 && self.cfg.loops && r < 15 {
            self.while_loop(depth);
        } else if depth < 2 && self.cfg.branches && r < 25 {
            self.if_else(depth);
        } else if self.cfg.reductions && r < 35 {
            let e = self.reduction();
            self.assign(e);
        } else if self.cfg.helpers && r < 42 {
            let e = self.helper_call();
            self.assign(e);
        } else {
            let e = self.expr(self.cfg.max_depth);
            let e = if e.lit.is_some() {
                self.tensorize(e)
            } else {
                e
            };
            self.assign(e);
        }
    }

    /// A literal as a tile of its natural dtype (in a helper: shaped like
    /// the first parameter, since the kernel's sizes are not in scope).
    fn tensorize(&mut self, e: E) -> E {
        let d = e
            .lit
            .and_then(|n| n.natural_dtype().ok())
            .unwrap_or(DType::I32);
        let (shape_code, shape) = if self.in_helper {
            ("p.shape".to_string(), self.vars[0].shape)
        } else {
            (self.shape_text(Shape::Full), Shape::Full)
        };
        E {
            code: format!("tl.full({shape_code}, {}, {})", e.code, tl_dtype(d)),
            d,
            shape,
            lit: None,
        }
    }

    fn for_loop(&mut self, depth: usize) {
        self.features.insert("for");
        let d = self.arith_dtype();
        let acc = self.fresh("acc");
        let shape = if self.rng.chance(0.7) {
            Shape::Full
        } else {
            Shape::Scalar
        };
        self.line(format!(
            "{acc} = tl.zeros({}, dtype={})",
            self.shape_text(shape),
            tl_dtype(d)
        ));
        let iv = self.fresh("i");
        let (lo, hi, step) = *self
            .rng
            .pick(&[(0, 3, 1), (1, 5, 2), (4, 0, -1), (-2, 2, 1)]);
        self.line(format!("for {iv} in range({lo}, {hi}, {step}):"));
        self.indent += 1;
        let saved = self.vars.len();
        self.vars.push(E::var(&iv, DType::I32, Shape::Scalar));
        if self.rng.chance(0.3) {
            self.stmt(depth + 1);
        }
        let e = self.expr(2);
        let sum = self.binary_arith(E::var(&acc, d, shape), e, "+");
        let sum = if sum.shape != shape && shape == Shape::Scalar {
            // keep the accumulator's shape: reduce a tile back to a scalar
            let code = if self.two_d {
                format!("tl.sum(tl.sum({}, axis=1), axis=0)", sum.code)
            } else {
                format!("tl.sum({}, axis=0)", sum.code)
            };
            let sd = sum_dtype(sum.d);
            E {
                code,
                d: sd,
                shape: Shape::Scalar,
                lit: None,
            }
        } else if sum.shape != shape {
            E {
                code: format!("tl.broadcast_to({}, {})", sum.code, self.shape_text(shape)),
                shape,
                ..sum
            }
        } else {
            sum
        };
        let conv = self.convert(sum, d);
        self.line(format!("{acc} = {}", conv.code));
        self.indent -= 1;
        self.vars.truncate(saved);
        self.vars.push(E::var(&acc, d, shape));
    }

    fn while_loop(&mut self, depth: usize) {
        self.features.insert("while");
        let j = self.fresh("j");
        let acc = self.fresh("w");
        let d = self.arith_dtype();
        self.line(format!("{j} = 0"));
        self.line(format!(
            "{acc} = tl.zeros({}, dtype={})",
            self.shape_text(Shape::Full),
            tl_dtype(d)
        ));
        let bound = 1 + self.rng.below(3);
        self.line(format!("while {j} < {bound}:"));
        self.indent += 1;
        let saved = self.vars.len();
        self.vars.push(E::var(&j, DType::I32, Shape::Scalar));
        let _ = depth;
        let e = self.expr(2);
        let mut sum = self.binary_arith(E::var(&acc, d, Shape::Full), e, "-");
        if sum.shape != Shape::Full {
            sum = E {
                code: format!(
                    "tl.broadcast_to({}, {})",
                    sum.code,
                    self.shape_text(Shape::Full)
                ),
                shape: Shape::Full,
                ..sum
            };
        }
        let conv = self.convert(sum, d);
        self.line(format!("{acc} = {}", conv.code));
        self.line(format!("{j} += 1"));
        self.indent -= 1;
        self.vars.truncate(saved);
        self.vars.push(E::var(&acc, d, Shape::Full));
    }

    fn if_else(&mut self, depth: usize) {
        self.features.insert("if");
        let cond = match self.rng.below(3) {
            0 => "pid % 2 == 0".to_string(),
            1 if self.vars.iter().any(|v| v.code == "s0") => "s0 > 0".to_string(),
            _ => format!("pid < {}", 1 + self.rng.below(3)),
        };
        let out = self.fresh("b");
        let d = self.arith_dtype();
        self.line(format!("if {cond}:"));
        self.indent += 1;
        let saved = self.vars.len();
        if self.rng.chance(0.3) {
            self.stmt(depth + 1);
        }
        let a = self.expr(2);
        let a = self.full_of(a);
        let a = self.convert(a, d);
        self.line(format!("{out} = {}", a.code));
        self.vars.truncate(saved);
        self.indent -= 1;
        self.line("else:".into());
        self.indent += 1;
        let b = self.expr(2);
        let b = self.full_of(b);
        let b = self.convert(b, d);
        self.line(format!("{out} = {}", b.code));
        self.vars.truncate(saved);
        self.indent -= 1;
        self.vars.push(E::var(&out, d, Shape::Full));
    }

    fn full_of(&mut self, e: E) -> E {
        let e = if e.lit.is_some() {
            self.tensorize(e)
        } else {
            e
        };
        if e.shape == Shape::Full {
            e
        } else {
            E {
                code: format!(
                    "tl.broadcast_to({}, {})",
                    e.code,
                    self.shape_text(Shape::Full)
                ),
                shape: Shape::Full,
                ..e
            }
        }
    }

    // ----- expressions ------------------------------------------------------

    fn leaf(&mut self) -> E {
        if self.rng.chance(0.2) {
            let d = self.arith_dtype();
            self.features.insert("literal");
            return self.literal_for(d);
        }
        let i = self.rng.below(self.vars.len());
        self.vars[i].clone()
    }

    /// A literal that promotes cleanly against a tensor of dtype `d`.
    fn literal_for(&mut self, d: DType) -> E {
        let (code, n) = safe::literal(&mut self.rng, d);
        E {
            code,
            d,
            shape: Shape::Scalar,
            lit: Some(n),
        }
    }

    fn expr(&mut self, depth: usize) -> E {
        if depth == 0 {
            return self.leaf();
        }
        let r = self.rng.below(100);
        match r {
            0..=29 => {
                let a = self.expr(depth - 1);
                let b = self.operand_for(&a, depth - 1);
                let op = *self.rng.pick(&["+", "-", "*"]);
                self.binary_arith(a, b, op)
            }
            30..=39 => {
                let a = self.expr(depth - 1);
                let b = self.operand_for(&a, depth - 1);
                self.div_mod(a, b)
            }
            40..=47 => {
                let a = self.expr(depth - 1);
                let b = self.operand_for(&a, depth - 1);
                self.bitwise(a, b)
            }
            48..=55 => {
                let a = self.expr(depth - 1);
                let b = self.operand_for(&a, depth - 1);
                self.compare(a, b)
            }
            56..=63 => self.where_expr(depth - 1),
            64..=69 => {
                let a = self.expr(depth - 1);
                let b = self.operand_for(&a, depth - 1);
                self.min_max(a, b)
            }
            70..=79 if self.cfg.casts => {
                let a = self.expr(depth - 1);
                self.cast(a)
            }
            80..=85 => {
                let a = self.expr(depth - 1);
                self.unary(a)
            }
            86..=89 if self.cfg.math => {
                let a = self.expr(depth - 1);
                self.math(a)
            }
            90..=93 => self.fma_expr(depth - 1),
            _ => self.leaf(),
        }
    }

    /// A second operand: never two literals.
    fn operand_for(&mut self, a: &E, depth: usize) -> E {
        for _ in 0..4 {
            let b = self.expr(depth);
            if a.lit.is_none() || b.lit.is_none() {
                return b;
            }
        }
        let tensors: Vec<E> = self
            .vars
            .iter()
            .filter(|v| v.lit.is_none())
            .cloned()
            .collect();
        self.rng.pick(&tensors).clone()
    }

    fn result(&self, a: &E, b: &E, div: bool) -> Option<DType> {
        promote::computation_type(a.operand(), b.operand(), div).ok()
    }

    /// Makes a literal fit the type it will be converted to (or drops it).
    fn fit_literals(&mut self, a: E, b: E, div: bool) -> (E, E, DType) {
        match self.result(&a, &b, div) {
            Some(d) => (a, b, d),
            None => {
                // a literal out of range or negative for an unsigned type: use 1
                let fix = |e: E| {
                    if e.lit.is_some() {
                        E {
                            code: "1".into(),
                            lit: Some(PyNum::Int(1)),
                            ..e
                        }
                    } else {
                        e
                    }
                };
                let (a, b) = (fix(a), fix(b));
                match self.result(&a, &b, div) {
                    Some(d) => (a, b, d),
                    None => {
                        // tensors of mixed signedness for / // %: convert b
                        let b2 = self.convert(b, a.d);
                        let d = self.result(&a, &b2, div).unwrap_or(a.d);
                        (a, b2, d)
                    }
                }
            }
        }
    }

    fn binary_arith(&mut self, a: E, b: E, op: &str) -> E {
        let (a, b, d) = self.fit_literals(a, b, false);
        let shape = bshape(a.shape, b.shape);
        E {
            code: format!("({} {op} {})", a.code, b.code),
            d,
            shape,
            lit: None,
        }
    }

    fn div_mod(&mut self, a: E, b: E) -> E {
        let op = *self.rng.pick(&["//", "%", "/"]);
        let (a, b, d) = self.fit_literals(a, b, true);
        let shape = bshape(a.shape, b.shape);
        if d.is_float() || op == "/" {
            self.features
                .insert(if op == "%" { "fmod" } else { "fdiv" });
            let op = if op == "//" && d.is_float() { "/" } else { op };
            let rd = if op == "/" && !d.is_float() {
                DType::F32
            } else {
                d
            };
            return E {
                code: format!("({} {op} {})", a.code, b.code),
                d: rd,
                shape,
                lit: None,
            };
        }
        self.features.insert(if op == "%" { "mod" } else { "div" });
        // bool // bool: divide in int32 (the guarded divisor would promote anyway)
        let (a, b, d) = if d == DType::Bool {
            let a = self.convert(a, DType::I32);
            (a, self.convert(b, DType::I32), DType::I32)
        } else {
            (a, b, d)
        };
        // the divisor in the computation type, so its guard sees the value divided by
        let b = if b.lit.is_none() && b.d != d {
            self.convert(b, d)
        } else {
            b
        };
        let b = self.divisor(b, d);
        E {
            code: format!("({} {op} {})", a.code, b.code),
            d,
            shape,
            lit: None,
        }
    }

    fn bitwise(&mut self, a: E, b: E) -> E {
        let (a, b) = (self.int_only(a), self.int_only(b));
        let (a, b, d) = self.fit_literals(a, b, false);
        let shape = bshape(a.shape, b.shape);
        if d == DType::Bool || self.rng.chance(0.5) {
            self.features.insert("bitwise");
            let op = *self.rng.pick(&["&", "|", "^"]);
            return E {
                code: format!("({} {op} {})", a.code, b.code),
                d,
                shape,
                lit: None,
            };
        }
        self.features.insert("shift");
        let op = *self.rng.pick(&["<<", ">>"]);
        // a literal amount does not take part in promotion: the shift happens
        // in a's type (int32 for bool), whatever literal chose `d` above
        let d = match (a.lit, b.lit) {
            (None, Some(_)) if a.d == DType::Bool => DType::I32,
            (None, Some(_)) => a.d,
            _ => d,
        };
        let b = if b.d == DType::Bool || b.d.is_float() {
            self.convert(b, d)
        } else {
            b
        };
        let amount = safe::shift_amount(&b, d);
        E {
            code: format!("({} {op} {})", a.code, amount),
            d,
            shape,
            lit: None,
        }
    }

    /// An integer operand for a bitwise operator: a float literal becomes 1,
    /// a float tile is converted to int32.
    fn int_only(&mut self, e: E) -> E {
        match e.lit {
            Some(PyNum::Float(_)) => E {
                code: "1".into(),
                lit: Some(PyNum::Int(1)),
                ..e
            },
            Some(_) => e,
            None if e.d.is_float() => self.convert(e, DType::I32),
            None => e,
        }
    }

    fn compare(&mut self, a: E, b: E) -> E {
        self.features.insert("cmp");
        let (a, b, _) = self.fit_literals(a, b, false);
        let op = *self.rng.pick(&["<", "<=", ">", ">=", "==", "!="]);
        E {
            code: format!("({} {op} {})", a.code, b.code),
            d: DType::Bool,
            shape: bshape(a.shape, b.shape),
            lit: None,
        }
    }

    fn where_expr(&mut self, depth: usize) -> E {
        self.features.insert("where");
        let a = self.expr(depth);
        let b = self.operand_for(&a, depth);
        let c = self.expr(depth);
        let c = if c.lit.is_some() {
            self.tensorize(c)
        } else {
            c
        };
        let c_shape = c.shape;
        let cond = if c.d == DType::Bool {
            c.code.clone()
        } else {
            format!("({} != 0)", self.convert(c, DType::I32).code)
        };
        let (a, b, d) = self.fit_literals(a, b, false);
        let shape = bshape(bshape(a.shape, b.shape), c_shape);
        E {
            code: format!("tl.where({cond}, {}, {})", a.code, b.code),
            d,
            shape,
            lit: None,
        }
    }

    fn min_max(&mut self, a: E, b: E) -> E {
        self.features.insert("minmax");
        let (a, b, d) = self.fit_literals(a, b, false);
        // tl.minimum makes a literal a tensor and widens bfloat16 to float32
        let d = promote::minmax_type(a.operand(), b.operand()).unwrap_or(d);
        let f = *self.rng.pick(&["tl.minimum", "tl.maximum"]);
        E {
            code: format!("{f}({}, {})", a.code, b.code),
            d,
            shape: bshape(a.shape, b.shape),
            lit: None,
        }
    }

    fn cast(&mut self, a: E) -> E {
        let a = if a.lit.is_some() {
            self.tensorize(a)
        } else {
            a
        };
        if self.rng.chance(0.2) && a.d != DType::Bool {
            // bitcast to another dtype of the same width
            let same: Vec<DType> = self
                .cfg
                .dtypes
                .iter()
                .copied()
                .filter(|d| d.bits() == a.d.bits() && *d != a.d)
                .collect();
            if !same.is_empty() {
                self.features.insert("bitcast");
                let t = *self.rng.pick(&same);
                return E {
                    code: format!("{}.to({}, bitcast=True)", a.code, tl_dtype(t)),
                    d: t,
                    shape: a.shape,
                    lit: None,
                };
            }
        }
        self.features.insert("cast");
        if self.cfg.fp8 && a.d.is_float() && self.rng.chance(0.15) {
            self.features.insert("fp8");
            let t = *self.rng.pick(&[DType::F8E4Nv, DType::F8E5]);
            let back = *self.rng.pick(&[DType::F16, DType::F32]);
            return E {
                code: format!("{}.to({}).to({})", a.code, tl_dtype(t), tl_dtype(back)),
                d: back,
                shape: a.shape,
                lit: None,
            };
        }
        let t = self.arith_dtype();
        let mut e = self.convert(a.clone(), t);
        if a.d.is_float() && t.is_float() && t.bits() < a.d.bits() && self.rng.chance(0.3) {
            self.features.insert("rtz");
            e.code = format!(
                "{}.to({}, fp_downcast_rounding=\"rtz\")",
                a.code,
                tl_dtype(t)
            );
        }
        e
    }

    fn unary(&mut self, a: E) -> E {
        let a = if a.lit.is_some() {
            self.tensorize(a)
        } else {
            a
        };
        match self.rng.below(3) {
            0 if a.d != DType::Bool => E {
                code: format!("(-{})", a.code),
                ..a
            },
            1 if a.d.is_int() => E {
                code: format!("(~{})", a.code),
                ..a
            },
            _ if !a.d.is_unsigned_int() => E {
                code: format!("tl.abs({})", a.code),
                ..a
            },
            _ => a,
        }
    }

    fn math(&mut self, a: E) -> E {
        let a = if a.lit.is_some() {
            self.tensorize(a)
        } else {
            a
        };
        // float32 and narrower: the GPU's double-precision functions then agree
        // with the interpreter bit for bit (float64 results would differ in ulps)
        let a = if a.d.is_float() && a.d != DType::F64 {
            a
        } else {
            self.convert(a, DType::F32)
        };
        let f = *self.rng.pick(&[
            "tl.exp", "tl.log", "tl.sin", "tl.cos", "tl.sqrt", "tl.floor", "tl.ceil", "tl.exp2",
        ]);
        self.features.insert("math");
        E {
            code: format!("{f}({})", a.code),
            ..a
        }
    }

    fn fma_expr(&mut self, depth: usize) -> E {
        self.features.insert("fma");
        let d = *self.rng.pick(&[DType::F32, DType::F64, DType::F16]);
        let mut ops = Vec::new();
        for _ in 0..3 {
            let e = self.expr(depth);
            let e = if e.lit.is_some() {
                self.tensorize(e)
            } else {
                e
            };
            let e = self.convert(e, d);
            ops.push(e);
        }
        let shape = bshape(bshape(ops[0].shape, ops[1].shape), ops[2].shape);
        E {
            code: format!("tl.fma({}, {}, {})", ops[0].code, ops[1].code, ops[2].code),
            d,
            shape,
            lit: None,
        }
    }

    fn reduction(&mut self) -> E {
        self.features.insert("reduce");
        let a = self.expr(2);
        let a = self.full_of(a);
        let (axis, shape) = if self.two_d {
            match self.rng.below(3) {
                0 => ("axis=0, keep_dims=True", Shape::Row),
                1 => ("axis=1, keep_dims=True", Shape::Col),
                _ => ("axis=None", Shape::Scalar),
            }
        } else {
            ("axis=0", Shape::Scalar)
        };
        let which = self.rng.below(6);
        let (f, d) = match which {
            0 | 1 => ("tl.sum", sum_dtype(a.d)),
            2 => ("tl.max", minmax_dtype(a.d)),
            3 => ("tl.min", minmax_dtype(a.d)),
            4 => (
                if self.rng.chance(0.5) {
                    "tl.argmax"
                } else {
                    "tl.argmin"
                },
                DType::I32,
            ),
            _ if a.d.is_int() => ("tl.xor_sum", a.d),
            _ => ("tl.sum", sum_dtype(a.d)),
        };
        if f.starts_with("tl.arg") && axis == "axis=None" {
            let code = format!("{f}(tl.reshape({}, (R * C,)), axis=0)", a.code);
            return E {
                code,
                d,
                shape,
                lit: None,
            };
        }
        E {
            code: format!("{f}({}, {axis})", a.code),
            d,
            shape,
            lit: None,
        }
    }

    fn helper_call(&mut self) -> E {
        self.features.insert("helper");
        let a = self.expr(1);
        let a = if a.lit.is_some() {
            self.tensorize(a)
        } else {
            a
        };
        let b = self.operand_for(&a, 1);
        let name = self.fresh("helper");
        // the helper's body, generated over its own parameters
        let saved_vars = std::mem::replace(
            &mut self.vars,
            vec![
                E {
                    code: "p".into(),
                    ..a.clone()
                },
                E {
                    code: "q".into(),
                    ..b.clone()
                },
            ],
        );
        let saved_fixed = self.fixed;
        self.fixed = 0;
        self.in_helper = true;
        let saved_body = std::mem::take(&mut self.body);
        let saved_indent = std::mem::replace(&mut self.indent, 1);
        let body = self.expr(2);
        let body = if body.lit.is_some() {
            self.binary_arith(self.vars[0].clone(), body, "+")
        } else {
            body
        };
        let lines = std::mem::replace(&mut self.body, saved_body);
        self.indent = saved_indent;
        self.in_helper = false;
        self.vars = saved_vars;
        self.fixed = saved_fixed;
        let mut text = format!("@triton.jit\ndef {name}(p, q):\n");
        for l in lines {
            text.push_str(&l);
            text.push('\n');
        }
        text.push_str(&format!("    return {}\n", body.code));
        self.helpers.push(text);
        // p and q carry the call's operand shapes, so the body's shape is the call's
        let shape = body.shape;
        E {
            code: format!("{name}({}, {})", a.code, b.code),
            d: body.d,
            shape,
            lit: None,
        }
    }
}
