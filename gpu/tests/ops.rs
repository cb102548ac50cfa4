//! Element semantics of the generated code against the interpreter on many
//! bit patterns: every binary, unary and fma operation of every dtype, every
//! cast between dtypes (all roundings and overflow modes), on special values
//! plus seeded random bits (fp8: every pair of bit patterns), through typed
//! kernels built here and run on the host build (on the GPU with
//! `KSEM_TEST_CUDA=1`).

use ksem_gpu::Backend;
use ksem_interp::dtype::DType;
use ksem_interp::eval::RunOptions;
use ksem_interp::float::{self, ulp_distance, Overflow, Rounding};
use ksem_interp::ir::*;
use ksem_interp::launch::{ArgSpec, Launch, RunResult, SplitMix64};
use ksem_interp::ops;
use ksem_interp::span::Span;

const N: usize = 1024;
const G: usize = 64;
const TOTAL: usize = N * G;

/// Builds a kernel: one pointer param per input and output buffer; body
/// statements produced by `f` from the loaded input tiles.
struct Builder {
    params: Vec<Param>,
    vars: Vec<(String, Type)>,
    body: Block,
    launch_args: Vec<(String, ArgSpec)>,
    offs: Option<Expr>,
}

fn ex(kind: ExprKind, ty: Type) -> Expr {
    Expr {
        kind,
        ty,
        span: Span { line: 1, col: 1 },
    }
}

fn tile(d: DType) -> Type {
    Type::num(d, vec![N])
}

impl Builder {
    fn new() -> Builder {
        let mut b = Builder {
            params: vec![],
            vars: vec![],
            body: vec![],
            launch_args: vec![],
            offs: None,
        };
        // offs = program_id(0) * N + arange(0, N)
        let pid = ex(ExprKind::BlockId(0), Type::scalar(DType::I32));
        let n = ex(ExprKind::Const(N as u64), Type::scalar(DType::I32));
        let base = ex(
            ExprKind::Binary(BinOp::Mul, Box::new(pid), Box::new(n)),
            Type::scalar(DType::I32),
        );
        let base = ex(ExprKind::Broadcast(Box::new(base)), tile(DType::I32));
        let ar = ex(ExprKind::Iota(0, N as i64), tile(DType::I32));
        let offs = ex(
            ExprKind::Binary(BinOp::Add, Box::new(base), Box::new(ar)),
            tile(DType::I32),
        );
        let v = b.var("offs", tile(DType::I32));
        b.body.push(Stmt::Let(v, offs));
        b.offs = Some(ex(ExprKind::Var(v), tile(DType::I32)));
        b
    }

    fn var(&mut self, name: &str, ty: Type) -> VarId {
        self.vars.push((name.to_string(), ty));
        self.vars.len() - 1
    }

    /// Pointer tile `buf + offs`.
    fn ptrs(&mut self, name: &str, d: DType, bits: Vec<u64>) -> Expr {
        let v = self.var(
            name,
            Type {
                elem: Elem::Ptr(d, AddrSpace::Global),
                shape: vec![],
            },
        );
        self.params.push(Param {
            name: name.to_string(),
            kind: ParamKind::Pointer(d),
            var: Some(v),
        });
        self.launch_args.push((
            name.to_string(),
            ArgSpec::Buffer {
                dtype: d,
                bits,
                shape: None,
                undefined: None,
                complex: false,
                record: None,
                view: None,
                text: None,
                time: None,
            },
        ));
        let p = ex(
            ExprKind::Var(v),
            Type {
                elem: Elem::Ptr(d, AddrSpace::Global),
                shape: vec![],
            },
        );
        let pt = Type {
            elem: Elem::Ptr(d, AddrSpace::Global),
            shape: vec![N],
        };
        let p = ex(ExprKind::Broadcast(Box::new(p)), pt.clone());
        ex(
            ExprKind::Binary(
                BinOp::PtrAdd,
                Box::new(p),
                Box::new(self.offs.clone().unwrap()),
            ),
            pt,
        )
    }

    fn input(&mut self, name: &str, d: DType, bits: Vec<u64>) -> Expr {
        let p = self.ptrs(name, d, bits);
        let load = ex(
            ExprKind::Load {
                ptr: Box::new(p),
                mask: None,
                other: None,
            },
            tile(d),
        );
        let v = self.var(&format!("{name}_v"), tile(d));
        self.body.push(Stmt::Let(v, load));
        ex(ExprKind::Var(v), tile(d))
    }

