//! User combine functions over N operands: `tl.reduce` over a tuple and
//! `tl.associative_scan` (`ExprKind::TupleReduce`, `ExprKind::TupleScan`).
//! The combine body runs once per tree level (reductions) or per position
//! along the axis (scans), vectorised over every row or line at once.

use super::{Instance, Shadow, Tile};
use crate::eval::Stop;
use crate::ir::{Combine, Expr};
use crate::span::{Diagnostic, Span};

/// One operand's (or result's) elements and shadows, flat.
type Lanes = (Vec<u64>, Vec<Shadow>);

/// Where element `k` along the axis of line `(o, j)` sits in row-major order.
fn at(n: usize, inner: usize, o: usize, k: usize, j: usize) -> usize {
    (o * n + k) * inner + j
}

fn lanes(t: &Tile) -> Lanes {
    let v = t.flat();
    let i = t
        .shadow_vec()
        .unwrap_or_else(|| vec![Shadow::EXACT; v.len()]);
    (v, i)
}

impl Instance<'_> {
    /// Runs the combine function on `len` pairs of operand tuples at once:
    /// `lhs[k]`/`rhs[k]` hold operand k of every pair; the N results come back
    /// in the same layout.
    fn combine_lanes(
        &mut self,
        c: &Combine,
        lhs: Vec<Lanes>,
        rhs: Vec<Lanes>,
        len: usize,
    ) -> Result<Vec<Lanes>, Stop> {
        for (vars, sides) in [(&c.lhs, lhs), (&c.rhs, rhs)] {
            for (v, (vals, inex)) in vars.iter().zip(sides) {
                self.env[*v] = Some(Tile::from_vec(&[len], vals, Some(inex)));
            }
        }
        self.block(&c.body)?;
        let mut out = Vec::with_capacity(c.results.len());
        for r in &c.results {
            let t = self.eval(r)?;
            let v = t.flat();
            let one = v.len() == 1;
            let vals = if one { vec![v[0]; len] } else { v };
            let inex = (0..len)
                .map(|j| t.shadow_at(if one { 0 } else { j }))
                .collect();
            out.push((vals, inex));
        }
        Ok(out)
    }

    /// Result `pick` of a tuple reduction along `axis` in the canonical tree
    /// order: at s = n/2, …, 1 the tuple at i < s becomes
    /// `combine(tuple[i], tuple[i+s])`.
    pub(super) fn tuple_reduce(
        &mut self,
        args: &[Expr],
        axis: usize,
        c: &Combine,
        pick: usize,
        e: &Expr,
    ) -> Result<Tile, Stop> {
        let ts = args
            .iter()
            .map(|a| self.eval(a))
            .collect::<Result<Vec<_>, _>>()?;
        let shape = ts[0].data.shape().to_vec();
        let n = shape[axis];
        if !n.is_power_of_two() {
            return Err(Stop::Error(Diagnostic::new(
                e.span,
                "tl.reduce with a custom combine function needs a power-of-two axis",
            )));
        }
        let inner: usize = shape[axis + 1..].iter().product();
        let total: usize = shape.iter().product();
        let rows = total / n;
        // cur[k][r * n + p]: operand k, row r = o * inner + j, position p
        let mut cur: Vec<Lanes> = ts
            .iter()
            .map(|t| {
                let (v, i) = lanes(t);
                let mut cv = Vec::with_capacity(total);
                let mut ci = Vec::with_capacity(total);
                for r in 0..rows {
                    for p in 0..n {
                        let x = at(n, inner, r / inner, p, r % inner);
                        cv.push(v[x]);
                        ci.push(i[x]);
                    }
                }
                (cv, ci)
            })
            .collect();
        let mut s = n / 2;
        while s >= 1 && rows > 0 {
            let side = |cur: &[Lanes], off: usize| -> Vec<Lanes> {
                cur.iter()
                    .map(|(v, i)| {
                        let idx = (0..rows).flat_map(|r| (0..s).map(move |p| r * n + p + off));
                        (
                            idx.clone().map(|x| v[x]).collect(),
                            idx.map(|x| i[x]).collect(),
                        )
                    })
                    .collect()
            };
            let (l, r) = (side(&cur, 0), side(&cur, s));
            let res = self.combine_lanes(c, l, r, rows * s)?;
            for (k, (rv, ri)) in res.into_iter().enumerate() {
                for row in 0..rows {
                    for p in 0..s {
                        cur[k].0[row * n + p] = rv[row * s + p];
                        cur[k].1[row * n + p] = ri[row * s + p];
                    }
                }
            }
            s /= 2;
        }
        let (v, i) = &cur[pick];
        let out = (0..rows).map(|r| v[r * n]).collect();
        let inex = (0..rows).map(|r| i[r * n]).collect();
        let inex = self.through_all(inex, "reduction (custom combine)", e.span);
        Ok(Tile::from_vec(&e.ty.shape, out, Some(inex)))
    }

    /// Result `pick` of an inclusive tuple scan along `axis` in sequential
    /// order, the accumulated tuple on the left: `y[i] = combine(y[i-1], x[i])`
    /// (`reverse`: `y[i] = combine(y[i+1], x[i])` from the last element).
    pub(super) fn tuple_scan(
        &mut self,
        args: &[Expr],
        axis: usize,
        reverse: bool,
        c: &Combine,
        pick: usize,
        span: Span,
    ) -> Result<Tile, Stop> {
        let ts = args
            .iter()
            .map(|a| self.eval(a))
            .collect::<Result<Vec<_>, _>>()?;
        let shape = ts[0].data.shape().to_vec();
        let n = shape[axis];
        let inner: usize = shape[axis + 1..].iter().product();
        let total: usize = shape.iter().product();
        let lines = total.checked_div(n).unwrap_or(0);
        let xs: Vec<Lanes> = ts.iter().map(lanes).collect();
        let mut ys = xs.clone();
        let line_idx = |k: usize| (0..lines).map(move |l| at(n, inner, l / inner, k, l % inner));
        for step in 1..n {
            let (pos, prev) = if reverse {
                (n - 1 - step, n - step)
            } else {
                (step, step - 1)
            };
            let gather = |src: &[Lanes], k: usize| -> Vec<Lanes> {
                src.iter()
                    .map(|(v, i)| {
                        (
                            line_idx(k).map(|x| v[x]).collect(),
                            line_idx(k).map(|x| i[x]).collect(),
                        )
                    })
                    .collect()
            };
            let (l, r) = (gather(&ys, prev), gather(&xs, pos));
            let res = self.combine_lanes(c, l, r, lines)?;
            for (k, (rv, ri)) in res.into_iter().enumerate() {
                for (l, x) in line_idx(pos).enumerate() {
                    ys[k].0[x] = rv[l];
                    ys[k].1[x] = ri[l];
                }
            }
        }
        let (v, i) = ys.swap_remove(pick);
        let i = self.through_all(i, "scan (associative_scan)", span);
        Ok(Tile::from_vec(&shape, v, Some(i)))
    }
}
