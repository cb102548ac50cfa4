//! The Hidet script program generator: SIMT `cuda_kernel`s (and
//! one-thread `cpu_kernel`s looping over the elements) with Hidet's mixed
//! scalar typing, divergent control flow, shared memory exchanged between
//! barriers, integer atomics whose totals do not depend on the order,
//! pointers into global buffers and their differences (`p - a`), local
//! tensors with layouts, complex numbers, and local tensors of vector
//! types with their lanes (`vector`). A kernel is
//! built as IR (`nodes` builds each construct as the front end elaborates
//! it) and printed with `print::hidet`; the campaign re-elaborates the text
//! and checks that it is the same program.
//!
//! Programs are UB-free by construction (Hidet computes with C's rules):
//! integer divisors, shift counts and floats reaching an integer type are
//! guarded by the shared passes (`fuzz/passes/`; a float is clamped as
//! `a if a < hi and a > lo else lo`, which also sends NaN to the bound;
//! against real Hidet within ±100 and counts within 0..7), every thread reads and
//! writes only its own elements of the global arrays (pointer reads stay
//! inside the buffer), shared memory is written at the thread's own index
//! and read only after a barrier (with another barrier before the next
//! write), barriers sit in the kernel's entry block, local tensors are
//! written entirely before they are read, and loops have small trip
//! counts.
//!
//! With `real_peer` (a campaign against real Hidet's `cpu_kernel` build)
//! only `cpu_kernel`s are generated (no thread ids, shared memory, atomics
//! or barriers), and what `docs/divergences.md` H1–H6 lists is left out:
//! no constant subexpressions (every operation has a runtime operand read
//! from an input, and no variable is bound to a constant), no literal 0
//! (Hidet's `x + 0` / `x * 0` shortcuts), no f16/bf16 (so no f64 → f16 and
//! no half overflow to inf and NaN), and float divisors are integers in
//! 1..=16 (no 0/0 NaN, whose bits are x86's). Vectors against real Hidet
//! are f32x4 and f32x8 only (its CPU build declares no other vector type:
//! tools/probes/hidet/vecptr.json).

mod complex;
mod expr;
pub mod knobs;
pub mod nodes;
mod stmt;
mod vector;

use super::gen::Program;
use super::rng::Rng;
use ksem_interp::dtype::DType;
use ksem_interp::ir::build::int_const;
use ksem_interp::ir::*;
use nodes::S;
use serde_json::{json, Value as Json};
use std::collections::BTreeSet;

/// The state of one program being generated.
struct Gen {
    rng: Rng,
    /// The constructs the program may contain.
    knobs: knobs::Knobs,
    real_peer: bool,
    /// A `cuda_kernel` (else a one-thread `cpu_kernel`).
    cuda: bool,
    vars: Vec<(String, Type)>,
    /// Variables expressions may read, per open scope.
    live: Vec<Vec<VarId>>,
    next_var: usize,
    /// Inside an if-expression's branch (or an `and`'s second operand),
    /// where only expressions' own patterns may go.
    no_stmts: usize,
    blocks: Vec<Block>,
    features: BTreeSet<&'static str>,
    block: [u32; 3],
    /// Elements of the input and output arrays.
    n: usize,
    /// The inputs: variable, dtype, tensor (else a `~T` pointer).
    inputs: Vec<(VarId, DType, bool)>,
    out: VarId,
    acc: VarId,
    arrays: Vec<ArrayDecl>,
    shared: Option<(ArrayId, DType)>,
    /// The element's index (`i`) and the thread's index in its block (`t`).
    i: VarId,
    t: VarId,
}

