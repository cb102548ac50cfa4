//! SIMT programs: every thread of a block runs the same scalar code. A
//! block runs as a vector of lanes (one per thread, x fastest) with an
//! active mask: a divergent `if` runs both sides under complementary masks,
//! a loop runs until no lane is active, `break`, `continue` and `return`
//! clear lanes. Lanes of one statement run in lane order, which a race-free
//! program cannot observe.
//!
//! Undefined behaviour found here: the element-wise UB of `crate::ops`
//! (only for active lanes), out-of-bounds indices and accesses, a barrier
//! reached by only some live threads, reading shared or local memory never
//! written, and data races inside the block between two barriers (two
//! threads touching one element where one writes, not both atomically).

use super::contention::{self, Contention, Elem};
use super::memory::{make_ptr, ptr_add, ptr_add_bytes, ptr_parts, Access, Buffer, Global, Runs};
use super::race::thread_coords;
use super::undef::{self, Origins, Shadow, Source, Use};
use super::{format_value, BlockOutcome, RunOptions, Stop};
use crate::dtype::DType;
use crate::ir::*;
use crate::launch::{UbReport, UbSite};
use crate::ops::{self, UbKind};
use crate::span::{Diagnostic, Span};
use smallvec::{smallvec, SmallVec};
use std::collections::HashMap;
use std::sync::atomic::Ordering;

/// Runs a SIMT program: every block of `grid` as `block` lanes. Blocks run
/// in parallel unless the kernel has atomics (whose old values would then
/// depend on the host's scheduling); then in grid order.
pub(super) fn run(
    kernel: &Kernel,
    grid: [u32; 3],
    block: [u32; 3],
    mem: &Global,
    contention: &Contention,
    opts: &RunOptions,
) -> Result<Vec<BlockOutcome>, Diagnostic> {
    let parallel = !contention::has_atomics(kernel);
    super::for_each_block(
        grid,
        opts,
        parallel,
        || (),
        |_: &mut (), pid| {
            let mut b = BlockRun::new(kernel, mem, pid, grid, block, contention, opts);
            let all = smallvec![true; b.n];
            let stop = b.block(&kernel.body, all).err();
            b.runs.flush(&mut b.log);
            BlockOutcome {
                pid,
                stop,
                log: b.log,
                prints: b.prints,
                deferred: b.deferred,
            }
        },
    )
}

/// A loop of independent iterations being run: the current iteration and
/// the arrays each iteration allocates for itself.
struct ParLevel {
    iter: i64,
    private: Vec<ArrayId>,
}

/// The accesses to one element inside loops of independent iterations:
/// the last writer, the last reader, and whether two different iterations
/// have read it.
#[derive(Default)]
struct ParTouch {
    writer: Option<(Vec<i64>, Span)>,
    atomic: Option<(Vec<i64>, Span)>,
    last_reader: Option<(Vec<i64>, Span)>,
    multi: bool,
}

/// Per-lane values, stored inline for a block of one thread (TileLang's
/// tile-level kernels), so that evaluating an expression allocates nothing.
type PerLane<T> = SmallVec<[T; 1]>;

/// Which lanes take part in an operation.
type Mask = PerLane<bool>;

fn none(m: &Mask) -> bool {
    !m.iter().any(|&x| x)
}

fn and(a: &Mask, b: &Mask) -> Mask {
    a.iter().zip(b).map(|(&x, &y)| x && y).collect()
}

fn or(a: &Mask, b: &Mask) -> Mask {
    a.iter().zip(b).map(|(&x, &y)| x || y).collect()
}

/// A value per lane: bit patterns and each one's [`Shadow`] (inexact,
/// undefined).
#[derive(Clone, Debug)]
struct Lanes {
    bits: PerLane<u64>,
    shadow: PerLane<Shadow>,
}

impl Lanes {
    fn splat(n: usize, bits: u64) -> Lanes {
        Lanes {
            bits: smallvec![bits; n],
            shadow: smallvec![Shadow::EXACT; n],
        }
    }
}

/// A shared (per block) or local (per thread) array's memory in this block.
struct ArrayMem {
    cells: Vec<u64>,
    written: Vec<bool>,
    shadow: Vec<Shadow>,
    /// The last atomic operation per element (as `Buffer::last_atomic`).
    last_atomic: Vec<u8>,
    /// Elements of one copy (local arrays have one copy per lane).
    len: usize,
}

/// The lanes that left the innermost loop by `break` and its current
/// iteration by `continue`.
struct LoopMasks {
    broken: Mask,
    continued: Mask,
}

/// Who touched one element since the last barrier (intra-block races).
#[derive(Clone, Copy, Default)]
struct Touches {
    epoch: u32,
    write: Option<(u32, Span)>,
    /// Up to two distinct reading lanes.
    reads: [Option<(u32, Span)>; 2],
    atomics: [Option<(u32, Span)>; 2],
}

/// Kind of a memory access, for race detection.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Touch {
    Read,
    Write,
    Atomic,
}

/// Threads of a warp (the hardware's; CUDA numbers a block's threads x
/// fastest, and so do lanes).
const WARP_SIZE: u32 = 32;

/// The end of a race report between lanes `a` and `b` when both are in one
/// warp: ksem's contract does not assume that a warp's threads run in
/// lockstep (a barrier must order them, as on Volta and later GPUs).
fn same_warp(a: u32, b: u32) -> String {
    if a / WARP_SIZE != b / WARP_SIZE {
        return String::new();
    }
    format!(
        "; both threads are in warp {} of the block, and ksem does not assume a warp's threads run in lockstep (since Volta they need not: a barrier must order them)",
        a / WARP_SIZE
    )
}

fn first_other(list: &[Option<(u32, Span)>], lane: u32) -> Option<(u32, Span)> {
    list.iter().flatten().copied().find(|&(l, _)| l != lane)
}

fn remember(list: &mut [Option<(u32, Span)>; 2], lane: u32, span: Span) {
    match list {
        [None, _] => list[0] = Some((lane, span)),
        [Some((l, _)), None] if *l != lane => list[1] = Some((lane, span)),
        _ => {}
    }
}

