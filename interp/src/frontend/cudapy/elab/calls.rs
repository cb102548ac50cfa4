//! Calls: type objects, builtins, `cuda.*` and `math.*` intrinsics,
//! array allocation, atomics and inlined device functions.

use super::*;

impl Elab<'_> {
    pub(super) fn call(&mut self, c: &ast::ExprCall, span: Span) -> DResult<Val> {
        // `x.bit_count()` of an integer: its set bits, in its type (numba's
        // int.bit_count overload is llvm.ctpop, as cuda.popc)
        if let ast::Expr::Attribute(a) = &*c.func {
            if a.attr.as_str() == "bit_count" && c.args.is_empty() && c.keywords.is_empty() {
                if let Val::Num(x) = self.expr(&a.value)? {
                    return Ok(Val::Num(self.bit_intrinsic("popc", x, span)?));
                }
            }
        }
        if let ast::Expr::Attribute(a) = &*c.func {
            if a.attr.as_str() == "conjugate" && c.args.is_empty() && c.keywords.is_empty() {
                let v = self.expr(&a.value)?;
                if matches!(v, Val::Complex(_) | Val::Num(_)) {
                    return self.conjugate(v, span);
                }
            }
        }
        if let ast::Expr::Attribute(a) = &*c.func {
            // (of a name: evaluating it twice has no effect)
            let named = matches!(&*a.value, ast::Expr::Name(_));
            if a.attr.as_str() == "copy" && named && c.args.is_empty() && c.keywords.is_empty() {
                if let Val::Array(arr) = self.expr(&a.value)? {
                    return self.array_copy(arr, span);
                }
            }
            let method = a.attr.as_str();
            if method == "reshape" || method == "view" {
                // (any other receiver is evaluated again below, only to be
                // refused: numbers and records have no such method)
                if let Val::Array(arr) = self.expr(&a.value)? {
                    return self.array_method(arr, Call::new(method, c, span));
                }
            }
        }
        let callee = self.expr(&c.func)?;
        let name = dotted(&c.func).unwrap_or_default();
        match callee {
            Val::Path(p) if complex::complex_path(&p).is_some() => {
                self.make_complex(complex::complex_path(&p), c, span)
            }
            Val::Type(d) => {
                let [x] = c.args.as_slice() else {
                    return err(
                        span,
                        format!("a type conversion takes one argument: {name}(x)"),
                    );
                };
                let v = self.expr(x)?;
                let v = self.num(v, span)?;
                Ok(Val::Num(convert(v, d)))
            }
            Val::Builtin(b) => self.builtin(Call::new(b, c, span)),
            Val::Func(f) => {
                let args = self.call_args(c)?;
                self.inline(&f, args, span)
            }
            Val::Closure(f) => {
                let args = self.call_args(c)?;
                self.call_closure(f, args, span)
            }
            Val::Path(p) => self.intrinsic_call(Call::new(&p, c, span)),
            _ => err(span, format!("`{name}` is not callable")),
        }
    }

    /// The `n` positional arguments of a call of `what` as numbers.
    pub(super) fn num_args(&mut self, call: Call, n: usize, what: &str) -> DResult<Vec<Expr>> {
        let mut out: Vec<Expr> = Vec::new();
        for a in call.positional(what, (n, n))? {
            let mark = self.mark();
            let v = self.expr(a)?;
            out = out.into_iter().map(|e| self.keep_order(e, mark)).collect();
            out.push(self.num(v, self.span(a))?);
        }
        Ok(out)
    }

    pub(super) fn builtin(&mut self, call: Call) -> DResult<Val> {
        let (b, c, span) = (call.name, call.expr, call.span);
        match b {
            "range" => py::unsupported(
                span,
                "range() outside a for loop",
                DIALECT,
                "use range() only as `for i in range(...)`",
            ),
            "int" | "float" | "bool" => {
                let [x] = self.num_args(call, 1, b)?.try_into().expect("one");
                Ok(Val::Num(match b {
                    "int" => convert(x, DType::I64),
                    "float" => convert(x, DType::F64),
                    _ => self.truth(x),
                }))
            }
            "complex" => self.make_complex(None, c, span),
            // `tuple()` and `tuple(t)` of a tuple (numba gives the tuple)
            "tuple" => match (c.args.as_slice(), c.keywords.is_empty()) {
                ([], true) => Ok(Val::Tuple(vec![])),
                ([x], true) => match self.expr(x)? {
                    t @ Val::Tuple(_) => Ok(t),
                    _ => py::unsupported(
                        span,
                        "tuple() of anything but a tuple",
                        DIALECT,
                        "build the tuple with (a, b, …)",
                    ),
                },
                _ => err(span, "tuple() takes at most one argument"),
            },
            "abs" => {
                let ([a], true) = (c.args.as_slice(), c.keywords.is_empty()) else {
                    return err(span, "abs() takes one number: abs(x)");
                };
                let v = self.expr(a)?;
                if let Val::Complex(z) = v {
                    return Ok(Val::Num(self.complex_abs(z, span)));
                }
                let x = self.num(v, span)?;
                let x = if dtype_of(&x) == DType::Bool {
                    convert(x, DType::I64)
                } else {
                    x
                };
                Ok(Val::Num(unary(UnOp::Math(MathFn::Abs), x, span)))
            }
            "min" | "max" => {
                if c.args.len() < 2 || !c.keywords.is_empty() {
                    return err(span, format!("{b}() takes two or more numbers"));
                }
                self.builtin_min_max(b == "min", &c.args, span)
            }
            "len" => {
                let [x] = c.args.as_slice() else {
                    return err(span, "len() takes one argument");
                };
                match self.expr(x)? {
                    Val::Array(a) if !a.shape.is_empty() => Ok(Val::Num(a.len_expr(0, span))),
                    Val::Array(_) => err(span, "len() of a 0-d array"),
                    Val::Bytes(b) if b.view.is_some() => {
                        Ok(Val::Num(Self::byte_proxy(&b).len_expr(0, span)))
                    }
                    Val::Bytes(b) if !b.shape.is_empty() => {
                        Ok(Val::Num(int_const(DType::I64, b.shape[0] as i128, span)))
                    }
                    Val::TimeArray(t) => Ok(Val::Num(int_const(
                        DType::I64,
                        t.arr.shape[0] as i128,
                        span,
                    ))),
                    Val::Tuple(t) => Ok(Val::Num(int_const(DType::I64, t.len() as i128, span))),
                    _ => err(span, "len() takes an array or a tuple"),
                }
            }
            "print" => {
                let mut prefix = String::new();
                let mut args = Vec::new();
                for a in &c.args {
                    match a {
                        ast::Expr::Constant(k) if matches!(k.value, Constant::Str(_)) => {
                            if let Constant::Str(s) = &k.value {
                                if !args.is_empty() {
                                    return py::unsupported(
                                        self.span(a),
                                        "a string after a number in print()",
                                        DIALECT,
                                        "put the strings first: print(\"label\", x, y)",
                                    );
                                }
                                prefix.push_str(s);
                                prefix.push(' ');
                            }
                        }
                        _ => {
                            let v = self.expr(a)?;
                            args.push(self.num(v, self.span(a))?);
                        }
                    }
                }
                self.emit(Stmt::Print {
                    prefix: prefix.trim_end().to_string(),
                    args,
                    span,
                });
                Ok(Val::None)
            }
            "round" => self.round_builtin(call),
            "pow" => self.pow_builtin(call),
            _ => unreachable!("lookup only makes known builtins"),
        }
    }

    /// A call of a module's function: `math`, `cmath`, `operator`, `numpy`
    /// or `numba.cuda`, by the call's dotted path.
    pub(super) fn intrinsic_call(&mut self, call: Call) -> DResult<Val> {
        let (path, span) = (call.name, call.span);
        if let Some(m) = call.below("math.") {
            return self.math_call(m);
        }
        if let Some(m) = call.below("cmath.") {
            return self.cmath_call(m);
        }
        if let Some(o) = call.below("operator.") {
            return self.operator_call(o);
        }
        let Some(cuda) = call.below("numba.cuda.") else {
            if let Some(u) = call.below("numpy.") {
                if let Some(v) = self.ufunc_call(u)? {
                    return Ok(v);
                }
                return py::unsupported(
                    span,
                    &format!("`{path}`"),
                    DIALECT,
                    "use the math module (math.sqrt, math.exp, …) or a type object (np.float32(x))",
                );
            }
            return err(span, format!("`{path}` is not a CUDA Python function"));
        };
        if let Some(a) = cuda.below("atomic.") {
            return self.atomic(a);
        }
        let (f, c) = (cuda.name, cuda.expr);
        match f {
            "grid" | "gridsize" => {
                let n = match c.args.as_slice() {
                    [a] => self.const_int(a)?,
                    _ => return err(span, format!("cuda.{f}(ndim) takes one constant")),
                };
                if !(1..=3).contains(&n) {
                    return err(span, format!("cuda.{f}(ndim): ndim must be 1, 2 or 3, got {n}"));
                }
                let mut items = Vec::new();
                for d in 0..n as u8 {
                    let i64e = |k: ExprKind| convert(mk(k, Type::scalar(DType::I32), span), DType::I64);
                    let e = if f == "grid" {
                        let prod = bin(BinOp::Mul, i64e(ExprKind::BlockId(d)), i64e(ExprKind::BlockDim(d)), span);
                        bin(BinOp::Add, i64e(ExprKind::ThreadId(d)), prod, span)
                    } else {
                        bin(BinOp::Mul, i64e(ExprKind::BlockDim(d)), i64e(ExprKind::GridDim(d)), span)
                    };
                    items.push(Val::Num(e));
                }
                Ok(if n == 1 { items.remove(0) } else { Val::Tuple(items) })
            }
            "syncthreads" => {
                if !c.args.is_empty() {
                    return err(span, "cuda.syncthreads() takes no arguments");
                }
                self.emit(Stmt::Barrier { span });
                Ok(Val::None)
            }
            "shared.array" | "local.array" => self.alloc(cuda),
            "const.array_like" => self.const_array(c, span),
            _ if vectors::vector_type(f).is_some() => Ok(self.vector_make(cuda)?.expect("a vector type")),
            _ if f.starts_with("cg.") && f != "cg" => match self.cooperative(cuda)? {
                Some(v) => Ok(v),
                None => py::unsupported(span, &format!("cuda.{f}"), DIALECT, "of cooperative groups ksem runs cuda.cg.this_grid() and its sync()"),
            },
            _ => match self.more_intrinsics(cuda)? {
                Some(v) => Ok(v),
                None => py::unsupported(span, &format!("cuda.{f}"), DIALECT, "the supported intrinsics are threadIdx, blockIdx, blockDim, gridDim, laneid, warpsize, grid, gridsize, syncthreads, syncthreads_count/and/or, threadfence*, shared.array, local.array, atomic.*, popc, clz, ffs, brev, fma and cbrt"),
            },
        }
    }

    /// `cuda.shared.array(shape, dtype)` / `cuda.local.array(shape, dtype)`.
    pub(super) fn alloc(&mut self, call: Call) -> DResult<Val> {
        let (f, c, span) = (call.name, call.expr, call.span);
        let space = if f.starts_with("shared") {
            AddrSpace::Shared
        } else {
            AddrSpace::Local
        };
        let mut shape_e = c.args.first();
        let mut dtype_e = c.args.get(1);
        for k in &c.keywords {
            match k.arg.as_deref() {
                Some("shape") => shape_e = Some(&k.value),
                Some("dtype") => dtype_e = Some(&k.value),
                _ => {
                    return err(
                        span,
                        format!(
                            "cuda.{f}(shape, dtype) has no keyword `{}`",
                            k.arg.as_deref().unwrap_or("**")
                        ),
                    )
                }
            }
        }
        let (Some(shape_e), Some(dtype_e)) = (shape_e, dtype_e) else {
            return err(
                span,
                format!("cuda.{f}(shape, dtype) needs a shape and a dtype"),
            );
        };
        if space == AddrSpace::Shared && self.frames.last().is_some_and(|fr| fr.depth > 0) {
            return Err(Diagnostic::new(
                span,
                "cuda.shared.array must be declared in the entry block of the kernel",
            )
            .with_help("declare it at the top of the function, outside if/for/while"));
        }
        let sspan = self.span(shape_e);
        let shape: Vec<usize> = match self.expr(shape_e)? {
            Val::Num(e) => vec![self.static_dim(&e, sspan)?],
            Val::Tuple(items) => {
                let mut s = Vec::new();
                for it in items {
                    let e = self.num(it, sspan)?;
                    s.push(self.static_dim(&e, sspan)?);
                }
                s
            }
            _ => {
                return err(
                    sspan,
                    "the shape must be a constant integer or a tuple of them",
                )
            }
        };
        let d =
            match self.expr(dtype_e)? {
                Val::Type(d) => d,
                Val::RecordType(layout) => return self.record_array(space, shape, layout, span),
                _ => return err(
                    self.span(dtype_e),
                    "the dtype must be a type object such as float32 (from numba import float32)",
                ),
            };
        if space == AddrSpace::Shared && shape == [0] {
            return self.dynamic_shared(d, span);
        }
        let what = format!("{} array", space.name());
        simt::array_elems(&shape, &what, sspan)?;
        self.arrays.push(ArrayDecl {
            name: format!("{}{}", space.name(), self.arrays.len()),
            dtype: d,
            space,
            shape: shape.clone(),
            span,
        });
        let id = self.arrays.len() - 1;
        let base = array_base(id, d, space, span);
        Ok(Val::Array(ArrayVal {
            base,
            dtype: d,
            shape,
            pairs: Pairs::No,
            view: None,
        }))
    }

    pub(super) fn static_dim(&self, e: &Expr, span: Span) -> DResult<usize> {
        match fold_int(e) {
            Some(v) => usize::try_from(v).map_err(|_| Diagnostic::new(span, format!("an array dimension must be ≥ 0, got {v}"))),
            None => err(span, "an array shape must be a compile-time constant (a literal or a module-level constant)"),
        }
    }

    /// `cuda.atomic.OP(ary, idx, val)` (and `compare_and_swap(ary, old, val)`,
    /// `cas(ary, idx, old, val)`): the old value.
    pub(super) fn atomic(&mut self, call: Call) -> DResult<Val> {
        let (name, c, span) = (call.name, call.expr, call.span);
        let op = match name {
            "add" => AtomicOp::Add,
            "sub" => AtomicOp::Sub,
            "max" => AtomicOp::Max,
            "min" => AtomicOp::Min,
            "nanmax" => AtomicOp::NanMax,
            "nanmin" => AtomicOp::NanMin,
            "exch" => AtomicOp::Exch,
            "compare_and_swap" | "cas" => AtomicOp::Cas,
            "and_" => AtomicOp::And,
            "or_" => AtomicOp::Or,
            "xor" => AtomicOp::Xor,
            "inc" => AtomicOp::Inc,
            "dec" => AtomicOp::Dec,
            _ => return py::unsupported(span, &format!("cuda.atomic.{name}"), DIALECT, "use add, sub, max, min, nanmax, nanmin, exch, compare_and_swap, cas, and_, or_, xor, inc or dec"),
        };
        let want = match name {
            "compare_and_swap" => 3,
            "cas" => 4,
            _ => 3,
        };
        let what = format!("cuda.atomic.{name}");
        call.positional(&what, (want, want))?;
        let arr = self.array_of(&c.args[0])?;
        let ptr = if name == "compare_and_swap" {
            // element 0 (of a view too: `res[i:]`)
            let zeros: Vec<Expr> = arr
                .shape
                .iter()
                .map(|_| int_const(DType::I64, 0, span))
                .collect();
            self.index_ptr(&arr, zeros, span)
        } else {
            self.elem_ptr(&arr, Index::new(&c.args[1], span))?
        };
        let d = arr.dtype;
        let float_ok = matches!(
            op,
            // the float atomics numba-cuda accepts (measured)
            AtomicOp::Add
                | AtomicOp::Sub
                | AtomicOp::Max
                | AtomicOp::Min
                | AtomicOp::NanMax
                | AtomicOp::NanMin
        );
        if d.is_float() && (!float_ok || !matches!(d, DType::F32 | DType::F64)) {
            return err(
                span,
                format!("cuda.atomic.{name} is not defined on {} arrays", Named(d)),
            );
        }
        if !d.is_float() && !matches!(d, DType::I32 | DType::I64 | DType::U32 | DType::U64) {
            return err(span, format!("cuda.atomic.{name} needs an int32, int64, uint32, uint64, float32 or float64 array, not {}", Named(d)));
        }
        if matches!(op, AtomicOp::Inc | AtomicOp::Dec) && !matches!(d, DType::U32 | DType::U64) {
            return err(
                span,
                format!(
                    "cuda.atomic.{name} needs a uint32 or uint64 array, not {}",
                    Named(d)
                ),
            );
        }
        let mut rest = Vec::new();
        for a in &c.args[if name == "compare_and_swap" { 1 } else { 2 }..] {
            let v = self.expr(a)?;
            let e = self.num(v, self.span(a))?;
            rest.push(convert(e, d));
        }
        let (cmp, val) = if op == AtomicOp::Cas {
            let val = rest.pop().expect("two");
            (Some(Box::new(rest.pop().expect("two"))), val)
        } else {
            (None, rest.pop().expect("one"))
        };
        let e = mk(
            ExprKind::Atomic {
                op,
                ptr: Box::new(ptr),
                val: Box::new(val),
                cmp,
                mask: None,
            },
            Type::scalar(d),
            span,
        );
        // An atomic happens where it is written, once.
        let v = self.new_var("_atomic", Type::scalar(d));
        self.emit(Stmt::Let(v, e));
        Ok(Val::Num(self.var_expr(v, span)))
    }

    /// The functions of `math` (CUDA-C semantics; approximate ones are inexact).
    pub(super) fn math_call(&mut self, call: Call) -> DResult<Val> {
        let (f, span) = (call.name, call.span);
        let unary_fn = match f {
            // numba's names for C's atan, tgamma and fabs
            "arctan" => Some(MathFn::Atan),
            "gamma" => Some(MathFn::Tgamma),
            "fabs" => Some(MathFn::Abs),
            _ => MathFn::named(f).filter(|m| MATH.contains(m)),
        };
        let fl = types::math_type;
        if let Some(m) = unary_fn {
            if f == "log" && call.args().len() == 2 {
                return py::unsupported(
                    span,
                    "math.log with a base",
                    DIALECT,
                    "divide: math.log(x) / math.log(base)",
                );
            }
            let [x] = self
                .num_args(call, 1, &format!("math.{f}"))?
                .try_into()
                .expect("one");
            let d = fl(dtype_of(&x));
            return Ok(Val::Num(unary(UnOp::Math(m), convert(x, d), span)));
        }
        match f {
            "floor" | "ceil" => {
                // numba-cuda keeps the float type (an int argument: float64)
                let [x] = self.num_args(call, 1, &format!("math.{f}"))?.try_into().expect("one");
                let d = fl(dtype_of(&x));
                let m = if f == "floor" { MathFn::Floor } else { MathFn::Ceil };
                Ok(Val::Num(unary(UnOp::Math(m), convert(x, d), span)))
            }
            "trunc" => {
                // numba-cuda keeps the float type, as for floor and ceil
                let [x] = self.num_args(call, 1, "math.trunc")?.try_into().expect("one");
                let d = fl(dtype_of(&x));
                let x = self.temp(convert(x, d));
                let neg = bin(BinOp::Lt, x.clone(), float_const(d, 0.0, span), span);
                let up = unary(UnOp::Math(MathFn::Ceil), x.clone(), span);
                let down = unary(UnOp::Math(MathFn::Floor), x, span);
                Ok(Val::Num(select(neg, up, down, span)))
            }
            "radians" | "degrees" => {
                // numba-cuda: the factor as a constant of x's float type, times x
                let [x] = self.num_args(call, 1, &format!("math.{f}"))?.try_into().expect("one");
                let x = convert(x.clone(), fl(dtype_of(&x)));
                Ok(Val::Num(self.angle(x, f == "radians", span)))
            }
            "pow" | "atan2" | "copysign" | "fmod" | "hypot" | "remainder" | "nextafter" => {
                // float32 where both are float32, else float64 (measured)
                let [x, y] = self.num_args(call, 2, &format!("math.{f}"))?.try_into().expect("two");
                let (dx, dy) = (dtype_of(&x), dtype_of(&y));
                let d = if dx == DType::F32 && dy == DType::F32 { DType::F32 } else { DType::F64 };
                let (x, y) = (convert(x, d), convert(y, d));
                let op = match f {
                    "pow" => BinOp::Pow,
                    "atan2" => BinOp::Atan2,
                    "copysign" => BinOp::CopySign,
                    "hypot" => BinOp::Hypot,
                    "remainder" => return Ok(Val::Num(self.remainder(x, y, span))),
                    "nextafter" => return Ok(Val::Num(self.nextafter(x, y, span))),
                    _ => BinOp::FRem,
                };
                Ok(Val::Num(bin(op, x, y, span)))
            }
            "frexp" | "modf" => {
                let [x] = self.num_args(call, 1, &format!("math.{f}"))?.try_into().expect("one");
                let x = convert(x.clone(), fl(dtype_of(&x)));
                Ok(if f == "frexp" { self.frexp(x, span) } else { self.modf(x, span) })
            }
            "ldexp" => {
                let [x, n] = self.num_args(call, 2, "math.ldexp")?.try_into().expect("two");
                if dtype_of(&n).is_float() {
                    return err(span, format!("math.ldexp takes an integer exponent, not {}", Named(dtype_of(&n))));
                }
                let x = convert(x.clone(), fl(dtype_of(&x)));
                Ok(Val::Num(self.ldexp(x, n, span)))
            }
            "isnan" | "isinf" | "isfinite" => {
                let [x] = self.num_args(call, 1, &format!("math.{f}"))?.try_into().expect("one");
                let d = dtype_of(&x);
                if !d.is_float() {
                    return Ok(Val::Num(konst(DType::Bool, (f == "isfinite") as u64, span)));
                }
                let x = self.temp(x);
                let r = match f {
                    "isnan" => bin(BinOp::Ne, x.clone(), x, span),
                    _ => {
                        let inf = float_const(d, f64::INFINITY, span);
                        let a = unary(UnOp::Math(MathFn::Abs), x.clone(), span);
                        if f == "isinf" {
                            bin(BinOp::Eq, a, inf, span)
                        } else {
                            bin(BinOp::Lt, a, inf, span)
                        }
                    }
                };
                Ok(Val::Num(r))
            }
            _ => py::unsupported(span, &format!("math.{f}"), DIALECT, "the supported math functions are acos asin atan arctan acosh asinh atanh cos sin tan cosh sinh tanh atan2 hypot exp exp2 expm1 fabs log log10 log1p log2 sqrt pow ceil floor trunc radians degrees copysign fmod remainder nextafter frexp ldexp modf erf erfc gamma lgamma isnan isinf isfinite"),
        }
    }

    /// The functions of `operator` (`operator.add(a, b)`, also closed over
    /// as `op = operator.add`): the operator they stand for, with its typing.
    pub(super) fn operator_call(&mut self, call: Call) -> DResult<Val> {
        let (f, span) = (call.name, call.span);
        use ast::{CmpOp as C, Operator as O, UnaryOp as U};
        let binop = match f {
            "add" => Some(O::Add),
            "sub" => Some(O::Sub),
            "mul" => Some(O::Mult),
            "truediv" => Some(O::Div),
            "floordiv" => Some(O::FloorDiv),
            "mod" => Some(O::Mod),
            "pow" => Some(O::Pow),
            "and_" => Some(O::BitAnd),
            "or_" => Some(O::BitOr),
            "xor" => Some(O::BitXor),
            "lshift" => Some(O::LShift),
            "rshift" => Some(O::RShift),
            _ => None,
        };
        let cmpop = match f {
            "eq" => Some(C::Eq),
            "ne" => Some(C::NotEq),
            "lt" => Some(C::Lt),
            "le" => Some(C::LtE),
            "gt" => Some(C::Gt),
            "ge" => Some(C::GtE),
            _ => None,
        };
        let unop = match f {
            "neg" => Some(U::USub),
            "pos" => Some(U::UAdd),
            "invert" | "inv" => Some(U::Invert),
            "not_" => Some(U::Not),
            _ => None,
        };
        let what = format!("operator.{f}");
        if let Some(op) = binop {
            let [a, b] = self.num_args(call, 2, &what)?.try_into().expect("two");
            return Ok(Val::Num(self.arith(op, a, b, span)?));
        }
        if let Some(op) = cmpop {
            let [a, b] = self.num_args(call, 2, &what)?.try_into().expect("two");
            return Ok(Val::Num(self.cmp(op, a, b, span)?));
        }
        if let Some(op) = unop {
            let [a] = self.num_args(call, 1, &what)?.try_into().expect("one");
            return Ok(Val::Num(self.unary_op(op, a, span)?));
        }
        py::unsupported(span, &what, DIALECT, "the supported operator functions are add sub mul truediv floordiv mod pow and_ or_ xor lshift rshift eq ne lt le gt ge neg pos invert not_")
    }

    /// `math.radians(x)` (`to_radians`) or `math.degrees(x)` of a float, as
    /// numba-cuda computes them and `np.deg2rad`/`np.rad2deg` too
    /// (measured): the factor as a constant of x's float type, times x.
    pub(super) fn angle(&self, x: Expr, to_radians: bool, span: Span) -> Expr {
        let d = dtype_of(&x);
        let factor = if to_radians {
            std::f64::consts::PI / 180.0
        } else {
            180.0 / std::f64::consts::PI
        };
        bin(BinOp::Mul, float_const(d, factor, span), x, span)
    }

    /// Inlines device function `name` with `args`: its body runs inside a
    /// one-iteration loop that `return` leaves.
    pub(super) fn inline(
        &mut self,
        name: &str,
        args: closures::CallArgs,
        span: Span,
    ) -> DResult<Val> {
        let f = &self.m.funcs[name];
        if !f.device {
            return err(span, format!("`{name}` is a kernel; only device functions (device=True) can be called from a kernel"));
        }
        if self.frames.len() > 64 {
            return py::unsupported(
                span,
                "device functions nested this deep",
                DIALECT,
                "write the recursion as a loop",
            );
        }
        if self.recursion_depth(name) >= recursion::MAX_DEPTH {
            return Ok(self.too_deep(name, span));
        }
        self.inline_callee(closures::Callee::Module(name), args, span)
    }

    /// Inlines a module-level device function or a closure.
    pub(super) fn inline_callee(
        &mut self,
        callee: closures::Callee,
        args: closures::CallArgs,
        span: Span,
    ) -> DResult<Val> {
        let (name, def, sig, mut env, defaults) = match callee {
            closures::Callee::Module(n) => {
                let f = &self.m.funcs[n];
                (
                    n.to_string(),
                    f.def.clone(),
                    f.sig.clone(),
                    HashMap::new(),
                    HashMap::new(),
                )
            }
            closures::Callee::Closure(c) => (
                c.name.clone(),
                c.def.clone(),
                None,
                c.env.clone(),
                c.defaults.clone(),
            ),
        };
        let name = name.as_str();
        let bound = self.bind_params(name, &def, &defaults, args, span)?;
        if let Some((_, s)) = &sig {
            let n = bound.iter().filter(|b| b.pos.is_some()).count();
            if s.len() != n || bound.len() != n {
                return err(
                    span,
                    format!("`{name}` has {n} parameters but its signature {}", s.len()),
                );
            }
        }
        for closures::Bound {
            name: pname,
            span: pspan,
            val: a,
            pos,
        } in bound
        {
            let pspan = &pspan;
            let st = match (sig.as_ref(), pos) {
                (Some((_, s)), Some(i)) => s.get(i).copied(),
                _ => None,
            };
            match a {
                Val::Num(e) if matches!(st, Some(SigType::Complex(_))) => {
                    let Some(SigType::Complex(d)) = st else {
                        unreachable!()
                    };
                    let z = self.as_complex(Val::Num(e), d, span)?;
                    let held = self.hold_complex(&pname, z, *pspan);
                    env.insert(pname.clone(), held);
                }
                Val::Num(e) => {
                    let e = match st {
                        Some(SigType::Scalar(d)) => convert(e, d),
                        Some(SigType::Array(..)) => return err(span, format!("`{pname}` of `{name}` is an array in the signature, but a number is passed")),
                        _ => e,
                    };
                    // a constant argument stays a constant where the function
                    // never assigns the parameter and it sizes an array (numba
                    // types it as a literal: `cuda.shared.array(n, …)` with n
                    // passed in)
                    if matches!(e.kind, ExprKind::Const(_))
                        && !assigns_name(&def.body, &pname)
                        && sizes_an_array(&def.body, &pname)
                    {
                        env.insert(pname.clone(), Val::Num(e));
                        continue;
                    }
                    let v = self.new_var(&pname, e.ty.clone());
                    self.emit(Stmt::Let(v, e));
                    env.insert(pname.clone(), Val::Num(self.var_expr(v, *pspan)));
                }
                Val::Complex(z) => {
                    let z = match st {
                        Some(SigType::Complex(d)) => self.as_complex(Val::Complex(z), d, span)?,
                        Some(SigType::Scalar(_)) => return err(span, format!("`{pname}` of `{name}` is a real number in the signature, but a complex number is passed")),
                        _ => z,
                    };
                    let held = self.hold_complex(&pname, z, *pspan);
                    env.insert(pname.clone(), held);
                }
                Val::Array(arr) => {
                    if let Some(SigType::Array(d, nd)) = st {
                        if d != arr.dtype || nd != arr.shape.len() {
                            return err(span, format!("`{pname}` of `{name}` is a {nd}-d {} array in the signature, but a {}-d {} array is passed", Named(d), arr.shape.len(), Named(arr.dtype)));
                        }
                    }
                    env.insert(pname.clone(), Val::Array(arr));
                }
                other => {
                    env.insert(pname.clone(), other);
                }
            }
        }
        let sig_ret = match sig.as_ref().map(|(r, _)| *r) {
            Some(SigType::Scalar(d)) | Some(SigType::Complex(d)) => Some(d),
            Some(SigType::Array(..)) | Some(SigType::ComplexArray(..)) => {
                return err(span, "a device function cannot return an array")
            }
            _ => None,
        };
        let is_none = self.new_var(&format!("{name}.is_none"), Type::scalar(DType::Bool));
        self.emit(Stmt::Let(is_none, konst(DType::Bool, 1, span)));
        let results = Results {
            sig_ret,
            cret: None,
            tret: None,
            rret: None,
            none_ret: false,
            is_none,
        };
        let args = names::unassigned_params(&def);
        let names = Names {
            env,
            depth: 0,
            args,
        };
        let inl = self.inline_call(name, (names, results), |me| me.stmts(&def.body), span)?;
        if let Some((v, layout)) = inl.more.rret {
            if inl.more.tret.is_some() || inl.ret.is_some() || inl.more.cret.is_some() {
                return err(span, format!("`{name}` returns a record in one place and another kind of value in another"));
            }
            return Ok(Val::Record(records::RecordVal {
                base: self.var_expr(v, span),
                layout,
            }));
        }
        if let Some(t) = inl.more.tret {
            return Ok(t);
        }
        Ok(match (inl.ret, inl.cret) {
            (_, Some((re, im))) => Val::Complex(crate::complex::Cx {
                re: self.var_expr(re, span),
                im: self.var_expr(im, span),
            }),
            (Some(r), None) if inl.none_ret => Val::Optional(
                self.var_expr(inl.is_none, span),
                Box::new(Val::Num(self.var_expr(r, span))),
            ),
            (Some(r), None) => Val::Num(self.var_expr(r, span)),
            (None, None) => Val::None,
        })
    }
}

/// The functions of Python's `math` module numba-cuda compiles to one C
/// function (besides `fabs` and `gamma`, named differently in C).
const MATH: [MathFn; 23] = {
    use MathFn::*;
    [
        Acos, Asin, Atan, Acosh, Asinh, Atanh, Cos, Sin, Tan, Cosh, Sinh, Tanh, Exp, Expm1, Log,
        Log10, Log1p, Log2, Sqrt, Erf, Erfc, Lgamma, Exp2,
    ]
};
