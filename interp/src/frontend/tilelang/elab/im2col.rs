//! `T.im2col(img, col, nhw_step, c_step, kernel, stride, dilation, pad)`
//! (also the deprecated `T.c2d_im2col`): one tile of the im2col matrix of a
//! 2-d convolution. The rule is TileLang's own lowering,
//! `LowerIm2ColSIMT` in src/op/copy.cc (read from the source: the C target
//! cannot run it, it needs a GPU target):
//!
//! with `img` of shape `(N, H, W, C)`, `col`'s last two extents `bm, bk`,
//! `out_h = (H + 2·pad − (kernel − 1)·dilation − 1) // stride + 1` (and
//! `out_w` alike), for every `i < bm`, `j < bk` (a parallel loop):
//! `k = c_step·bk + j`, `m = nhw_step·bm + i`,
//! `h = (m % (out_h·out_w)) // out_w · stride + k // (kernel·C) · dilation − pad`,
//! `w = m % out_w · stride + (k // C) % kernel · dilation − pad`,
//! `col[…, i, j] = img[m // (out_h·out_w), h, w, k % C]` where
//! `0 ≤ h < H` and `0 ≤ w < W`, else 0. Divisions floor. The batch index
//! `m // (out_h·out_w)` is not checked: past `N` it reads out of bounds.

use super::*;

/// The largest kernel size, stride, dilation and padding ksem takes.
const MAX_GEOMETRY: i64 = 1 << 16;

/// The positional names of `T.im2col`'s arguments.
const ARGS: [&str; 8] = [
    "img", "col", "nhw_step", "c_step", "kernel", "stride", "dilation", "pad",
];