/// A resolved pointer: global buffer or one of the block's arrays.
enum Place {
    Global(usize, usize),
    Array(usize, usize),
}

/// The state of one block while it runs.
struct BlockRun<'a> {
    k: &'a Kernel,
    bufs: &'a [Buffer],
    pid: [u32; 3],
    grid: [u32; 3],
    block: [u32; 3],
    /// Lanes (threads) of the block.
    n: usize,
    env: Vec<Option<Lanes>>,
    arrays: Vec<ArrayMem>,
    loops: Vec<LoopMasks>,
    /// Lanes that returned.
    exited: Mask,
    /// Barriers passed so far.
    epoch: u32,
    touches: HashMap<(usize, usize), Touches>,
    log: Vec<Access>,
    runs: Runs,
    contention: &'a Contention,
    /// The enclosing loops of independent iterations (innermost last).
    par: Vec<ParLevel>,
    /// Accesses inside the outermost such loop, by element.
    par_touches: HashMap<(usize, usize), ParTouch>,
    prints: String,
    iterations: u64,
    max_iterations: u64,
    gemm: super::GemmPath,
    /// Where the block's undefined values came from.
    origins: Origins,
    /// UB reported without stopping the block (stores of unchanged copies
    /// of uninitialised memory).
    deferred: Vec<UbReport>,
}

