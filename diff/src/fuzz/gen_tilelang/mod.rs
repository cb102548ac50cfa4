//! The TileLang program generator: a `@T.prim_func` over 1-D buffers whose
//! blocks tile the data (the last block ragged), with mixed dtypes, all
//! five division forms, each loop kind, shared/local/var buffers, tile
//! copies at ragged edges, compile-time arithmetic on Python constants,
//! reductions of fragments, `T.ieee_*` with rounding modes and
//! `T.atomic_add` into a histogram. (Real TileLang's C target refuses the
//! programs with reductions and `T.ieee_*`; host and cuda run them all.)
//!
//! A kernel is built as IR through the TileLang front end's own
//! elaboration functions (`Elab::binop`, `compare`, `call_fn`,
//! `if_then_else`, `for_loop`, `copy_regions`, `reduce_buffers`, …), so
//! each node is exactly what the front end makes of the construct, with
//! TVM's promotion and Python's folding of compile-time values; it is
//! printed with `print::tilelang`, and the campaign re-elaborates the text
//! and checks that it is the same program.
//!
//! Programs are UB-free by construction and stay inside what real TileLang
//! 0.1.15 accepts on its C target (so `--backends interp,tilelang` compares
//! every one): divisors, shift amounts and floats reaching integer dtypes
//! are guarded by the shared passes (`fuzz/passes/`; floats clamped with
//! `T.min`/`T.max`, which also map NaN to the lower bound; against real
//! TileLang within ±1000 and amounts within 0..7),
//! names are bound once per loop body (TileLang refuses rebinding),
//! `T.ceildiv` gets positive divisors (divergence T1), at most one shared
//! buffer, never filled (the C target cannot), and local buffers are
//! indexed only by serial loops. Python constant arithmetic is a module
//! constant (`K1 = B * -7 // 3`) that Python, not TileLang, folds.

mod expr;
pub mod knobs;

use super::gen::Program;
use super::print::tilelang::{self as printer, Hints};
use super::rng::Rng;
use ksem_interp::dtype::DType;
use ksem_interp::frontend::tilelang::{BufRegion, Buffer, Elab, LoopKind, Module, Value};
use ksem_interp::launch::parse_launch_json;
use ksem_interp::span::{DResult, Diagnostic, Span};
use rustpython_parser::ast::{CmpOp, Operator};
use serde_json::{json, Map, Value as Json};
use std::collections::BTreeSet;

/// The name of every generated kernel.
const KERNEL: &str = "main";

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

/// The dtypes values take against real TileLang: its C target computes
/// 8- and 16-bit integer arithmetic in C's int without wrapping (divergence
/// T7) and has no fast path for float16 printing, so only these.
const PEER_DTYPES: [DType; 4] = [DType::I32, DType::I64, DType::F32, DType::F64];

/// The five reductions.
const REDUCTIONS: [&str; 5] = [
    "reduce_sum",
    "reduce_max",
    "reduce_min",
    "reduce_abssum",
    "reduce_absmax",
];

/// Where generated nodes point (the canonical form erases spans).
fn sp() -> Span {
    Span::default()
}

/// A generator bug as an elaboration error.
fn bug<T>(msg: impl Into<String>) -> DResult<T> {
    Err(Diagnostic::new(sp(), msg))
}

/// Generates program `index` of campaign `seed`; `peer`: for a campaign
/// against real TileLang, leaving out what it refuses (reductions, T.ieee_*)
/// or gets wrong for known reasons (narrow integers T7, folded float
/// constants T5), so that what the campaign finds is new.
pub fn generate(seed: u64, index: u64, peer: bool) -> Program {
    generate_with(&knobs::Knobs::default(), seed, index, peer)
}

