//! The evaluator: runs a typed kernel over a launch grid, one program
//! instance per task (in parallel), with tiles held as ndarray arrays of bit
//! patterns. Undefined behaviour stops the instance and is reported.

use super::contention::{self, Contention, Elem};
use super::memory::{
    ptr_add, ptr_add_bytes, ptr_add_i64, ptr_parts, unravel, Access, Buffer, Global,
};
use super::undef::{self, Origins, Shadow, Source, Use};
use super::{format_value, regprog, Flow, ProgramPath, RunOptions, Stop};
use crate::dtype::DType;
use crate::ir::*;
use crate::launch::UbReport;
use crate::ops::{self, UbKind};
use crate::span::{Diagnostic, Span};
use ndarray::{ArcArray, IxDyn};
use std::borrow::Cow;
use std::sync::atomic::Ordering;

mod combine;

/// A runtime value: bit patterns of a tile, and each element's
/// [`Shadow`] (inexact, undefined) where any is not exact and defined.
#[derive(Clone, Debug)]
pub struct Tile {
    pub data: ArcArray<u64, IxDyn>,
    pub shadow: Option<ArcArray<Shadow, IxDyn>>,
}

impl Tile {
    fn scalar(bits: u64) -> Tile {
        Tile {
            data: ArcArray::from_elem(IxDyn(&[]), bits),
            shadow: None,
        }
    }
    fn from_vec(shape: &[usize], v: Vec<u64>, shadow: Option<Vec<Shadow>>) -> Tile {
        let data = ArcArray::from_shape_vec(IxDyn(shape), v).expect("shape matches");
        let shadow = shadow
            .filter(|i| i.iter().any(|&x| x != Shadow::EXACT))
            .map(|i| ArcArray::from_shape_vec(IxDyn(shape), i).expect("shape matches"));
        Tile { data, shadow }
    }
    /// Element `i`'s shadow (a 0-d tile's one element for any `i`).
    fn shadow_at(&self, i: usize) -> Shadow {
        self.shadow.as_ref().map_or(Shadow::EXACT, |a| {
            if a.ndim() == 0 || a.len() == 1 {
                a.iter().next().copied().unwrap_or_default()
            } else {
                a.as_slice()
                    .map_or_else(|| a.iter().nth(i).copied().unwrap_or_default(), |s| s[i])
            }
        })
    }
    fn flat(&self) -> Vec<u64> {
        self.data.iter().copied().collect()
    }
    /// The per-element shadows in row-major order, if any is not exact.
    fn shadow_vec(&self) -> Option<Vec<Shadow>> {
        self.shadow.as_ref().map(|i| match i.as_slice() {
            Some(s) => s.to_vec(),
            None => i.iter().copied().collect(),
        })
    }
    /// The per-element shadows in row-major order, borrowed when they are
    /// contiguous; `None`: every element is exact and defined.
    fn shadow_flags(&self) -> Option<Cow<'_, [Shadow]>> {
        self.shadow.as_ref().map(|i| match i.as_slice() {
            Some(s) => Cow::Borrowed(s),
            None => Cow::Owned(i.iter().copied().collect()),
        })
    }
    /// The per-element shadows, for reading many of them.
    fn shadows(&self) -> Shadows<'_> {
        Shadows(self.shadow_flags())
    }
    /// The first undefined element (row-major) among those `active` keeps.
    fn first_undefined(&self, active: impl Fn(usize) -> bool) -> Option<(usize, Shadow)> {
        let s = self.shadow.as_ref()?;
        if s.len() == 1 {
            let x = s.iter().next().copied().unwrap_or_default();
            return (x.is_undefined() && (0..self.data.len().max(1)).any(&active))
                .then_some((0, x));
        }
        let undefined =
            |(i, &x): (usize, &Shadow)| (x.is_undefined() && active(i)).then_some((i, x));
        match s.as_slice() {
            Some(flat) => flat.iter().enumerate().find_map(undefined),
            None => s.iter().enumerate().find_map(undefined),
        }
    }
    /// The elements in row-major order, borrowed when they are contiguous.
    fn vals(&self) -> Cow<'_, [u64]> {
        match self.data.as_slice() {
            Some(s) => Cow::Borrowed(s),
            None => Cow::Owned(self.flat()),
        }
    }
}

/// A tile's shadows in row-major order (`None`: all exact and defined; one:
/// a 0-d tile's, for every element).
struct Shadows<'a>(Option<Cow<'a, [Shadow]>>);

impl Shadows<'_> {
    #[inline]
    fn at(&self, i: usize) -> Shadow {
        match &self.0 {
            None => Shadow::EXACT,
            Some(f) if f.len() == 1 => f[0],
            Some(f) => f[i],
        }
    }
}

/// Consecutive elements of one buffer that one load or store reached, to
/// be logged as one access range.
#[derive(Default)]
struct Run {
    /// (buffer, first element, elements)
    cur: Option<(usize, u64, u64)>,
}

impl Run {
    /// Adds element `off` of buffer `b`; a range it does not extend goes
    /// to `log` as `make(buffer, start, len)`.
    fn push(
        &mut self,
        b: usize,
        off: u64,
        log: &mut Vec<Access>,
        make: impl Fn(usize, u64, u64) -> Access,
    ) {
        if let Some((cb, start, len)) = &mut self.cur {
            if *cb == b && *start + *len == off {
                *len += 1;
                return;
            }
        }
        self.flush(log, make);
        self.cur = Some((b, off, 1));
    }
    /// Logs the range in progress.
    fn flush(&mut self, log: &mut Vec<Access>, make: impl Fn(usize, u64, u64) -> Access) {
        if let Some((b, start, len)) = self.cur.take() {
            log.push(make(b, start, len));
        }
    }
}

struct Instance<'a> {
    k: &'a Kernel,
    bufs: &'a [Buffer],
    contention: &'a Contention,
    /// Locks the program holds, in the order it took them: an element it
    /// changed with a successful `atomic_cas` and has not exchanged back
    /// (Triton tutorial 05's spin lock).
    held: Vec<u64>,
    pid: [u32; 3],
    grid: [u32; 3],
    env: Vec<Option<Tile>>,
    log: Vec<Access>,
    prints: String,
    iterations: u64,
    max_iterations: u64,
    /// Where the instance's undefined values came from.
    origins: Origins,
    /// UB reported without stopping the instance (stores of unchanged
    /// copies of uninitialised memory).
    deferred: Vec<UbReport>,
    /// Whether the launch's instances run one after another on one thread
    /// (no other thread touches the buffers meanwhile).
    sequential: bool,
}

/// Runs a tile program: one instance per block of the grid, in parallel
/// (one after another in grid order when it has atomics). Returns each
/// instance's UB (if any) and global access log, in grid order.
pub(super) fn run(
    kernel: &Kernel,
    grid: [u32; 3],
    mem: &Global,
    contention: &Contention,
    opts: &RunOptions,
) -> Result<Vec<super::BlockOutcome>, Diagnostic> {
    let parallel = !contention::has_atomics(kernel);
    let sequential = super::runs_sequentially(opts, parallel);
    let fast = register_program(kernel, grid, mem, opts, sequential);
    let run_one = |state: &mut regprog::State, pid: [u32; 3]| {
        let outcome = |stop, log| super::BlockOutcome {
            pid,
            stop,
            log,
            prints: String::new(),
            deferred: Vec::new(),
        };
        if let Some((prog, cx)) = &fast {
            if let Ok(log) = regprog::run(prog, state, cx, pid) {
                return outcome(None, log);
            }
        }
        if opts.register_program == ProgramPath::RegisterOnly {
            let why = if fast.is_some() {
                "the register program gave this program instance up"
            } else {
                "the register program does not cover this kernel"
            };
            let d = Diagnostic::new(Span::default(), format!("{why} ({pid:?})"));
            return outcome(Some(Stop::Error(d)), Vec::new());
        }
        let mut inst = Instance {
            k: kernel,
            bufs: &mem.bufs,
            contention,
            held: Vec::new(),
            pid,
            grid,
            env: vec![None; kernel.vars.len()],
            log: Vec::new(),
            prints: String::new(),
            iterations: 0,
            max_iterations: opts.max_loop_iterations,
            origins: Origins::default(),
            deferred: Vec::new(),
            sequential,
        };
        for &(v, b) in &mem.params {
            inst.env[v] = Some(Tile::scalar(b));
        }
        let r = inst.block(&kernel.body);
        super::BlockOutcome {
            pid,
            stop: r.err(),
            log: inst.log,
            prints: inst.prints,
            deferred: inst.deferred,
        }
    };
    super::for_each_block(grid, opts, parallel, regprog::State::default, run_one)
}