impl Gen {
    fn new_var(&mut self, name: &str, d: DType) -> VarId {
        self.vars.push((name.to_string(), Type::scalar(d)));
        self.vars.len() - 1
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

    /// Where the current block ends now.
    fn mark(&self) -> usize {
        self.blocks.last().map_or(0, |b| b.len())
    }

    /// Drops the statements emitted since `mark`.
    fn reset(&mut self, mark: usize) {
        if let Some(b) = self.blocks.last_mut() {
            b.truncate(mark);
        }
    }

    fn add_live(&mut self, v: VarId) {
        if let Some(s) = self.live.last_mut() {
            s.push(v);
        }
    }

    fn live_vars(&self) -> Vec<VarId> {
        self.live.iter().flatten().copied().collect()
    }

    /// Runs `f` with a fresh current block and scope; its result and the block.
    fn within<T>(&mut self, f: impl FnOnce(&mut Gen) -> T) -> (T, Block) {
        self.blocks.push(Vec::new());
        self.live.push(Vec::new());
        let r = f(self);
        self.live.pop();
        (r, self.blocks.pop().unwrap_or_default())
    }
}

/// Generates program `index` of campaign `seed`.
pub fn generate(seed: u64, index: u64, real_peer: bool) -> Program {
    generate_with(&knobs::Knobs::default(), seed, index, real_peer)
}

/// [`generate`] with the constructs `knobs` allows.
pub fn generate_with(knobs: &knobs::Knobs, seed: u64, index: u64, real_peer: bool) -> Program {
    let mut rng = Rng::new(seed, index);
    let cuda = !real_peer && rng.chance(0.8) && knobs.cuda_kernel;
    let (block, grid) = if cuda {
        if rng.chance(0.3) && knobs.ids_2d {
            (
                [*rng.pick(&[4u32, 8]), *rng.pick(&[2u32, 4]), 1],
                [1 + rng.below(2) as u32, 1, 1],
            )
        } else {
            (
                [*rng.pick(&[8u32, 16, 32]), 1, 1],
                [1 + rng.below(3) as u32, 1, 1],
            )
        }
    } else {
        ([1, 1, 1], [1, 1, 1])
    };
    let n = if cuda {
        (grid[0] * block[0] * block[1]) as usize
    } else {
        *rng.pick(&[4usize, 8, 16])
    };
    let n_inputs = 1 + rng.below(3);
    let dts = expr::dtypes(real_peer);
    let input_dtypes: Vec<DType> = (0..n_inputs).map(|_| *rng.pick(&dts)).collect();
    let mut g = Gen {
        rng,
        knobs: *knobs,
        real_peer,
        cuda,
        vars: Vec::new(),
        live: vec![Vec::new()],
        next_var: 0,
        no_stmts: 0,
        blocks: vec![Vec::new()],
        features: BTreeSet::new(),
        block,
        n,
        inputs: Vec::new(),
        out: 0,
        acc: 0,
        arrays: Vec::new(),
        shared: None,
        i: 0,
        t: 0,
    };
    let mut params = g.params(&input_dtypes);
    if cuda && g.rng.chance(0.5) && knobs.shared {
        let d = *g.rng.pick(&dts);
        g.arrays.push(ArrayDecl {
            name: "s".into(),
            dtype: d,
            space: AddrSpace::Shared,
            shape: vec![(block[0] * block[1]) as usize],
            span: S,
        });
        g.shared = Some((0, d));
    }
    let (body_stmts, out_d) = if cuda {
        g.features.insert("cuda_kernel");
        g.ids();
        let out_d = g.body(true);
        (g.blocks.pop().unwrap_or_default(), out_d)
    } else {
        g.features.insert("cpu_kernel");
        // for i in range(n): the body, once per element
        let i = g.new_var("i", DType::I32);
        g.i = i;
        g.t = i;
        let (out_d, body) = g.within(|g| {
            g.add_live(i);
            g.body(false)
        });
        let mut top = g.blocks.pop().unwrap_or_default();
        top.push(Stmt::For {
            var: i,
            start: int_const(DType::I32, 0, S),
            end: int_const(DType::I32, n as i128, S),
            step: int_const(DType::I32, 1, S),
            body,
            span: S,
            parallel: None,
        });
        (top, out_d)
    };
    for p in &mut params {
        if p.var == Some(g.out) {
            p.kind = ParamKind::Pointer(out_d);
        }
    }
    let kernel = Kernel {
        name: "fuzz_kernel".into(),
        model: Model::Simt,
        grid,
        block,
        params,
        fresh: vec![],
        arrays: std::mem::take(&mut g.arrays),
        vars: std::mem::take(&mut g.vars),
        body: body_stmts,
        then: vec![],
    };
    let source = super::print::hidet::kernel(&kernel)
        .unwrap_or_else(|e| format!("# the generated kernel does not print: {e}\n"));
    let launch = g.launch(grid, block, out_d, &input_dtypes);
    Program {
        source,
        launch,
        features: g.features,
        ir: Some(kernel),
    }
}

impl Gen {
    /// The statements of the body (the kernel's entry block for a
    /// `cuda_kernel`); the output's dtype.
    fn body(&mut self, entry: bool) -> DType {
        for k in 0..self.inputs.len() {
            self.read_input(k);
        }
        let stmts = 3 + self.rng.below(6);
        let k = self.knobs;
        for _ in 0..stmts {
            match self.rng.below(15) {
                0 | 1 if entry && self.shared.is_some() => self.exchange(),
                2 | 3 if k.branches => self.branch(),
                4 if k.loops => self.loop_(),
                5 if k.loops => self.while_(),
                6 if self.cuda && k.atomics => self.atomic(),
                7 if k.pointers => self.pointer(),
                8 if k.layouts => self.layout_tensor(),
                9 if k.complex => self.complex(),
                10 | 11 if k.vectors => self.vector(),
                _ => self.assign(),
            }
        }
        self.store_result()
    }

