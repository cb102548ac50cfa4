//! The CUDA Python program generator: SIMT kernels with divergent control
//! flow, shared memory exchanged between barriers, integer atomics whose
//! totals do not depend on the order, device functions and the seed's mixed
//! integer/float typing. Programs are UB-free by construction: every thread
//! reads and writes only its own elements of the global arrays, shared
//! memory is written at the thread's own index and read only after a
//! barrier (with another barrier before the next write), barriers sit in
//! the kernel's entry block, shift amounts are masked to 0..7, float
//! values reach an integer type only clamped to ±1000, and loops have
//! small constant trip counts. Integer `//` and `%` need no guard: a zero
//! divisor gives 0 in CUDA Python.

use super::gen::Program;
use super::rng::Rng;
use ksem_interp::dtype::DType;
use ksem_interp::frontend::cudapy::types::{promote, Named};
use serde_json::{json, Value as Json};
use std::collections::BTreeSet;

/// The dtypes values take: every integer, float32 and float64.
fn dtypes() -> Vec<DType> {
    DType::ALL
        .into_iter()
        .filter(|&d| (d.is_int() && d != DType::Bool) || matches!(d, DType::F32 | DType::F64))
        .collect()
}

/// The type-object name of a dtype (`int16`, `float32`).
fn tname(d: DType) -> String {
    Named(d).to_string()
}

/// A float expression clamped into the range of integer dtype `to` (and to
/// ±1000), so converting it is defined; a NaN becomes the lower bound.
fn clamp(x: &str, to: DType) -> String {
    let (lo, hi) = match to {
        DType::I8 => (-128, 127),
        DType::U8 => (0, 255),
        d if d.is_signed_int() => (-1000, 1000),
        _ => (0, 1000),
    };
    format!("min(max({x}, {lo}.0), {hi}.0)")
}

/// A value of the program: its Python text and dtype.
#[derive(Clone)]
struct V {
    text: String,
    d: DType,
}

struct Gen {
    rng: Rng,
    /// Live variables (name, dtype).
    vars: Vec<(String, DType)>,
    next_var: usize,
    lines: Vec<String>,
    indent: usize,
    features: BTreeSet<&'static str>,
    block: u32,
    helper: bool,
}

