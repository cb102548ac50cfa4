//! Expressions: names, attributes, subscripts, operators with the seed's
//! coercions, comparisons, `and`/`or` and conditional expressions.

use super::*;

impl Elab<'_> {
    /// A number from a value, or an error naming what it was.
    pub(super) fn num(&self, v: Val, span: Span) -> DResult<Expr> {
        match v {
            Val::Num(e) => Ok(e),
            Val::Member(_, v) => self.num(*v, span),
            // numba unwraps an Optional where a number is needed
            Val::Optional(_, v) => self.num(*v, span),
            Val::Complex(_) => err(
                span,
                "expected a real number, found a complex number (take .real, .imag or abs())",
            ),
            Val::Array(_) | Val::Bytes(_) => err(span, "expected a number, found an array"),
            Val::Record(_) => err(span, "expected a number, found a record"),
            Val::RecordType(l) => err(
                span,
                format!("expected a number, found the record dtype ({})", l.names()),
            ),
            Val::Tuple(_) => err(span, "expected a number, found a tuple"),
            Val::Vector(_) => err(
                span,
                "expected a number, found a vector (read .x, .y, .z or .w)",
            ),
            Val::Type(d) => err(
                span,
                format!("expected a number, found the type {}", Named(d)),
            ),
            Val::None => err(span, "expected a number, found None"),
            Val::Path(p) => err(span, format!("expected a number, found `{p}`")),
            Val::Func(f) => err(span, format!("expected a number, found the function `{f}`")),
            Val::Closure(c) => err(
                span,
                format!("expected a number, found the function `{}`", c.def.name),
            ),
            Val::Builtin(b) => err(span, format!("expected a number, found the builtin `{b}`")),
            Val::Class(c) => err(span, format!("expected a number, found the class `{c}`")),
            Val::Time(t) => err(span, format!("expected a number, found a {} value", t.ty)),
            Val::TimeArray(_) => err(span, "expected a number, found an array"),
            Val::Str(_) => py::unsupported(
                span,
                "a string used as a value",
                DIALECT,
                "a constant string or bytes can be stored into an S<n>/U<n> element, or printed",
            ),
        }
    }

    /// The truth value of a condition as a bool.
    pub(super) fn cond(&mut self, e: &ast::Expr) -> DResult<Expr> {
        let span = self.span(e);
        let v = self.expr(e)?;
        let v = self.num(v, span)?;
        Ok(self.truth(v))
    }

    pub(super) fn truth(&self, e: Expr) -> Expr {
        let d = dtype_of(&e);
        if d == DType::Bool {
            return e;
        }
        let span = e.span;
        let zero = konst(d, 0, span);
        bin(BinOp::Ne, e, zero, span)
    }

    pub(super) fn expr(&mut self, e: &ast::Expr) -> DResult<Val> {
        let span = self.span(e);
        use ast::Expr as E;
        match e {
            E::Constant(c) => self.constant(&c.value, span),
            E::Name(n) => match self.lookup(n.id.as_str(), span) {
                Err(e) => match self.global_array(n.id.as_str(), span)? {
                    Some(v) => Ok(v),
                    None => Err(e),
                },
                ok => ok,
            },
            E::Attribute(a) => {
                let base = self.expr(&a.value)?;
                self.attribute(base, a.attr.as_str(), span)
            }
            E::Subscript(s) => {
                let base = self.expr(&s.value)?;
                match base {
                    Val::Record(r) => self.record_get(&r, FieldAt::Key(&s.slice), span),
                    Val::Bytes(a) => self.byte_array_load(&a, Index::of(s, span)),
                    Val::TimeArray(t) => self.time_load(&t, Index::of(s, span)),
                    Val::Array(arr) if self.selects_view(&arr, &s.slice) => {
                        Ok(Val::Array(self.slice_view(&arr, Index::of(s, span))?))
                    }
                    Val::Array(arr) if arr.pairs == Pairs::Complex => {
                        let ptrs = self.complex_ptrs(&arr, Index::of(s, span))?;
                        Ok(self.load_complex(ptrs, arr.dtype, span))
                    }
                    Val::Array(arr) => {
                        let ptr = self.elem_ptr(&arr, Index::of(s, span))?;
                        Ok(Val::Num(load(ptr, arr.dtype, span)))
                    }
                    Val::Class(c) => match &*s.slice {
                        ast::Expr::Constant(k) => match &k.value {
                            Constant::Str(m) => self.member(&c, m, span),
                            _ => err(span, format!("`{c}[…]` takes a member's name")),
                        },
                        _ => err(span, format!("`{c}[…]` takes a member's name as a string")),
                    },
                    Val::Tuple(items) => {
                        let i = match self.const_int(&s.slice) {
                            Ok(i) => i,
                            Err(e) => {
                                return self
                                    .tuple_at_run_time(items, &s.slice, span)
                                    .unwrap_or(Err(e))
                            }
                        };
                        let n = items.len() as i128;
                        let j = if i < 0 { i + n } else { i };
                        if !(0..n).contains(&j) {
                            return err(
                                span,
                                format!("tuple index {i} out of range for a tuple of {n}"),
                            );
                        }
                        Ok(items[j as usize].clone())
                    }
                    _ => err(span, "only arrays and tuples can be indexed"),
                }
            }
            E::BinOp(b) => {
                let l = self.expr(&b.left)?;
                let mark = self.mark();
                let r = self.expr(&b.right)?;
                self.binary(b.op, l, r, mark, span)
            }
            E::UnaryOp(u) => {
                let v = self.expr(&u.operand)?;
                if let Val::Complex(z) = v {
                    return match u.op {
                        ast::UnaryOp::USub => Ok(Val::Complex(crate::complex::neg(z, span))),
                        ast::UnaryOp::UAdd => Ok(Val::Complex(z)),
                        _ => err(span, "complex numbers take only unary - and +"),
                    };
                }
                let v = self.num(v, span)?;
                Ok(Val::Num(self.unary_op(u.op, v, span)?))
            }
            E::BoolOp(b) => self.bool_op(b, span),
            E::Compare(c) => self.compare(c, span),
            E::IfExp(i) => self.if_exp(i, span),
            E::Call(c) => self.call(c, span),
            E::Tuple(t) => {
                let mut items = Vec::new();
                for x in &t.elts {
                    items.push(self.expr(x)?);
                }
                Ok(Val::Tuple(items))
            }
            E::NamedExpr(n) => {
                // `(x := v)`: assigns v to x (the assignment's rule), is v
                let v = self.expr(&n.value)?;
                let v = self.materialize(v);
                self.assign(&n.target, v.clone())?;
                Ok(v)
            }
            // lists, dicts, sets, comprehensions, lambdas, f-strings, …
            _ => py::exprs::refuse(e, span, DIALECT, refused_help),
        }
    }

    pub(super) fn constant(&self, c: &Constant, span: Span) -> DResult<Val> {
        Ok(Val::Num(match c {
            Constant::Bool(b) => konst(DType::Bool, *b as u64, span),
            Constant::Int(i) => match i64::try_from(i) {
                Ok(v) => int_const(DType::I64, v as i128, span),
                Err(_) => match u64::try_from(i) {
                    Ok(v) => konst(DType::U64, v, span),
                    Err(_) => {
                        return err(span, format!("integer literal {i} does not fit in 64 bits"))
                    }
                },
            },
            Constant::Float(f) => float_const(DType::F64, *f, span),
            Constant::None => return Ok(Val::None),
            Constant::Complex { real, imag } => {
                return Ok(Val::Complex(crate::complex::Cx {
                    re: float_const(DType::F64, *real, span),
                    im: float_const(DType::F64, *imag, span),
                }))
            }
            Constant::Str(t) => {
                return Ok(Val::Str(std::rc::Rc::new(records::TextConst::Str(
                    t.chars().map(u32::from).collect(),
                ))))
            }
            Constant::Bytes(b) => {
                return Ok(Val::Str(std::rc::Rc::new(records::TextConst::Bytes(
                    b.clone(),
                ))))
            }
            Constant::Tuple(items) => {
                let mut out = Vec::new();
                for x in items {
                    out.push(self.constant(x, span)?);
                }
                return Ok(Val::Tuple(out));
            }
            Constant::Ellipsis => {
                return py::unsupported(span, "`...`", DIALECT, "index each dimension")
            }
        }))
    }

    pub(super) fn lookup(&self, name: &str, span: Span) -> DResult<Val> {
        if let Some(v) = self.frames.last().and_then(|f| f.env.get(name)) {
            return Ok(v.clone());
        }
        if let Some(g) = self.m.globals.get(name) {
            if let PyValue::Extra(Object::Class { .. }) = g {
                return Ok(Val::Class(name.to_string()));
            }
            return Ok(self.global_val(g, span));
        }
        if self.m.funcs.contains_key(name) {
            return Ok(Val::Func(name.to_string()));
        }
        Ok(Val::Builtin(match name {
            "range" | "xrange" => "range",
            "abs" => "abs",
            "min" => "min",
            "max" => "max",
            "int" => "int",
            "float" => "float",
            "bool" => "bool",
            "len" => "len",
            "print" => "print",
            "round" => "round",
            "complex" => "complex",
            "pow" => "pow",
            "tuple" => "tuple",
            "enumerate" | "zip" => {
                return py::unsupported(
                    span,
                    &format!("the builtin `{name}` outside a for loop"),
                    DIALECT,
                    &format!("use it as `for … in {name}(…)`"),
                )
            }
            "divmod" | "sum" | "list" | "str" => {
                return py::unsupported(
                    span,
                    &format!("the builtin `{name}`"),
                    DIALECT,
                    "use arithmetic operators, math functions and for loops over range()",
                )
            }
            _ => return err(span, format!("name `{name}` is not defined")),
        }))
    }

    /// The value a module-level name stands for (numbers as constants of
    /// the type numba gives a Python literal: int64, float64, bool).
    pub(super) fn global_val(&self, g: &Global, span: Span) -> Val {
        match g {
            PyValue::Num(PyNum::Int(i)) => {
                let d = if i64::try_from(*i).is_ok() {
                    DType::I64
                } else {
                    DType::U64
                };
                Val::Num(int_const(d, *i, span))
            }
            PyValue::Num(PyNum::Float(f)) => Val::Num(float_const(DType::F64, *f, span)),
            PyValue::Num(PyNum::Bool(b)) => Val::Num(konst(DType::Bool, *b as u64, span)),
            PyValue::Str(s) => Val::Str(std::rc::Rc::new(records::TextConst::Str(
                s.chars().map(u32::from).collect(),
            ))),
            PyValue::None => Val::None,
            PyValue::Type(d) => Val::Type(*d),
            PyValue::Path(p) => self.path_val(p),
            PyValue::Tuple(items) => {
                Val::Tuple(items.iter().map(|g| self.global_val(g, span)).collect())
            }
            // a class nested in a tuple or a class: not a value numba lowers
            // (nor a list, which the module scan does not make)
            PyValue::Extra(Object::Class { .. }) | PyValue::List(_) => Val::None,
            PyValue::Extra(Object::Record(layout)) => Val::RecordType(layout.clone()),
        }
    }

    /// Member `m` of the module-level class `class` (an enum member is its value).
    fn member(&self, class: &str, m: &str, span: Span) -> DResult<Val> {
        let Some(PyValue::Extra(Object::Class { members, .. })) = self.m.globals.get(class) else {
            return err(span, format!("`{class}` is not a class of constants"));
        };
        match members.iter().find(|(n, _)| n == m) {
            Some((_, g)) => Ok(Val::Member(
                class.to_string(),
                Box::new(self.global_val(g, span)),
            )),
            None => err(span, format!("`{class}` has no member `{m}`")),
        }
    }

    pub(super) fn path_val(&self, p: &str) -> Val {
        let p = super::super::canon(p);
        match type_path(&p) {
            Some(d) => Val::Type(d),
            None => Val::Path(p),
        }
    }

    pub(super) fn attribute(&mut self, base: Val, attr: &str, span: Span) -> DResult<Val> {
        match base {
            Val::Vector(xs) => self.vector_field(&xs, attr, span),
            Val::Member(_, v) if attr == "value" => Ok(*v),
            Val::TimeArray(t) if matches!(attr, "shape" | "size" | "ndim") => {
                self.attribute(Val::Array(t.arr), attr, span)
            }
            Val::TimeArray(t) => err(
                span,
                format!("{} arrays have no attribute `{attr}` in ksem (shape, size and ndim are supported)", t.ty),
            ),
            Val::Path(p) => {
                let full = format!("{p}.{attr}");
                if let Some(v) = self.intrinsic_value(&full, span)? {
                    return Ok(v);
                }
                Ok(self.path_val(&full))
            }
            Val::Array(a) if a.pairs == Pairs::Complex && (attr == "real" || attr == "imag") => {
                let k = if attr == "real" { 0 } else { 1 };
                Ok(Val::Array(ArrayVal {
                    pairs: Pairs::Part(k),
                    ..a
                }))
            }
            Val::Array(a) => {
                let i64c = |v: usize| Val::Num(int_const(DType::I64, v as i128, span));
                Ok(match attr {
                    "shape" => Val::Tuple(
                        (0..a.shape.len())
                            .map(|k| Val::Num(a.len_expr(k, span)))
                            .collect(),
                    ),
                    "strides" if a.view.is_some() => {
                        let mut item = a.dtype.storage_bits() as i128 / 8;
                        if a.pairs != Pairs::No {
                            item *= 2;
                        }
                        let st = &a.view.as_ref().expect("a view").strides;
                        let c = |s: &Expr| {
                            Val::Num(slices::i64op(BinOp::Mul, s.clone(), int_const(DType::I64, item, span), span))
                        };
                        Val::Tuple(st.iter().map(c).collect())
                    }
                    "strides" => {
                        let item = a.dtype.storage_bits() as usize / 8;
                        let mut st = vec![item; a.shape.len()];
                        for i in (0..a.shape.len().saturating_sub(1)).rev() {
                            st[i] = st[i + 1] * a.shape[i + 1];
                        }
                        Val::Tuple(st.into_iter().map(i64c).collect())
                    }
                    "size" => Val::Num(a.size_expr(span)),
                    "ndim" => i64c(a.shape.len()),
                    "dtype" => Val::Type(a.dtype),
                    _ => return err(span, format!("arrays have no attribute `{attr}`; valid ones are shape, strides, size and ndim")),
                })
            }
            Val::Class(c) => self.member(&c, attr, span),
            v @ (Val::Num(_) | Val::Complex(_)) => self.number_attribute(v, attr, span),
            Val::Record(r) => self.record_get(&r, FieldAt::Attr(attr), span),
            Val::Bytes(a) => self.byte_array_attribute(&a, attr, span),
            _ => err(span, format!("no attribute `{attr}` here")),
        }
    }

    /// Values such as `cuda.threadIdx.x` (int32, as numba-cuda types them)
    /// and the float64 constants of `math`.
    pub(super) fn intrinsic_value(&self, full: &str, span: Span) -> DResult<Option<Val>> {
        let math = match full {
            "math.pi" => Some(std::f64::consts::PI),
            "math.e" => Some(std::f64::consts::E),
            "math.tau" => Some(std::f64::consts::TAU),
            "math.inf" => Some(f64::INFINITY),
            "math.nan" => Some(f64::NAN),
            "numpy.nan" | "numpy.NaN" | "numpy.NAN" => Some(f64::NAN),
            "numpy.inf" | "numpy.Inf" | "numpy.PINF" => Some(f64::INFINITY),
            "numpy.NINF" => Some(f64::NEG_INFINITY),
            "numpy.pi" => Some(std::f64::consts::PI),
            "numpy.e" => Some(std::f64::consts::E),
            _ => None,
        };
        if let Some(v) = math {
            return Ok(Some(Val::Num(float_const(DType::F64, v, span))));
        }
        let Some(rest) = full.strip_prefix("numba.cuda.") else {
            return Ok(None);
        };
        if let Some(v) = self.lane_value(rest, span) {
            return Ok(Some(v));
        }
        let Some((what, dim)) = rest.split_once('.') else {
            return Ok(None);
        };
        let ids = ["threadIdx", "blockIdx", "blockDim", "gridDim"];
        let d = match dim {
            "x" => 0,
            "y" => 1,
            "z" => 2,
            _ if ids.contains(&what) => {
                return err(
                    span,
                    format!("cuda.{what} has no attribute `{dim}`; use .x, .y or .z"),
                )
            }
            _ => return Ok(None),
        };
        let kind = match what {
            "threadIdx" => ExprKind::ThreadId(d),
            "blockIdx" => ExprKind::BlockId(d),
            "blockDim" => ExprKind::BlockDim(d),
            "gridDim" => ExprKind::GridDim(d),
            _ => return Ok(None),
        };
        Ok(Some(Val::Num(mk(kind, Type::scalar(DType::I32), span))))
    }

    /// The array an expression denotes.
    pub(super) fn array_of(&mut self, e: &ast::Expr) -> DResult<ArrayVal> {
        let span = self.span(e);
        match self.expr(e)? {
            Val::Array(a) => Ok(a),
            _ => err(span, "only arrays can be indexed"),
        }
    }

    /// The pointer to the element of `arr` that index `at` selects.
    pub(super) fn elem_ptr(&mut self, arr: &ArrayVal, at: Index) -> DResult<Expr> {
        let (idx, span) = (at.items(), at.span);
        let mut indices = Vec::new();
        for i in &idx {
            let ispan = self.span(*i);
            if matches!(i, ast::Expr::Slice(_)) {
                return py::unsupported(
                    ispan,
                    "slicing",
                    DIALECT,
                    "slicing is not supported: index each element with a[i]",
                );
            }
            let v = self.expr(i)?;
            let v = match v {
                Val::Tuple(items) if idx.len() == 1 => {
                    for it in items {
                        let e = self.num(it, ispan)?;
                        indices.push(self.index_value(e, ispan)?);
                    }
                    continue;
                }
                v => self.num(v, ispan)?,
            };
            indices.push(self.index_value(v, ispan)?);
        }
        if indices.len() != arr.shape.len() {
            return err(span, format!(
                "a {}-d array needs {} indices, got {} (the no-Python mode indexes every dimension)",
                arr.shape.len(),
                arr.shape.len(),
                indices.len()
            ));
        }
        Ok(self.index_ptr(arr, indices, span))
    }

    /// The pointer to the element of `arr` at `indices` (one per
    /// dimension): to part 0 of a complex element, to the part of a
    /// `.real`/`.imag` view, through a slice's view.
    pub(super) fn index_ptr(&mut self, arr: &ArrayVal, mut indices: Vec<Expr>, span: Span) -> Expr {
        let ty = arr.base.ty.clone();
        let mut dims = arr.shape.clone();
        match arr.pairs {
            Pairs::No => {}
            Pairs::Complex | Pairs::Part(_) => {
                let k = if let Pairs::Part(k) = arr.pairs { k } else { 0 };
                indices.push(int_const(DType::I64, k, span));
                dims.push(2);
            }
        }
        if arr.view.is_some() {
            return self.view_elem_ptr(arr, indices, span);
        }
        mk(
            ExprKind::ElemPtr {
                base: Box::new(arr.base.clone()),
                indices,
                dims,
                neg: NegIndex::Wrap,
                offset: None,
            },
            ty,
            span,
        )
    }

    pub(super) fn index_value(&self, e: Expr, span: Span) -> DResult<Expr> {
        let d = dtype_of(&e);
        if !(d.is_int() || d == DType::Bool) {
            return err(
                span,
                format!("array indices must be integers, not {}", Named(d)),
            );
        }
        Ok(convert(e, DType::I64))
    }

    pub(super) fn const_int(&mut self, e: &ast::Expr) -> DResult<i128> {
        let span = self.span(e);
        let v = self.expr(e)?;
        let x = self.num(v, span)?;
        match fold_int(&x) {
            Some(v) => Ok(v),
            None => err(span, "expected a constant integer"),
        }
    }

    /// `l op r` of two operand values (`mark`: where the statements of
    /// `r`'s elaboration begin): complex arithmetic where either is complex.
    pub(super) fn binary(
        &mut self,
        op: ast::Operator,
        l: Val,
        r: Val,
        mark: usize,
        span: Span,
    ) -> DResult<Val> {
        if matches!(l, Val::Complex(_)) || matches!(r, Val::Complex(_)) {
            let l = self.keep_order_val(l, mark);
            return self.complex_arith(Binary { op, l, r, span });
        }
        if matches!(l, Val::Time(_)) || matches!(r, Val::Time(_)) {
            let l = self.keep_order_val(l, mark);
            return self.time_arith(Binary { op, l, r, span });
        }
        let l = self.num(l, span)?;
        let r = self.num(r, span)?;
        let l = self.keep_order(l, mark);
        Ok(Val::Num(self.arith(op, l, r, span)?))
    }

    /// [`Elab::keep_order`] of a number's, complex's or
    /// datetime64/timedelta64's parts; other values as they are.
    pub(super) fn keep_order_val(&mut self, v: Val, mark: usize) -> Val {
        match v {
            Val::Num(e) => Val::Num(self.keep_order(e, mark)),
            Val::Time(t) => Val::Time(time::TimeVal {
                bits: self.keep_order(t.bits, mark),
                ..t
            }),
            Val::Complex(z) => {
                let im = self.keep_order(z.im, mark);
                let re = self.keep_order(z.re, mark);
                Val::Complex(crate::complex::Cx { re, im })
            }
            other => other,
        }
    }

    /// `a op b` by the seed's coercion rules.
    pub(super) fn arith(
        &mut self,
        op: ast::Operator,
        a: Expr,
        b: Expr,
        span: Span,
    ) -> DResult<Expr> {
        use ast::Operator as O;
        let (da, db) = (dtype_of(&a), dtype_of(&b));
        let c = types::promote(da, db);
        Ok(match op {
            O::Add | O::Sub | O::Mult => {
                let arith = match op {
                    O::Add => IntArith::Add,
                    O::Sub => IntArith::Sub,
                    _ => IntArith::Mul,
                };
                bin(nsw_op(arith, c), convert(a, c), convert(b, c), span)
            }
            O::Div => {
                let f = types::truediv_type(da, db);
                bin(BinOp::FDiv, convert(a, f), convert(b, f), span)
            }
            O::FloorDiv => {
                let r = types::floordiv_result(c);
                if c.is_float() {
                    let q = self.float_floordiv(convert(a, c), convert(b, c), span);
                    convert(q, r)
                } else {
                    bin(BinOp::IDiv(INT_DIV), convert(a, r), convert(b, r), span)
                }
            }
            O::Mod => {
                if c.is_float() {
                    self.float_mod(convert(a, c), convert(b, c), span)
                } else {
                    bin(BinOp::IRem(INT_DIV), convert(a, c), convert(b, c), span)
                }
            }
            O::Pow => self.power(a, b, span)?,
            O::BitAnd | O::BitOr | O::BitXor | O::LShift | O::RShift => {
                for (d, which) in [(da, "left"), (db, "right")] {
                    if d.is_float() {
                        return err(
                            span,
                            format!(
                                "`{}` needs integer operands, but the {which} one is {}",
                                op_text(op),
                                Named(d)
                            ),
                        );
                    }
                }
                let keep_bool = c == DType::I64 && da == DType::Bool && db == DType::Bool;
                let c = if keep_bool && matches!(op, O::BitAnd | O::BitOr | O::BitXor) {
                    DType::Bool
                } else {
                    c
                };
                let bop = match op {
                    O::BitAnd => BinOp::And,
                    O::BitOr => BinOp::Or,
                    O::BitXor => BinOp::Xor,
                    O::LShift => BinOp::Shl(ShiftRange::Ub),
                    _ if c.is_signed_int() => BinOp::Shr(ShrKind::Arith, ShiftRange::Ub),
                    _ => BinOp::Shr(ShrKind::Logical, ShiftRange::Ub),
                };
                bin(bop, convert(a, c), convert(b, c), span)
            }
            O::MatMult => {
                return py::unsupported(span, "`@`", DIALECT, "write the products in a loop")
            }
        })
    }

    /// Python's float floor division (CPython `float_floor_div`, which
    /// numba's `real_divmod` follows): `(a - fmod(a, b)) / b`, corrected
    /// toward -inf and rounded to the nearest integral value.
    pub(super) fn float_floordiv(&mut self, a: Expr, b: Expr, span: Span) -> Expr {
        let d = dtype_of(&a);
        let (a, b) = (self.temp(a), self.temp(b));
        let m = self.temp(bin(BinOp::FRem, a.clone(), b.clone(), span));
        let zero = float_const(d, 0.0, span);
        let one = float_const(d, 1.0, span);
        let div = bin(
            BinOp::FDiv,
            bin(BinOp::Sub, a, m.clone(), span),
            b.clone(),
            span,
        );
        let div = self.temp(div);
        let fix = bin(
            BinOp::LogicalAnd,
            bin(BinOp::Ne, m.clone(), zero.clone(), span),
            bin(
                BinOp::Ne,
                bin(BinOp::Lt, b, zero.clone(), span),
                bin(BinOp::Lt, m, zero, span),
                span,
            ),
            span,
        );
        let div = select(
            fix,
            bin(BinOp::Sub, div.clone(), one.clone(), span),
            div,
            span,
        );
        let div = self.temp(div);
        let fl = self.temp(unary(UnOp::Math(MathFn::Floor), div.clone(), span));
        let half = float_const(d, 0.5, span);
        let up = bin(
            BinOp::Gt,
            bin(BinOp::Sub, div, fl.clone(), span),
            half,
            span,
        );
        select(up, bin(BinOp::Add, fl.clone(), one, span), fl, span)
    }

    /// Python's float modulo (CPython `float_rem`): `fmod(a, b)`, plus `b`
    /// when the signs differ; a zero result takes `b`'s sign.
    pub(super) fn float_mod(&mut self, a: Expr, b: Expr, span: Span) -> Expr {
        let d = dtype_of(&a);
        let (a, b) = (self.temp(a), self.temp(b));
        let m = self.temp(bin(BinOp::FRem, a, b.clone(), span));
        let zero = float_const(d, 0.0, span);
        let differ = bin(
            BinOp::Ne,
            bin(BinOp::Lt, b.clone(), zero.clone(), span),
            bin(BinOp::Lt, m.clone(), zero.clone(), span),
            span,
        );
        let nonzero = select(
            differ,
            bin(BinOp::Add, m.clone(), b.clone(), span),
            m.clone(),
            span,
        );
        let signed_zero = bin(BinOp::CopySign, zero.clone(), b, span);
        select(bin(BinOp::Ne, m, zero, span), nonzero, signed_zero, span)
    }

    /// The builtin `pow(a, b)`: `a ** b`, as numba types and lowers it
    /// (the three-argument form is refused).
    pub(super) fn pow_builtin(&mut self, call: Call) -> DResult<Val> {
        let span = call.span;
        let ([a, b], []) = (call.args(), call.keywords()) else {
            return err(span, "pow(base, exp) takes two numbers");
        };
        let l = self.expr(a)?;
        let mark = self.mark();
        let r = self.expr(b)?;
        self.binary(ast::Operator::Pow, l, r, mark, span)
    }

    /// `a ** b` (the seed is silent; numba-cuda, measured): a float base
    /// with an integer exponent keeps the base's type, two floats promote,
    /// and `pow` computes it (inexact); two integers give int64 (uint64 for
    /// two unsigned) by repeated multiplication, wrapping, where the exponent
    /// is a constant; a negative one gives 0 except for the bases 1 and -1.
    pub(super) fn power(&mut self, a: Expr, b: Expr, span: Span) -> DResult<Expr> {
        let (da, db) = (dtype_of(&a), dtype_of(&b));
        if da.is_float() || db.is_float() {
            let c = if da.is_float() && !db.is_float() {
                da
            } else {
                types::promote(da, db)
            };
            return Ok(bin(BinOp::Pow, convert(a, c), convert(b, c), span));
        }
        let c = if da.is_unsigned_int() && db.is_unsigned_int() {
            DType::U64
        } else {
            DType::I64
        };
        let Some(n) = fold_int(&b) else {
            return Ok(self.runtime_power(convert(a, c), convert(b, DType::I64), span));
        };
        let base = self.temp(convert(a, c));
        if n < 0 {
            // 1 ** -n = 1, (-1) ** -n = ±1, anything else 0
            let one = int_const(c, 1, span);
            let m1 = int_const(c, -1, span);
            let odd = n % 2 != 0;
            let at_m1 = if odd { m1.clone() } else { one.clone() };
            let is1 = bin(BinOp::Eq, base.clone(), one.clone(), span);
            let ism1 = bin(BinOp::Eq, base, m1, span);
            let r = select(ism1, at_m1, int_const(c, 0, span), span);
            return Ok(select(is1, one, r, span));
        }
        // numba's `r *= a` and `a *= a` are `mul nsw` in int64; a square
        // that no later step uses is not computed (numba's is poison unused)
        let mul = nsw_op(IntArith::Mul, c);
        let mut base = base;
        let mut acc = int_const(c, 1, span);
        let mut n = n as u128;
        while n > 0 {
            if n & 1 == 1 {
                acc = self.temp(bin(mul, acc, base.clone(), span));
            }
            n >>= 1;
            if n > 0 {
                base = self.temp(bin(mul, base.clone(), base, span));
            }
        }
        Ok(acc)
    }

    /// An integer power with a runtime exponent, by squaring (the results
    /// of `power` for constant exponents).
    pub(super) fn runtime_power(&mut self, a: Expr, e: Expr, span: Span) -> Expr {
        let c = dtype_of(&a);
        let i64c = |v: i128| int_const(DType::I64, v, span);
        let cc = |v: i128| int_const(c, v, span);
        let r = self.new_var("_pow", Type::scalar(c));
        let b = self.new_var("_base", Type::scalar(c));
        let x = self.new_var("_exp", Type::scalar(DType::I64));
        let (rv, bv, xv) = (
            self.var_expr(r, span),
            self.var_expr(b, span),
            self.var_expr(x, span),
        );
        self.emit(Stmt::Let(b, a));
        self.emit(Stmt::Let(x, e));
        self.emit(Stmt::Let(r, cc(1)));
        let odd = bin(
            BinOp::Ne,
            bin(BinOp::And, xv.clone(), i64c(1), span),
            i64c(0),
            span,
        );
        let neg = select(
            bin(BinOp::Eq, bv.clone(), cc(1), span),
            cc(1),
            select(
                bin(BinOp::Eq, bv.clone(), cc(-1), span),
                select(odd.clone(), cc(-1), cc(1), span),
                cc(0),
                span,
            ),
            span,
        );
        // as for constant exponents: `mul nsw` in int64, and the base is
        // squared only while a later step uses it (the exponent exceeds 1)
        let mul = nsw_op(IntArith::Mul, c);
        let square = vec![
            Stmt::If {
                cond: odd,
                then_body: vec![Stmt::Let(r, bin(mul, rv.clone(), bv.clone(), span))],
                else_body: vec![],
            },
            Stmt::If {
                cond: bin(BinOp::Gt, xv.clone(), i64c(1), span),
                then_body: vec![Stmt::Let(b, bin(mul, bv.clone(), bv.clone(), span))],
                else_body: vec![],
            },
            Stmt::Let(
                x,
                bin(
                    BinOp::Shr(ShrKind::Arith, ShiftRange::Ub),
                    xv.clone(),
                    i64c(1),
                    span,
                ),
            ),
        ];
        self.emit(Stmt::If {
            cond: bin(BinOp::Lt, xv.clone(), i64c(0), span),
            then_body: vec![Stmt::Let(r, neg)],
            else_body: vec![Stmt::While {
                cond: bin(BinOp::Gt, xv, i64c(0), span),
                body: square,
                span,
            }],
        });
        rv
    }

    /// Unary operators. The seed gives no rule; numba-cuda (measured)
    /// computes `-x` and `~x` of an integer in its own width and widens the
    /// result to 64 bits of the same signedness (`-int32(MIN)` is int64
    /// -2147483648, `-uint32(1)` is uint64 0xffffffff); `+x` widens.
    pub(super) fn unary_op(&mut self, op: ast::UnaryOp, v: Expr, span: Span) -> DResult<Expr> {
        let d = dtype_of(&v);
        let v = if d == DType::Bool && op != ast::UnaryOp::Not {
            convert(v, DType::I64)
        } else {
            v
        };
        let widen = |e: Expr| {
            let w = types::int_unary_result(dtype_of(&e));
            convert(e, w)
        };
        Ok(match op {
            ast::UnaryOp::UAdd if dtype_of(&v).is_int() => widen(v),
            ast::UnaryOp::UAdd => v,
            ast::UnaryOp::USub if dtype_of(&v).is_int() => widen(unary(UnOp::Neg, v, span)),
            ast::UnaryOp::USub => unary(UnOp::Neg, v, span),
            ast::UnaryOp::Not => {
                let t = self.truth(v);
                unary(UnOp::LogicalNot, t, span)
            }
            ast::UnaryOp::Invert => {
                if d.is_float() {
                    return err(
                        span,
                        format!("`~` needs an integer operand, not {}", Named(d)),
                    );
                }
                widen(unary(UnOp::Not, v, span))
            }
        })
    }

    /// `a and b`, `a or b`: the value Python gives, with each further operand
    /// evaluated only when Python evaluates it.
    pub(super) fn bool_op(&mut self, b: &ast::ExprBoolOp, span: Span) -> DResult<Val> {
        let is_and = matches!(b.op, ast::BoolOp::And);
        let n_operands = b.values.len();
        let first = self.expr(&b.values[0])?;
        let mut vals = vec![self.num(first, span)?];
        let mut pres = vec![Vec::new()];
        for x in &b.values[1..] {
            self.blocks.push(Vec::new());
            let v = self.expr(x).and_then(|v| self.num(v, span));
            pres.push(self.blocks.pop().expect("pushed above"));
            vals.push(v?);
        }
        let d = if vals.iter().all(|e| dtype_of(e) == DType::Bool) {
            DType::Bool
        } else {
            vals.iter()
                .map(dtype_of)
                .reduce(types::promote)
                .expect("two or more")
        };
        let r = self.new_var("_boolop", Type::scalar(d));
        let mut operands: Vec<_> = pres.into_iter().zip(vals).map(Some).collect();
        let mut operand = |me: &mut Self, k: usize| {
            let (pre, v) = operands[k].take().expect("each operand once");
            pre.into_iter().for_each(|s| me.emit(s));
            Ok(convert(v, d))
        };
        let go_on = |me: &Self, v: Expr| simt::undecided(is_and, me.truth(v), span);
        self.short_circuit(r, n_operands, &mut operand, &go_on, span)?;
        Ok(Val::Num(self.var_expr(r, span)))
    }

    /// `a < b <= c …`: each comparison in the operands' common type; later
    /// operands are evaluated only while the earlier comparisons hold.
    pub(super) fn compare(&mut self, c: &ast::ExprCompare, span: Span) -> DResult<Val> {
        let left = self.expr(&c.left)?;
        if c.ops.len() == 1 {
            let mark = self.mark();
            let r = self.expr(&c.comparators[0])?;
            if matches!(left, Val::Complex(_)) || matches!(r, Val::Complex(_)) {
                let left = self.keep_order_val(left, mark);
                let (op, l) = (c.ops[0], left);
                return Ok(Val::Num(self.complex_cmp(Binary { op, l, r, span })?));
            }
            if matches!(left, Val::Member(..)) || matches!(r, Val::Member(..)) {
                if let Some(v) = self.member_cmp(c.ops[0], &left, &r, span)? {
                    return Ok(Val::Num(v));
                }
            }
            if let Some(v) = self.none_test(c.ops[0], &left, &r) {
                return Ok(Val::Num(v));
            }
            if matches!(left, Val::Time(_)) || matches!(r, Val::Time(_)) {
                let left = self.keep_order_val(left, mark);
                return Ok(Val::Num(self.time_cmp(c.ops[0], left, r, span)?));
            }
            let left = self.num(left, span)?;
            let r = self.num(r, span)?;
            return Ok(Val::Num(self.cmp(c.ops[0], left, r, span)?));
        }
        let left = self.num(left, span)?;
        let mut prev = self.temp(left);
        let res = self.new_var("_cmp", Type::scalar(DType::Bool));
        let mut operand = |me: &mut Self, k: usize| {
            let r = me.expr(&c.comparators[k])?;
            let r = me.num(r, span)?;
            let r = me.temp(r);
            let t = me.cmp(c.ops[k], prev.clone(), r.clone(), span);
            prev = r;
            t
        };
        self.short_circuit(res, c.ops.len(), &mut operand, &|_, v| v, span)?;
        Ok(Val::Num(self.var_expr(res, span)))
    }

    pub(super) fn cmp(&mut self, op: ast::CmpOp, a: Expr, b: Expr, span: Span) -> DResult<Expr> {
        use ast::CmpOp as C;
        let c = types::compare_type(dtype_of(&a), dtype_of(&b));
        let bop = match (py::value_cmp(op), op) {
            (Some(b), _) => b,
            (None, C::Is) => BinOp::Eq,
            (None, C::IsNot) => BinOp::Ne,
            (None, _) => {
                return py::unsupported(span, "`in`", DIALECT, "compare with == in a loop")
            }
        };
        Ok(bin(bop, convert(a, c), convert(b, c), span))
    }

    pub(super) fn if_exp(&mut self, i: &ast::ExprIfExp, span: Span) -> DResult<Val> {
        let cond = self.cond(&i.test)?;
        // each side in its own block: evaluated only where taken
        let side = |me: &mut Self, e| me.expr(e).and_then(|v| me.num(v, span));
        let (a, pre_a) = self.collect(|me| side(me, &i.body));
        let a = a?;
        let (b, pre_b) = self.collect(|me| side(me, &i.orelse));
        let b = b?;
        let d = types::compare_type(dtype_of(&a), dtype_of(&b));
        let r = self.branch_value("_ifexp", cond, (pre_a, a), (pre_b, b), d, span);
        Ok(Val::Num(r))
    }
}

/// CUDA Python's alternative to an expression form it refuses.
fn refused_help(form: Option<py::exprs::Form>) -> &'static str {
    use py::exprs::Form as F;
    match form {
        Some(F::ListLiteral | F::ListComp) => "use a local array: cuda.local.array(n, float32)",
        Some(F::DictLiteral | F::DictComp | F::SetLiteral | F::SetComp) => {
            "the no-Python mode has no objects: use arrays"
        }
        Some(F::Lambda) => "define a device function with @cuda.jit(device=True)",
        Some(F::GeneratorExp | F::AwaitYield) => "write a for loop over range()",
        Some(F::FString) => "print numbers with print(\"label\", x)",
        Some(F::Slice) => "slicing is not supported: index each element with a[i]",
        Some(F::Starred) => "pass each value",
        Some(F::Walrus) | None => "use numbers, arrays, tuples and calls",
    }
}
