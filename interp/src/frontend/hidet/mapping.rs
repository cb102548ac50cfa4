//! Hidet's task mappings (`hidet.lang.mapping`): which tasks of a task
//! grid each worker (usually a thread) runs, as Hidet lowers
//! `for i, j in mapping.on(w): …` (`transforms/lower_task_mapping.py`).
//!
//! - `spatial(*shape, ranks)`: one task per worker, `prod(shape)` workers;
//!   worker `w`'s task has `c_i = (w / stride_i) % shape_i` (no `%` on the
//!   rank-0 dimension), strides from the ranks as in a strided layout;
//! - `repeat(*shape, ranks)`: one worker runs every task, in rank order
//!   (a loop per dimension, rank 0 outermost);
//! - `f * g` (also `f.spatial(…)`, `f.repeat(…)`): `f` over the workers
//!   `w / workers(g)`, `g` over `w % workers(g)`, task `c_f * shape_g + c_g`;
//!   the loops of `f` enclose those of `g`;
//! - `auto_map(*shape, workers=n, ranks)`: `repeat(r) * spatial(s)` with
//!   `s_d = gcd(remaining workers, shape_d)` from the fastest dimension.
//!
//! A worker at or past the mapping's number of workers runs nothing (Hidet's
//! bound check).

/// A task mapping with static shapes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TaskMap {
    Spatial { shape: Vec<i64>, ranks: Vec<usize> },
    Repeat { shape: Vec<i64>, ranks: Vec<usize> },
    Composed(Box<TaskMap>, Box<TaskMap>),
}

/// Strides from ranks: dimension `i`'s stride is the product of the extents
/// of the dimensions with a larger rank (rank 0 changes slowest).
pub fn strides_from_ranks(shape: &[i64], ranks: &[usize]) -> Vec<i64> {
    (0..shape.len())
        .map(|i| {
            shape
                .iter()
                .zip(ranks)
                .filter(|(_, &r)| r > ranks[i])
                .map(|(&s, _)| s)
                .product()
        })
        .collect()
}

/// The shape of a composition (of task mappings or layouts), outer then
/// inner: the element-wise product of their shapes.
pub fn composed_shape(outer: &[i64], inner: &[i64]) -> Vec<i64> {
    outer.iter().zip(inner).map(|(a, b)| a * b).collect()
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// One step of a lowered mapping: a loop over a repeat dimension, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RepeatLoop {
    pub extent: i64,
}

/// A task coordinate as a formula of the worker index and the repeat loops:
/// a sum of `worker / div % modulo * scale` and `loop_k * scale` terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    /// `((w / pre_div) / div) % modulo` scaled (`modulo` None: no `%`).
    Worker {
        pre_div: i64,
        pre_mod: Option<i64>,
        div: i64,
        modulo: Option<i64>,
        scale: i64,
    },
    Loop {
        index: usize,
        scale: i64,
    },
}

/// The arithmetic a [`Term`] is evaluated in: host numbers (`i64`) or IR
/// expressions; division and remainder truncate, as C's do.
pub trait TermArith {
    /// The number type.
    type N: Clone;
    /// A constant.
    fn konst(&self, v: i64) -> Self::N;
    /// `a / b`, truncating.
    fn div(&self, a: Self::N, b: Self::N) -> Self::N;
    /// `a % b`, with the sign of `a`.
    fn rem(&self, a: Self::N, b: Self::N) -> Self::N;
    /// `a * b`.
    fn mul(&self, a: Self::N, b: Self::N) -> Self::N;
}

/// Host numbers: the worker's and loops' values known.
pub struct Host;

impl TermArith for Host {
    type N = i64;
    fn konst(&self, v: i64) -> i64 {
        v
    }
    fn div(&self, a: i64, b: i64) -> i64 {
        a / b
    }
    fn rem(&self, a: i64, b: i64) -> i64 {
        a % b
    }
    fn mul(&self, a: i64, b: i64) -> i64 {
        a * b
    }
}