impl<'a> BlockRun<'a> {
    fn new(
        k: &'a Kernel,
        mem: &'a Global,
        pid: [u32; 3],
        grid: [u32; 3],
        block: [u32; 3],
        contention: &'a Contention,
        opts: &RunOptions,
    ) -> BlockRun<'a> {
        let n = block.iter().map(|&b| b as usize).product::<usize>();
        let mut env = vec![None; k.vars.len()];
        for &(v, b) in &mem.params {
            env[v] = Some(Lanes::splat(n, b));
        }
        let arrays = k
            .arrays
            .iter()
            .map(|a| {
                let copies = if a.space == AddrSpace::Local { n } else { 1 };
                let total = a.len() * copies;
                ArrayMem {
                    cells: vec![0; total],
                    written: vec![false; total],
                    shadow: vec![Shadow::EXACT; total],
                    last_atomic: vec![0; total],
                    len: a.len(),
                }
            })
            .collect();
        BlockRun {
            k,
            bufs: &mem.bufs,
            pid,
            grid,
            block,
            n,
            env,
            arrays,
            loops: Vec::new(),
            exited: smallvec![false; n],
            epoch: 0,
            touches: HashMap::new(),
            log: Vec::new(),
            runs: Runs::default(),
            contention,
            par: Vec::new(),
            par_touches: HashMap::new(),
            prints: String::new(),
            iterations: 0,
            max_iterations: opts.max_loop_iterations,
            gemm: opts.gemm,
            origins: Origins::default(),
            deferred: Vec::new(),
        }
    }

    fn thread(&self, lane: usize) -> [u32; 3] {
        thread_coords(self.block, lane as u32)
    }

    fn ub(&self, kind: UbKind, span: Span, lane: usize, element: Vec<usize>, msg: String) -> Stop {
        let mut r = UbReport::new(kind, span.line, span.col, self.pid, element, msg);
        r.thread = Some(self.thread(lane));
        Stop::Ub(Box::new(r))
    }

    /// The UB of `lane` using undefined value `s` as `what` at `span`.
    fn undefined_use(&self, s: Shadow, what: Use, span: Span, lane: usize) -> Stop {
        let thread = Some(self.thread(lane));
        Stop::Ub(Box::new(self.origins.report(
            s,
            what,
            span,
            self.pid,
            vec![],
            thread,
        )))
    }

    /// Reports `lane`'s use of undefined value `s` as `what` at `span`
    /// without stopping the block (once per place).
    fn defer(&mut self, s: Shadow, what: Use, span: Span, lane: usize) {
        if !self
            .deferred
            .iter()
            .any(|r| (r.line, r.col) == (span.line, span.col))
        {
            let thread = Some(self.thread(lane));
            let r = self.origins.report(s, what, span, self.pid, vec![], thread);
            self.deferred.push(r);
        }
    }

    /// UB if `v` is undefined in a lane of `m`: it is used there as `what`.
    fn check_defined(&self, v: &Lanes, what: Use, span: Span, m: &Mask) -> Result<(), Stop> {
        match (0..self.n).find(|&l| m[l] && v.shadow[l].is_undefined()) {
            Some(l) => Err(self.undefined_use(v.shadow[l], what, span, l)),
            None => Ok(()),
        }
    }

    fn tick(&mut self, span: Span) -> Result<(), Stop> {
        self.iterations += 1;
        if self.iterations > self.max_iterations {
            let p = self.pid;
            return Err(Stop::Error(
                Diagnostic::new(
                    span,
                    format!(
                        "block ({},{},{}) ran more than {} loop iterations; ksem stopped it",
                        p[0], p[1], p[2], self.max_iterations
                    ),
                )
                .with_help("check the loop's exit condition, or raise --max-loop-iterations"),
            ));
        }
        Ok(())
    }

    // ----- statements ------------------------------------------------------

    /// Runs `b` for the lanes of `active`; returns the lanes that reach its end.
    fn block(&mut self, b: &[Stmt], mut active: Mask) -> Result<Mask, Stop> {
        for s in b {
            if none(&active) {
                break;
            }
            active = self.stmt(s, active)?;
        }
        Ok(active)
    }

    fn stmt(&mut self, s: &Stmt, active: Mask) -> Result<Mask, Stop> {
        match s {
            Stmt::Let(v, e) => {
                let val = self.eval(e, &active)?;
                self.assign(*v, val, &active);
                Ok(active)
            }
            Stmt::Store {
                ptr,
                value,
                mask,
                span,
            } => {
                let p = self.eval(ptr, &active)?;
                let v = self.eval(value, &active)?;
                let m = match mask {
                    Some(m) => and(&active, &self.truth(m, &active, Use::Mask)?),
                    None => active.clone(),
                };
                self.check_defined(&p, Use::Address, *span, &m)?;
                for lane in (0..self.n).filter(|&l| m[l]) {
                    let place = self.place(p.bits[lane], lane, *span, false)?;
                    let s = v.shadow[lane];
                    if s.is_undefined() && matches!(place, Place::Global(..)) {
                        // global memory outlives the launch: UB, reported
                        // without stopping the block where the value is an
                        // unchanged copy of uninitialised memory (its
                        // destination stays undefined)
                        if !self.origins.copies_uninitialized(s) {
                            return Err(self.undefined_use(s, Use::StoreValue, *span, lane));
                        }
                        self.defer(s, Use::StoreValue, *span, lane);
                    }
                    self.touch(&place, lane, Touch::Write, *span)?;
                    self.write(&place, v.bits[lane], s);
                }
                Ok(active)
            }
            Stmt::If {
                cond,
                then_body,
                else_body,
            } => {
                let c = self.truth(cond, &active, Use::Condition)?;
                let t: Mask = and(&active, &c);
                let e: Mask = active.iter().zip(&c).map(|(&a, &c)| a && !c).collect();
                let t_out = if none(&t) {
                    t
                } else {
                    self.block(then_body, t)?
                };
                let e_out = if none(&e) {
                    e
                } else {
                    self.block(else_body, e)?
                };
                Ok(or(&t_out, &e_out))
            }
            Stmt::For {
                var,
                start,
                end,
                step,
                body,
                span,
                parallel,
            } => self.for_loop(
                *var,
                start,
                end,
                step,
                body,
                *span,
                parallel.as_ref(),
                active,
            ),
            Stmt::While { cond, body, span } => {
                let mut running = active.clone();
                let mut done = smallvec![false; self.n];
                self.loops.push(LoopMasks {
                    broken: smallvec![false; self.n],
                    continued: smallvec![false; self.n],
                });
                let r = (|| loop {
                    let c = self.truth(cond, &running, Use::Condition)?;
                    for l in 0..self.n {
                        if running[l] && !c[l] {
                            done[l] = true;
                            running[l] = false;
                        }
                    }
                    if none(&running) {
                        return Ok(());
                    }
                    self.tick(*span)?;
                    running = self.iteration(body, running)?;
                })();
                let masks = self.loops.pop().expect("pushed above");
                r?;
                Ok(or(&done, &masks.broken))
            }
            Stmt::Break => {
                let top = self.loops.last_mut().expect("verified: break in a loop");
                top.broken = or(&top.broken, &active);
                Ok(smallvec![false; self.n])
            }
            Stmt::Continue => {
                let top = self.loops.last_mut().expect("verified: continue in a loop");
                top.continued = or(&top.continued, &active);
                Ok(smallvec![false; self.n])
            }
            Stmt::Return => {
                self.exited = or(&self.exited, &active);
                Ok(smallvec![false; self.n])
            }
            Stmt::Barrier { span } => {
                self.barrier(&active, *span)?;
                Ok(active)
            }
            Stmt::Gemm(g) => {
                use super::GemmPath;
                if self.gemm != GemmPath::Reference && self.gemm(&g.spec) {
                    return Ok(active);
                }
                if self.gemm == GemmPath::FastOnly {
                    let msg = "this T.gemm could not run as one operation (GemmPath::FastOnly)";
                    return Err(Stop::Error(Diagnostic::new(g.span, msg)));
                }
                // a product's loops are bounded: they count no iterations
                let (count, cap) = (self.iterations, self.max_iterations);
                self.max_iterations = u64::MAX;
                let r = self.block(&g.body, active);
                (self.iterations, self.max_iterations) = (count, cap);
                r
            }
            Stmt::Print { prefix, args, .. } => {
                let vals = args
                    .iter()
                    .map(|a| self.eval(a, &active).map(|v| (a.ty.dtype(), v)))
                    .collect::<Result<Vec<_>, Stop>>()?;
                for lane in (0..self.n).filter(|&l| active[l]) {
                    let (p, t) = (self.pid, self.thread(lane));
                    let mut line = format!(
                        "block ({}, {}, {}) thread ({}, {}, {}) {prefix}",
                        p[0], p[1], p[2], t[0], t[1], t[2]
                    );
                    for (d, v) in &vals {
                        line.push_str(&format!(" {}", format_value(*d, v.bits[lane])));
                    }
                    self.prints.push_str(&line);
                    self.prints.push('\n');
                }
                Ok(active)
            }
        }
    }

    /// One pass of a loop body; returns the lanes that go on to the next
    /// iteration (those that reached the end or `continue`d).
    fn iteration(&mut self, body: &[Stmt], running: Mask) -> Result<Mask, Stop> {
        let out = self.block(body, running)?;
        let top = self.loops.last_mut().expect("in a loop");
        let next = or(&out, &top.continued);
        top.continued = smallvec![false; next.len()];
        Ok(next)
    }

    #[allow(clippy::too_many_arguments)]
    fn for_loop(
        &mut self,
        var: VarId,
        start: &Expr,
        end: &Expr,
        step: &Expr,
        body: &[Stmt],
        span: Span,
        parallel: Option<&Parallel>,
        active: Mask,
    ) -> Result<Mask, Stop> {
        if let Some(p) = parallel {
            if self.par.is_empty() {
                self.par_touches.clear();
            }
            self.par.push(ParLevel {
                iter: 0,
                private: p.private.clone(),
            });
        }
        let r = self.for_loop_body(
            var,
            start,
            end,
            step,
            body,
            span,
            parallel.is_some(),
            active,
        );
        if parallel.is_some() {
            self.par.pop();
        }
        r
    }

    #[allow(clippy::too_many_arguments)]
    fn for_loop_body(
        &mut self,
        var: VarId,
        start: &Expr,
        end: &Expr,
        step: &Expr,
        body: &[Stmt],
        span: Span,
        parallel: bool,
        active: Mask,
    ) -> Result<Mask, Stop> {
        let d = self.k.vars[var].1.dtype();
        let lo = self.eval(start, &active)?;
        let hi = self.eval(end, &active)?;
        let st = self.eval(step, &active)?;
        for (bound, e) in [(&lo, start), (&hi, end), (&st, step)] {
            self.check_defined(bound, Use::LoopBound, e.span, &active)?;
        }
        let val = |l: &Lanes, i: usize| ops::int_value(d, l.bits[i]);
        let mut cur: Vec<i128> = (0..self.n).map(|i| val(&lo, i)).collect();
        if let Some(l) = (0..self.n).find(|&l| active[l] && val(&st, l) == 0) {
            return Err(self.ub(
                UbKind::ZeroStep,
                span,
                l,
                vec![],
                "range() step is zero".into(),
            ));
        }
        let mut running = active.clone();
        let mut done = smallvec![false; self.n];
        self.loops.push(LoopMasks {
            broken: smallvec![false; self.n],
            continued: smallvec![false; self.n],
        });
        let r = (|| loop {
            for l in 0..self.n {
                let (h, s) = (val(&hi, l), val(&st, l));
                if running[l] && !((s > 0 && cur[l] < h) || (s < 0 && cur[l] > h)) {
                    running[l] = false;
                    done[l] = true;
                }
            }
            if none(&running) {
                return Ok(());
            }
            self.tick(span)?;
            let iv = Lanes {
                bits: cur.iter().map(|&i| (i as u64) & d.mask()).collect(),
                shadow: smallvec![Shadow::EXACT; self.n],
            };
            self.assign(var, iv, &running);
            if parallel {
                let top = self.par.last_mut().expect("pushed by for_loop");
                top.iter = cur.first().copied().unwrap_or(0) as i64;
            }
            running = self.iteration(body, running)?;
            for l in 0..self.n {
                if running[l] {
                    cur[l] += val(&st, l);
                }
            }
        })();
        let masks = self.loops.pop().expect("pushed above");
        r?;
        Ok(or(&done, &masks.broken))
    }

    fn assign(&mut self, v: VarId, val: Lanes, active: &Mask) {
        match &mut self.env[v] {
            Some(old) => {
                for (l, _) in active.iter().enumerate().filter(|(_, &a)| a) {
                    old.bits[l] = val.bits[l];
                    old.shadow[l] = val.shadow[l];
                }
            }
            slot @ None => *slot = Some(val),
        }
    }

    /// A barrier: every live lane must be here; it starts a new epoch of
    /// race detection.
    fn barrier(&mut self, active: &Mask, span: Span) -> Result<(), Stop> {
        let missing = (0..self.n).find(|&l| !self.exited[l] && !active[l]);
        if let Some(m) = missing {
            let at = (0..self.n).find(|&l| active[l]).unwrap_or(0);
            let t = self.thread(m);
            return Err(self.ub(
                UbKind::BarrierDivergence,
                span,
                at,
                vec![],
                format!(
                    "barrier reached by only some threads of the block: thread ({},{},{}) is live but does not reach it",
                    t[0], t[1], t[2]
                ),
            ));
        }
        self.epoch += 1;
        Ok(())
    }

    // ----- memory ------------------------------------------------------------

    /// Where pointer `p` of `lane` points, or UB if outside its buffer.
    fn place(&self, p: u64, lane: usize, span: Span, load: bool) -> Result<Place, Stop> {
        let (b, off) = ptr_parts(p);
        let kind = if load {
            UbKind::OutOfBoundsLoad
        } else {
            UbKind::OutOfBoundsStore
        };
        let verb = if load { "load of" } else { "store to" };
        if b < self.bufs.len() {
            let buf = &self.bufs[b];
            if off < 0 || off as usize >= buf.cells.len() {
                return Err(self.ub(
                    kind,
                    span,
                    lane,
                    vec![],
                    format!(
                        "{verb} {}[{off}], which has {} elements",
                        buf.name,
                        buf.cells.len()
                    ),
                ));
            }
            return Ok(Place::Global(b, off as usize));
        }
        let a = b - self.bufs.len();
        let decl = &self.k.arrays[a];
        let len = self.arrays[a].len as i64;
        let base = if decl.space == AddrSpace::Local {
            lane as i64 * len
        } else {
            0
        };
        if off < base || off >= base + len {
            return Err(self.ub(
                kind,
                span,
                lane,
                vec![],
                format!(
                    "{verb} {}[{}], which has {len} elements",
                    decl.name,
                    off - base
                ),
            ));
        }
        Ok(Place::Array(a, off as usize))
    }

    /// The bits and shadow at `place`; an element of an uninitialised
    /// buffer that nothing wrote is undefined, made by the read at `span`.
    fn read(&mut self, place: &Place, lane: usize, span: Span) -> (u64, Shadow) {
        match *place {
            Place::Global(b, i) => {
                let buf = &self.bufs[b];
                let bits = buf.cells[i].load(Ordering::Relaxed);
                if buf.undefined(i) {
                    let source = Source::UninitializedBuffer {
                        buffer: buf.name.clone(),
                        element: i,
                    };
                    let thread = Some(self.thread(lane));
                    let origin = self.origins.make(span, source, thread);
                    return (bits, Shadow::undefined(origin));
                }
                (bits, Shadow::from_inexact(buf.inexact(i)))
            }
            Place::Array(a, i) => (self.arrays[a].cells[i], self.arrays[a].shadow[i]),
        }
    }

    /// Records `op` as the last atomic on `place`; the one before, if any.
    fn swap_last_atomic(&mut self, place: &Place, op: AtomicOp) -> Option<AtomicOp> {
        let id = contention::last_atomic_id(op);
        let prev = match *place {
            Place::Global(b, i) => self.bufs[b].swap_last_atomic(i, id),
            Place::Array(a, i) => std::mem::replace(&mut self.arrays[a].last_atomic[i], id),
        };
        (prev > 0).then(|| AtomicOp::ALL[prev as usize - 1])
    }

    /// Writes `bits` of state `shadow` to `place` (global memory only
    /// ever receives defined values: the callers check).
    fn write(&mut self, place: &Place, bits: u64, shadow: Shadow) {
        match *place {
            Place::Global(b, i) => {
                self.bufs[b].store(i, bits);
                self.bufs[b].set_inexact(i, shadow.inexact());
                if shadow.is_undefined() {
                    self.bufs[b].set_undefined(i);
                } else {
                    self.bufs[b].set_defined(i);
                }
            }
            Place::Array(a, i) => {
                let m = &mut self.arrays[a];
                m.cells[i] = bits;
                m.written[i] = true;
                m.shadow[i] = shadow;
            }
        }
    }

    /// Records an access for race detection: intra-block (global and
    /// shared memory, since the last barrier) and, for global memory, the
    /// log that `race` compares across blocks.
    fn touch(&mut self, place: &Place, lane: usize, how: Touch, span: Span) -> Result<(), Stop> {
        if !self.par.is_empty() {
            self.touch_parallel(place, lane, how, span)?;
        }
        let key = match *place {
            Place::Global(b, i) => {
                self.runs.push(
                    &mut self.log,
                    Access {
                        buf: b as u32,
                        start: i as u64,
                        len: 1,
                        write: how != Touch::Read,
                        atomic: how == Touch::Atomic,
                        span,
                        thread: Some(lane as u32),
                        lock: 0,
                    },
                );
                (b, i)
            }
            Place::Array(a, i) => {
                if self.k.arrays[a].space == AddrSpace::Local {
                    return Ok(());
                }
                (self.bufs.len() + a, i)
            }
        };
        if self.n == 1 {
            return Ok(()); // a block of one thread has no other thread to race with
        }
        let epoch = self.epoch;
        let t = self.touches.entry(key).or_default();
        if t.epoch != epoch {
            *t = Touches {
                epoch,
                ..Touches::default()
            };
        }
        let l = lane as u32;
        let other_write = t.write.filter(|&(w, _)| w != l);
        let conflict = match how {
            Touch::Read => other_write.or(first_other(&t.atomics, l)),
            Touch::Write => other_write
                .or(first_other(&t.reads, l))
                .or(first_other(&t.atomics, l)),
            Touch::Atomic => other_write.or(first_other(&t.reads, l)),
        };
        match how {
            Touch::Read => remember(&mut t.reads, l, span),
            Touch::Write => t.write = Some((l, span)),
            Touch::Atomic => remember(&mut t.atomics, l, span),
        }
        if let Some((o, ospan)) = conflict {
            let name = match *place {
                Place::Global(b, _) => self.bufs[b].name.clone(),
                Place::Array(a, _) => self.k.arrays[a].name.clone(),
            };
            let what = match how {
                Touch::Read => "read",
                Touch::Write => "written",
                Touch::Atomic => "updated atomically",
            };
            let ot = self.thread(o as usize);
            let mut r = UbReport::new(
                UbKind::DataRace,
                span.line,
                span.col,
                self.pid,
                vec![key.1],
                format!(
                    "data race on {name}[{}]: {what} here and accessed by thread ({},{},{}) of the same block at {}:{} with no barrier between{}",
                    key.1,
                    ot[0],
                    ot[1],
                    ot[2],
                    ospan.line,
                    ospan.col,
                    same_warp(lane as u32, o)
                ),
            );
            r.thread = Some(self.thread(lane));
            r.other = Some(UbSite {
                line: ospan.line,
                col: ospan.col,
                program: self.pid,
                thread: Some(ot),
            });
            return Err(Stop::Ub(Box::new(r)));
        }
        Ok(())
    }

    /// An access inside loops of independent iterations: two iterations
    /// touching one element where one of them writes is a data race (the
    /// real system runs them on different threads). Arrays an iteration
    /// allocates are its own.
    fn touch_parallel(
        &mut self,
        place: &Place,
        lane: usize,
        how: Touch,
        span: Span,
    ) -> Result<(), Stop> {
        let key = match *place {
            Place::Global(b, i) => (b, i),
            Place::Array(a, i) => {
                if self.par.iter().any(|p| p.private.contains(&a)) {
                    return Ok(());
                }
                (self.bufs.len() + a, i)
            }
        };
        let id: Vec<i64> = self.par.iter().map(|p| p.iter).collect();
        let t = self.par_touches.entry(key).or_default();
        let write = how != Touch::Read;
        let other = |x: &Option<(Vec<i64>, Span)>| x.clone().filter(|(o, _)| *o != id);
        let readers = |t: &ParTouch| {
            if t.multi {
                t.last_reader.clone()
            } else {
                other(&t.last_reader)
            }
        };
        // atomics from different iterations do not race with each other
        let conflict = match how {
            Touch::Write => other(&t.writer)
                .or_else(|| other(&t.atomic))
                .or_else(|| readers(t)),
            Touch::Atomic => other(&t.writer).or_else(|| readers(t)),
            Touch::Read => other(&t.writer).or_else(|| other(&t.atomic)),
        };
        if how == Touch::Atomic {
            t.atomic = Some((id.clone(), span));
        } else if write {
            t.writer = Some((id.clone(), span));
        } else {
            if t.last_reader.as_ref().is_some_and(|(o, _)| *o != id) {
                t.multi = true;
            }
            t.last_reader = Some((id.clone(), span));
        }
        let Some((oid, ospan)) = conflict else {
            return Ok(());
        };
        let name = match *place {
            Place::Global(b, _) => self.bufs[b].name.clone(),
            Place::Array(a, _) => self.k.arrays[a].name.clone(),
        };
        let mut r = UbReport::new(
            UbKind::DataRace,
            span.line,
            span.col,
            self.pid,
            vec![key.1],
            format!(
                "data race on {name}[{}]: iteration {id:?} of a parallel loop {} it and iteration {oid:?} accessed it at {}:{}; the iterations run on different threads",
                key.1,
                if write { "writes" } else { "reads" },
                ospan.line,
                ospan.col
            ),
        );
        r.thread = Some(self.thread(lane));
        r.other = Some(UbSite {
            line: ospan.line,
            col: ospan.col,
            program: self.pid,
            thread: Some(self.thread(lane)),
        });
        Err(Stop::Ub(Box::new(r)))
    }

    /// Reading shared or local memory that no thread has written is UB.
    fn check_written(&self, place: &Place, lane: usize, span: Span) -> Result<(), Stop> {
        if let Place::Array(a, i) = *place {
            if !self.arrays[a].written[i] {
                let decl = &self.k.arrays[a];
                let idx = i % self.arrays[a].len;
                return Err(self.ub(
                    UbKind::UninitializedRead,
                    span,
                    lane,
                    vec![idx],
                    format!(
                        "read of {}[{idx}] ({} memory), which was never written",
                        decl.name,
                        decl.space.name()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Reads the element at `place` for `lane`; shared and local memory
    /// never written is UB.
    fn load_one(
        &mut self,
        place: &Place,
        lane: usize,
        span: Span,
        d: DType,
    ) -> Result<(u64, Shadow), Stop> {
        self.check_written(place, lane, span)?;
        self.touch(place, lane, Touch::Read, span)?;
        let (v, ix) = self.read(place, lane, span);
        Ok((if d == DType::Bool { (v != 0) as u64 } else { v }, ix))
    }

    /// `Stmt::Gemm` as one operation, for a block of one thread outside
    /// loops of independent iterations: what its loop nest computes and
    /// stores, element for element (the same conversions, then
    /// `tile::product_sums`, `tl.dot`'s order, which is the nest's).
    /// Returns false, having changed nothing, where the loop nest must run
    /// instead: a read of an element never written, a conversion that is
    /// UB, operands whose sizes are not the
    /// product's, or C the same array as A or B (the nest then reads sums
    /// it has already stored); the loop nest then reports it where it
    /// happens.
    fn gemm(&mut self, g: &GemmSpec) -> bool {
        if self.n != 1 || !self.par.is_empty() || g.c == g.a || g.c == g.b {
            return false;
        }
        let decl = |x: ArrayId| &self.k.arrays[x];
        let (ad, bd, d) = (decl(g.a).dtype, decl(g.b).dtype, decl(g.c).dtype);
        let (m, n, kk) = (g.m, g.n, g.k);
        let (am, bm, cm) = (&self.arrays[g.a], &self.arrays[g.b], &self.arrays[g.c]);
        if am.len != m * kk || bm.len != kk * n || cm.len != m * n {
            return false;
        }
        // every operand element read must have been written
        let read_all = |mem: &ArrayMem| mem.written[..mem.len].iter().all(|&w| w);
        if (kk > 0 && m * n > 0 && !(read_all(am) && read_all(bm))) || (!g.clear && !read_all(cm)) {
            return false;
        }
        // A as m×k and B as k×n, converted to C's dtype (pure, so once each)
        let conv = |mem: &ArrayMem,
                    from: DType,
                    at: &dyn Fn(usize, usize) -> usize,
                    rows: usize,
                    cols: usize| {
            let mut v = Vec::with_capacity(rows * cols);
            let mut ix = Vec::with_capacity(rows * cols);
            for r in 0..rows {
                for c in 0..cols {
                    let i = at(r, c);
                    v.push(ops::cast(crate::ir::build::CONVERT, from, d, mem.cells[i]).ok()?);
                    // (an undefined operand: the loop nest reports it where it is used)
                    if mem.shadow[i].is_undefined() {
                        return None;
                    }
                    ix.push(mem.shadow[i].inexact());
                }
            }
            Some((v, ix))
        };
        let a_at = |i: usize, k: usize| if g.trans_a { k * m + i } else { i * kk + k };
        let b_at = |k: usize, j: usize| if g.trans_b { j * kk + k } else { k * n + j };
        let (Some((av, ai)), Some((bv, bi))) =
            (conv(am, ad, &a_at, m, kk), conv(bm, bd, &b_at, kk, n))
        else {
            return false;
        };
        let start: Vec<u64> = if g.clear {
            vec![0; m * n]
        } else {
            cm.cells[..m * n].to_vec()
        };
        let out = super::tile::product_sums(d, &av, &bv, &start, (m, n, kk, m * n));
        // a sum is inexact where its start is, or any element of the row of
        // A or the column of B it reads
        let row_ix: Vec<bool> = (0..m)
            .map(|i| ai[i * kk..(i + 1) * kk].contains(&true))
            .collect();
        let col_ix: Vec<bool> = (0..n).map(|j| (0..kk).any(|k| bi[k * n + j])).collect();
        let out_ix: Vec<bool> = (0..m * n)
            .map(|ij| (!g.clear && cm.shadow[ij].inexact()) || row_ix[ij / n] || col_ix[ij % n])
            .collect();
        if !g.clear && cm.shadow[..m * n].iter().any(|s| s.is_undefined()) {
            return false;
        }
        let c = &mut self.arrays[g.c];
        for (i, (v, ix)) in out.into_iter().zip(out_ix).enumerate() {
            c.cells[i] = v;
            c.written[i] = true;
            c.shadow[i] = Shadow::from_inexact(ix);
        }
        true
    }

    // ----- expressions -------------------------------------------------------

    /// A bool value per lane (false for inactive lanes), used as `what`:
    /// UB where it is undefined in an active lane.
    fn truth(&mut self, e: &Expr, active: &Mask, what: Use) -> Result<Mask, Stop> {
        let v = self.eval(e, active)?;
        self.check_defined(&v, what, e.span, active)?;
        Ok((0..self.n).map(|l| active[l] && v.bits[l] != 0).collect())
    }

    fn eval(&mut self, e: &Expr, active: &Mask) -> Result<Lanes, Stop> {
        let n = self.n;
        let d = e.ty.dtype();
        let per_lane = |f: &dyn Fn(usize) -> u64| Lanes {
            bits: (0..n).map(f).collect(),
            shadow: smallvec![Shadow::EXACT; n],
        };
        Ok(match &e.kind {
            ExprKind::Const(b) => Lanes::splat(n, *b),
            ExprKind::Undef => {
                let origin = self.origins.make(e.span, Source::MaskedLoad, None);
                Lanes {
                    bits: smallvec![0; n],
                    shadow: smallvec![Shadow::undefined(origin); n],
                }
            }
            ExprKind::Var(v) => match &self.env[*v] {
                Some(x) => x.clone(),
                None => Lanes::splat(n, 0),
            },
            ExprKind::BlockId(a) => Lanes::splat(n, self.pid[*a as usize] as u64),
            ExprKind::GridDim(a) => Lanes::splat(n, self.grid[*a as usize] as u64),
            ExprKind::BlockDim(a) => Lanes::splat(n, self.block[*a as usize] as u64),
            ExprKind::ThreadId(a) => {
                let block = self.block;
                per_lane(&|l| thread_coords(block, l as u32)[*a as usize] as u64)
            }
            ExprKind::ArrayBase(a) => {
                let id = self.bufs.len() + a;
                let len = self.arrays[*a].len as i64;
                let local = self.k.arrays[*a].space == AddrSpace::Local;
                per_lane(&|l| make_ptr(id, if local { l as i64 * len } else { 0 }))
            }
            ExprKind::Cast(x, kind) if kind.is_pointer_bits(&x.ty, &e.ty) => {
                // a pointer's bits are its uint64 representation
                self.eval(x, active)?
            }
            ExprKind::Cast(x, kind) => {
                let v = self.eval(x, active)?;
                let from = x.ty.dtype();
                let mut out = Lanes::splat(n, 0);
                for l in (0..n).filter(|&l| active[l]) {
                    match ops::cast(*kind, from, d, v.bits[l]) {
                        Ok(b) => out.bits[l] = b,
                        // an undefined value converts to an undefined one
                        Err(_) if v.shadow[l].is_undefined() => {}
                        Err(k) => {
                            let val = format_value(from, v.bits[l]);
                            return Err(self.ub(
                                k,
                                e.span,
                                l,
                                vec![],
                                format!("{from} value {val} does not fit in {d}"),
                            ));
                        }
                    }
                    out.shadow[l] = v.shadow[l].computed();
                }
                out
            }
            ExprKind::Unary(op, x) => {
                let v = self.eval(x, active)?;
                let xd = x.ty.dtype();
                let approx = matches!(op, UnOp::Math(f) if f.is_inexact());
                Lanes {
                    bits: v.bits.iter().map(|&b| ops::unary(*op, xd, b)).collect(),
                    shadow: v
                        .shadow
                        .iter()
                        .map(|&s| {
                            let s = s.computed();
                            if approx {
                                s.with_inexact()
                            } else {
                                s
                            }
                        })
                        .collect(),
                }
            }
            ExprKind::Binary(op, a, b) => {
                let va = self.eval(a, active)?;
                let vb = self.eval(b, active)?;
                self.binary(*op, a.ty.dtype(), b.ty.dtype(), &va, &vb, e.span, active)?
            }
            ExprKind::Select(c, a, b) => {
                let vc = self.eval(c, active)?;
                let va = self.eval(a, active)?;
                let vb = self.eval(b, active)?;
                let pick = |l: usize| if vc.bits[l] != 0 { &va } else { &vb };
                Lanes {
                    bits: (0..n).map(|l| pick(l).bits[l]).collect(),
                    // an undefined condition selects an undefined value
                    shadow: (0..n)
                        .map(|l| {
                            let s = vc.shadow[l] | pick(l).shadow[l];
                            if vc.shadow[l].is_undefined() {
                                s.computed()
                            } else {
                                s
                            }
                        })
                        .collect(),
                }
            }
            ExprKind::Fma(a, b, c, r) => {
                let (va, vb, vc) = (
                    self.eval(a, active)?,
                    self.eval(b, active)?,
                    self.eval(c, active)?,
                );
                Lanes {
                    bits: (0..n)
                        .map(|l| crate::ieee::fma(d, *r, va.bits[l], vb.bits[l], vc.bits[l]))
                        .collect(),
                    shadow: (0..n)
                        .map(|l| (va.shadow[l] | vb.shadow[l] | vc.shadow[l]).computed())
                        .collect(),
                }
            }
            ExprKind::Load { ptr, mask, other } => {
                let p = self.eval(ptr, active)?;
                let m = match mask {
                    Some(m) => and(active, &self.truth(m, active, Use::Mask)?),
                    None => active.clone(),
                };
                self.check_defined(&p, Use::Address, e.span, &m)?;
                let o = match other {
                    Some(o) => Some(self.eval(o, active)?),
                    None => None,
                };
                let mut out = Lanes::splat(n, 0);
                for l in (0..n).filter(|&l| active[l]) {
                    if !m[l] {
                        if let Some(o) = &o {
                            out.bits[l] = o.bits[l];
                            out.shadow[l] = o.shadow[l];
                        }
                        continue;
                    }
                    let place = self.place(p.bits[l], l, e.span, true)?;
                    let (b, ix) = self.load_one(&place, l, e.span, d)?;
                    out.bits[l] = b;
                    out.shadow[l] = ix;
                }
                out
            }
            ExprKind::ElemPtr {
                base,
                indices,
                dims,
                neg,
                offset,
            } => {
                let mut p = self.eval(base, active)?;
                let offset = match offset {
                    Some(o) => Some((o.ty.dtype(), self.eval(o, active)?)),
                    None => None,
                };
                let idx = indices
                    .iter()
                    .map(|i| self.eval(i, active).map(|v| (i.ty.dtype(), v)))
                    .collect::<Result<Vec<_>, Stop>>()?;
                for (_, v) in &idx {
                    self.check_defined(v, Use::Index, e.span, active)?;
                }
                if let Some((_, o)) = &offset {
                    self.check_defined(o, Use::Index, e.span, active)?;
                }
                for l in (0..n).filter(|&l| active[l]) {
                    let mut flat: i128 = 0;
                    for (axis, ((id, iv), &dim)) in idx.iter().zip(dims).enumerate() {
                        let raw = ops::int_value(*id, iv.bits[l]);
                        let i = if raw < 0 && *neg == NegIndex::Wrap {
                            raw + dim as i128
                        } else {
                            raw
                        };
                        if i < 0 || i >= dim as i128 {
                            let all: Vec<String> = idx
                                .iter()
                                .map(|(d, v)| ops::int_value(*d, v.bits[l]).to_string())
                                .collect();
                            return Err(self.ub(
                                UbKind::OutOfBoundsIndex,
                                e.span,
                                l,
                                vec![],
                                format!(
                                    "index {raw} is out of bounds for axis {axis} of size {dim} (indices [{}] of an array of shape {dims:?})",
                                    all.join(", ")
                                ),
                            ));
                        }
                        flat = flat * dim as i128 + i;
                    }
                    if let Some((d, o)) = &offset {
                        flat = ops::int_value(*d, o.bits[l]);
                    }
                    p.bits[l] = ptr_add(p.bits[l], flat);
                }
                p
            }
            ExprKind::CheckIndex {
                index,
                len,
                neg,
                axis,
            } => {
                let d = e.ty.dtype();
                let iv = self.eval(index, active)?;
                let lv = self.eval(len, active)?;
                self.check_defined(&iv, Use::Index, e.span, active)?;
                self.check_defined(&lv, Use::Index, e.span, active)?;
                let mut out = Lanes::splat(n, 0);
                for l in (0..n).filter(|&l| active[l]) {
                    let (raw, size) =
                        (ops::int_value(d, iv.bits[l]), ops::int_value(d, lv.bits[l]));
                    let i = if raw < 0 && *neg == NegIndex::Wrap {
                        raw + size
                    } else {
                        raw
                    };
                    if i < 0 || i >= size {
                        return Err(self.ub(
                            UbKind::OutOfBoundsIndex,
                            e.span,
                            l,
                            vec![],
                            format!("index {raw} is out of bounds for axis {axis} of size {size} (a length known at run time)"),
                        ));
                    }
                    out.bits[l] = (i as u64) & d.mask();
                }
                out
            }
            ExprKind::Atomic {
                op, ptr, val, cmp, ..
            } => {
                let p = self.eval(ptr, active)?;
                let v = self.eval(val, active)?;
                let c = match cmp {
                    Some(c) => Some(self.eval(c, active)?),
                    None => None,
                };
                self.check_defined(&p, Use::Address, e.span, active)?;
                self.check_defined(&v, Use::Atomic, e.span, active)?;
                if let Some(c) = &c {
                    self.check_defined(c, Use::Atomic, e.span, active)?;
                }
                let mut out = Lanes::splat(n, 0);
                for l in (0..n).filter(|&l| active[l]) {
                    let place = self.place(p.bits[l], l, e.span, false)?;
                    self.check_written(&place, l, e.span)?;
                    self.touch(&place, l, Touch::Atomic, e.span)?;
                    let (old, old_shadow) = self.read(&place, l, e.span);
                    if old_shadow.is_undefined() && *op != AtomicOp::Exch {
                        // the update combines the element's undefined value
                        return Err(self.undefined_use(old_shadow, Use::Atomic, e.span, l));
                    }
                    let old_ix = old_shadow.inexact();
                    let new =
                        ops::atomic_rmw(*op, d, old, v.bits[l], c.as_ref().map(|c| c.bits[l]));
                    let mixed = self.swap_last_atomic(&place, *op).is_some_and(|p| p != *op);
                    let order_dependent = contention::order_dependent(
                        *op,
                        d,
                        old,
                        new,
                        old_ix,
                        v.shadow[l].inexact(),
                        mixed,
                    );
                    self.write(&place, new, Shadow::from_inexact(order_dependent));
                    let elem = match place {
                        Place::Global(b, i) => Elem::Global(b, i),
                        Place::Array(a, i) => Elem::Array(self.pid, a, i),
                    };
                    self.contention.record(elem, (self.pid, l));
                    out.bits[l] = old;
                    // which update came first is the hardware's choice
                    let known = self.contention.known.contains(&elem);
                    out.shadow[l] = if old_shadow.is_undefined() {
                        old_shadow
                    } else {
                        Shadow::from_inexact(old_ix || known)
                    };
                }
                out
            }
            ExprKind::Iota(..)
            | ExprKind::Broadcast(_)
            | ExprKind::Reshape(_)
            | ExprKind::Permute(..)
            | ExprKind::Reduce { .. }
            | ExprKind::Scan { .. }
            | ExprKind::TupleReduce { .. }
            | ExprKind::TupleScan { .. }
            | ExprKind::Dot { .. } => {
                return Err(Stop::Error(Diagnostic::new(
                    e.span,
                    "a tile operation in a SIMT program (the IR verifier rejects it)",
                )))
            }
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn binary(
        &self,
        op: BinOp,
        d: DType,
        od: DType,
        a: &Lanes,
        b: &Lanes,
        span: Span,
        active: &Mask,
    ) -> Result<Lanes, Stop> {
        if let Some(what) = undef::right_operand_use(op, d) {
            self.check_defined(b, what, span, active)?;
        }
        let mut out = Lanes::splat(self.n, 0);
        for l in (0..self.n).filter(|&l| active[l]) {
            let (x, y) = (a.bits[l], b.bits[l]);
            let (sx, sy) = (a.shadow[l], b.shadow[l]);
            let undefined = sx.is_undefined() || sy.is_undefined();
            out.bits[l] = if op == BinOp::PtrAdd {
                ptr_add(x, ops::int_value(od, y))
            } else if op == BinOp::PtrDiff {
                let ((ba, oa), (bb, ob)) = (ptr_parts(x), ptr_parts(y));
                if ba != bb && !undefined {
                    let msg = "the difference of two pointers into different buffers".to_string();
                    return Err(self.ub(UbKind::UnrelatedPointers, span, l, vec![], msg));
                }
                (oa - ob) as u64
            } else if op == BinOp::PtrAddBytes {
                let n = ops::int_value(od, y);
                match ptr_add_bytes(x, n, d) {
                    Some(p) => p,
                    None if undefined => 0,
                    None => {
                        let msg = format!("a pointer to {d} moved by {n} bytes, not a whole number of its {}-byte elements", d.bits().div_ceil(8));
                        return Err(self.ub(UbKind::MisalignedPointer, span, l, vec![], msg));
                    }
                }
            } else {
                match ops::binary(op, d, x, y) {
                    Ok(v) => v,
                    // an operation on an undefined value gives an undefined value
                    Err(k) if undefined && !undef::defined_operand_ub(op, d, k) => 0,
                    Err(k) => {
                        let msg = format!(
                            "{op:?} of {d} values {} and {}",
                            format_value(d, x),
                            format_value(d, y)
                        );
                        return Err(self.ub(k, span, l, vec![], msg));
                    }
                }
            };
            let s = undef::binary_shadow(op, d, x, y, sx, sy);
            out.shadow[l] = if op.is_inexact() { s.with_inexact() } else { s };
        }
        Ok(out)
    }
}