/// The kernel's register program and what its instances run against,
/// where the options allow it and the compiler covers the kernel.
fn register_program<'m>(
    kernel: &Kernel,
    grid: [u32; 3],
    mem: &'m Global,
    opts: &RunOptions,
    sequential: bool,
) -> Option<(regprog::Program, regprog::Ctx<'m>)> {
    if opts.register_program == ProgramPath::Tree {
        return None;
    }
    let prog = regprog::compile(kernel)?;
    let mut params = Vec::with_capacity(prog.params.len());
    for &(v, slot) in &prog.params {
        // a parameter without bits: the tree evaluator says why
        let &(_, bits) = mem.params.iter().find(|(pv, _)| *pv == v)?;
        params.push((slot, bits));
    }
    let cx = regprog::Ctx {
        bufs: &mem.bufs,
        params,
        grid,
        sequential,
    };
    Some((prog, cx))
}

impl Instance<'_> {
    fn ub(&self, kind: UbKind, span: Span, element: Vec<usize>, message: String) -> Stop {
        Stop::Ub(Box::new(UbReport::new(
            kind, span.line, span.col, self.pid, element, message,
        )))
    }

    /// The UB of using undefined value `s` (lane `element`) as `what` at `span`.
    fn undefined_use(&self, s: Shadow, what: Use, span: Span, element: Vec<usize>) -> Stop {
        Stop::Ub(Box::new(
            self.origins.report(s, what, span, self.pid, element, None),
        ))
    }

    /// UB if an element of `t` (of `shape`) that `active` keeps is
    /// undefined: `t` is used as `what` at `span`.
    fn check_defined(
        &self,
        t: &Tile,
        what: Use,
        span: Span,
        shape: &[usize],
        active: impl Fn(usize) -> bool,
    ) -> Result<(), Stop> {
        match t.first_undefined(active) {
            Some((i, s)) => Err(self.undefined_use(s, what, span, unravel(shape, i))),
            None => Ok(()),
        }
    }

    /// A 0-d condition or loop bound's bits, UB if it is undefined.
    fn defined_scalar(&self, t: &Tile, what: Use, span: Span) -> Result<u64, Stop> {
        self.check_defined(t, what, span, &[], |_| true)?;
        Ok(t.data.iter().next().copied().unwrap_or(0))
    }

    /// Runs statements until one of them leaves the block's normal flow.
    fn block(&mut self, b: &[Stmt]) -> Result<Flow, Stop> {
        for s in b {
            let f = self.stmt(s)?;
            if f != Flow::Next {
                return Ok(f);
            }
        }
        Ok(Flow::Next)
    }

    /// The lock recorded with the program's accesses: the one taken last.
    fn lock(&self) -> u64 {
        self.held.last().copied().unwrap_or(0)
    }

    /// Takes or releases lock `key` as atomic `op` changed its element from
    /// `old` to `new`: a compare-and-swap that swapped takes it, an
    /// exchange releases it.
    fn track_lock(&mut self, op: AtomicOp, key: u64, old: u64, new: u64) {
        match op {
            AtomicOp::Cas if new != old => self.held.push(key),
            AtomicOp::Exch => self.held.retain(|&k| k != key),
            _ => {}
        }
    }

    fn tick(&mut self, span: Span) -> Result<(), Stop> {
        self.iterations += 1;
        if self.iterations > self.max_iterations {
            return Err(Stop::Error(
                Diagnostic::new(
                    span,
                    format!(
                        "program ({},{},{}) ran more than {} loop iterations; ksem stopped it",
                        self.pid[0], self.pid[1], self.pid[2], self.max_iterations
                    ),
                )
                .with_help("check the loop's exit condition, or raise --max-loop-iterations"),
            ));
        }
        Ok(())
    }

    fn stmt(&mut self, s: &Stmt) -> Result<Flow, Stop> {
        match s {
            Stmt::Gemm(g) => {
                // a product's loops are bounded: they count no iterations
                let (count, cap) = (self.iterations, self.max_iterations);
                self.max_iterations = u64::MAX;
                let r = self.block(&g.body);
                (self.iterations, self.max_iterations) = (count, cap);
                return r;
            }
            Stmt::Let(v, e) => {
                let t = self.eval(e)?;
                self.env[*v] = Some(t);
            }
            Stmt::Store {
                ptr,
                value,
                mask,
                span,
            } => self.store(ptr, value, mask.as_ref(), *span)?,
            Stmt::If {
                cond,
                then_body,
                else_body,
            } => {
                let c = self.eval(cond)?;
                return if self.defined_scalar(&c, Use::Condition, cond.span)? == 1 {
                    self.block(then_body)
                } else {
                    self.block(else_body)
                };
            }
            Stmt::For {
                var,
                start,
                end,
                step,
                body,
                span,
                ..
            } => {
                let d = self.k.vars[*var].1.dtype();
                let mut bound = |e: &Expr| -> Result<i128, Stop> {
                    let t = self.eval(e)?;
                    Ok(ops::int_value(
                        d,
                        self.defined_scalar(&t, Use::LoopBound, e.span)?,
                    ))
                };
                let (lo, hi, st) = (bound(start)?, bound(end)?, bound(step)?);
                if st == 0 {
                    return Err(self.ub(
                        UbKind::ZeroStep,
                        *span,
                        vec![],
                        "range() step is zero".into(),
                    ));
                }
                let mut i = lo;
                while (st > 0 && i < hi) || (st < 0 && i > hi) {
                    self.tick(*span)?;
                    self.env[*var] = Some(Tile::scalar((i as u64) & d.mask()));
                    match self.block(body)? {
                        Flow::Next | Flow::Continue => {}
                        Flow::Break => break,
                        Flow::Return => return Ok(Flow::Return),
                    }
                    i += st;
                }
            }
            Stmt::While { cond, body, span } => loop {
                let c = self.eval(cond)?;
                if self.defined_scalar(&c, Use::Condition, cond.span)? != 1 {
                    break;
                }
                self.tick(*span)?;
                match self.block(body)? {
                    Flow::Next | Flow::Continue => {}
                    Flow::Break => break,
                    Flow::Return => return Ok(Flow::Return),
                }
            },
            Stmt::Break => return Ok(Flow::Break),
            Stmt::Continue => return Ok(Flow::Continue),
            Stmt::Return => return Ok(Flow::Return),
            Stmt::Barrier { span } => {
                return Err(Stop::Error(Diagnostic::new(
                    *span,
                    "a barrier in a tile program (the IR verifier rejects it)",
                )))
            }
            Stmt::Print { prefix, args, .. } => {
                let mut line = format!(
                    "pid ({}, {}, {}) {prefix}",
                    self.pid[0], self.pid[1], self.pid[2]
                );
                for a in args {
                    let t = self.eval(a)?;
                    let vals: Vec<String> = t
                        .data
                        .iter()
                        .map(|&b| format_value(a.ty.dtype(), b))
                        .collect();
                    line.push_str(&format!(" [{}]", vals.join(", ")));
                }
                self.prints.push_str(&line);
                self.prints.push('\n');
            }
        }
        Ok(Flow::Next)
    }

    fn eval(&mut self, e: &Expr) -> Result<Tile, Stop> {
        let shape = &e.ty.shape;
        Ok(match &e.kind {
            ExprKind::Const(b) => Tile::scalar(*b),
            ExprKind::Var(v) => self.env[*v]
                .clone()
                .expect("elaboration defines variables before use"),
            ExprKind::BlockId(a) => Tile::scalar(self.pid[*a as usize] as u64),
            ExprKind::GridDim(a) => Tile::scalar(self.grid[*a as usize] as u64),
            ExprKind::ThreadId(_)
            | ExprKind::BlockDim(_)
            | ExprKind::ArrayBase(_)
            | ExprKind::ElemPtr { .. }
            | ExprKind::CheckIndex { .. } => {
                return Err(Stop::Error(Diagnostic::new(
                    e.span,
                    "a SIMT operation in a tile program (the IR verifier rejects it)",
                )))
            }
            ExprKind::Undef => {
                let origin = self.origins.make(e.span, Source::MaskedLoad, None);
                Tile {
                    data: ArcArray::from_elem(IxDyn(shape), 0),
                    shadow: Some(ArcArray::from_elem(IxDyn(shape), Shadow::undefined(origin))),
                }
            }
            ExprKind::Iota(s, t) => Tile::from_vec(
                shape,
                (*s..*t).map(|v| (v as u64) & 0xffff_ffff).collect(),
                None,
            ),
            ExprKind::Broadcast(x) => {
                let t = self.eval(x)?;
                if t.data.len() == 1 {
                    // one element everywhere
                    let one = |a: ArcArray<u64, IxDyn>| a.iter().next().copied().unwrap_or(0);
                    let sh = t.shadow_at(0);
                    return Ok(Tile {
                        data: ArcArray::from_elem(IxDyn(shape), one(t.data)),
                        shadow: (sh != Shadow::EXACT)
                            .then(|| ArcArray::from_elem(IxDyn(shape), sh)),
                    });
                }
                let data = t
                    .data
                    .broadcast(IxDyn(shape))
                    .expect("elaborated shapes broadcast")
                    .to_shared();
                let shadow = t.shadow.map(|i| {
                    i.broadcast(IxDyn(shape))
                        .expect("same")
                        .as_standard_layout()
                        .to_shared()
                });
                Tile {
                    data: data.as_standard_layout().to_shared(),
                    shadow,
                }
            }
            ExprKind::Reshape(x) => {
                let t = self.eval(x)?;
                Tile::from_vec(shape, t.vals().into_owned(), t.shadow_vec())
            }
            ExprKind::Permute(x, perm) => {
                let t = self.eval(x)?;
                let p = |a: ArcArray<u64, IxDyn>| {
                    a.permuted_axes(IxDyn(perm))
                        .as_standard_layout()
                        .to_shared()
                };
                let shadow = t.shadow.map(|i| {
                    i.permuted_axes(IxDyn(perm))
                        .as_standard_layout()
                        .to_shared()
                });
                Tile {
                    data: p(t.data),
                    shadow,
                }
            }
            ExprKind::Cast(x, kind) if kind.is_pointer_bits(&x.ty, &e.ty) => self.eval(x)?,
            ExprKind::Cast(x, kind) => {
                let t = self.eval(x)?;
                let (from, to) = (x.ty.dtype(), e.ty.dtype());
                let mut out = Vec::with_capacity(t.data.len());
                for (i, &b) in t.vals().iter().enumerate() {
                    match ops::cast(*kind, from, to, b) {
                        Ok(v) => out.push(v),
                        // an undefined value converts to an undefined one
                        Err(_) if t.shadow_at(i).is_undefined() => out.push(0),
                        Err(k) => {
                            let v = format_value(from, b);
                            return Err(self.ub(
                                k,
                                e.span,
                                unravel(shape, i),
                                format!("{from} value {v} does not fit in {to}"),
                            ));
                        }
                    }
                }
                Tile::from_vec(shape, out, computed(t.shadow_vec()))
            }
            ExprKind::Unary(op, x) => {
                let t = self.eval(x)?;
                let d = x.ty.dtype();
                let vals = t.vals();
                let mut out = Vec::with_capacity(vals.len());
                if !ops::fast_unary_slices(*op, d, &vals, &mut out) {
                    out.extend(vals.iter().map(|&b| ops::unary(*op, d, b)));
                }
                let approx = matches!(op, UnOp::Math(f) if f.is_inexact());
                let shadow = if approx {
                    Some(with_inexact(computed(t.shadow_vec()), out.len()))
                } else {
                    computed(t.shadow_vec())
                };
                Tile::from_vec(shape, out, shadow)
            }
            ExprKind::Binary(op, a, b) => {
                let (ta, tb) = (self.eval(a)?, self.eval(b)?);
                self.binary(*op, a.ty.dtype(), &ta, &tb, e)?
            }
            ExprKind::Select(c, a, b) => {
                let (tc, ta, tb) = (self.eval(c)?, self.eval(a)?, self.eval(b)?);
                let n = tc.data.len().max(ta.data.len()).max(tb.data.len());
                let (vc, va, vb) = (tc.vals(), ta.vals(), tb.vals());
                let get = |v: &[u64], i: usize| -> u64 {
                    if v.len() == 1 {
                        v[0]
                    } else {
                        v.get(i).copied().unwrap_or(0)
                    }
                };
                let any_shadow = tc.shadow.is_some() || ta.shadow.is_some() || tb.shadow.is_some();
                let mut out = Vec::with_capacity(n);
                let mut inex = Vec::new();
                let (fc, fa, fb) = (tc.shadows(), ta.shadows(), tb.shadows());
                for i in 0..n {
                    let c = get(&vc, i) != 0;
                    out.push(if c { get(&va, i) } else { get(&vb, i) });
                    if any_shadow {
                        // an undefined condition selects an undefined value
                        let chosen = if c { fa.at(i) } else { fb.at(i) };
                        let cond = fc.at(i);
                        let s = cond | chosen;
                        inex.push(if cond.is_undefined() { s.computed() } else { s });
                    }
                }
                let shp = if shape.iter().product::<usize>() == n {
                    shape.clone()
                } else {
                    vec![n]
                };
                Tile::from_vec(&shp, out, any_shadow.then_some(inex))
            }
            ExprKind::Fma(a, b, c, r) => {
                let (ta, tb, tc) = (self.eval(a)?, self.eval(b)?, self.eval(c)?);
                let d = e.ty.dtype();
                let out: Vec<u64> = ta
                    .vals()
                    .iter()
                    .zip(tb.vals().iter())
                    .zip(tc.vals().iter())
                    .map(|((&x, &y), &z)| crate::ieee::fma(d, *r, x, y, z))
                    .collect();
                let shadow = computed(merge_shadows(&[&ta, &tb, &tc], out.len()));
                Tile::from_vec(shape, out, shadow)
            }
            ExprKind::Atomic {
                op,
                ptr,
                val,
                cmp,
                mask,
            } => {
                let tp = self.eval(ptr)?;
                let tv = self.eval(val)?;
                let tc = match cmp {
                    Some(c) => Some(self.eval(c)?),
                    None => None,
                };
                let tm = match mask {
                    Some(m) => Some(self.eval(m)?),
                    None => None,
                };
                self.atomic(*op, &tp, &tv, tc.as_ref(), tm.as_ref(), e)?
            }
            ExprKind::Load { ptr, mask, other } => {
                let tp = self.eval(ptr)?;
                let tm = match mask {
                    Some(m) => Some(self.eval(m)?),
                    None => None,
                };
                let all_active = tm.as_ref().is_none_or(|m| !m.vals().contains(&0));
                let to = match other {
                    // no lane takes an undefined `other`: nothing to make
                    Some(o) if all_active && matches!(o.kind, ExprKind::Undef) => None,
                    Some(o) => Some(self.eval(o)?),
                    None => None,
                };
                self.load(&tp, tm.as_ref(), to.as_ref(), e)?
            }
            ExprKind::Reduce {
                arg,
                axis,
                combiner,
                ..
            } => {
                let t = self.eval(arg)?;
                self.reduce(&t, arg.ty.dtype(), axis.unwrap_or(0), combiner, e)?
            }
            ExprKind::TupleReduce {
                args,
                axis,
                combine,
                pick,
            } => self.tuple_reduce(args, *axis, combine, *pick, e)?,
            ExprKind::TupleScan {
                args,
                axis,
                reverse,
                combine,
                pick,
            } => self.tuple_scan(args, *axis, *reverse, combine, *pick, e.span)?,
            ExprKind::Scan {
                arg,
                axis,
                reverse,
                op,
            } => {
                let t = self.eval(arg)?;
                self.scan(&t, arg.ty.dtype(), *axis, *reverse, *op, e)?
            }
            ExprKind::Dot {
                a,
                b,
                acc,
                precision,
            } => {
                let (ta, tb, tc) = (self.eval(a)?, self.eval(b)?, self.eval(acc)?);
                let t = dot(
                    &ta,
                    &tb,
                    &tc,
                    a.ty.shape[a.ty.shape.len() - 1],
                    *precision,
                    e,
                );
                match t.shadow_vec() {
                    Some(s) => {
                        let s = self.through_all(s, "matrix product", e.span);
                        Tile::from_vec(shape, t.flat(), Some(s))
                    }
                    None => t,
                }
            }
        })
    }

    /// An inclusive scan along `axis` in sequential order: each element is
    /// `op(previous result, element)`, the first (last, with `reverse`) kept.
    fn scan(
        &mut self,
        t: &Tile,
        d: DType,
        axis: usize,
        reverse: bool,
        op: BinOp,
        e: &Expr,
    ) -> Result<Tile, Stop> {
        let shape = t.data.shape().to_vec();
        let vals = t.flat();
        let n = shape[axis];
        let inner: usize = shape[axis + 1..].iter().product();
        let outer = vals.len().checked_div(n * inner).unwrap_or(0);
        let mut out = vals.clone();
        let mut inex: Vec<Shadow> = (0..vals.len()).map(|i| t.shadow_at(i)).collect();
        for o in 0..outer {
            for j in 0..inner {
                let at = |k: usize| (o * n + k) * inner + j;
                let mut prev: Option<usize> = None;
                for s in 0..n {
                    let i = at(if reverse { n - 1 - s } else { s });
                    if let Some(p) = prev {
                        let undefined = inex[i].is_undefined() || inex[p].is_undefined();
                        out[i] = match ops::binary(op, d, out[p], vals[i]) {
                            Err(_) if undefined => 0,
                            r => r.map_err(|k| {
                                let msg = format!("scan {op:?} of {d} values");
                                self.ub(k, e.span, unravel(&shape, i), msg)
                            })?,
                        };
                        let merged = inex[i] | inex[p];
                        inex[i] = merged;
                    }
                    prev = Some(i);
                }
            }
        }
        let inex = self.through_all(inex, "scan", e.span);
        Ok(Tile::from_vec(&shape, out, Some(inex)))
    }

    /// The shadows of a lane-crossing operation's result (`what` at `span`):
    /// undefined ones record that they went through it.
    fn through_all(
        &mut self,
        mut shadows: Vec<Shadow>,
        what: &'static str,
        span: Span,
    ) -> Vec<Shadow> {
        if shadows.iter().any(|s| s.is_undefined()) {
            let mut memo = Vec::new();
            for s in shadows.iter_mut().filter(|s| s.is_undefined()) {
                *s = self.origins.through(*s, what, span, &mut memo);
            }
        }
        shadows
    }

    /// Lane `i` of a binary operation by the general rule, or its UB (an
    /// operation on an `undefined` operand has none: its result is undefined).
    #[allow(clippy::too_many_arguments)]
    fn binary_element(
        &self,
        op: BinOp,
        d: DType,
        (x, y): (u64, u64),
        undefined: bool,
        shape: &[usize],
        i: usize,
        e: &Expr,
    ) -> Result<u64, Stop> {
        match ops::binary(op, d, x, y) {
            Err(k) if undefined && !undef::defined_operand_ub(op, d, k) => return Ok(0),
            r => r,
        }
        .map_err(|k| {
            let msg = format!(
                "{:?} of {d} values {} and {}",
                op,
                format_value(d, x),
                format_value(d, y)
            );
            self.ub(k, e.span, unravel(shape, i), msg)
        })
    }

    fn binary(
        &mut self,
        op: BinOp,
        d: DType,
        ta: &Tile,
        tb: &Tile,
        e: &Expr,
    ) -> Result<Tile, Stop> {
        let n = ta.data.len().max(tb.data.len());
        let shape: Vec<usize> = if ta.data.len() >= tb.data.len() {
            ta.data.shape().to_vec()
        } else {
            tb.data.shape().to_vec()
        };
        let (va, vb) = (ta.vals(), tb.vals());
        let at = |v: &[u64], i: usize| if v.len() == 1 { v[0] } else { v[i] };
        if let Some(what) = undef::right_operand_use(op, d) {
            if let Some((i, s)) = tb.first_undefined(|_| true) {
                let lane = if tb.data.len() == 1 {
                    vec![]
                } else {
                    unravel(&shape, i)
                };
                return Err(self.undefined_use(s, what, e.span, lane));
            }
        }
        let undefined = |i: usize| ta.shadow_at(i).is_undefined() || tb.shadow_at(i).is_undefined();
        let mut out = Vec::with_capacity(n);
        if ops::fast_binary_slices(op, d, &va, &vb, &mut out) {
            // (every lane, the element function inlined)
        } else if let Some(f) = ops::fast_binary(op, d) {
            if va.len() == vb.len() {
                out.extend(va.iter().zip(vb.iter()).map(|(&x, &y)| f(x, y)));
            } else {
                out.extend((0..n).map(|i| f(at(&va, i), at(&vb, i))));
            }
        } else if op.is_ptr_add() {
            let od = match e.kind {
                ExprKind::Binary(_, _, ref b) => b.ty.dtype(),
                _ => unreachable!(),
            };
            if op == BinOp::PtrAdd {
                // (never UB: offsets saturate far outside any buffer)
                ptr_add_lanes(&va, &vb, od, &mut out);
            }
            for i in (0..n).take(if op == BinOp::PtrAdd { 0 } else { n }) {
                let k = ops::int_value(od, at(&vb, i));
                match ptr_add_bytes(at(&va, i), k, d) {
                    Some(p) => out.push(p),
                    None => {
                        let msg = format!("a pointer to {d} moved by {k} bytes, not a whole number of its {}-byte elements", d.bits().div_ceil(8));
                        return Err(self.ub(
                            UbKind::MisalignedPointer,
                            e.span,
                            unravel(&shape, i),
                            msg,
                        ));
                    }
                }
            }
        } else if ops::fast_binary_partial_slices(op, d, &va, &vb, &mut out) {
            // (every lane had a value, the element function inlined)
        } else if let Some(f) = ops::fast_binary_partial(op, d) {
            out.clear(); // (a lane needs the general rule: lane by lane)
            for i in 0..n {
                let (x, y) = (at(&va, i), at(&vb, i));
                out.push(match f(x, y) {
                    Some(v) => v,
                    None => self.binary_element(op, d, (x, y), undefined(i), &shape, i, e)?,
                });
            }
        } else {
            for i in 0..n {
                let (x, y) = (at(&va, i), at(&vb, i));
                out.push(self.binary_element(op, d, (x, y), undefined(i), &shape, i, e)?);
            }
        }
        let defined = |t: &Tile| t.first_undefined(|_| true).is_none();
        let shadow = if ta.shadow.is_none() && tb.shadow.is_none() {
            op.is_inexact().then(|| vec![Shadow::INEXACT; n])
        } else if defined(ta) && defined(tb) {
            // (`binary_shadow` of two defined operands: their union)
            let merged = merge_shadows(&[ta, tb], n);
            if op.is_inexact() {
                Some(with_inexact(merged, n))
            } else {
                merged
            }
        } else {
            let (fa, fb) = (ta.shadows(), tb.shadows());
            let lane = |i: usize| {
                let (x, y) = (at(&va, i), at(&vb, i));
                let s = undef::binary_shadow(op, d, x, y, fa.at(i), fb.at(i));
                if op.is_inexact() {
                    s.with_inexact()
                } else {
                    s
                }
            };
            Some((0..n).map(lane).collect())
        };
        Ok(Tile::from_vec(&shape, out, shadow))
    }

    fn load(
        &mut self,
        tp: &Tile,
        tm: Option<&Tile>,
        to: Option<&Tile>,
        e: &Expr,
    ) -> Result<Tile, Stop> {
        let shape = &e.ty.shape;
        let d = e.ty.dtype();
        let ptrs = tp.vals();
        let mask = tm.map(|m| m.vals());
        let other = to.map(|o| o.vals());
        let other_shadows = to.map(|o| o.shadows());
        let mut out = Vec::with_capacity(ptrs.len());
        let mut inex = vec![Shadow::EXACT; ptrs.len()];
        let mut run = Run::default();
        let (span, lock) = (e.span, self.lock());
        let make = |b: usize, start: u64, len: u64| Access {
            len,
            ..access(b, start, false, span, lock)
        };
        if let Some(m) = tm {
            self.check_defined(m, Use::Mask, span, shape, |_| true)?;
        }
        let active = |i: usize| mask.as_ref().is_none_or(|m| m[i] != 0);
        self.check_defined(tp, Use::Address, span, shape, active)?;
        if let Some((b, off)) = self.exact_run(&ptrs, mask.as_deref(), false) {
            // every lane active, one defined and exact element after another
            let cells = &self.bufs[b].cells[off..off + ptrs.len()];
            let bits = |c: &std::sync::atomic::AtomicU64| c.load(Ordering::Relaxed);
            if d == DType::Bool {
                out.extend(cells.iter().map(|c| (bits(c) != 0) as u64));
            } else {
                out.extend(cells.iter().map(bits));
            }
            self.log.push(make(b, off as u64, ptrs.len() as u64));
            return Ok(Tile::from_vec(shape, out, None));
        }
        for (i, &p) in ptrs.iter().enumerate() {
            if !active(i) {
                out.push(other.as_ref().map_or(0, |o| o[i]));
                if let Some(o) = &other_shadows {
                    inex[i] = o.at(i);
                }
                continue;
            }
            // (a range in progress when this stops is not logged, as before)
            let (b, off) = match self.in_bounds(p) {
                Some(at) => at,
                None => self.element(p, UbKind::OutOfBoundsLoad, "load of", span, shape, i)?,
            };
            let buf = &self.bufs[b];
            let v = buf.cells[off].load(Ordering::Relaxed);
            out.push(if d == DType::Bool { (v != 0) as u64 } else { v });
            inex[i] = if buf.undefined(off) {
                let source = Source::UninitializedBuffer {
                    buffer: buf.name.clone(),
                    element: off,
                };
                Shadow::undefined(self.origins.make(span, source, None))
            } else {
                Shadow::from_inexact(buf.inexact(off))
            };
            run.push(b, off as u64, &mut self.log, make);
        }
        run.flush(&mut self.log, make);
        Ok(Tile::from_vec(shape, out, Some(inex)))
    }

    /// The buffer and element pointer `p` reaches, if inside its buffer
    /// (the common case of [`Instance::element`], inlined).
    #[inline]
    fn in_bounds(&self, p: u64) -> Option<(usize, usize)> {
        let (b, off) = ptr_parts(p);
        let len = self.bufs.get(b)?.cells.len();
        (off >= 0 && (off as usize) < len).then_some((b, off as usize))
    }

    /// Where every lane of an access through `ptrs` is active (`mask`) and
    /// the lanes reach consecutive elements of one buffer, all inside it:
    /// the buffer and first element; `None` otherwise, or where the buffer
    /// may hold undefined values or (unless `inexact_ok`) inexact ones.
    fn exact_run(
        &self,
        ptrs: &[u64],
        mask: Option<&[u64]>,
        inexact_ok: bool,
    ) -> Option<(usize, usize)> {
        let first = *ptrs.first()?;
        if mask.is_some_and(|m| m.len() != ptrs.len() || m.contains(&0)) {
            return None;
        }
        let (b, off) = self.in_bounds(first)?;
        let buf = &self.bufs[b];
        let fits = off + ptrs.len() <= buf.cells.len();
        if !fits || buf.has_undefined() || (!inexact_ok && buf.has_inexact()) {
            return None;
        }
        // (inside the buffer, pointer + j is the pointer to element off + j)
        let consecutive = ptrs
            .iter()
            .zip(0u64..)
            .fold(true, |ok, (&p, j)| ok & (p == first.wrapping_add(j)));
        consecutive.then_some((b, off))
    }

    /// The buffer and element lane `i` of an access through pointer `p`
    /// reaches; outside the buffer, UB of `kind` ("`what` x[off], which
    /// has n elements").
    fn element(
        &self,
        p: u64,
        kind: UbKind,
        what: &str,
        span: Span,
        shape: &[usize],
        i: usize,
    ) -> Result<(usize, usize), Stop> {
        let (b, off) = ptr_parts(p);
        let buf = &self.bufs[b];
        if off < 0 || off as usize >= buf.cells.len() {
            let msg = format!(
                "{what} {}[{off}], which has {} elements",
                buf.name,
                buf.cells.len()
            );
            return Err(self.ub(kind, span, unravel(shape, i), msg));
        }
        Ok((b, off as usize))
    }

    /// An atomic over a tile of pointers: every unmasked lane in row-major
    /// order reads its element, writes `op`'s new value and yields the old
    /// one (masked lanes touch nothing and yield 0, as Triton 3.6 on sm_90).
    fn atomic(
        &mut self,
        op: AtomicOp,
        tp: &Tile,
        tv: &Tile,
        tc: Option<&Tile>,
        tm: Option<&Tile>,
        e: &Expr,
    ) -> Result<Tile, Stop> {
        let shape = &e.ty.shape;
        let d = e.ty.dtype();
        let ptrs = tp.flat();
        let vals = tv.flat();
        let cmps = tc.map(|c| c.flat());
        let mask = tm.map(|m| m.flat());
        let mut out = vec![0; ptrs.len()];
        let mut inex = vec![Shadow::EXACT; ptrs.len()];
        if let Some(m) = tm {
            self.check_defined(m, Use::Mask, e.span, shape, |_| true)?;
        }
        let active = |i: usize| mask.as_ref().is_none_or(|m| m[i] != 0);
        self.check_defined(tp, Use::Address, e.span, shape, active)?;
        self.check_defined(tv, Use::Atomic, e.span, shape, active)?;
        if let Some(c) = tc {
            self.check_defined(c, Use::Atomic, e.span, shape, active)?;
        }
        for (i, &p) in ptrs.iter().enumerate() {
            if !active(i) {
                continue;
            }
            let what = format!("atomic_{} on", op.name());
            let (b, off) = self.element(p, UbKind::OutOfBoundsStore, &what, e.span, shape, i)?;
            let buf = &self.bufs[b];
            let old = buf.cells[off].load(Ordering::Relaxed);
            let old_ix = buf.inexact(off);
            let undefined_old = buf.undefined(off).then(|| {
                let source = Source::UninitializedBuffer {
                    buffer: buf.name.clone(),
                    element: off,
                };
                Shadow::undefined(self.origins.make(e.span, source, None))
            });
            if let Some(s) = undefined_old.filter(|_| op != AtomicOp::Exch) {
                // the update combines the element's undefined value
                return Err(self.undefined_use(s, Use::Atomic, e.span, unravel(shape, i)));
            }
            let new = ops::atomic_rmw(op, d, old, vals[i], cmps.as_ref().map(|c| c[i]));
            let id = contention::last_atomic_id(op);
            let prev = buf.swap_last_atomic(off, id);
            let mixed = prev != 0 && prev != id;
            let ix = contention::order_dependent(
                op,
                d,
                old,
                new,
                old_ix,
                tv.shadow_at(i).inexact(),
                mixed,
            );
            buf.cells[off].store(new, Ordering::Relaxed);
            buf.set_inexact(off, ix);
            buf.set_defined(off);
            let mut a = access(b, off as u64, true, e.span, self.lock());
            a.atomic = true;
            self.log.push(a);
            self.track_lock(op, super::memory::lock_key(b, off), old, new);
            let elem = Elem::Global(b, off);
            self.contention.record(elem, (self.pid, i));
            out[i] = old;
            // which update came first is the hardware's choice
            inex[i] = undefined_old.unwrap_or(Shadow::from_inexact(
                old_ix || self.contention.known.contains(&elem),
            ));
        }
        Ok(Tile::from_vec(shape, out, Some(inex)))
    }

    fn store(
        &mut self,
        ptr: &Expr,
        value: &Expr,
        mask: Option<&Expr>,
        span: Span,
    ) -> Result<(), Stop> {
        let tp = self.eval(ptr)?;
        let tv = self.eval(value)?;
        let tm = match mask {
            Some(m) => Some(self.eval(m)?),
            None => None,
        };
        let shape = ptr.ty.shape.clone();
        let ptrs = tp.vals();
        let vals = tv.vals();
        let m = tm.as_ref().map(|m| m.vals());
        if let Some(mt) = &tm {
            self.check_defined(mt, Use::Mask, span, &shape, |_| true)?;
        }
        let active = |i: usize| m.as_ref().is_none_or(|m| m[i] != 0);
        self.check_defined(&tp, Use::Address, span, &shape, active)?;
        // an unchanged copy of uninitialised memory is reported without
        // stopping the run (its destination stays undefined); any other
        // undefined value stored is UB that stops it
        let copies = self.stored_copies(&tv, span, &shape, active)?;
        let lock = self.lock();
        if let Some((b, off)) = self
            .exact_run(&ptrs, m.as_deref(), true)
            .filter(|_| copies.is_none() && vals.len() == ptrs.len())
        {
            // every lane active and defined, one element after another
            // (ascending: no two lanes meet)
            let flags = tv.shadows();
            let exclusive = self.sequential;
            self.bufs[b].store_run(off, &vals, |j| flags.at(j).inexact(), exclusive);
            let a = access(b, off as u64, true, span, lock);
            self.log.push(Access {
                len: ptrs.len() as u64,
                ..a
            });
            return Ok(());
        }
        let mut targets = Vec::with_capacity(ptrs.len());
        for (i, &p) in ptrs.iter().enumerate() {
            if !active(i) {
                continue;
            }
            let (b, off) = match self.in_bounds(p) {
                Some(at) => at,
                None => self.element(p, UbKind::OutOfBoundsStore, "store to", span, &shape, i)?,
            };
            targets.push((i, b, off));
        }
        // Lanes of one store are unordered (threads on the GPU): two lanes
        // writing different values to one element is a race. Targets in
        // strictly ascending order (the usual store) cannot meet.
        let ascending = targets
            .windows(2)
            .all(|w| (w[0].1, w[0].2) < (w[1].1, w[1].2));
        if !ascending {
            self.same_element_race(&targets, &vals, &shape, span)?;
        }
        let mut run = Run::default();
        let make = |b: usize, start: u64, len: u64| Access {
            len,
            ..access(b, start, true, span, lock)
        };
        let flags = tv.shadow_flags();
        let inexact_at = |i: usize| match &flags {
            None => false,
            Some(f) if f.len() == 1 => f[0].inexact(),
            Some(f) => f[i].inexact(),
        };
        for (i, b, off) in targets {
            let buf = &self.bufs[b];
            buf.store(off, vals[i]);
            buf.set_inexact(off, inexact_at(i));
            if copies.as_ref().is_some_and(|c| c.at(i).is_undefined()) {
                buf.set_undefined(off);
            } else {
                buf.set_defined(off);
            }
            run.push(b, off as u64, &mut self.log, make);
        }
        run.flush(&mut self.log, make);
        Ok(())
    }

    /// The shadows of a store's values where some active lane stores an
    /// undefined one: `None` where all are defined; UB (stopping the run)
    /// where one is not an unchanged copy of uninitialised memory; else the
    /// report goes to `deferred` (one per store per program) and the run
    /// goes on.
    fn stored_copies<'t>(
        &mut self,
        tv: &'t Tile,
        span: Span,
        shape: &[usize],
        active: impl Fn(usize) -> bool,
    ) -> Result<Option<Shadows<'t>>, Stop> {
        let Some((first, _)) = tv.first_undefined(&active) else {
            return Ok(None);
        };
        let flags = tv.shadows();
        let n = shape.iter().product::<usize>().max(1);
        let lane = |i: usize| if tv.data.len() == 1 { 0 } else { i };
        if let Some(i) = (0..n).find(|&i| {
            let s = flags.at(lane(i));
            active(i) && s.is_undefined() && !self.origins.copies_uninitialized(s)
        }) {
            let s = flags.at(lane(i));
            return Err(self.undefined_use(s, Use::StoreValue, span, unravel(shape, i)));
        }
        if !self
            .deferred
            .iter()
            .any(|r| (r.line, r.col) == (span.line, span.col))
        {
            let s = flags.at(lane(first));
            let r = self.origins.report(
                s,
                Use::StoreValue,
                span,
                self.pid,
                unravel(shape, first),
                None,
            );
            self.deferred.push(r);
        }
        Ok(Some(flags))
    }

    /// A data race between two lanes of one store: two `targets` (lane,
    /// buffer, element) on one element with different `vals`.
    fn same_element_race(
        &self,
        targets: &[(usize, usize, usize)],
        vals: &[u64],
        shape: &[usize],
        span: Span,
    ) -> Result<(), Stop> {
        let mut order: Vec<usize> = (0..targets.len()).collect();
        order.sort_by_key(|&t| (targets[t].1, targets[t].2, targets[t].0));
        for w in order.windows(2) {
            let (x, y) = (targets[w[0]], targets[w[1]]);
            if (x.1, x.2) == (y.1, y.2) && vals[x.0] != vals[y.0] {
                let buf = &self.bufs[y.1];
                return Err(self.ub(
                    UbKind::DataRace,
                    span,
                    unravel(shape, y.0),
                    format!(
                        "lanes {:?} and {:?} of one store write different values to {}[{}]",
                        unravel(shape, x.0),
                        unravel(shape, y.0),
                        buf.name,
                        y.2
                    ),
                ));
            }
        }
        Ok(())
    }

    fn reduce(
        &mut self,
        t: &Tile,
        d: DType,
        axis: usize,
        comb: &Combiner,
        e: &Expr,
    ) -> Result<Tile, Stop> {
        // Move the reduced axis last: rows of n contiguous elements.
        let rank = t.data.ndim();
        let mut perm: Vec<usize> = (0..rank).filter(|&a| a != axis).collect();
        perm.push(axis);
        let n = t.data.shape()[axis];
        let last = axis + 1 == rank;
        let vals: Vec<u64> = if last {
            t.vals().into_owned()
        } else {
            let moved = t.data.clone().permuted_axes(IxDyn(&perm));
            moved.iter().copied().collect()
        };
        // (`None`: every element exact and defined)
        let shadows: Option<Vec<Shadow>> = match &t.shadow {
            Some(_) if last => t.shadow_vec(),
            Some(i) => Some(
                i.clone()
                    .permuted_axes(IxDyn(&perm))
                    .iter()
                    .copied()
                    .collect(),
            ),
            None => None,
        };
        let rows = vals.len().checked_div(n).unwrap_or(0);
        let out_d = e.ty.dtype();
        let mut out = Vec::with_capacity(rows);
        let mut out_inex = Vec::with_capacity(rows);
        if let Combiner::Custom {
            lhs,
            rhs,
            body,
            result,
        } = comb
        {
            let p = n.next_power_of_two();
            if p != n {
                return Err(Stop::Error(Diagnostic::new(
                    e.span,
                    "tl.reduce with a custom combine function needs a power-of-two axis",
                )));
            }
            let mut cur: Vec<Vec<u64>> = (0..rows)
                .map(|r| vals[r * n..(r + 1) * n].to_vec())
                .collect();
            let inex = shadows.unwrap_or_else(|| vec![Shadow::EXACT; vals.len()]);
            let mut cur_in: Vec<Vec<Shadow>> = (0..rows)
                .map(|r| inex[r * n..(r + 1) * n].to_vec())
                .collect();
            let mut s = n / 2;
            while s >= 1 {
                let l: Vec<u64> = cur.iter().flat_map(|row| row[..s].to_vec()).collect();
                let r: Vec<u64> = cur.iter().flat_map(|row| row[s..2 * s].to_vec()).collect();
                let li: Vec<Shadow> = cur_in.iter().flat_map(|row| row[..s].to_vec()).collect();
                let ri: Vec<Shadow> = cur_in
                    .iter()
                    .flat_map(|row| row[s..2 * s].to_vec())
                    .collect();
                let len = l.len();
                self.env[*lhs] = Some(Tile::from_vec(&[len], l, Some(li)));
                self.env[*rhs] = Some(Tile::from_vec(&[len], r, Some(ri)));
                self.block(body)?;
                let res = self.eval(result)?;
                let rv = res.flat();
                let rv: Vec<u64> = if rv.len() == 1 { vec![rv[0]; len] } else { rv };
                for (ri, row) in cur.iter_mut().enumerate() {
                    row.truncate(s);
                    row.copy_from_slice(&rv[ri * s..(ri + 1) * s]);
                }
                for (ri, row) in cur_in.iter_mut().enumerate() {
                    row.truncate(s);
                    for (j, x) in row.iter_mut().enumerate() {
                        *x = res.shadow_at(if res.data.len() == 1 { 0 } else { ri * s + j });
                    }
                }
                s /= 2;
            }
            for r in 0..rows {
                out.push(cur[r][0]);
                out_inex.push(cur_in[r][0]);
            }
        } else {
            for r in 0..rows {
                let row = &vals[r * n..(r + 1) * n];
                let row_shadows = shadows.as_ref().map(|s| &s[r * n..(r + 1) * n]);
                let (v, i) = tree_reduce(comb, d, row, row_shadows);
                out.push(v);
                out_inex.push(i);
            }
        }
        let _ = out_d;
        let out_inex = self.through_all(out_inex, comb.describe(), e.span);
        Ok(Tile::from_vec(&e.ty.shape, out, Some(out_inex)))
    }
}

