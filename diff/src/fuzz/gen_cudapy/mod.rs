//! The CUDA Python program generator: SIMT kernels with divergent control
//! flow, shared memory exchanged between barriers, integer atomics whose
//! totals do not depend on the order and the seed's mixed integer/float
//! typing. A kernel is built as IR (`nodes` builds each construct as the
//! front end elaborates it) and printed with `print::cudapy`; the campaign
//! re-elaborates the text and checks that it is the same program.
//!
//! Programs are UB-free by construction: every thread reads and writes only
//! its own elements of the global arrays, shared memory is written at the
//! thread's own index and read only after a barrier (with another barrier
//! before the next write), barriers sit in the kernel's entry block, shift
//! amounts and floats reaching an integer type are guarded by the shared
//! passes (`fuzz/passes/`: masked into the declared range, clamped into
//! the conversion's exact range), and loops have small constant trip
//! counts. Integer `//` and `%` need no guard: their ops declare no hazard
//! (a zero divisor gives 0 in CUDA Python).
//!
//! Device functions are not generated: the IR inlines calls, and the
//! printer has no form for an inlined body (see `print::cudapy`).

mod expr;
pub mod knobs;
mod nodes;
mod stmt;

use super::gen::Program;
use super::rng::Rng;
use ksem_interp::dtype::DType;
use ksem_interp::ir::build::mk;
use ksem_interp::ir::*;
use serde_json::{json, Value as Json};
use std::collections::BTreeSet;

/// The state of one program being generated.
struct Gen {
    rng: Rng,
    /// The constructs the program may contain.
    knobs: knobs::Knobs,
    /// A campaign against real numba-cuda that leaves out what
    /// docs/divergences.md documents numba computing otherwise: every
    /// value int64 or float64, where numba's typing and the seed's agree
    /// (N1-N5: numba computes narrower operands in 64 bits, ksem in their
    /// own type), no float remainder (N6) and integer inputs in -20..20
    /// (N23: numba's signed overflow is undefined), so what differs is new.
    avoid_divergences: bool,
    /// The kernel's variables (name, type).
    vars: Vec<(String, Type)>,
    /// Variables expressions may read.
    live: Vec<VarId>,
    next_var: usize,
    /// The statement lists being built; the last is the current one.
    blocks: Vec<Block>,
    features: BTreeSet<&'static str>,
    /// Threads per block.
    block: u32,
    /// Elements of the input and output arrays (one per thread).
    n: usize,
    inputs: Vec<VarId>,
    input_dtypes: Vec<DType>,
    out: VarId,
    acc: VarId,
    shared_dtype: DType,
    /// The thread's index in the grid (`i`) and in its block (`t`).
    i: VarId,
    t: VarId,
}

impl Gen {
    fn new_var(&mut self, name: &str, d: DType) -> VarId {
        self.vars.push((name.to_string(), Type::scalar(d)));
        self.vars.len() - 1
    }

    fn var(&self, v: VarId) -> Expr {
        mk(ExprKind::Var(v), self.vars[v].1.clone(), nodes::S)
    }

    fn fresh(&mut self) -> String {
        self.next_var += 1;
        format!("v{}", self.next_var)
    }

    fn emit(&mut self, s: Stmt) {
        if let Some(b) = self.blocks.last_mut() {
            b.push(s);
        }
    }

    /// A new variable `name` set to `e` (its dtype is `e`'s).
    fn define(&mut self, name: &str, e: Expr) -> VarId {
        let v = self.new_var(name, e.ty.dtype());
        self.emit(Stmt::Let(v, e));
        v
    }

    /// Runs `f` with a fresh current block; its result and the block.
    fn within<T>(&mut self, f: impl FnOnce(&mut Gen) -> T) -> (T, Block) {
        self.blocks.push(Vec::new());
        let r = f(self);
        (r, self.blocks.pop().unwrap_or_default())
    }
}

/// Generates program `index` of campaign `seed` with every construct.
pub fn generate(seed: u64, index: u64) -> Program {
    generate_with(&knobs::Knobs::default(), seed, index)
}

/// Generates program `index` of campaign `seed` with the constructs
/// `knobs` allows.
pub fn generate_with(knobs: &knobs::Knobs, seed: u64, index: u64) -> Program {
    generate_for(knobs, seed, index, false)
}