    fn output(&mut self, name: &str, value: Expr) {
        let d = value.ty.dtype();
        let p = self.ptrs(name, d, vec![0; TOTAL]);
        self.body.push(Stmt::Store {
            ptr: p,
            value,
            mask: None,
            span: Span { line: 2, col: 1 },
        });
    }

    fn finish(self, name: &str) -> (Kernel, Launch) {
        (
            Kernel {
                name: name.to_string(),
                model: Model::Tile,
                grid: [G as u32, 1, 1],
                block: [1, 1, 1],
                params: self.params,
                fresh: vec![],
                arrays: vec![],
                vars: self.vars,
                body: self.body,
                then: vec![],
            },
            Launch {
                kernel: Some(name.to_string()),
                grid: Some([G as u32, 1, 1]),
                block: None,
                factory_args: vec![],
                args: self.launch_args,
                config: None,
                target: Default::default(),
                shared_bytes: 0,
                constants: vec![],
            },
        )
    }
}

/// A float32/float64 value at, or one ulp either side of, the midpoint
/// between two neighbouring float16 or bfloat16 values (normal, subnormal
/// or at the overflow edge): where a conversion's rounding shows.
fn narrowing_boundary(d: DType, r: u64) -> u64 {
    let narrow = if r & 8 == 0 { DType::F16 } else { DType::BF16 };
    let f = narrow.float_format().expect("float");
    // a positive finite narrow value below the largest
    let h = (r >> 8) % f.max_finite_bits();
    let (lo, hi) = (float::to_f64(narrow, h), float::to_f64(narrow, h + 1));
    // the midpoint needs one more bit than the narrow format: exact in d
    let mid = float::from_f64(
        d,
        (lo + hi) / 2.0,
        Rounding::NearestEven,
        Overflow::Infinity,
    );
    let bits = match (r >> 4) % 3 {
        0 => mid,
        1 => mid + 1,
        _ => mid.saturating_sub(1),
    };
    let sign = 1u64 << (d.bits() - 1);
    if (r >> 40) & 1 != 0 {
        bits | sign
    } else {
        bits
    }
}

/// Special bit patterns of a dtype followed by seeded random bits, TOTAL in all.
fn values(d: DType, seed: u64) -> Vec<u64> {
    let mut v: Vec<u64> = Vec::new();
    let mask = d.mask();
    if let Some(f) = d.float_format() {
        let sign = 1u64 << (f.exp_bits + f.man_bits);
        let mb = f.man_bits;
        let mut mags = vec![
            0,
            1,
            2,
            3,
            (1 << mb) - 1,
            1 << mb,
            (1 << mb) + 1,
            f.max_finite_bits(),
            f.max_finite_bits() - 1,
            f.nan_bits(),
            f.inf_bits(),
        ];
        if f.has_inf() {
            mags.push(f.inf_bits() + 1); // a non-canonical NaN
        }
        for x in [
            1.0, 0.5, 1.5, 2.0, 3.0, 0.1, 1e-3, 100.0, 65504.0, 448.0, 57344.0,
        ] {
            mags.push(float::from_f64(
                d,
                x,
                Rounding::NearestEven,
                Overflow::Saturate,
            ));
        }
        for m in mags {
            v.push(m & mask);
            v.push((m | sign) & mask);
        }
    } else {
        let (lo, hi) = d.int_range();
        for x in [
            0i128,
            1,
            2,
            3,
            7,
            8,
            31,
            32,
            63,
            64,
            -1,
            -2,
            -7,
            lo,
            hi,
            lo + 1,
            hi - 1,
        ] {
            if x >= lo && x <= hi {
                v.push((x as u64) & mask);
            }
        }
    }
    let mut g = SplitMix64(seed);
    if d.bits() == 8 {
        // every pair: element i = (i % 256, i / 256) across the two operands
        v.clear();
        for i in 0..TOTAL {
            v.push(((i as u64) >> (if seed & 1 == 0 { 0 } else { 8 })) & 0xff);
        }
        return v;
    }
    while v.len() < TOTAL {
        let r = g.next_u64();
        // mix fully random bits with small magnitudes (more rounding ties and exact results)
        let x = match r % 4 {
            0 => r >> 2,
            1 => (r >> 2) & 0xff,
            2 => {
                if let Some(f) = d.float_format() {
                    // values around 1.0 and subnormals
                    let e = (r >> 8) % 6;
                    let one = float::from_f64(d, 1.0, Rounding::NearestEven, Overflow::Infinity);
                    if e == 0 {
                        (r >> 20) & ((1u64 << f.man_bits) - 1)
                    } else {
                        one ^ ((r >> 20) & ((1u64 << (f.man_bits + 1)) - 1))
                    }
                } else {
                    (r >> 2).wrapping_neg() & 0xffff
                }
            }
            3 if r & 4 != 0 && matches!(d, DType::F32 | DType::F64) => narrowing_boundary(d, r),
            _ => (r >> 2).wrapping_neg(),
        };
        v.push(x & mask);
    }
    v.truncate(TOTAL);
    if d == DType::Bool {
        for x in &mut v {
            *x &= 1;
        }
    }
    v
}