/// `PtrAdd` lane by lane: pointer `a[i]` moved by the `od` offset `b[i]`
/// (an operand of one element stands for every lane), appended to `out`;
/// the offset's sign extension decided once for 32- and 64-bit offsets.
pub(super) fn ptr_add_lanes(a: &[u64], b: &[u64], od: DType, out: &mut Vec<u64>) {
    match od {
        DType::I32 => ptr_add_widened(a, b, out, |y| y as u32 as i32 as i64),
        DType::I64 => ptr_add_widened(a, b, out, |y| y as i64),
        _ => {
            let n = a.len().max(b.len());
            let at = |v: &[u64], i: usize| if v.len() == 1 { v[0] } else { v[i] };
            out.extend((0..n).map(|i| ptr_add(at(a, i), ops::int_value(od, at(b, i)))));
        }
    }
}

/// [`ptr_add_lanes`] with the offsets' widening `widen` (inlined).
#[inline]
fn ptr_add_widened(a: &[u64], b: &[u64], out: &mut Vec<u64>, widen: impl Fn(u64) -> i64) {
    if a.len() == b.len() {
        out.extend(a.iter().zip(b).map(|(&p, &y)| ptr_add_i64(p, widen(y))));
    } else if a.len() == 1 {
        out.extend(b.iter().map(|&y| ptr_add_i64(a[0], widen(y))));
    } else {
        let y = widen(b[0]);
        out.extend(a.iter().map(|&p| ptr_add_i64(p, y)));
    }
}

