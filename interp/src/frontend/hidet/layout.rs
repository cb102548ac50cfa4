//! Hidet's tensor layouts (the seed's "Tensor layout"): how a coordinate
//! of a tensor maps to the linear position of its element.
//!
//! - row-major: `sum c_i * prod(s_{i+1..})`; column-major the same over the
//!   dimensions in reverse order;
//! - strided with `ranks` (from the dimension that changes slowest, rank 0,
//!   to the fastest): a row-major layout over the dimensions in rank order;
//! - local: every coordinate maps to 0 (size 1);
//! - composition `f * g` (outer `f`, inner `g`): shape the element-wise
//!   product, `h(c) = f(c / s_g) * n_g + g(c % s_g)`;
//! - concatenation `f + g`: the dimensions of `f` then those of `g`,
//!   `h(c_f, c_g) = f(c_f) * n_g + g(c_g)`.
//!
//! The size `n` of a layout is its storage size: one more than its largest
//! offset for strided layouts (Hidet's `storage_size`), the product of the
//! sizes for compositions and concatenations.

use crate::dtype::DType;
use crate::ir::build::*;
use crate::ir::{BinOp, DivRound, DivZero, Expr, IntDiv};
use crate::span::Span;

/// A layout of a tensor with a static shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layout {
    /// `offset = sum c_i * strides_i`.
    Strided { shape: Vec<i64>, strides: Vec<i64> },
    /// Every coordinate maps to offset 0.
    Local { shape: Vec<i64> },
    /// `outer * inner`.
    Composed(Box<Layout>, Box<Layout>),
    /// `lhs + rhs`.
    Concat(Box<Layout>, Box<Layout>),
}

impl Layout {
    /// `row_major(*shape)`.
    pub fn row_major(shape: Vec<i64>) -> Layout {
        let ranks: Vec<usize> = (0..shape.len()).collect();
        Layout::strided(shape, &ranks)
    }

    /// `column_major(*shape)`.
    pub fn column_major(shape: Vec<i64>) -> Layout {
        let ranks: Vec<usize> = (0..shape.len()).rev().collect();
        Layout::strided(shape, &ranks)
    }

    /// `strided_layout(shape, ranks)`: `ranks` must be a permutation of
    /// `0..shape.len()` (checked by the caller).
    pub fn strided(shape: Vec<i64>, ranks: &[usize]) -> Layout {
        let mut strides = vec![0; shape.len()];
        let mut stride = 1;
        for r in (0..shape.len()).rev() {
            if let Some(dim) = ranks.iter().position(|&x| x == r) {
                strides[dim] = stride;
                stride *= shape[dim];
            }
        }
        Layout::Strided { shape, strides }
    }

    /// The tensor shape the layout maps.
    pub fn shape(&self) -> Vec<i64> {
        match self {
            Layout::Strided { shape, .. } | Layout::Local { shape } => shape.clone(),
            Layout::Composed(o, i) => super::mapping::composed_shape(&o.shape(), &i.shape()),
            Layout::Concat(l, r) => {
                let mut s = l.shape();
                s.extend(r.shape());
                s
            }
        }
    }

    /// The number of elements of storage the layout addresses.
    pub fn size(&self) -> i64 {
        match self {
            Layout::Strided { shape, strides } => {
                if shape.contains(&0) {
                    return 0;
                }
                1 + shape
                    .iter()
                    .zip(strides)
                    .map(|(s, t)| (s - 1) * t)
                    .sum::<i64>()
            }
            Layout::Local { .. } => 1,
            Layout::Composed(o, i) | Layout::Concat(o, i) => o.size() * i.size(),
        }
    }

    /// Whether it is the row-major layout of its shape.
    pub fn is_row_major(&self) -> bool {
        *self == Layout::row_major(self.shape())
    }

    /// The offset of coordinate `c` (every `c_i` within its dimension):
    /// [`Layout::offset_expr`] of constants, folded, so the table a test
    /// reads is the arithmetic the kernel runs.
    pub fn offset(&self, c: &[i64]) -> i64 {
        let span = Span::default();
        let cs: Vec<Expr> = c
            .iter()
            .map(|&v| int_const(DType::I64, v as i128, span))
            .collect();
        fold_int(&self.offset_expr(&cs, span)).map_or(-1, |v| v as i64)
    }