/// [`generate`] with the constructs `knobs` allows.
pub fn generate_with(knobs: &knobs::Knobs, seed: u64, index: u64, peer: bool) -> Program {
    let mut rng = Rng::new(seed, index);
    let block = *rng.pick(&[4usize, 8, 16]);
    let blocks = 1 + rng.below(3);
    let mut features = BTreeSet::new();
    // the last block is ragged half of the time
    let n = if rng.chance(0.5) && blocks > 1 && knobs.ragged {
        features.insert("ragged-edge");
        blocks * block - 1 - rng.below(block - 1)
    } else {
        blocks * block
    };
    // constant arithmetic that Python folds before TileLang sees it
    let mut consts = vec![
        ("N".to_string(), n.to_string()),
        ("B".into(), block.to_string()),
    ];
    // (none without the knob: the printer writes a literal equal to a
    // constant as its name)
    let n_consts = if knobs.python_constants {
        1 + rng.below(2)
    } else {
        0
    };
    for k in 1..=n_consts {
        let v = rng.below(31) as i64 - 15;
        consts.push((format!("K{k}"), format!("B * {v} // 3")));
    }
    let mut header = String::from("import tilelang\nimport tilelang.language as T\n\n");
    for (name, text) in &consts {
        header.push_str(&format!("{name} = {text}\n"));
    }
    let module = match Module::parse("fuzz.py", &header) {
        Ok(m) => m,
        Err(e) => return Program::failed(seed, index, &e.message, features, KERNEL),
    };
    let mut el = Elab::for_module(&module);
    let mut g = Gen {
        rng,
        knobs: *knobs,
        vars: Vec::new(),
        next_var: 0,
        features,
        peer,
        block,
        blocks,
        n,
        consts: consts.iter().skip(2).map(|(n, _)| n.clone()).collect(),
        hist: None,
        acc: None,
        atomics: 0,
        parallel: false,
        lazy: 0,
        hints: Hints {
            consts: consts.clone(),
            threads: Some(block as u32),
            ..Default::default()
        },
        args: Map::new(),
    };
    let built = g.program(&mut el).and_then(|launch| {
        let l = parse_launch_json(&launch).map_err(|e| Diagnostic::new(sp(), e))?;
        Ok((el.finish_kernel(KERNEL, &l, sp())?, launch))
    });
    let (kernel, launch) = match built {
        Ok(x) => x,
        Err(e) => return Program::failed(seed, index, &e.message, g.features, KERNEL),
    };
    match printer::kernel(&kernel, &g.hints) {
        Ok(source) => Program {
            source,
            launch,
            features: g.features,
            ir: Some(kernel),
        },
        Err(e) => Program::failed(seed, index, &e, g.features, KERNEL),
    }
}

/// The state of one program being generated (the elaborator that builds
/// its nodes is passed alongside).
struct Gen {
    rng: Rng,
    /// The constructs the program may contain.
    knobs: knobs::Knobs,
    /// Names expressions may read.
    vars: Vec<String>,
    next_var: usize,
    features: BTreeSet<&'static str>,
    /// Against real TileLang (see [`generate`]).
    peer: bool,
    block: usize,
    blocks: usize,
    n: usize,
    /// The module constants made of Python arithmetic (`K1`, …).
    consts: Vec<String>,
    /// The histogram `T.atomic_add` updates, where the program has one.
    hist: Option<Buffer>,
    /// The block's `T.alloc_var` accumulator, where the program has one.
    acc: Option<Buffer>,
    /// Atomic updates generated so far.
    atomics: usize,
    /// Inside a `T.Parallel` loop (no accumulation there).
    parallel: bool,
    /// Inside operands evaluated lazily (no statement may be emitted there).
    lazy: usize,
    /// What the printer needs beyond the IR.
    hints: Hints,
    /// Launch arguments so far (name → spec).
    args: Map<String, Json>,
}