/// The canonical reduction order of DESIGN.md over one row (builtin
/// combiners); `inex`: the elements' shadows (`None`: all exact and defined).
pub(super) fn tree_reduce(
    comb: &Combiner,
    d: DType,
    row: &[u64],
    inex: Option<&[Shadow]>,
) -> (u64, Shadow) {
    if let Some(op) = value_op(comb) {
        // float32's element functions called directly, so they inline
        match (op, d) {
            (BinOp::Add, DType::F32) => return tree_values(row, inex, ops::add_f32),
            (BinOp::Max(m), DType::F32) => {
                return tree_values(row, inex, |a, b| ops::minmax_f32(a, b, true, m))
            }
            (BinOp::Min(m), DType::F32) => {
                return tree_values(row, inex, |a, b| ops::minmax_f32(a, b, false, m))
            }
            _ => {}
        }
        if let Some(f) = ops::fast_binary(op, d) {
            return tree_values(row, inex, f);
        }
    }
    let n = row.len();
    let p = n.next_power_of_two();
    let shadow = |i: usize| inex.map_or(Shadow::EXACT, |s| s[i]);
    // (value, index, shadow); slots from `live` on are padding, which a
    // combine step passes over
    let mut x: Vec<(u64, u64, Shadow)> = (0..n).map(|i| (row[i], i as u64, shadow(i))).collect();
    let mut live = n;
    let mut s = p / 2;
    while s >= 1 {
        for i in 0..s.min(live.saturating_sub(s)) {
            x[i] = combine(comb, d, x[i], x[i + s]);
        }
        live = live.min(s);
        s /= 2;
    }
    let (v, idx, ix) = x[0];
    match comb {
        Combiner::ArgMax { value: false } | Combiner::ArgMin { value: false } => (idx, ix),
        _ => (v, ix),
    }
}