impl<'m> Elab<'m> {
    /// Elaborates a `T.im2col` statement.
    pub(super) fn im2col(&mut self, c: &ast::ExprCall, span: Span) -> DResult<()> {
        let mut args = Vec::with_capacity(ARGS.len());
        for (pos, name) in ARGS.iter().enumerate() {
            args.push(py::call::arg(c, name, pos).ok_or_else(|| {
                Diagnostic::new(span, format!("T.im2col needs `{name}`: (img, col, nhw_step, c_step, kernel, stride, dilation, pad)"))
            })?);
        }
        let img = self.region_arg(args[0])?;
        let col = self.region_arg(args[1])?;
        if img.buf.shape.len() != 4
            || img
                .extents
                .iter()
                .zip(&img.buf.shape)
                .any(|(e, &n)| *e != Some(n))
        {
            return err(span, "T.im2col reads a whole 4-d (N, H, W, C) image buffer");
        }
        if img.buf.dtype != col.buf.dtype {
            return err(
                span,
                "T.im2col: the image and the column tile have different dtypes",
            );
        }
        if col.extents.len() < 2 {
            return err(span, "T.im2col writes a tile of at least 2 dimensions");
        }
        let index = |me: &mut Self, e: &ast::Expr| -> DResult<Expr> {
            let v = me.expr(e)?;
            Ok(convert(me.num(v, span)?, DType::I64))
        };
        let nhw_step = index(self, args[2])?;
        let c_step = index(self, args[3])?;
        let mut geometry = [0i64; 4];
        for (g, &e) in geometry.iter_mut().zip(&args[4..]) {
            *g = self
                .py_value(e)
                .ok()
                .and_then(|c| c.as_int())
                .and_then(|n| i64::try_from(n).ok())
                .ok_or_else(|| {
                    Diagnostic::new(
                        self.span(e),
                        "T.im2col's kernel, stride, dilation and pad must be compile-time ints",
                    )
                })?;
        }
        let [kernel, stride, dilation, pad] = geometry;
        // bounded so that the sizes below fit an i64 (buffer dimensions are
        // at most 2^28)
        let within = |x: i64, lo: i64| (lo..=MAX_GEOMETRY).contains(&x);
        if !(within(kernel, 1) && within(stride, 1) && within(dilation, 1) && within(pad, 0)) {
            return err(
                span,
                format!("T.im2col: kernel, stride and dilation must be in 1..={MAX_GEOMETRY}, pad in 0..={MAX_GEOMETRY}"),
            );
        }
        let [_, h_dim, w_dim, c_dim] = [0, 1, 2, 3].map(|d| img.buf.shape[d] as i64);
        if c_dim < 1 {
            return err(span, "T.im2col of an image with no channels");
        }
        let out = |n: i64| (n + 2 * pad - (kernel - 1) * dilation - 1).div_euclid(stride) + 1;
        let (out_h, out_w) = (out(h_dim), out(w_dim));
        if out_h < 1 || out_w < 1 {
            return err(
                span,
                format!("T.im2col: a {kernel}-wide kernel with dilation {dilation} does not fit the image padded by {pad}"),
            );
        }
        let nd = col.extents.len();
        let (bm, bk) = (
            col.extents[nd - 2].unwrap_or(1),
            col.extents[nd - 1].unwrap_or(1),
        );
        let k64 = |n: i64| konst(DType::I64, n as u64, span);
        let op = |o: BinOp, a: Expr, b: Expr| bin(o, a, b, span);
        let (div, rem) = (BinOp::IDiv(FLOOR), BinOp::IRem(FLOOR));
        self.nest(&[bm, bk], span, &mut |me, ij| {
            let m = op(
                BinOp::Add,
                op(BinOp::Mul, nhw_step.clone(), k64(bm as i64)),
                ij[0].clone(),
            );
            let k = op(
                BinOp::Add,
                op(BinOp::Mul, c_step.clone(), k64(bk as i64)),
                ij[1].clone(),
            );
            let h = op(
                BinOp::Sub,
                op(
                    BinOp::Add,
                    op(
                        BinOp::Mul,
                        op(div, op(rem, m.clone(), k64(out_h * out_w)), k64(out_w)),
                        k64(stride),
                    ),
                    op(
                        BinOp::Mul,
                        op(div, k.clone(), k64(kernel * c_dim)),
                        k64(dilation),
                    ),
                ),
                k64(pad),
            );
            let w = op(
                BinOp::Sub,
                op(
                    BinOp::Add,
                    op(BinOp::Mul, op(rem, m.clone(), k64(out_w)), k64(stride)),
                    op(
                        BinOp::Mul,
                        op(rem, op(div, k.clone(), k64(c_dim)), k64(kernel)),
                        k64(dilation),
                    ),
                ),
                k64(pad),
            );
            let inside = [
                op(BinOp::Ge, h.clone(), k64(0)),
                op(BinOp::Ge, w.clone(), k64(0)),
                op(BinOp::Lt, h.clone(), k64(h_dim)),
                op(BinOp::Lt, w.clone(), k64(w_dim)),
            ]
            .into_iter()
            .reduce(|a, b| op(BinOp::LogicalAnd, a, b))
            .expect("four conditions");
            let src = vec![op(div, m, k64(out_h * out_w)), h, w, op(rem, k, k64(c_dim))];
            let sp = me.elem_ptr(&img.buf, src, span)?;
            let mut at: Vec<Expr> = col.starts.clone();
            at[nd - 2] = op(BinOp::Add, at[nd - 2].clone(), ij[0].clone());
            at[nd - 1] = op(BinOp::Add, at[nd - 1].clone(), ij[1].clone());
            let dp = me.elem_ptr(&col.buf, at, span)?;
            let d = col.buf.dtype;
            let store = |value| Stmt::Store {
                ptr: dp.clone(),
                value,
                mask: None,
                span,
            };
            me.emit(Stmt::If {
                cond: inside,
                then_body: vec![store(load(sp, d, span))],
                else_body: vec![store(konst(d, 0, span))],
            });
            Ok(())
        })
    }
}