/// [`generate_with`], leaving out what real numba-cuda computes otherwise
/// where `avoid_divergences` (see `Gen::avoid_divergences`).
pub fn generate_for(
    knobs: &knobs::Knobs,
    seed: u64,
    index: u64,
    avoid_divergences: bool,
) -> Program {
    let values = expr::dtypes(avoid_divergences);
    let mut rng = Rng::new(seed, index);
    // 1-, 2- or 3-d ids; `block` threads per block in all
    let dims = 1 + rng.below(3);
    let dims = if knobs.ids_nd { dims } else { 1 };
    let (bdim, gdim): ([u32; 3], [u32; 3]) = match dims {
        1 => (
            [*rng.pick(&[8u32, 16, 32]), 1, 1],
            [1 + rng.below(3) as u32, 1, 1],
        ),
        2 => (
            [*rng.pick(&[4u32, 8]), *rng.pick(&[2u32, 4]), 1],
            [1 + rng.below(2) as u32, 1 + rng.below(2) as u32, 1],
        ),
        _ => (
            [4, 2, 2],
            [1 + rng.below(2) as u32, 1, 1 + rng.below(2) as u32],
        ),
    };
    let block = bdim[0] * bdim[1] * bdim[2];
    let grid = gdim[0] * gdim[1] * gdim[2];
    let n = (grid * block) as usize;
    let n_inputs = 1 + rng.below(3);
    let input_dtypes: Vec<DType> = (0..n_inputs).map(|_| *rng.pick(values)).collect();
    let shared_dtype = *rng.pick(values);
    let mut g = Gen {
        rng,
        knobs: *knobs,
        avoid_divergences,
        vars: Vec::new(),
        live: Vec::new(),
        next_var: 0,
        blocks: vec![Vec::new()],
        features: BTreeSet::new(),
        block,
        n,
        inputs: Vec::new(),
        input_dtypes,
        out: 0,
        acc: 0,
        shared_dtype,
        i: 0,
        t: 0,
    };
    let params = g.params(n_inputs);
    g.ids(dims);
    let uses_shared = g.rng.chance(0.5) && knobs.shared;
    for k in 0..n_inputs {
        g.read_input(k);
    }
    let stmts = 3 + g.rng.below(6);
    for _ in 0..stmts {
        match g.rng.below(10) {
            0 | 1 if uses_shared => g.exchange(),
            2 if knobs.branches => g.branch(),
            3 if knobs.loops => g.loop_(),
            4 if knobs.atomics => g.atomic(),
            _ => g.assign(),
        }
    }
    let out_d = g.store_result();
    let mut params = params;
    for p in &mut params {
        if p.var == Some(g.out) {
            p.kind = ParamKind::Pointer(out_d);
        }
    }
    let arrays = if uses_shared {
        vec![ArrayDecl {
            name: "s".into(),
            dtype: shared_dtype,
            space: AddrSpace::Shared,
            shape: vec![block as usize],
            span: nodes::S,
        }]
    } else {
        vec![]
    };
    let kernel = Kernel {
        name: "fuzz_kernel".into(),
        model: Model::Simt,
        grid: [grid, 1, 1],
        block: [block, 1, 1],
        params,
        fresh: vec![],
        arrays,
        vars: std::mem::take(&mut g.vars),
        body: g.blocks.pop().unwrap_or_default(),
        then: vec![],
    };
    let print = if avoid_divergences {
        super::print::cudapy::kernel_explicit
    } else {
        super::print::cudapy::kernel
    };
    let source =
        print(&kernel).unwrap_or_else(|e| format!("# the generated kernel does not print: {e}\n"));
    let launch = g.launch(grid, block, out_d);
    Program {
        source,
        launch,
        features: g.features,
        ir: Some(kernel),
    }
}

impl Gen {
    /// The parameters `a0…, out, acc` and their variables (the output's
    /// dtype is set once the result is generated).
    fn params(&mut self, n_inputs: usize) -> Vec<Param> {
        let mut params = Vec::new();
        let mut add = |g: &mut Gen, name: String, d: DType| {
            g.vars.push((name.clone(), Type::global_ptr(d)));
            let v = g.vars.len() - 1;
            params.push(Param {
                name,
                kind: ParamKind::Pointer(d),
                var: Some(v),
            });
            v
        };
        for k in 0..n_inputs {
            let d = self.input_dtypes[k];
            let v = add(self, format!("a{k}"), d);
            self.inputs.push(v);
        }
        self.out = add(self, "out".into(), DType::I64);
        self.acc = add(self, "acc".into(), DType::I64);
        params
    }