/// [`tree_reduce`] of a combiner that keeps no index, whose operation on
/// two values is `f`: the same tree on values and shadows alone
/// (`combine`'s rule; all exact and defined stays so). Generic over the
/// lane type, so the register program runs it on its 32-bit lanes.
pub(super) fn tree_values<T: Copy>(
    row: &[T],
    inex: Option<&[Shadow]>,
    f: impl Fn(T, T) -> T,
) -> (T, Shadow) {
    let n = row.len();
    let p = n.next_power_of_two();
    let mut v = row.to_vec();
    let mut ix = inex.map(|s| s.to_vec());
    let (mut live, mut s) = (n, p / 2);
    while s >= 1 {
        let m = s.min(live.saturating_sub(s));
        let (lo, hi) = v.split_at_mut(s);
        for (x, &y) in lo[..m].iter_mut().zip(&hi[..m]) {
            *x = f(*x, y);
        }
        if let Some(ix) = &mut ix {
            for i in 0..m {
                let other = ix[i + s];
                ix[i] |= other;
            }
        }
        live = live.min(s);
        s /= 2;
    }
    (v[0], ix.map_or(Shadow::EXACT, |x| x[0]))
}

/// The operation a combiner that keeps no index applies to two values.
pub(super) fn value_op(comb: &Combiner) -> Option<BinOp> {
    Some(match comb {
        Combiner::Sum => BinOp::Add,
        Combiner::Max(m) => BinOp::Max(*m),
        Combiner::Min(m) => BinOp::Min(*m),
        Combiner::Xor => BinOp::Xor,
        _ => return None,
    })
}

