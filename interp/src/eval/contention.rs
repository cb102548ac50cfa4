//! Atomics shared by both execution models: which elements more than one
//! thread (or program instance) updates, and when an atomic's result
//! depends on the order of the updates.

use crate::dtype::DType;
use crate::ir::*;
use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

/// Whether `kernel` has an atomic anywhere: its blocks then run one after
/// another in grid order (their old values would otherwise depend on the
/// host's scheduling).
pub(super) fn has_atomics(kernel: &Kernel) -> bool {
    walk::any_expr(&kernel.body, |e| matches!(e.kind, ExprKind::Atomic { .. }))
}

/// The id a buffer's `last_atomic` records for `op` (0: no atomic yet).
pub(super) fn last_atomic_id(op: AtomicOp) -> u8 {
    1 + AtomicOp::ALL.iter().position(|&o| o == op).expect("in ALL") as u8
}

/// Whether the final value of an element that `op` updated from `old` to
/// `new` depends on the order of the updates: float additions round
/// differently, exchanges keep the last, different operations (`mixed`) do
/// not commute, and an inexact old value or operand stays inexact.
pub(super) fn order_dependent(
    op: AtomicOp,
    d: DType,
    old: u64,
    new: u64,
    old_inexact: bool,
    val_inexact: bool,
    mixed: bool,
) -> bool {
    old_inexact
        || mixed
        || val_inexact
        || (d.is_float() && matches!(op, AtomicOp::Add | AtomicOp::Sub))
        || (matches!(op, AtomicOp::Exch | AtomicOp::Cas) && new != old)
}

/// Whether the kernel reads the old value some atomic returns. The front
/// ends bind every atomic to a variable of its own; a variable never read is
/// a discarded result.
pub(super) fn results_used(k: &Kernel) -> bool {
    let mut bound = HashSet::new();
    walk::for_each_stmt(&k.body, &mut |s| {
        if let Stmt::Let(v, e) = s {
            if matches!(e.kind, ExprKind::Atomic { .. }) {
                bound.insert(*v);
            }
        }
    });
    let mut nested = false;
    let mut read = false;
    walk::for_each_stmt(&k.body, &mut |s| {
        for top in s.own_exprs() {
            top.for_each(&mut |e| match e.kind {
                ExprKind::Var(v) => read = read || bound.contains(&v),
                ExprKind::Atomic { .. } => {
                    nested = nested || !matches!(s, Stmt::Let(_, t) if std::ptr::eq(t, e))
                }
                _ => {}
            });
        }
    });
    read || nested
}

/// An element that atomics update: a global buffer's, or a shared or local
/// array's of one block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Elem {
    Global(usize, usize),
    Array([u32; 3], usize, usize),
}

/// Which elements more than one thread updates atomically. The old value an
/// atomic returns there depends on the order of the updates, so a run that
/// uses old values is done twice: the first run finds the contended
/// elements, the second marks the old values read from them order-dependent.
#[derive(Default)]
pub(super) struct Contention {
    /// The first thread (block, lane) that updated each element.
    first: Mutex<HashMap<Elem, ([u32; 3], usize)>>,
    found: Mutex<HashSet<Elem>>,
    /// Contended elements known from a first run.
    pub(super) known: HashSet<Elem>,
}

impl Contention {
    /// A contention record that already knows `c`'s contended elements.
    pub(super) fn knowing(c: Contention) -> Contention {
        Contention {
            known: c.found.into_inner().unwrap_or_else(|e| e.into_inner()),
            ..Default::default()
        }
    }

    /// Whether the run found an element that two threads updated.
    pub(super) fn found_any(&self) -> bool {
        !self
            .found
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_empty()
    }

    pub(super) fn record(&self, e: Elem, who: ([u32; 3], usize)) {
        let mut first = self.first.lock().unwrap_or_else(|e| e.into_inner());
        if *first.entry(e).or_insert(who) != who {
            self.found
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(e);
        }
    }
}