/// Generates program `index` of campaign `seed`.
pub fn generate(seed: u64, index: u64) -> Program {
    let mut rng = Rng::new(seed, index);
    // 1-, 2- or 3-d blocks and grids; `block` threads per block in all
    let dims = 1 + rng.below(3);
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
    let mut g = Gen {
        rng,
        vars: Vec::new(),
        next_var: 0,
        lines: Vec::new(),
        indent: 1,
        features: BTreeSet::new(),
        block,
        helper: false,
    };
    g.helper = g.rng.chance(0.4);
    let n_inputs = 1 + g.rng.below(3);
    let inputs: Vec<DType> = (0..n_inputs).map(|_| *g.rng.pick(&dtypes())).collect();
    let n = (grid * block) as usize;
    // i: the thread's linear index in the grid; t: in its block
    match dims {
        1 => {
            g.line("i = cuda.grid(1)");
            g.line("t = cuda.threadIdx.x");
        }
        2 => {
            g.features.insert("ids-2d");
            g.line("gx, gy = cuda.grid(2)");
            g.line("w, h = cuda.gridsize(2)");
            g.line("i = gy * w + gx");
            g.line("t = cuda.threadIdx.y * cuda.blockDim.x + cuda.threadIdx.x");
        }
        _ => {
            g.features.insert("ids-3d");
            g.line("gx, gy, gz = cuda.grid(3)");
            g.line("w, h, dd = cuda.gridsize(3)");
            g.line("i = (gz * h + gy) * w + gx");
            g.line("t = (cuda.threadIdx.z * cuda.blockDim.y + cuda.threadIdx.y) * cuda.blockDim.x + cuda.threadIdx.x");
        }
    }
    g.vars.push(("i".into(), DType::I64));
    g.vars.push(("t".into(), DType::I32));
    let shared_d = *g.rng.pick(&dtypes());
    let uses_shared = g.rng.chance(0.5);
    if uses_shared {
        g.line(&format!(
            "s = cuda.shared.array({block}, {})",
            tname(shared_d)
        ));
    }
    for (k, d) in inputs.iter().enumerate() {
        g.line(&format!("x{k} = a{k}[i]"));
        g.vars.push((format!("x{k}"), *d));
    }
    let stmts = 3 + g.rng.below(6);
    for _ in 0..stmts {
        match g.rng.below(10) {
            0 | 1 if uses_shared => g.exchange(shared_d),
            2 => g.branch(),
            3 => g.loop_(),
            4 => g.atomic(),
            _ => g.assign(),
        }
    }
    let result = g.expr(3);
    let out_d = result.d;
    g.line(&format!("out[i] = {}", result.text));
    let mut src = String::from(
        "from numba import cuda, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float32, float64\nimport math\n\n",
    );
    if g.helper {
        src.push_str("@cuda.jit(device=True)\ndef helper(p, q):\n    if p < q:\n        return p - q\n    for k in range(3):\n        if p > q * k:\n            return p * k\n    return q\n\n");
    }
    let params: Vec<String> = (0..n_inputs).map(|k| format!("a{k}")).collect();
    src.push_str(&format!(
        "@cuda.jit\ndef fuzz_kernel({}, out, acc):\n",
        params.join(", ")
    ));
    for l in &g.lines {
        src.push_str(l);
        src.push('\n');
    }
    let mut args = serde_json::Map::new();
    for (k, d) in inputs.iter().enumerate() {
        let mut init = json!({"seed": g.rng.next() % 1_000_000});
        if !d.is_float() && g.rng.chance(0.5) {
            init = json!({"seed": g.rng.next() % 1_000_000, "low": -20, "high": 20});
            if !d.is_signed_int() {
                init = json!({"seed": g.rng.next() % 1_000_000, "low": 0, "high": 40});
            }
        }
        args.insert(
            format!("a{k}"),
            json!({"buffer": {"dtype": d.json_name(), "len": n, "init": {"random": init}}}),
        );
    }
    args.insert(
        "out".into(),
        json!({"buffer": {"dtype": out_d.json_name(), "len": n}}),
    );
    args.insert(
        "acc".into(),
        json!({"buffer": {"dtype": "int64", "data": [0, 0, 0, 0, 0, -1]}}),
    );
    let launch: Json =
        json!({"grid": [grid, 1, 1], "block": [block, 1, 1], "args": Json::Object(args)});
    Program {
        source: src,
        launch,
        features: g.features,
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

    /// A leaf: a variable or a literal.
    fn leaf(&mut self) -> V {
        if self.rng.chance(0.75) && !self.vars.is_empty() {
            let (n, d) = self.rng.pick(&self.vars).clone();
            return V { text: n, d };
        }
        if self.rng.chance(0.5) {
            let v = self.rng.below(41) as i64 - 20;
            V {
                text: if v < 0 {
                    format!("({v})")
                } else {
                    v.to_string()
                },
                d: DType::I64,
            }
        } else {
            let v = (self.rng.below(801) as f64 - 400.0) / 16.0;
            V {
                text: if v < 0.0 {
                    format!("({v:?})")
                } else {
                    format!("{v:?}")
                },
                d: DType::F64,
            }
        }
    }

    /// An expression of nesting at most `depth`.
    fn expr(&mut self, depth: usize) -> V {
        if depth == 0 || self.rng.chance(0.3) {
            return self.leaf();
        }
        match self.rng.below(12) {
            0..=4 => {
                let (a, b) = (self.expr(depth - 1), self.expr(depth - 1));
                let op = *self.rng.pick(&["+", "-", "*", "/", "%", "//"]);
                let c = promote(a.d, b.d);
                let d = match op {
                    "/" => ksem_interp::frontend::cudapy::types::truediv_type(a.d, b.d),
                    "//" if c.is_float() => return self.combine(a, "+", b),
                    "//" => ksem_interp::frontend::cudapy::types::floordiv_result(c),
                    _ => c,
                };
                self.features.insert(match op {
                    "/" => "truediv",
                    "%" | "//" => "floordiv/mod",
                    _ => "arith",
                });
                V {
                    text: format!("({} {op} {})", a.text, b.text),
                    d,
                }
            }
            5 => {
                let (a, b) = (self.int_expr(depth - 1), self.int_expr(depth - 1));
                let op = *self.rng.pick(&["&", "|", "^", "<<", ">>"]);
                self.features.insert("bitwise");
                let rhs = if op == "<<" || op == ">>" {
                    format!("({} & 7)", b.text)
                } else {
                    b.text
                };
                V {
                    text: format!("({} {op} {rhs})", a.text),
                    d: promote(a.d, b.d),
                }
            }
            6 => {
                // a conversion by a type object; floats are clamped first
                let x = self.expr(depth - 1);
                let to = *self.rng.pick(&dtypes());
                self.features.insert("convert");
                let inner = if x.d.is_float() && !to.is_float() {
                    clamp(&x.text, to)
                } else {
                    x.text
                };
                V {
                    text: format!("{}({inner})", tname(to)),
                    d: to,
                }
            }
            7 => {
                let (c, a, b) = (
                    self.cond(depth - 1),
                    self.expr(depth - 1),
                    self.expr(depth - 1),
                );
                self.features.insert("ifexp");
                let d = promote(a.d, b.d);
                V {
                    text: format!("({} if {} else {})", a.text, c, b.text),
                    d,
                }
            }
            8 => {
                let (a, b) = (self.expr(depth - 1), self.expr(depth - 1));
                let f = *self.rng.pick(&["min", "max"]);
                self.features.insert("minmax");
                V {
                    text: format!("{f}({}, {})", a.text, b.text),
                    d: promote(a.d, b.d),
                }
            }
            9 if self.helper => {
                let (a, b) = (self.expr(depth - 1), self.expr(depth - 1));
                self.features.insert("device-function");
                // the helper's result: p - q, p * k or q, unified to the
                // type of its first return (p - q)
                V {
                    text: format!("helper({}, {})", a.text, b.text),
                    d: promote(a.d, b.d),
                }
            }
            10 => {
                let x = self.expr(depth - 1);
                self.features.insert("unary");
                if x.d.is_float() {
                    if self.rng.chance(0.5) {
                        self.features.insert("math");
                        let f =
                            *self
                                .rng
                                .pick(&["math.sqrt", "math.fabs", "math.floor", "math.ceil"]);
                        V {
                            text: format!("{f}({})", x.text),
                            d: x.d,
                        }
                    } else {
                        V {
                            text: format!("(-{})", x.text),
                            d: x.d,
                        }
                    }
                } else {
                    let w = if x.d.is_signed_int() {
                        DType::I64
                    } else {
                        DType::U64
                    };
                    let op = *self.rng.pick(&["-", "~"]);
                    V {
                        text: format!("({op}{})", x.text),
                        d: w,
                    }
                }
            }
            _ => {
                let x = self.expr(depth - 1);
                self.features.insert("abs");
                V {
                    text: format!("abs({})", x.text),
                    d: x.d,
                }
            }
        }
    }

    fn combine(&mut self, a: V, op: &str, b: V) -> V {
        V {
            text: format!("({} {op} {})", a.text, b.text),
            d: promote(a.d, b.d),
        }
    }

    /// An integer expression (floats converted after clamping).
    fn int_expr(&mut self, depth: usize) -> V {
        let x = self.expr(depth);
        if x.d.is_float() {
            V {
                text: format!("int32(min(max({}, -1000.0), 1000.0))", x.text),
                d: DType::I32,
            }
        } else {
            x
        }
    }

    /// An expression that a variable of dtype `d` can take inside a loop or
    /// branch, where the value is converted to `d`: no float for an int.
    fn expr_for(&mut self, d: DType, depth: usize) -> V {
        if d.is_float() {
            self.expr(depth)
        } else {
            self.int_expr(depth)
        }
    }

    /// A condition.
    fn cond(&mut self, depth: usize) -> String {
        let (a, b) = (self.expr(depth), self.expr(depth));
        let op = *self.rng.pick(&["<", "<=", ">", ">=", "==", "!="]);
        let c = format!("{} {op} {}", a.text, b.text);
        if self.rng.chance(0.25) {
            let d = self.expr(depth);
            self.features.insert("and/or");
            let j = *self.rng.pick(&["and", "or"]);
            return format!("({c}) {j} ({} > 0)", d.text);
        }
        c
    }

    fn assign(&mut self) {
        let e = self.expr(3);
        let n = self.fresh();
        self.line(&format!("{n} = {}", e.text));
        self.vars.push((n, e.d));
    }

    /// `if`/`else` on a per-thread condition (divergent). Variables assigned
    /// in a branch keep the type they had before it (the seed's rule), so
    /// only existing variables are reassigned there.
    fn branch(&mut self) {
        self.features.insert("divergent-if");
        let c = self.cond(2);
        // make sure the branches have variables to update
        let target = self.fresh();
        let init = self.expr(2);
        self.line(&format!("{target} = {}", init.text));
        self.line(&format!("if {c}:"));
        self.indent += 1;
        let e = self.expr_for(init.d, 2);
        self.line(&format!("{target} = {}", e.text));
        if self.rng.chance(0.3) {
            self.line(&format!("{target} = {target} + 1"));
        }
        self.indent -= 1;
        if self.rng.chance(0.6) {
            self.line("else:");
            self.indent += 1;
            let e = self.expr_for(init.d, 2);
            self.line(&format!("{target} = {}", e.text));
            self.indent -= 1;
        }
        self.vars.push((target, init.d));
    }

    /// A loop with a small trip count that may depend on the thread, with
    /// `break`/`continue`; the accumulator keeps its pre-loop type.
    fn loop_(&mut self) {
        self.features.insert("loop");
        let acc = self.fresh();
        let init = self.expr(1);
        self.line(&format!("{acc} = {}", init.text));
        let k = self.fresh();
        let trips = if self.rng.chance(0.5) {
            format!("{}", 1 + self.rng.below(5))
        } else {
            self.features.insert("divergent-loop");
            "t % 5".to_string()
        };
        self.line(&format!("for {k} in range({trips}):"));
        self.indent += 1;
        self.vars.push((k.clone(), DType::I64));
        if self.rng.chance(0.3) {
            let c = self.cond(1);
            self.line(&format!("if {c}:"));
            self.indent += 1;
            let jump = if self.rng.chance(0.5) {
                "break"
            } else {
                "continue"
            };
            self.line(jump);
            self.indent -= 1;
        }
        let e = self.expr_for(init.d, 2);
        self.line(&format!("{acc} = {acc} + {}", e.text));
        self.indent -= 1;
        self.vars.pop();
        self.vars.push((acc, init.d));
    }

    /// A shared-memory exchange: write the own element, barrier, read a
    /// neighbour's, barrier (so a later write cannot race with this read).
    fn exchange(&mut self, d: DType) {
        self.features.insert("shared+barrier");
        let e = self.expr(2);
        let text = if e.d.is_float() && !d.is_float() {
            clamp(&e.text, d)
        } else {
            e.text
        };
        self.line(&format!("s[t] = {text}"));
        self.line("cuda.syncthreads()");
        let off = 1 + self.rng.below(self.block as usize - 1);
        let n = self.fresh();
        self.line(&format!("{n} = s[(t + {off}) % {}]", self.block));
        self.line("cuda.syncthreads()");
        self.vars.push((n, d));
    }

    /// An integer atomic whose final value does not depend on the order.
    fn atomic(&mut self) {
        self.features.insert("atomic");
        let e = self.int_expr(2);
        // one operation per slot: different operations on one element do
        // not commute
        let slot = self.rng.below(6);
        let op = ["add", "max", "min", "or_", "xor", "and_"][slot];
        self.line(&format!("cuda.atomic.{op}(acc, {slot}, {})", e.text));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ksem_interp::eval::RunOptions;
    use ksem_interp::launch::parse_launch;

    #[test]
    fn generated_cudapy_programs_elaborate_and_are_ub_free() {
        let (mut errors, mut ub) = (Vec::new(), Vec::new());
        let n = 200;
        for i in 0..n {
            let p = generate(1, i);
            let l = parse_launch(&p.launch.to_string()).expect("launch");
            let opts = RunOptions {
                threads: 1,
                ..Default::default()
            };
            match ksem_interp::run_source("fuzz.py", &p.source, &l, None, &opts) {
                Ok(r) => {
                    if let Some(u) = r.ub.first() {
                        ub.push(format!(
                            "program {i}: {} {}:{} {}\n{}",
                            u.kind, u.line, u.col, u.message, p.source
                        ));
                    }
                }
                Err(e) => errors.push(format!("program {i}: {}\n{}", e.render(), p.source)),
            }
        }
        assert!(
            errors.is_empty(),
            "{} of {n} do not elaborate:\n{}",
            errors.len(),
            errors[0]
        );
        assert!(ub.is_empty(), "{} of {n} hit UB:\n{}", ub.len(), ub[0]);
    }

    #[test]
    fn generation_is_deterministic() {
        assert_eq!(generate(3, 5).source, generate(3, 5).source);
        assert_ne!(generate(3, 5).source, generate(4, 5).source);
    }
}