fn combine(
    comb: &Combiner,
    d: DType,
    a: (u64, u64, Shadow),
    b: (u64, u64, Shadow),
) -> (u64, u64, Shadow) {
    let bin = |op| match ops::fast_binary(op, d) {
        Some(f) => f(a.0, b.0),
        None => ops::binary(op, d, a.0, b.0).expect("reduction combiners have no UB"),
    };
    let ix = a.2 | b.2;
    if let Some(op) = value_op(comb) {
        return (bin(op), 0, ix);
    }
    match comb {
        Combiner::Sum | Combiner::Max(_) | Combiner::Min(_) | Combiner::Xor => {
            unreachable!("value combiners are one operation")
        }
        Combiner::ArgMax { .. } | Combiner::ArgMin { .. } => {
            let better = if matches!(comb, Combiner::ArgMax { .. }) {
                BinOp::Gt
            } else {
                BinOp::Lt
            };
            let tie = bin(BinOp::Eq) == 1 && a.1 < b.1;
            if bin(better) == 1 || tie {
                (a.0, a.1, ix)
            } else {
                (b.0, b.1, ix)
            }
        }
        Combiner::Custom { .. } => unreachable!("custom combiners run vectorised"),
    }
}

/// The element-wise merged shadows of equally shaped (or 0-d) operands;
/// `None` where every operand is exact and defined.
fn merge_shadows(ts: &[&Tile], n: usize) -> Option<Vec<Shadow>> {
    if ts.iter().all(|t| t.shadow.is_none()) {
        return None;
    }
    let mut out = vec![Shadow::EXACT; n];
    for t in ts {
        let Some(ix) = &t.shadow else { continue };
        if t.data.len() == 1 {
            let x = t.shadow_at(0);
            out.iter_mut().for_each(|o| *o |= x);
        } else if let Some(s) = ix.as_slice() {
            out.iter_mut().zip(s).for_each(|(o, &x)| *o |= x);
        } else {
            out.iter_mut().zip(ix.iter()).for_each(|(o, &x)| *o |= x);
        }
    }
    Some(out)
}