    /// The launch spec: random inputs, a zeroed output, the atomics' slots.
    fn launch(&mut self, grid: u32, block: u32, out_d: DType) -> Json {
        let mut args = serde_json::Map::new();
        for (k, d) in self.input_dtypes.clone().iter().enumerate() {
            let mut init = json!({"seed": self.rng.next() % 1_000_000});
            // against numba-cuda always small: its signed `+ - *` are `nsw`
            // (an overflow is LLVM poison, N23), and small inputs keep the
            // products of a program in range
            if !d.is_float() && (self.rng.chance(0.5) || self.avoid_divergences) {
                init = json!({"seed": self.rng.next() % 1_000_000, "low": -20, "high": 20});
                if !d.is_signed_int() {
                    init = json!({"seed": self.rng.next() % 1_000_000, "low": 0, "high": 40});
                }
            }
            args.insert(
                format!("a{k}"),
                json!({"buffer": {"dtype": d.json_name(), "len": self.n, "init": {"random": init}}}),
            );
        }
        args.insert(
            "out".into(),
            json!({"buffer": {"dtype": out_d.json_name(), "len": self.n}}),
        );
        args.insert(
            "acc".into(),
            json!({"buffer": {"dtype": "int64", "data": [0, 0, 0, 0, 0, -1]}}),
        );
        json!({"grid": [grid, 1, 1], "block": [block, 1, 1], "args": Json::Object(args)})
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzz::selftest;

    #[test]
    fn generated_programs_exercise_every_feature() {
        let names = [
            "ids-2d",
            "ids-3d",
            "truediv",
            "floordiv/mod",
            "arith",
            "bitwise",
            "convert",
            "ifexp",
            "minmax",
            "unary",
            "math",
            "abs",
            "and/or",
            "divergent-if",
            "loop",
            "divergent-loop",
            "shared+barrier",
            "atomic",
            "fmod",
        ];
        selftest::assert_features(300, |i| generate(2, i), &names);
    }

    /// The dtypes of the values a program computes with, outside the
    /// thread-index arithmetic (`ThreadId`/`BlockDim` and constants only).
    fn value_dtypes(p: &Program) -> BTreeSet<DType> {
        use ksem_interp::ir::walk::for_each_expr;
        let k = p.ir.as_ref().expect("generated IR");
        let mut out = BTreeSet::new();
        for_each_expr(&k.body, &mut |e| {
            let mut ids_only = true;
            e.for_each(&mut |x| {
                ids_only &= matches!(
                    x.kind,
                    ExprKind::ThreadId(_)
                        | ExprKind::BlockDim(_)
                        | ExprKind::Const(_)
                        | ExprKind::Binary(..)
                )
            });
            if matches!(e.kind, ExprKind::Binary(..) | ExprKind::Unary(..)) && !ids_only {
                out.insert(e.ty.dtype());
            }
        });
        out
    }

    /// Against real numba-cuda every value is int64 or float64 (and
    /// comparisons bool), so numba's typing and the seed's agree; the
    /// programs still print back. Without it the other dtypes come up.
    #[test]
    fn real_peer_programs_compute_in_int64_and_float64() {
        let peer = [DType::I64, DType::F64, DType::Bool];
        let mut other = BTreeSet::new();
        for i in 0..150 {
            let p = generate_for(&knobs::Knobs::default(), 7, i, true);
            p.round_trip()
                .unwrap_or_else(|e| panic!("program {i}: {e}"));
            let ds = value_dtypes(&p);
            assert!(
                ds.iter().all(|d| peer.contains(d)),
                "program {i}: {ds:?}\n{}",
                p.source
            );
            other.extend(value_dtypes(&generate(7, i)));
        }
        assert!(other.contains(&DType::I32) && other.contains(&DType::F32));
    }

    /// A printer that drops a conversion is caught by the round trip.
    #[test]
    fn a_dropped_conversion_is_caught() {
        let caught = selftest::dropped_conversions_caught(40, |i| generate(5, i), "int32(", 5);
        assert!(
            caught >= 5,
            "only {caught} programs had a conversion to drop"
        );
    }
}