    /// The offset of the int64 coordinates `c` as an IR expression (the
    /// coordinates are within
    /// their dimensions, so `/` and `%` never see a negative operand).
    pub fn offset_expr(&self, c: &[Expr], span: Span) -> Expr {
        let i64c = |v: i64| int_const(DType::I64, v as i128, span);
        let add = |a: Expr, b: Expr| bin(BinOp::Add, a, b, span);
        let mul = |a: Expr, b: i64| bin(BinOp::Mul, a, i64c(b), span);
        const DIV: IntDiv = IntDiv {
            round: DivRound::Trunc,
            zero: DivZero::Ub,
        };
        match self {
            Layout::Strided { strides, .. } => c
                .iter()
                .zip(strides)
                .map(|(a, &b)| mul(a.clone(), b))
                .reduce(add)
                .unwrap_or_else(|| i64c(0)),
            Layout::Local { .. } => i64c(0),
            Layout::Composed(o, i) => {
                let si = i.shape();
                let oc: Vec<Expr> = c
                    .iter()
                    .zip(&si)
                    .map(|(a, &b)| bin(BinOp::IDiv(DIV), a.clone(), i64c(b), span))
                    .collect();
                let ic: Vec<Expr> = c
                    .iter()
                    .zip(&si)
                    .map(|(a, &b)| bin(BinOp::IRem(DIV), a.clone(), i64c(b), span))
                    .collect();
                add(
                    mul(o.offset_expr(&oc, span), i.size()),
                    i.offset_expr(&ic, span),
                )
            }
            Layout::Concat(l, r) => {
                let n = l.shape().len();
                add(
                    mul(l.offset_expr(&c[..n], span), r.size()),
                    r.offset_expr(&c[n..], span),
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every offset of a layout in row-major order of its coordinates.
    fn table(l: &Layout) -> Vec<i64> {
        let shape = l.shape();
        let n: i64 = shape.iter().product();
        (0..n)
            .map(|mut flat| {
                let mut c = vec![0; shape.len()];
                for d in (0..shape.len()).rev() {
                    c[d] = flat % shape[d];
                    flat /= shape[d];
                }
                l.offset(&c)
            })
            .collect()
    }

    #[test]
    fn seed_strided_example() {
        // the seed: c = strided_layout(shape=[2, 2, 2], ranks=[0, 2, 1]);
        // c[0,0,0] -> 0, c[0,1,0] -> 1, c[0,0,1] -> 2, c[0,1,1] -> 3,
        // c[1,0,0] -> 4, c[1,1,0] -> 5, c[1,0,1] -> 6, c[1,1,1] -> 7
        let c = Layout::strided(vec![2, 2, 2], &[0, 2, 1]);
        let want = [
            ([0, 0, 0], 0),
            ([0, 1, 0], 1),
            ([0, 0, 1], 2),
            ([0, 1, 1], 3),
            ([1, 0, 0], 4),
            ([1, 1, 0], 5),
            ([1, 0, 1], 6),
            ([1, 1, 1], 7),
        ];
        for (coord, off) in want {
            assert_eq!(c.offset(&coord), off, "{coord:?}");
        }
        assert_eq!(c.size(), 8);
    }

    #[test]
    fn seed_strided_equivalences() {
        // the seed: ranks [0, 1] is row-major, [1, 0] column-major
        let rm = Layout::strided(vec![3, 5], &[0, 1]);
        assert_eq!(table(&rm), (0..15).collect::<Vec<_>>());
        let cm = Layout::strided(vec![3, 5], &[1, 0]);
        assert_eq!(cm, Layout::column_major(vec![3, 5]));
        // column-major [3, 5]: offset = c0 + 3 * c1
        let want: Vec<i64> = (0..3)
            .flat_map(|c0| (0..5).map(move |c1| c0 + 3 * c1))
            .collect();
        assert_eq!(table(&cm), want);
    }

    #[test]
    fn seed_composition_examples() {
        // c = row_major(2, 1) * row_major(2, 2): shape [4, 2], c[i, j] -> 2i + j
        let c = Layout::Composed(
            Box::new(Layout::row_major(vec![2, 1])),
            Box::new(Layout::row_major(vec![2, 2])),
        );
        assert_eq!(c.shape(), vec![4, 2]);
        assert_eq!(table(&c), vec![0, 1, 2, 3, 4, 5, 6, 7]);
        // d = row_major(2, 1) * column_major(2, 2): d[0,0]->0, d[1,0]->1,
        // d[0,1]->2, d[1,1]->3, d[2,0]->4, d[3,0]->5, d[2,1]->6, d[3,1]->7
        let d = Layout::Composed(
            Box::new(Layout::row_major(vec![2, 1])),
            Box::new(Layout::column_major(vec![2, 2])),
        );
        assert_eq!(d.shape(), vec![4, 2]);
        assert_eq!(table(&d), vec![0, 2, 1, 3, 4, 6, 5, 7]);
        // e = row_major(2, 1) * row_major(2, 2) * column_major(2, 2): shape [8, 4]
        let e = Layout::Composed(
            Box::new(c.clone()),
            Box::new(Layout::column_major(vec![2, 2])),
        );
        assert_eq!(e.shape(), vec![8, 4]);
    }

    #[test]
    fn composition_is_associative() {
        let f = Layout::row_major(vec![2, 1]);
        let g = Layout::column_major(vec![2, 2]);
        let h = Layout::strided(vec![1, 3], &[1, 0]);
        let left = Layout::Composed(
            Box::new(Layout::Composed(Box::new(f.clone()), Box::new(g.clone()))),
            Box::new(h.clone()),
        );
        let right = Layout::Composed(
            Box::new(f.clone()),
            Box::new(Layout::Composed(Box::new(g.clone()), Box::new(h.clone()))),
        );
        assert_eq!(left.shape(), right.shape());
        assert_eq!(table(&left), table(&right));
        // and not commutative
        let fg = Layout::Composed(Box::new(g.clone()), Box::new(f.clone()));
        let gf = Layout::Composed(Box::new(f), Box::new(g));
        assert_ne!(table(&fg), table(&gf));
    }

    #[test]
    fn local_and_concat() {
        let l = Layout::Local { shape: vec![2, 3] };
        assert_eq!(table(&l), vec![0; 6]);
        assert_eq!(l.size(), 1);
        // row_major(2) + column_major(2, 3): offset = c0 * 6 + c1 + 2 * c2
        let cat = Layout::Concat(
            Box::new(Layout::row_major(vec![2])),
            Box::new(Layout::column_major(vec![2, 3])),
        );
        assert_eq!(cat.shape(), vec![2, 2, 3]);
        let want: Vec<i64> = (0..2)
            .flat_map(|a| (0..2).flat_map(move |b| (0..3).map(move |c| a * 6 + b + 2 * c)))
            .collect();
        assert_eq!(table(&cat), want);
    }
}