impl Gen {
    fn dtypes(&self) -> &'static [DType] {
        if self.peer {
            &PEER_DTYPES
        } else {
            &DTYPES
        }
    }

    fn fresh(&mut self) -> String {
        self.next_var += 1;
        format!("v{}", self.next_var)
    }

    /// A tensor parameter of `len` elements, with its launch argument
    /// (`input`: random contents, else zeroed).
    fn param(&mut self, el: &mut Elab, name: &str, d: DType, len: usize, input: bool) -> Buffer {
        let spec = if input {
            let seed = self.rng.next() % 1_000_000;
            let init = match d {
                d if d.is_float() => json!({"seed": seed}),
                d if d.is_signed_int() => json!({"seed": seed, "low": -50, "high": 50}),
                _ => json!({"seed": seed, "low": 0, "high": 100}),
            };
            json!({"buffer": {"dtype": d.json_name(), "len": len, "init": {"random": init}}})
        } else {
            json!({"buffer": {"dtype": d.json_name(), "len": len}})
        };
        self.args.insert(name.to_string(), spec);
        el.buffer_param(name, d, vec![len], sp())
    }

    /// The whole kernel; gives the launch.
    fn program(&mut self, el: &mut Elab) -> DResult<Json> {
        let (block, n) = (self.block, self.n);
        let n_inputs = 1 + self.rng.below(3);
        let inputs: Vec<DType> = (0..n_inputs)
            .map(|_| *self.rng.pick(self.dtypes()))
            .collect();
        let out_d = *self.rng.pick(self.dtypes());
        // a tile of input 0 staged through shared memory (copy in, copy out)
        let k = self.knobs;
        let staged = self.rng.chance(0.4) && k.shared;
        // T.atomic_add into a histogram shared by every block and iteration
        let hist = self.rng.chance(0.3) && k.atomics;
        let acc = self.rng.chance(0.4) && k.accumulator;
        // a reduction of a tile of input 0 in a fragment (TileLang's C target
        // cannot compile reductions: against real TileLang these programs are
        // refusals, against host and cuda they check the canonical order)
        let reduce = (!self.peer && self.rng.chance(0.25) && k.reductions)
            .then(|| *self.rng.pick(&REDUCTIONS));
        let kind = *self.rng.pick(&[
            LoopKind::Serial,
            LoopKind::Parallel,
            LoopKind::Unroll,
            LoopKind::Pipelined,
            LoopKind::Range,
            LoopKind::Grid,
        ]);
        let kind = if k.loop_kinds { kind } else { LoopKind::Serial };

        let mut a = Vec::new();
        for (k, d) in inputs.iter().enumerate() {
            a.push(self.param(el, &format!("a{k}"), *d, n, true));
        }
        let out = self.param(el, "out", out_d, n, false);
        let tail = acc.then(|| self.param(el, "tail", DType::I32, 1, false));
        self.hist = hist.then(|| self.param(el, "hist", DType::I32, 4, false));
        let red = reduce.map(|_| self.param(el, "red", inputs[0], self.blocks * 2, false));
        let back = staged.then(|| self.param(el, "back", inputs[0], n, false));

        el.kernel_launch(&[self.blocks as i128], &[block as i128], &["bx"], sp())?;
        let bx = read(el, "bx")?;
        let big_b = read(el, "B")?;
        let base = el.binop(Operator::Mult, bx.clone(), big_b.clone(), sp())?;
        let shared = if staged {
            self.features.insert("shared+copy");
            let s = el.allocate("alloc_shared", inputs[0], vec![block], sp())?;
            el.assign_name("S", Value::from(&s), sp())?;
            let src = el.region_at(&a[0], vec![base.clone()], sp())?;
            el.copy_regions(src, BufRegion::whole(&s), sp())?;
            Some(s)
        } else {
            None
        };
        if acc {
            self.features.insert("alloc_var");
            let b = el.allocate_var(DType::I32, Some(Value::int(0)), sp())?;
            el.assign_name("acc", Value::from(&b), sp())?;
            self.acc = Some(b);
        }

        // the main loop over the block's elements
        self.features.insert(match kind {
            LoopKind::Serial | LoopKind::Range => "loop-serial",
            LoopKind::Parallel => "loop-parallel",
            LoopKind::Unroll => "loop-unroll",
            LoopKind::Pipelined => "loop-pipelined",
            LoopKind::Grid => "loop-grid",
        });
        let (names, ranges): (Vec<&str>, _) = if kind == LoopKind::Grid {
            let half = el.binop(Operator::FloorDiv, big_b.clone(), Value::int(2), sp())?;
            (
                vec!["r", "c"],
                vec![
                    (Value::int(0), half, Value::int(1)),
                    (Value::int(0), Value::int(2), Value::int(1)),
                ],
            )
        } else {
            (
                vec!["i"],
                vec![(Value::int(0), big_b.clone(), Value::int(1))],
            )
        };
        if kind != LoopKind::Parallel {
            self.hints.loops.insert(names[0].to_string(), kind);
        }
        self.parallel = kind == LoopKind::Parallel;
        el.for_loop(
            kind,
            &names,
            ranges,
            |el| self.loop_body(el, kind, &a, &out, shared.as_ref(), &base),
            sp(),
        )?;
        self.parallel = false;

        if let (Some(acc), Some(tail)) = (self.acc.clone(), tail) {
            let first = el.compare(CmpOp::Eq, bx.clone(), Value::int(0), sp())?;
            el.if_stmt(
                first,
                |el, then| {
                    if then {
                        el.store_element(&tail, vec![Value::int(0)], Value::from(&acc), sp())?;
                    }
                    Ok(())
                },
                sp(),
            )?;
        }
        if let (Some(op), Some(red)) = (reduce, red) {
            self.reduction(el, op, &a[0], &red, &base)?;
        }
        if let (Some(s), Some(back)) = (shared, back) {
            // write the staged tile back, doubled, through a ragged copy
            self.hints.loops.insert("j".into(), LoopKind::Serial);
            el.for_loop(
                LoopKind::Serial,
                &["j"],
                vec![(Value::int(0), Value::int(block as i128), Value::int(1))],
                |el| {
                    let j = read(el, "j")?;
                    let x = el.load(&s, vec![j.clone()], sp())?;
                    let y = el.binop(Operator::Add, x.clone(), x, sp())?;
                    el.store_element(&s, vec![j], y, sp())
                },
                sp(),
            )?;
            let dst = el.region_at(&back, vec![base.clone()], sp())?;
            el.copy_regions(BufRegion::whole(&s), dst, sp())?;
        }
        let mut args = Map::new();
        for name in self.args.keys() {
            args.insert(name.clone(), self.args[name].clone());
        }
        Ok(json!({ "args": Json::Object(args) }))
    }

    /// The body of the main loop: the element `g` this iteration computes,
    /// its inputs, statements and the store of the result.
    fn loop_body(
        &mut self,
        el: &mut Elab,
        kind: LoopKind,
        a: &[Buffer],
        out: &Buffer,
        shared: Option<&Buffer>,
        base: &Value,
    ) -> DResult<()> {
        let idx = if kind == LoopKind::Grid {
            // r * 2 + c
            let r = el.binop(Operator::Mult, read(el, "r")?, Value::int(2), sp())?;
            el.binop(Operator::Add, r, read(el, "c")?, sp())?
        } else {
            read(el, "i")?
        };
        let g = el.binop(Operator::Add, base.clone(), idx.clone(), sp())?;
        el.assign_name("g", g, sp())?;
        let inside = el.compare(CmpOp::Lt, read(el, "g")?, read(el, "N")?, sp())?;
        let saved = self.vars.len();
        let r = el.if_stmt(
            inside,
            |el, then| {
                if !then {
                    return Ok(());
                }
                self.vars.push("g".into());
                let g = read(el, "g")?;
                for (k, buf) in a.iter().enumerate() {
                    let x = match shared {
                        Some(s) if k == 0 => el.load(s, vec![idx.clone()], sp())?,
                        _ => el.load(buf, vec![g.clone()], sp())?,
                    };
                    let name = format!("x{k}");
                    el.assign_name(&name, x, sp())?;
                    self.vars.push(name);
                }
                let stmts = 2 + self.rng.below(4);
                for _ in 0..stmts {
                    match self.rng.below(8) {
                        0 if self.knobs.branches => self.branch(el)?,
                        1 if self.acc.is_some() && !self.parallel => self.accumulate(el)?,
                        2 if self.hist.is_some() => self.atomic(el)?,
                        _ => self.assign(el)?,
                    }
                }
                if self.hist.is_some() && self.atomics == 0 {
                    self.atomic(el)?;
                }
                let r = self.expr(el, 3)?;
                let r = self.convert_to(el, r, out.dtype())?;
                el.store_element(out, vec![g], r, sp())
            },
            sp(),
        );
        self.vars.truncate(saved);
        r
    }

    /// `T.reduce_*` of a tile of input 0 in a `(2, B/2)` fragment, the two
    /// results stored in `red`.
    fn reduction(
        &mut self,
        el: &mut Elab,
        op: &'static str,
        a0: &Buffer,
        red: &Buffer,
        base: &Value,
    ) -> DResult<()> {
        self.features.insert("reduce");
        self.features.insert(op);
        let half = self.block / 2;
        let d = a0.dtype();
        let frag = el.allocate("alloc_fragment", d, vec![2, half], sp())?;
        el.assign_name("R", Value::from(&frag), sp())?;
        let out = el.allocate("alloc_fragment", d, vec![2], sp())?;
        el.assign_name("Rs", Value::from(&out), sp())?;
        el.for_loop(
            LoopKind::Parallel,
            &["r", "c"],
            vec![
                (Value::int(0), Value::int(2), Value::int(1)),
                (Value::int(0), Value::int(half as i128), Value::int(1)),
            ],
            |el| {
                let (r, c) = (read(el, "r")?, read(el, "c")?);
                let row = el.binop(Operator::Mult, r.clone(), Value::int(half as i128), sp())?;
                let at = el.binop(Operator::Add, base.clone(), row, sp())?;
                let at = el.binop(Operator::Add, at, c.clone(), sp())?;
                let inside = el.compare(CmpOp::Lt, at.clone(), read(el, "N")?, sp())?;
                let v = el.if_then_else(
                    inside,
                    |el, then| {
                        if then {
                            el.load(a0, vec![at.clone()], sp())
                        } else {
                            el.call_fn("Cast", vec![Value::of_dtype(d), Value::int(0)], sp())
                        }
                    },
                    sp(),
                )?;
                el.store_element(&frag, vec![r, c], v, sp())
            },
            sp(),
        )?;
        el.reduce_buffers(op, &frag, &out, 1, true, sp())?;
        let bx = read(el, "bx")?;
        let at = el.binop(Operator::Mult, bx, Value::int(2), sp())?;
        let v = el.load(&out, vec![Value::int(0)], sp())?;
        el.store_element(red, vec![at.clone()], v, sp())?;
        let at1 = el.binop(Operator::Add, at, Value::int(1), sp())?;
        let v = el.load(&out, vec![Value::int(1)], sp())?;
        el.store_element(red, vec![at1], v, sp())
    }
}

/// What name `n` denotes.
fn read(el: &Elab, n: &str) -> DResult<Value> {
    match el.lookup(n) {
        Some(v) => Ok(v),
        None => bug(format!("generator reads unbound `{n}`")),
    }
}

#[cfg(test)]
mod tests;