    /// The parameters `a0…, out(, acc)` and their variables.
    fn params(&mut self, dtypes: &[DType]) -> Vec<Param> {
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
        for (k, &d) in dtypes.iter().enumerate() {
            let v = add(self, format!("a{k}"), d);
            let tensor = self.rng.chance(0.6);
            self.inputs.push((v, d, tensor));
        }
        self.out = add(self, "out".into(), DType::I64);
        if self.cuda {
            self.acc = add(self, "acc".into(), DType::I64);
        }
        params
    }

    /// The launch spec: random inputs, a zeroed output, the atomics' slots.
    fn launch(&mut self, grid: [u32; 3], block: [u32; 3], out_d: DType, dts: &[DType]) -> Json {
        let mut args = serde_json::Map::new();
        for (k, d) in dts.iter().enumerate() {
            let seed = self.rng.next() % 1_000_000;
            let init = if d.is_float() {
                if self.rng.chance(0.5) {
                    json!({"seed": seed, "low": -8.0, "high": 8.0})
                } else {
                    json!({"seed": seed})
                }
            } else if *d == DType::Bool || self.rng.chance(0.3) {
                json!({"seed": seed})
            } else if d.is_signed_int() {
                json!({"seed": seed, "low": -20, "high": 20})
            } else {
                json!({"seed": seed, "low": 0, "high": 40})
            };
            args.insert(
                format!("a{k}"),
                json!({"buffer": {"dtype": d.json_name(), "len": self.n, "init": {"random": init}}}),
            );
        }
        args.insert(
            "out".into(),
            json!({"buffer": {"dtype": out_d.json_name(), "len": self.n}}),
        );
        if self.cuda {
            args.insert(
                "acc".into(),
                json!({"buffer": {"dtype": "int64", "data": [0, 0, 0, 0]}}),
            );
        }
        json!({"grid": grid, "block": block, "args": Json::Object(args)})
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzz::selftest;
    use ksem_interp::ir::canon::same_program;
    use ksem_interp::launch::parse_launch;

    #[test]
    fn generated_programs_exercise_every_feature() {
        let names = [
            "cuda_kernel",
            "cpu_kernel",
            "ids-2d",
            "thread-id",
            "arith",
            "truediv",
            "int-div",
            "floordiv",
            "mod",
            "bitwise",
            "shift",
            "cast",
            "clamp",
            "typed-const",
            "ifexp",
            "and/or",
            "not",
            "neg",
            "bitwise_not",
            "compare",
            "compare-swapped",
            "declare",
            "if",
            "for",
            "while",
            "break",
            "continue",
            "divergent-loop",
            "shared+barrier",
            "atomic",
            "pointer",
            "layout",
            "complex",
            "complex-compare",
            "vector",
            "vector-lane-write",
            "vector-lane-read",
            "vector-copy",
            "vector-neg",
            "pointer-difference",
        ];
        selftest::assert_features(300, |i| generate(2, i, false), &names);
    }

    /// Vector values are a good share of the programs, in both modes, and
    /// printed as vector tensors, whole-element copies and lanes; against
    /// real Hidet only f32x4/f32x8 (the CPU build declares no other).
    #[test]
    fn vectors_are_a_good_share_of_programs() {
        const ALL: [&str; 6] = [
            "float32x4",
            "float32x8",
            "float16x2",
            "bfloat16x2",
            "int8x4",
            "uint8x4",
        ];
        for real_peer in [false, true] {
            let n = 300;
            let mut with = 0;
            let mut types = BTreeSet::new();
            for i in 0..n {
                let p = generate(11, i, real_peer);
                if !p.features.contains("vector") {
                    continue;
                }
                with += 1;
                for t in ALL {
                    if p.source.contains(&format!("tensor(dtype={t}")) {
                        types.insert(t);
                    }
                }
                assert!(
                    p.source.contains("cast(~"),
                    "no lane access in:\n{}",
                    p.source
                );
            }
            assert!(
                with * 4 >= n,
                "only {with} of {n} programs use vectors (real_peer {real_peer})"
            );
            let want: &[&str] = if real_peer {
                &["float32x4", "float32x8"]
            } else {
                &ALL
            };
            let want: BTreeSet<&str> = want.iter().copied().collect();
            assert_eq!(types, want, "real_peer {real_peer}");
        }
    }

    /// The CUDA C of generated kernels with vectors, pointer differences
    /// and complex numbers compiles with NVRTC for sm_90 (without a GPU:
    /// libnvrtc on `LD_LIBRARY_PATH`, as `.ci/run` installs it; SKIPPED
    /// without it).
    #[test]
    fn generated_kernels_compile_with_nvrtc() {
        use ksem_gpu::cuda;
        if let Err(e) = cuda::nvrtc_available() {
            println!("SKIPPED generated_kernels_compile_with_nvrtc: {e}");
            return;
        }
        let (mut compiled, mut failures) = (0, Vec::new());
        for i in 0..200 {
            let p = generate(13, i, false);
            if !["vector", "pointer-difference", "complex"]
                .iter()
                .any(|f| p.features.contains(f))
            {
                continue;
            }
            let l = parse_launch(&p.launch.to_string()).expect("launch");
            let k =
                ksem_interp::elaborate_source("fuzz.py", &p.source, &l, None).expect("elaborates");
            let low = ksem_gpu::lower::lower(&k).expect("lowers");
            match cuda::nvrtc_compile(&low.source, "sm_90") {
                Ok(cubin) => {
                    assert!(!cubin.is_empty());
                    compiled += 1;
                }
                Err(e) => failures.push(format!("program {i}: {e}\n{}", p.source)),
            }
            if compiled + failures.len() == 24 {
                break;
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        assert_eq!(compiled, 24);
    }

    #[test]
    fn real_peer_programs_are_cpu_kernels() {
        for i in 0..100 {
            let p = generate(7, i, true);
            assert!(p.source.contains("'cpu_kernel'"), "{}", p.source);
            for word in ["threadIdx", "syncthreads()", "atomic_", "f16(", "bf16("] {
                let body = p.source.split("def fuzz_kernel").nth(1).unwrap_or("");
                assert!(!body.contains(word), "{word} in:\n{}", p.source);
            }
        }
    }

    /// A printer that drops an explicit cast is caught by the round trip.
    #[test]
    fn a_dropped_cast_is_caught() {
        let mut caught = 0;
        for i in 0..60 {
            let p = generate(5, i, false);
            let l = parse_launch(&p.launch.to_string()).expect("launch");
            let body_at = p.source.find("def fuzz_kernel").unwrap_or(0);
            // a cast inside an expression: one that is a whole assigned
            // value can be redundant on purpose (the printer writes it out
            // for Hidet's let inlining, divergence H10)
            let Some(at) = ["i32(", "i64(", "f32(", "u8(", "i16("]
                .iter()
                .filter_map(|c| {
                    p.source[body_at..]
                        .match_indices(c)
                        .map(|(x, _)| x + body_at)
                        .find(|&x| !p.source[..x].ends_with("= "))
                        .map(|x| (x, c.len() - 1))
                })
                .min()
            else {
                continue;
            };
            let mut wrong = p.source.clone();
            wrong.replace_range(at.0..at.0 + at.1, "");
            let Ok(k) = ksem_interp::elaborate_source("fuzz.py", &wrong, &l, None) else {
                continue;
            };
            let ir = p.ir.as_ref().expect("generated IR");
            if same_program(ir, &k).is_err() {
                caught += 1;
            }
        }
        assert!(caught >= 5, "only {caught} dropped casts were caught");
    }
}
