//! Data races on global memory between blocks (program instances): two
//! blocks touching one element where one of them writes, unless both
//! accesses are atomic. Races inside one block are found as the block runs
//! (`simt`), since they depend on the barriers between the accesses.

use super::memory::{Access, Buffer};
use crate::launch::{UbReport, UbSite};
use crate::ops::UbKind;

/// The end of the message of a race between plain stores that all stored
/// the same bits (Triton's own tests store one value from every program on
/// purpose): still a race by ksem's contract; a host may treat it as a
/// warning (the pytest plugin does unless `--ksem-strict`).
pub const IDENTICAL_STORES: &str = "; every store stored the same bits";

/// Races reported at most (one per access range).
pub const MAX_RACE_REPORTS: usize = 64;

/// The (x, y, z) of lane `lane` of a block of `block` threads.
pub fn thread_coords(block: [u32; 3], lane: u32) -> [u32; 3] {
    let (bx, by) = (block[0].max(1), block[1].max(1));
    [lane % bx, (lane / bx) % by, lane / (bx * by)]
}

const NONE: u32 = u32::MAX;
const MANY: u32 = u32::MAX - 1;

/// Per element of a written buffer: which block last wrote it, read it and
/// touched it atomically (block indices into the logs, `NONE` or `MANY`).
struct Owners {
    writer: Vec<u32>,
    reader: Vec<u32>,
    atomic: Vec<u32>,
    /// The access that set `writer`/`reader`/`atomic`: (log, entry).
    writer_at: Vec<(u32, u32)>,
    reader_at: Vec<(u32, u32)>,
    atomic_at: Vec<(u32, u32)>,
    /// The lock every recorded writer/reader/atomic access held (0: none,
    /// or not one lock for all of them).
    writer_lock: Vec<u64>,
    reader_lock: Vec<u64>,
    atomic_lock: Vec<u64>,
}

impl Owners {
    fn new(n: usize) -> Owners {
        Owners {
            writer: vec![NONE; n],
            reader: vec![NONE; n],
            atomic: vec![NONE; n],
            writer_at: vec![(0, 0); n],
            reader_at: vec![(0, 0); n],
            atomic_at: vec![(0, 0); n],
            writer_lock: vec![0; n],
            reader_lock: vec![0; n],
            atomic_lock: vec![0; n],
        }
    }
}

/// How far (end, exclusive) a block's ranges reached, and the block.
type Reach = (u64, usize);

/// Whether some element of buffer `buf` is accessed by two different
/// blocks. Every race needs such an element, so a buffer without one is
/// skipped; this looks at access ranges, not elements.
fn shared_by_blocks(logs: &[([u32; 3], Vec<Access>)], buf: usize) -> bool {
    let mut ranges: Vec<(u64, u64, usize)> = logs
        .iter()
        .enumerate()
        .flat_map(|(p, (_, log))| {
            log.iter()
                .filter(move |a| a.buf as usize == buf && a.len > 0)
                .map(move |a| (a.start, a.start + a.len, p))
        })
        .collect();
    ranges.sort_unstable();
    // the furthest end reached so far, and the furthest reached by a
    // block other than that one's
    let (mut first, mut second): (Option<Reach>, Option<Reach>) = (None, None);
    for (start, end, p) in ranges {
        let overlaps = |r: Option<Reach>| r.is_some_and(|(e, q)| e > start && q != p);
        if overlaps(first) || overlaps(second) {
            return true;
        }
        match first {
            Some((e, q)) if q == p => first = Some((e.max(end), p)),
            Some((e, q)) if end > e => {
                second = Some((e, q));
                first = Some((end, p));
            }
            Some(_) => {
                if second.is_none_or(|(e, _)| end > e) {
                    second = Some((end, p));
                }
            }
            None => first = Some((end, p)),
        }
    }
    false
}

fn other_than(owner: u32, p: u32) -> bool {
    owner != NONE && owner != p
}