fn bin(op: BinOp, a: &Expr, b: &Expr) -> Expr {
    let d = if op.is_comparison() || matches!(op, BinOp::LogicalAnd | BinOp::LogicalOr) {
        DType::Bool
    } else {
        a.ty.dtype()
    };
    ex(
        ExprKind::Binary(op, Box::new(a.clone()), Box::new(b.clone())),
        tile(d),
    )
}

fn compare(want: &RunResult, got: &RunResult, what: &str) -> Vec<String> {
    assert!(
        want.ub.is_empty(),
        "{what}: the interpreter found UB: {:?}",
        want.ub[0]
    );
    let mut bad = Vec::new();
    for (w, g) in want.buffers.iter().zip(&got.buffers) {
        let mut n = 0;
        for i in 0..w.bits.len() {
            let (a, b) = (w.bits[i], g.bits[i]);
            // The interpreter's float64 erf (an alternating series) loses up to
            // a few dozen ulps to cancellation for 1 < |x| < 2.5. tgamma and
            // lgamma are the libm crate's (musl's) beside the host's glibc:
            // on 4M random arguments (a quarter in [-200, 200]) they differ
            // by at most 10 ulp (tgamma; 6 in float32), and lgamma by
            // thousands of ulp near its zeros (x ≈ -4.9915), where its
            // value is tiny: there both stay within 5 ulp of 1.0 absolute
            // (3 in float32), so lgamma is held to 16 ulp or 8 ulp of 1.0.
            let bound = match (w.dtype, w.name.as_str()) {
                (DType::F64, "o_erf") => 64,
                (_, "o_tgamma" | "o_lgamma") => 16,
                _ => 4,
            };
            let near_a_zero = w.name == "o_lgamma" && {
                let (x, y) = (float::to_f64(w.dtype, a), float::to_f64(w.dtype, b));
                let one_ulp = if w.dtype == DType::F64 {
                    f64::EPSILON
                } else {
                    f32::EPSILON as f64
                };
                (x - y).abs() <= 8.0 * one_ulp
            };
            if a == b || (w.inexact[i] && (ulp_distance(w.dtype, a, b) <= bound || near_a_zero)) {
                continue;
            }
            n += 1;
            if n <= 3 {
                bad.push(format!(
                    "{what}: {}[{i}] ({}): interp {a:#x}, host {b:#x}",
                    w.name,
                    w.dtype.name()
                ));
            }
        }
    }
    bad
}

/// Compiles the kernel with NVRTC too when libnvrtc is loadable (every
/// template instantiation of the runtime must compile for the device).
fn nvrtc_check(k: &Kernel) {
    if ksem_gpu::cuda::nvrtc_available().is_ok() {
        let src = ksem_gpu::lower::lower(k).expect("lowers").source;
        ksem_gpu::cuda::nvrtc_compile(&src, "sm_90").unwrap_or_else(|e| panic!("{}: {e}", k.name));
    }
}

/// The backend under test: the GPU with `KSEM_TEST_CUDA=1` (on a machine
/// with one: its runtime takes hardware paths the host build does not), else
/// the host build.
fn backend() -> Backend {
    if std::env::var("KSEM_TEST_CUDA").ok().as_deref() == Some("1") {
        Backend::Cuda
    } else {
        Backend::Host
    }
}

fn run_both(k: &Kernel, l: &Launch) -> (RunResult, RunResult) {
    nvrtc_check(k);
    let want = ksem_interp::eval::run(k, l, &RunOptions::default()).expect("interp runs");
    let got = ksem_gpu::run(k, l, backend()).unwrap_or_else(|e| panic!("{}: {e}", k.name));
    (want, got)
}