/// The shadows of values an operation computed from ones of `shadows`.
fn computed(shadows: Option<Vec<Shadow>>) -> Option<Vec<Shadow>> {
    shadows.map(|v| v.into_iter().map(Shadow::computed).collect())
}

/// The shadows of an approximate operation's `n` results from its
/// operand's (`None`: exact and defined): each one inexact.
fn with_inexact(shadows: Option<Vec<Shadow>>, n: usize) -> Vec<Shadow> {
    match shadows {
        Some(v) => v.into_iter().map(Shadow::with_inexact).collect(),
        None => vec![Shadow::INEXACT; n],
    }
}

/// One plain access of element `idx` of buffer `buf` by a program instance.
fn access(buf: usize, idx: u64, write: bool, span: Span, lock: u64) -> Access {
    Access {
        lock,
        buf: buf as u32,
        start: idx,
        len: 1,
        write,
        atomic: false,
        span,
        thread: None,
    }
}

/// A matrix product in ksem's one order (`ExprKind::Dot`): for each result
/// element, the accumulator's element, then k ascending, `r = r + a·b`.
fn dot(ta: &Tile, tb: &Tile, tc: &Tile, kdim: usize, precision: DotPrecision, e: &Expr) -> Tile {
    let d = e.ty.dtype();
    let shape = &e.ty.shape;
    let r = shape.len();
    let (m, n) = (shape[r - 2], shape[r - 1]);
    let total = e.ty.numel();
    let round = |v: Vec<u64>| -> Vec<u64> {
        match precision {
            DotPrecision::Tf32 => v.into_iter().map(crate::float::round_tf32).collect(),
            DotPrecision::Ieee => v,
        }
    };
    let (va, vb, vc) = (round(ta.flat()), round(tb.flat()), tc.vals());
    let out = product_sums(d, &va, &vb, &vc, (m, n, kdim, total));
    let any_inexact = ta.shadow.is_some() || tb.shadow.is_some() || tc.shadow.is_some();
    let mut inex = Vec::new();
    for idx in (0..out.len()).filter(|_| any_inexact) {
        let (q, j) = (idx / n.max(1), idx % n.max(1));
        let (i, bt) = (q % m.max(1), q / m.max(1));
        let arow = (bt * m + i) * kdim;
        let bcol = bt * kdim * n + j;
        let operands = (0..kdim).map(|k| ta.shadow_at(arow + k) | tb.shadow_at(bcol + k * n));
        inex.push(operands.fold(tc.shadow_at(idx), |x, y| x | y));
    }
    Tile::from_vec(shape, out, any_inexact.then_some(inex))
}