/// Finds races between the blocks whose global accesses are `logs`
/// (block id, accesses in program order); `block` maps thread lanes to ids.
pub fn find_races(
    bufs: &[Buffer],
    logs: &[([u32; 3], Vec<Access>)],
    block: Option<[u32; 3]>,
) -> Vec<UbReport> {
    let written: Vec<bool> = (0..bufs.len())
        .map(|b| {
            logs.iter()
                .any(|(_, l)| l.iter().any(|a| a.write && a.buf as usize == b))
        })
        .collect();
    let mut owners: Vec<Option<Owners>> = bufs
        .iter()
        .enumerate()
        .map(|(i, b)| (written[i] && shared_by_blocks(logs, i)).then(|| Owners::new(b.cells.len())))
        .collect();
    let thread = |a: &Access| match (block, a.thread) {
        (Some(b), Some(t)) => Some(thread_coords(b, t)),
        _ => None,
    };
    let mut out = Vec::new();
    for (p, (pid, log)) in logs.iter().enumerate() {
        let p = p as u32;
        for (ai, a) in log.iter().enumerate() {
            let b = a.buf as usize;
            let Some(o) = owners[b].as_mut() else {
                continue;
            };
            let mut reported = false;
            // two accesses under one lock are ordered by it
            let unguarded =
                |owner: u32, lock: u64| other_than(owner, p) && !(a.lock != 0 && lock == a.lock);
            for idx in a.start..a.start + a.len {
                let i = idx as usize;
                let conflict = if a.atomic {
                    if unguarded(o.writer[i], o.writer_lock[i]) {
                        Some((o.writer[i], o.writer_at[i]))
                    } else if unguarded(o.reader[i], o.reader_lock[i]) {
                        Some((o.reader[i], o.reader_at[i]))
                    } else {
                        None
                    }
                } else if unguarded(o.writer[i], o.writer_lock[i]) {
                    Some((o.writer[i], o.writer_at[i]))
                } else if unguarded(o.atomic[i], o.atomic_lock[i]) {
                    Some((o.atomic[i], o.atomic_at[i]))
                } else if a.write && unguarded(o.reader[i], o.reader_lock[i]) {
                    Some((o.reader[i], o.reader_at[i]))
                } else {
                    None
                };
                // two plain stores (the conflict found first for a plain
                // store is the element's last writer)
                let stores = a.write && !a.atomic && unguarded(o.writer[i], o.writer_lock[i]);
                if let (Some((q, (ql, qa))), false) =
                    (conflict, reported || out.len() >= MAX_RACE_REPORTS)
                {
                    reported = true;
                    let other = (q != MANY).then(|| {
                        let (qpid, qlog) = &logs[ql as usize];
                        let qa = &qlog[qa as usize];
                        UbSite {
                            line: qa.span.line,
                            col: qa.span.col,
                            program: *qpid,
                            thread: thread(qa),
                        }
                    });
                    let with = match &other {
                        Some(s) => format!(
                            "program ({},{},{}) at {}:{}",
                            s.program[0], s.program[1], s.program[2], s.line, s.col
                        ),
                        None => "other program instances".to_string(),
                    };
                    let what = match (a.atomic, a.write) {
                        (true, _) => "updated atomically",
                        (false, true) => "written",
                        (false, false) => "read",
                    };
                    let mut r = UbReport::new(
                        UbKind::DataRace,
                        a.span.line,
                        a.span.col,
                        *pid,
                        vec![i],
                        format!(
                            "data race on {}[{i}]: {what} here and accessed by {with}{}",
                            bufs[b].name,
                            if stores && bufs[b].stores_identical(i) {
                                IDENTICAL_STORES
                            } else {
                                ""
                            }
                        ),
                    );
                    r.thread = thread(a);
                    r.other = other;
                    out.push(r);
                }
                let at = (p, ai as u32);
                // the lock all of an element's readers (atomics) held
                let common =
                    |first: bool, lock: u64| if first || lock == a.lock { a.lock } else { 0 };
                if a.atomic {
                    o.atomic_lock[i] = common(o.atomic[i] == NONE, o.atomic_lock[i]);
                    if o.atomic[i] == NONE {
                        o.atomic_at[i] = at;
                    }
                    o.atomic[i] = if o.atomic[i] == NONE || o.atomic[i] == p {
                        p
                    } else {
                        MANY
                    };
                } else if a.write {
                    o.writer[i] = p;
                    o.writer_at[i] = at;
                    o.writer_lock[i] = a.lock;
                } else {
                    o.reader_lock[i] = common(o.reader[i] == NONE, o.reader_lock[i]);
                    if o.reader[i] == NONE {
                        o.reader_at[i] = at;
                    }
                    o.reader[i] = if o.reader[i] == NONE || o.reader[i] == p {
                        p
                    } else {
                        MANY
                    };
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::Span;

    /// Per block, its (start, len) ranges of buffer 0.
    type Blocks<'a> = &'a [&'a [(u64, u64)]];

    /// Logs of blocks 0, 1, … each touching buffer 0 over the given ranges.
    fn logs(blocks: Blocks) -> Vec<([u32; 3], Vec<Access>)> {
        let access = |&(start, len): &(u64, u64)| Access {
            buf: 0,
            start,
            len,
            write: true,
            atomic: false,
            span: Span::default(),
            thread: None,
            lock: 0,
        };
        (0..blocks.len())
            .map(|p| ([p as u32, 0, 0], blocks[p].iter().map(access).collect()))
            .collect()
    }

    #[test]
    fn shared_means_one_element_in_two_blocks() {
        // (start, len) ranges per block; an element is shared exactly where
        // ranges of two different blocks intersect (worked out by hand)
        let cases: [(Blocks, bool); 7] = [
            (&[&[(0, 10)], &[(10, 10)], &[(20, 5)]], false), // abutting
            (&[&[(0, 10), (5, 10)], &[(15, 1)]], false),     // one block twice
            (&[&[(0, 10)], &[(9, 1)]], true),                // last element of 0
            (&[&[(0, 100), (10, 5)], &[(200, 1)], &[(50, 0)]], false), // empty range
            (&[&[(0, 100)], &[(100, 5), (99, 1)]], true),    // block 1 reaches back
            // blocks 0 and 1 share element 1 only
            (&[&[(0, 2), (40, 60)], &[(1, 30)], &[(100, 1)]], true),
            (&[&[(0, 4), (8, 4)], &[(4, 4), (12, 4)], &[(16, 1)]], false), // interleaved
        ];
        for (blocks, shared) in cases {
            assert_eq!(shared_by_blocks(&logs(blocks), 0), shared, "{blocks:?}");
        }
    }
}