impl Term {
    /// The term's value for worker `w`, with repeat loop `k` at `iv(k)`.
    pub fn value<A: TermArith>(&self, a: &A, w: &A::N, iv: impl Fn(usize) -> A::N) -> A::N {
        match *self {
            Term::Worker {
                pre_div,
                pre_mod,
                div,
                modulo,
                scale,
            } => {
                let mut x = a.div(w.clone(), a.konst(pre_div));
                if let Some(m) = pre_mod {
                    x = a.rem(x, a.konst(m));
                }
                x = a.div(x, a.konst(div));
                if let Some(m) = modulo {
                    x = a.rem(x, a.konst(m));
                }
                a.mul(x, a.konst(scale))
            }
            Term::Loop { index, scale } => a.mul(iv(index), a.konst(scale)),
        }
    }
}

impl TaskMap {
    /// `spatial(*shape)` with default ranks.
    pub fn spatial(shape: Vec<i64>, ranks: Option<Vec<usize>>) -> TaskMap {
        let ranks = ranks.unwrap_or_else(|| (0..shape.len()).collect());
        TaskMap::Spatial { shape, ranks }
    }

    /// `repeat(*shape)` with default ranks.
    pub fn repeat(shape: Vec<i64>, ranks: Option<Vec<usize>>) -> TaskMap {
        let ranks = ranks.unwrap_or_else(|| (0..shape.len()).collect());
        TaskMap::Repeat { shape, ranks }
    }

    /// `auto_map(*shape, workers=n, ranks)`; `None` where the number of
    /// tasks is not a multiple of `n`.
    pub fn auto(shape: Vec<i64>, workers: i64, ranks: Option<Vec<usize>>) -> Option<TaskMap> {
        let n: i64 = shape.iter().product();
        if workers <= 0 || n % workers != 0 {
            return None;
        }
        let ranks = ranks.unwrap_or_else(|| (0..shape.len()).collect());
        let mut spatial = vec![0; shape.len()];
        let mut repeat = vec![0; shape.len()];
        let mut remain = workers;
        for rank in (0..shape.len()).rev() {
            let dim = ranks.iter().position(|&r| r == rank)?;
            spatial[dim] = gcd(remain, shape[dim]);
            repeat[dim] = shape[dim] / spatial[dim];
            remain /= spatial[dim];
        }
        Some(TaskMap::Composed(
            Box::new(TaskMap::repeat(repeat, Some(ranks.clone()))),
            Box::new(TaskMap::spatial(spatial, Some(ranks))),
        ))
    }

    /// The number of workers.
    pub fn workers(&self) -> i64 {
        match self {
            TaskMap::Spatial { shape, .. } => shape.iter().product(),
            TaskMap::Repeat { .. } => 1,
            TaskMap::Composed(o, i) => o.workers() * i.workers(),
        }
    }

    /// The task grid's shape.
    pub fn task_shape(&self) -> Vec<i64> {
        match self {
            TaskMap::Spatial { shape, .. } | TaskMap::Repeat { shape, .. } => shape.clone(),
            TaskMap::Composed(o, i) => composed_shape(&o.task_shape(), &i.task_shape()),
        }
    }

    /// The tasks of worker `w`, in the order Hidet runs them (for tests and
    /// as the reference of [`TaskMap::lower`]).
    pub fn tasks(&self, w: i64) -> Vec<Vec<i64>> {
        match self {
            TaskMap::Spatial { shape, ranks } => {
                let strides = strides_from_ranks(shape, ranks);
                vec![shape
                    .iter()
                    .zip(&strides)
                    .zip(ranks)
                    .map(|((&s, &t), &r)| if r == 0 { w / t } else { (w / t) % s })
                    .collect()]
            }
            TaskMap::Repeat { shape, ranks } => {
                let n: i64 = shape.iter().product();
                let order: Vec<usize> = (0..shape.len())
                    .map(|r| ranks.iter().position(|&x| x == r).unwrap_or(r))
                    .collect();
                (0..n)
                    .map(|mut flat| {
                        let mut c = vec![0; shape.len()];
                        for &dim in order.iter().rev() {
                            c[dim] = flat % shape[dim];
                            flat /= shape[dim];
                        }
                        c
                    })
                    .collect()
            }
            TaskMap::Composed(o, i) => {
                let iw = i.workers();
                let is = i.task_shape();
                let mut out = Vec::new();
                for a in o.tasks(w / iw) {
                    for b in i.tasks(w % iw) {
                        out.push(
                            a.iter()
                                .zip(&b)
                                .zip(&is)
                                .map(|((x, y), s)| x * s + y)
                                .collect(),
                        );
                    }
                }
                out
            }
        }
    }