#[test]
fn binary_unary_fma_all_dtypes() {
    let mut bad = Vec::new();
    for d in DType::ALL {
        let mut b = Builder::new();
        let xa = values(d, 1);
        let ya = values(d, 2);
        let za = values(d, 3);
        // divisors and shift amounts that are not UB
        let (lo, _) = d.int_range();
        let div: Vec<u64> = ya
            .iter()
            .zip(&xa)
            .map(|(&y, &x)| {
                if d.is_float() {
                    return y;
                }
                let yv = ops::int_value(d, y);
                if yv == 0 || (d.is_signed_int() && yv == -1 && ops::int_value(d, x) == lo) {
                    1
                } else {
                    y
                }
            })
            .collect();
        let sh: Vec<u64> = ya.iter().map(|&y| y % d.bits() as u64).collect();
        let x = b.input("x", d, xa);
        let y = b.input("y", d, ya);
        let z = b.input("z", d, za);
        let mut outs: Vec<(String, Expr)> = Vec::new();
        let cmps = [
            BinOp::Eq,
            BinOp::Ne,
            BinOp::Lt,
            BinOp::Le,
            BinOp::Gt,
            BinOp::Ge,
        ];
        if d.is_float() {
            for op in [
                BinOp::Add,
                BinOp::Sub,
                BinOp::Mul,
                BinOp::FDiv,
                BinOp::FRem,
                BinOp::Min(NanMode::Ignore),
                BinOp::Max(NanMode::Ignore),
                BinOp::Min(NanMode::Propagate),
                BinOp::Max(NanMode::Propagate),
            ]
            .into_iter()
            .chain(cmps)
            {
                outs.push((format!("{op:?}"), bin(op, &x, &y)));
            }
            // erf(±0) and erf of tiny f64 subnormals make the interpreter loop
            // forever (its series' stopping test underflows): feed erf the
            // inputs with those replaced by 1.
            let one = float::from_f64(d, 1.0, Rounding::NearestEven, Overflow::Infinity);
            let xe: Vec<u64> = values(d, 1)
                .into_iter()
                .map(|v| {
                    if float::to_f64(d, v).abs() < 1e-280 {
                        one
                    } else {
                        v
                    }
                })
                .collect();
            let xe = b.input("xe", d, xe);
            outs.push((
                "erf".into(),
                ex(
                    ExprKind::Unary(UnOp::Math(MathFn::Erf), Box::new(xe)),
                    tile(d),
                ),
            ));
            // every math function but erf (above, on its own domain)
            for f in MathFn::ALL.into_iter().filter(|&f| f != MathFn::Erf) {
                outs.push((
                    f.name().into(),
                    ex(ExprKind::Unary(UnOp::Math(f), Box::new(x.clone())), tile(d)),
                ));
            }
            outs.push((
                "fma".into(),
                ex(
                    ExprKind::Fma(
                        Box::new(x.clone()),
                        Box::new(y.clone()),
                        Box::new(z.clone()),
                        ksem_interp::float::Rounding::NearestEven,
                    ),
                    tile(d),
                ),
            ));
            if matches!(d, DType::F32 | DType::F64) {
                // the rounding-mode operations (TileLang's T.ieee_*):
                // ieee.rs on integers against the runtime's CUDA intrinsics
                // (the host build: C's operations under fesetround)
                for r in [
                    Rounding::NearestEven,
                    Rounding::TowardZero,
                    Rounding::Up,
                    Rounding::Down,
                ] {
                    let fma = ExprKind::Fma(
                        Box::new(x.clone()),
                        Box::new(y.clone()),
                        Box::new(z.clone()),
                        r,
                    );
                    outs.push((format!("fma[{r:?}]"), ex(fma, tile(d))));
                    for o in [
                        IeeeBinary::Add,
                        IeeeBinary::Sub,
                        IeeeBinary::Mul,
                        IeeeBinary::Div,
                    ] {
                        outs.push((format!("{o:?}[{r:?}]"), bin(BinOp::Ieee(o, r), &x, &y)));
                    }
                    for o in [IeeeUnary::Sqrt, IeeeUnary::Rcp] {
                        let u = ExprKind::Unary(UnOp::Ieee(o, r), Box::new(x.clone()));
                        outs.push((format!("{o:?}[{r:?}]"), ex(u, tile(d))));
                    }
                }
                if d == DType::F32 {
                    let u = ExprKind::Unary(
                        UnOp::Ieee(IeeeUnary::Rsqrt, Rounding::NearestEven),
                        Box::new(x.clone()),
                    );
                    outs.push(("rsqrt[rn]".into(), ex(u, tile(d))));
                }
            }
        } else {
            let dv = b.input("div", d, div);
            let s = b.input("sh", d, sh);
            for op in [
                BinOp::Add,
                BinOp::Sub,
                BinOp::Mul,
                BinOp::And,
                BinOp::Or,
                BinOp::Xor,
                BinOp::Min(NanMode::Ignore),
                BinOp::Max(NanMode::Ignore),
                BinOp::LogicalAnd,
                BinOp::LogicalOr,
            ]
            .into_iter()
            .chain(cmps)
            {
                if matches!(op, BinOp::LogicalAnd | BinOp::LogicalOr) && d != DType::Bool {
                    continue;
                }
                outs.push((format!("{op:?}"), bin(op, &x, &y)));
            }
            for op in [
                BinOp::IDiv(IntDiv::TRUNC),
                BinOp::IDiv(IntDiv::FLOOR),
                BinOp::IRem(IntDiv::TRUNC),
                BinOp::IRem(IntDiv::FLOOR),
            ] {
                outs.push((format!("{op:?}"), bin(op, &x, &dv)));
            }
            for op in [
                BinOp::Shl(ShiftRange::Ub),
                BinOp::Shr(ShrKind::Arith, ShiftRange::Ub),
                BinOp::Shr(ShrKind::Logical, ShiftRange::Ub),
            ] {
                outs.push((format!("{op:?}"), bin(op, &x, &s)));
            }
            outs.push((
                "not".into(),
                ex(ExprKind::Unary(UnOp::Not, Box::new(x.clone())), tile(d)),
            ));
            outs.push((
                "abs".into(),
                ex(
                    ExprKind::Unary(UnOp::Math(MathFn::Abs), Box::new(x.clone())),
                    tile(d),
                ),
            ));
            if d == DType::Bool {
                outs.push((
                    "lnot".into(),
                    ex(
                        ExprKind::Unary(UnOp::LogicalNot, Box::new(x.clone())),
                        tile(d),
                    ),
                ));
            }
        }
        // select between x and y on x < y
        let c = bin(BinOp::Lt, &x, &y);
        outs.push((
            "select".into(),
            ex(
                ExprKind::Select(Box::new(c), Box::new(x.clone()), Box::new(y.clone())),
                tile(d),
            ),
        ));
        for (name, e) in outs {
            let name: String = name.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
            b.output(&format!("o_{name}"), e);
        }
        let (k, l) = b.finish(&format!("ops_{}", d.name()));
        let (want, got) = run_both(&k, &l);
        bad.extend(compare(&want, &got, &k.name));
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn casts_between_all_dtypes() {
    let mut bad = Vec::new();
    for from in DType::ALL {
        let mut b = Builder::new();
        let xa = values(from, 5);
        let x = b.input("x", from, xa.clone());
        for to in DType::ALL {
            if to == from {
                continue;
            }
            let mut kinds = vec![CastKind::Convert(Rounding::NearestEven, Overflow::Infinity)];
            if to.is_float() && from.bits() >= to.bits() {
                kinds.push(CastKind::Convert(Rounding::TowardZero, Overflow::Infinity));
                kinds.push(CastKind::Convert(Rounding::NearestEven, Overflow::Saturate));
                kinds.push(CastKind::Convert(Rounding::TowardZero, Overflow::Saturate));
            }
            if from.bits() == to.bits() {
                kinds.push(CastKind::Bitcast);
            }
            for (ki, kind) in kinds.into_iter().enumerate() {
                let src = if from.is_float() && to.is_int() && to != DType::Bool {
                    // float -> int is UB out of range: select 0 there
                    let ok: Vec<u64> = xa
                        .iter()
                        .map(|&v| ops::cast(kind, from, to, v).is_ok() as u64)
                        .collect();
                    let okv = b.input(&format!("ok_{}_{ki}", to.name()), DType::Bool, ok);
                    let zero = ex(ExprKind::Const(0), Type::scalar(from));
                    let zero = ex(ExprKind::Broadcast(Box::new(zero)), tile(from));
                    ex(
                        ExprKind::Select(Box::new(okv), Box::new(x.clone()), Box::new(zero)),
                        tile(from),
                    )
                } else {
                    x.clone()
                };
                let e = ex(ExprKind::Cast(Box::new(src), kind), tile(to));
                b.output(&format!("to_{}_{ki}", to.name()), e);
            }
        }
        let (k, l) = b.finish(&format!("casts_from_{}", from.name()));
        let (want, got) = run_both(&k, &l);
        bad.extend(compare(&want, &got, &k.name));
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