/// The sums of a matrix product in ksem's one order, in dtype `d`, for
/// every result element (batch, i, j) of `dims` = (m, n, k, elements): from
/// the accumulator's element in `vc`, k ascending, `r = r + a·b` with
/// `ops`' `Add` and `Mul` (`a` of batch b at `(b·m + i)·k + k'`, `b` at
/// `b·k·n + k'·n + j`). `tl.dot` and `T.gemm`'s fast path (`simt`) both
/// compute with it.
pub(super) fn product_sums(
    d: DType,
    va: &[u64],
    vb: &[u64],
    vc: &[u64],
    dims: (usize, usize, usize, usize),
) -> Vec<u64> {
    let op = |o: BinOp| -> Box<dyn Fn(u64, u64) -> u64> {
        match ops::fast_binary(o, d) {
            Some(f) => Box::new(f),
            // `+` and `*` of numbers are never UB
            None => Box::new(move |x, y| ops::binary(o, d, x, y).unwrap_or(0)),
        }
    };
    if d == DType::F32 {
        // float32's element functions called directly, so they inline
        products(va, vb, vc, dims, ops::add_f32, ops::mul_f32)
    } else {
        products(va, vb, vc, dims, op(BinOp::Add), op(BinOp::Mul))
    }
}

/// `product_sums` with the element functions given.
fn products(
    va: &[u64],
    vb: &[u64],
    vc: &[u64],
    (m, n, kdim, total): (usize, usize, usize, usize),
    add: impl Fn(u64, u64) -> u64,
    mul: impl Fn(u64, u64) -> u64,
) -> Vec<u64> {
    let mut out = Vec::with_capacity(total);
    for (idx, &start) in vc.iter().enumerate().take(total) {
        let (q, j) = (idx / n.max(1), idx % n.max(1));
        let (i, bt) = (q % m.max(1), q / m.max(1));
        let arow = (bt * m + i) * kdim;
        let bcol = bt * kdim * n + j;
        let mut acc = start;
        for k in 0..kdim {
            acc = add(acc, mul(va[arow + k], vb[bcol + k * n]));
        }
        out.push(acc);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::make_ptr;

    /// The canonical tree (DESIGN.md) by `ops::binary` itself, slot by
    /// slot: what the inlined float32 reductions must give.
    fn reference_tree(op: BinOp, row: &[u64], shadows: &[Shadow]) -> (u64, Shadow) {
        let (mut v, mut ix) = (row.to_vec(), shadows.to_vec());
        let (mut live, mut s) = (row.len(), row.len().next_power_of_two() / 2);
        while s >= 1 {
            for i in 0..s.min(live.saturating_sub(s)) {
                v[i] = ops::binary(op, DType::F32, v[i], v[i + s]).expect("no UB");
                ix[i] = ix[i] | ix[i + s];
            }
            live = live.min(s);
            s /= 2;
        }
        (v[0], ix[0])
    }

    #[test]
    fn float32_reductions_agree_with_the_general_rule() {
        // NaN payloads of both signs, zeros of both signs, infinities,
        // overflow (3.4e38 + 3.4e38) and a subnormal, in rows of every
        // length from 1 to 13 (padding slots when not a power of two)
        let edge: Vec<u64> = [
            0.0f32,
            -0.0,
            1.5,
            -2.25,
            3.4e38,
            3.4e38,
            1e-45,
            f32::INFINITY,
        ]
        .iter()
        .map(|v| v.to_bits() as u64)
        .chain([
            0x7fc0_0001,
            0xffc0_0123,
            0xff80_0000,
            0x3dcc_cccd,
            0x8000_0000,
        ])
        .collect();
        let combiners = [
            Combiner::Sum,
            Combiner::Max(NanMode::Propagate),
            Combiner::Max(NanMode::Ignore),
            Combiner::Min(NanMode::Propagate),
            Combiner::Min(NanMode::Ignore),
        ];
        for comb in &combiners {
            let op = value_op(comb).expect("a value combiner");
            for n in 1..=edge.len() {
                for start in 0..edge.len() {
                    let row: Vec<u64> = (0..n).map(|i| edge[(start + i) % edge.len()]).collect();
                    let exact = vec![Shadow::EXACT; n];
                    let want = reference_tree(op, &row, &exact);
                    assert_eq!(
                        tree_reduce(comb, DType::F32, &row, None),
                        want,
                        "{op:?} {row:x?}"
                    );
                    // one inexact element makes the result inexact
                    let mut some = exact.clone();
                    some[n - 1] = Shadow::INEXACT;
                    let want = reference_tree(op, &row, &some);
                    let got = tree_reduce(comb, DType::F32, &row, Some(&some));
                    assert_eq!(got, want, "{op:?} {row:x?} inexact");
                    assert!(got.1.inexact());
                }
            }
        }
    }

    #[test]
    fn pointer_adds_agree_with_the_general_rule() {
        // offsets of every width and sign at their edges, pointers near a
        // buffer's start and far out, each operand as one element too
        let offs: Vec<u64> = [0u64, 1, 5, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff]
            .into_iter()
            .chain([0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 1 << 40, u64::MAX])
            .chain([i64::MAX as u64, i64::MIN as u64, 0x1234_5678_9abc_def0])
            .collect();
        let ptrs: Vec<u64> = [0i64, 3, -2, (1 << 46) - 1, -(1 << 46)]
            .iter()
            .flat_map(|&o| [make_ptr(0, o), make_ptr(2, o)])
            .collect();
        let dtypes = [DType::I8, DType::I16, DType::I32, DType::I64, DType::U8]
            .into_iter()
            .chain([DType::U16, DType::U32, DType::U64]);
        for od in dtypes {
            let b: Vec<u64> = offs.iter().map(|&y| y & od.mask()).collect();
            let a: Vec<u64> = (0..b.len()).map(|i| ptrs[i % ptrs.len()]).collect();
            let general = |p: u64, y: u64| ptr_add(p, ops::int_value(od, y));
            let mut out = Vec::new();
            ptr_add_lanes(&a, &b, od, &mut out);
            let want: Vec<u64> = a.iter().zip(&b).map(|(&p, &y)| general(p, y)).collect();
            assert_eq!(out, want, "{od}");
            for &p in &ptrs {
                out.clear();
                ptr_add_lanes(&[p], &b, od, &mut out);
                let want: Vec<u64> = b.iter().map(|&y| general(p, y)).collect();
                assert_eq!(out, want, "{od} one pointer");
            }
            for &y in &b {
                out.clear();
                ptr_add_lanes(&ptrs, &[y], od, &mut out);
                let want: Vec<u64> = ptrs.iter().map(|&p| general(p, y)).collect();
                assert_eq!(out, want, "{od} one offset");
            }
        }
    }
}