    /// The lowered form: the repeat loops (outermost first) and, per task
    /// dimension, the terms whose sum is the coordinate. `div`/`modulo`
    /// give the worker index this part of the mapping sees.
    pub fn lower(&self) -> (Vec<RepeatLoop>, Vec<Vec<Term>>) {
        let mut loops = Vec::new();
        let dims = self.task_shape().len();
        let mut coords = vec![Vec::new(); dims];
        self.lower_scaled(1, None, &vec![1; dims], &mut loops, &mut coords);
        (loops, coords)
    }

    /// Adds this mapping's terms; its worker index is `(w / pre_div) %
    /// pre_mod`, and its coordinates are scaled by `scale` (per the
    /// enclosing compositions).
    fn lower_scaled(
        &self,
        pre_div: i64,
        pre_mod: Option<i64>,
        scale: &[i64],
        loops: &mut Vec<RepeatLoop>,
        coords: &mut [Vec<Term>],
    ) {
        match self {
            TaskMap::Spatial { shape, ranks } => {
                let strides = strides_from_ranks(shape, ranks);
                for d in 0..shape.len() {
                    coords[d].push(Term::Worker {
                        pre_div,
                        pre_mod,
                        div: strides[d],
                        modulo: (ranks[d] != 0).then_some(shape[d]),
                        scale: scale[d],
                    });
                }
            }
            TaskMap::Repeat { shape, ranks } => {
                for r in 0..shape.len() {
                    let Some(dim) = ranks.iter().position(|&x| x == r) else {
                        continue;
                    };
                    coords[dim].push(Term::Loop {
                        index: loops.len(),
                        scale: scale[dim],
                    });
                    loops.push(RepeatLoop { extent: shape[dim] });
                }
            }
            TaskMap::Composed(o, i) => {
                let iw = i.workers();
                let is = i.task_shape();
                // the outer part sees worker (w' / iw), the inner part (w' % iw),
                // where w' is what this composition sees
                let (odiv, omod) = compose_div(pre_div, pre_mod, iw);
                let outer_scale: Vec<i64> = scale.iter().zip(&is).map(|(a, b)| a * b).collect();
                o.lower_scaled(odiv, omod, &outer_scale, loops, coords);
                let (idiv, imod) = compose_mod(pre_div, pre_mod, iw);
                i.lower_scaled(idiv, imod, scale, loops, coords);
            }
        }
    }
}

/// The worker seen as `((w / div) % modulo) / n`, as one `(div', mod')`
/// pair where possible; nested parts compose these exactly because every
/// quantity is a non-negative integer.
fn compose_div(div: i64, modulo: Option<i64>, n: i64) -> (i64, Option<i64>) {
    // ((w / div) % m) / n == (w / (div * n)) % (m / n) when n divides m
    match modulo {
        None => (div * n, None),
        Some(m) => (div * n, Some((m / n).max(1))),
    }
}

/// The worker seen as `((w / div) % modulo) % n`.
fn compose_mod(div: i64, modulo: Option<i64>, n: i64) -> (i64, Option<i64>) {
    match modulo {
        None => (div, Some(n)),
        Some(m) => (div, Some(m.min(n))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The coordinates of `tasks` computed from the lowered form.
    fn from_lowered(m: &TaskMap, w: i64) -> Vec<Vec<i64>> {
        let (loops, coords) = m.lower();
        let n: i64 = loops.iter().map(|l| l.extent).product();
        (0..n)
            .map(|mut flat| {
                let mut iv = vec![0; loops.len()];
                for k in (0..loops.len()).rev() {
                    iv[k] = flat % loops[k].extent;
                    flat /= loops[k].extent;
                }
                coords
                    .iter()
                    .map(|terms| terms.iter().map(|t| t.value(&Host, &w, |k| iv[k])).sum())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn spatial_and_repeat() {
        // spatial(2, 3): worker w runs task (w / 3, w % 3)
        let s = TaskMap::spatial(vec![2, 3], None);
        assert_eq!(s.workers(), 6);
        assert_eq!(s.tasks(4), vec![vec![1, 1]]);
        // column-major spatial(2, 3): task (w % 2, w / 2)
        let c = TaskMap::spatial(vec![2, 3], Some(vec![1, 0]));
        assert_eq!(c.tasks(3), vec![vec![1, 1]]);
        assert_eq!(c.tasks(4), vec![vec![0, 2]]);
        // repeat(2, 2): every task, row-major order
        let r = TaskMap::repeat(vec![2, 2], None);
        assert_eq!(
            r.tasks(0),
            vec![vec![0, 0], vec![0, 1], vec![1, 0], vec![1, 1]]
        );
    }

    #[test]
    fn composition_and_auto_map_follow_hidets_docstring() {
        // Hidet's auto_map docstring: auto_map(8, 32, workers=64) = repeat(4, 1).spatial(2, 32)
        let a = TaskMap::auto(vec![8, 32], 64, None).expect("maps");
        assert_eq!(
            a,
            TaskMap::Composed(
                Box::new(TaskMap::repeat(vec![4, 1], None)),
                Box::new(TaskMap::spatial(vec![2, 32], None))
            )
        );
        // auto_map(8, 96, workers=64) = repeat(4, 3).spatial(2, 32)
        let b = TaskMap::auto(vec![8, 96], 64, None).expect("maps");
        assert_eq!(b.task_shape(), vec![8, 96]);
        // auto_map(8, 96, workers=64, ranks=[1, 0]) = repeat(1, 12).spatial(8, 8)
        let c = TaskMap::auto(vec![8, 96], 64, Some(vec![1, 0])).expect("maps");
        assert_eq!(
            c,
            TaskMap::Composed(
                Box::new(TaskMap::repeat(vec![1, 12], Some(vec![1, 0]))),
                Box::new(TaskMap::spatial(vec![8, 8], Some(vec![1, 0])))
            )
        );
        // auto_map(8, 41, workers=64) fails
        assert!(TaskMap::auto(vec![8, 41], 64, None).is_none());
        // every task once over all workers
        let mut seen: Vec<Vec<i64>> = (0..64).flat_map(|w| b.tasks(w)).collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 8 * 96);
    }

    #[test]
    fn lowered_form_gives_the_same_tasks_in_the_same_order() {
        let maps = [
            TaskMap::spatial(vec![4, 2], None),
            TaskMap::repeat(vec![2, 3], Some(vec![1, 0])),
            TaskMap::auto(vec![8, 96], 64, None).expect("maps"),
            TaskMap::auto(vec![8, 96], 64, Some(vec![1, 0])).expect("maps"),
            // the gallery's mma mapping: spatial(4, 2).repeat(2, 2).spatial(2, 16).repeat(4, 4)
            TaskMap::Composed(
                Box::new(TaskMap::Composed(
                    Box::new(TaskMap::Composed(
                        Box::new(TaskMap::spatial(vec![4, 2], None)),
                        Box::new(TaskMap::repeat(vec![2, 2], None)),
                    )),
                    Box::new(TaskMap::spatial(vec![2, 16], None)),
                )),
                Box::new(TaskMap::repeat(vec![4, 4], None)),
            ),
        ];
        for m in &maps {
            for w in 0..m.workers() {
                assert_eq!(from_lowered(m, w), m.tasks(w), "{m:?} worker {w}");
            }
        }
    }
}
