//! Values and expressions: scalars as Hidet types them and C computes them.

use super::*;

impl<'m> Elab<'m> {
    /// `p - q` of two pointers (or tensors, as pointers to their first
    /// element): measured on Hidet 0.6.1 (tools/probes/hidet/vecptr.json),
    /// the number of elements from `q` to `p` (C's pointer difference),
    /// typed `int32`; pointers to different types are refused by g++.
    fn ptr_diff(
        &mut self,
        p: Expr,
        pe: Elt,
        r: &Val,
        q: Expr,
        qe: Elt,
        span: Span,
    ) -> DResult<Val> {
        if matches!(r, Val::Tensor(t) if !t.prefix.is_empty()) {
            return err(span, "a partly indexed tensor is not a pointer: take the address of an element (~a[i, 0])");
        }
        if pe != qe || p.ty.space() != q.ty.space() {
            return err(
                span,
                format!("a pointer to {pe} minus a pointer to {qe} (g++: invalid operands to binary 'operator-')"),
            );
        }
        if !matches!(pe, Elt::Real(_)) {
            return Err(Diagnostic::new(
                span,
                format!("ksem subtracts only pointers to numbers, not to {pe}"),
            )
            .with_help("subtract pointers to the lanes or parts (cast(p, ~f32)) and divide"));
        }
        Ok(Val::from_scalar(ops::ptr_diff(p, q, span)))
    }
}

impl<'m> Elab<'m> {
    // ---- values ----------------------------------------------------------------

    /// A Python value as the Hidet constant it becomes (`int` → `int32`,
    /// `float` → `float32`, `bool` → `bool`): the C expression (typed as C
    /// reads the literal Hidet prints) and its Hidet type.
    pub(super) fn host_to_expr(&self, v: Val, span: Span) -> DResult<(Expr, DType)> {
        let Some(l) = lit_of(&v) else {
            return err(span, "expected a number");
        };
        let s = ops::Scalar::literal(l, span)?;
        Ok((s.e, s.hty))
    }

    /// A scalar value with the Python number it came from, for `ops`.
    pub(super) fn scalar_of(&mut self, v: Val, span: Span) -> DResult<ops::Scalar> {
        let lit = lit_of(&v);
        let pty = match &v {
            Val::Num { pty, .. } => Some(*pty),
            _ => None,
        };
        let (e, hty) = self.scalar(v, span)?;
        Ok(ops::Scalar {
            e,
            hty,
            pty: pty.unwrap_or(hty),
            lit,
        })
    }

    /// A scalar value: its C expression and Hidet type.
    pub(super) fn scalar(&mut self, v: Val, span: Span) -> DResult<(Expr, DType)> {
        match v {
            Val::Num { e, hty, .. } => Ok((e, hty)),
            Val::Int(_) | Val::Float(_) | Val::Bool(_) => self.host_to_expr(v, span),
            Val::Cell(id, d) => {
                let p = self.cell_ptr(id, d, span);
                Ok((load(p, d, span), d))
            }
            Val::Tensor(_) => err(span, "expected a scalar, found a tensor"),
            Val::Cx(c) => err(
                span,
                format!(
                    "expected a real scalar, found a {} value",
                    Elt::Complex(dtype_of(&c.re))
                ),
            ),
            Val::Lanes(_, e) => err(
                span,
                format!("expected a scalar, found a {e} value (Hidet has no lane access: cast the pointer to ~{} to reach one lane)", e.comp().json_name()),
            ),
            Val::Ptr(..) | Val::VoidPtr(_) | Val::PtrCell(..) => err(span, "expected a scalar, found a pointer"),
            Val::Type(t) => err(
                span,
                format!("expected a scalar, found the type {}", htype_text(&t)),
            ),
            Val::Layout(_) => err(span, "expected a scalar, found a layout"),
            Val::List(_) => err(span, "expected a scalar, found a tuple"),
            Val::None => err(span, "expected a scalar, found None"),
            Val::Str(_) => err(span, "expected a scalar, found a string"),
            Val::Path(p) => err(span, format!("expected a scalar, found `{p}`")),
            Val::Func(f) => err(span, format!("expected a scalar, found the function `{f}`")),
            Val::Decl(..) => err(span, "expected a scalar, found a tensor declaration"),
            Val::TaskMap(_) => err(span, "expected a scalar, found a task mapping"),
            Val::Method(_, m) => err(span, format!("expected a scalar, found the method `{m}`")),
        }
    }

    /// A pointer value and its pointee type.
    pub(super) fn pointer(&mut self, v: Val, span: Span) -> DResult<(Expr, Elt)> {
        match v {
            Val::Ptr(p, d, _) => Ok((p, d)),
            Val::VoidPtr(_) => Err(Diagnostic::new(span, "a void pointer points to no type of element")
                .with_help("cast it to a typed pointer first: cast(p, ~f32)")),
            Val::Tensor(t) if t.prefix.is_empty() => Ok((t.base, t.elt)),
            Val::Tensor(_) => err(
                span,
                "a partly indexed tensor is not a pointer: take the address of an element (~a[i, 0])",
            ),
            _ => err(span, "expected a pointer"),
        }
    }

    /// The truth of a condition as a bool (C's `x != 0`).
    pub(super) fn truth(&mut self, v: Val, span: Span) -> DResult<Expr> {
        let (e, _) = self.scalar(v, span)?;
        Ok(ops::truth(e, span))
    }

    pub(super) fn lookup(&self, name: &str, span: Span) -> DResult<Val> {
        if let Some(v) = self.lookup_local(name) {
            if let Val::PtrCell(id, d) = v {
                // the pointer the variable holds, read from its memory
                let bits = load(self.cell_ptr(id, DType::U64, span), DType::U64, span);
                return Ok(Val::Ptr(
                    bits_pointer(bits, Type::global_ptr(d)),
                    Elt::Real(d),
                    true,
                ));
            }
            return Ok(v);
        }
        if self.m.funcs.contains_key(name) {
            return Ok(Val::Func(name.to_string()));
        }
        match self.m.globals.get(name) {
            Some(PyValue::Num(n)) => Ok(Val::from(*n)),
            Some(PyValue::Str(s)) => Ok(Val::Str(s.clone())),
            Some(PyValue::Path(p)) => self.path_val(p, span),
            // a tuple, None or a dtype at module level: not a value a
            // script function reads (Hidet's transpiler has no such
            // constant)
            _ => match name {
                "range" | "int" | "float" | "bool" | "min" | "max" | "abs" | "print" | "len" => {
                    self.path_val(&format!("builtins.{name}"), span)
                }
                "True" => Ok(Val::Bool(true)),
                "False" => Ok(Val::Bool(false)),
                _ => err(span, "Trying to access variable without definition."),
            },
        }
    }

    /// The value a full dotted path denotes.
    pub(super) fn path_val(&self, p: &str, span: Span) -> DResult<Val> {
        if let Some(t) = self.type_of_path(p, span)? {
            return Ok(Val::Type(t));
        }
        Ok(Val::Path(p.to_string()))
    }

    // ---- expressions -----------------------------------------------------------

    pub(super) fn expr(&mut self, e: &ast::Expr) -> DResult<Val> {
        let span = self.span(e);
        use ast::Expr as E;
        match e {
            E::Constant(c) => match &c.value {
                Constant::Int(i) => i128::try_from(i)
                    .map(Val::Int)
                    .map_err(|_| Diagnostic::new(span, "integer literal too large")),
                Constant::Float(f) => Ok(Val::Float(*f)),
                Constant::Bool(b) => Ok(Val::Bool(*b)),
                Constant::Str(s) => Ok(Val::Str(s.clone())),
                Constant::None => Ok(Val::None),
                _ => err(span, "Can not recognize this constant"),
            },
            E::Name(n) => self.lookup(n.id.as_str(), span),
            E::Attribute(a) => {
                let base = self.expr(&a.value)?;
                self.attribute(base, a.attr.as_str(), span)
            }
            // a tuple and a list are the same sequence value
            E::Tuple(ast::ExprTuple { elts, .. }) | E::List(ast::ExprList { elts, .. }) => {
                let items = elts.iter().map(|x| self.expr(x));
                Ok(Val::List(items.collect::<DResult<_>>()?))
            }
            E::BinOp(b) => {
                let l = self.expr(&b.left)?;
                let mark = self.mark();
                let r = self.expr(&b.right)?;
                let l = self.keep_order(l, mark, span);
                self.binop(b.op, l, r, span)
            }
            E::UnaryOp(u) => {
                let v = self.expr(&u.operand)?;
                self.unary_op(u.op, v, &u.operand, span)
            }
            E::BoolOp(b) => self.bool_op(b, span),
            E::Compare(c) => self.compare(c, span),
            E::IfExp(i) => self.if_exp(i, span),
            E::Subscript(s) => {
                let base = self.expr(&s.value)?;
                match base {
                    Val::Type(HType::Scalar(d)) => {
                        let shape = self.shape_of(&s.slice)?;
                        Ok(Val::Type(HType::Tensor(
                            Elt::Real(d),
                            Layout::row_major(shape),
                        )))
                    }
                    Val::Type(HType::Compound(elt)) => {
                        let shape = self.shape_of(&s.slice)?;
                        Ok(Val::Type(HType::Tensor(elt, Layout::row_major(shape))))
                    }
                    Val::List(items) => {
                        let i =
                            match self.expr(&s.slice)? {
                                Val::Int(i) => i,
                                _ => return err(
                                    span,
                                    "a tuple is indexed with an integer known while transpiling",
                                ),
                            };
                        let n = items.len() as i128;
                        let k = if i < 0 { i + n } else { i };
                        items
                            .get(usize::try_from(k).unwrap_or(usize::MAX))
                            .cloned()
                            .ok_or_else(|| Diagnostic::new(span, "tuple index out of range"))
                    }
                    other => match self.index(other, &s.slice, span)? {
                        Indexed::Elem(ptr, elt) => Ok(self.load_elem(ptr, elt, span)),
                        Indexed::Sub(t) => Ok(Val::Tensor(t)),
                    },
                }
            }
            E::Call(c) => self.call(c, span),
            _ => py::exprs::refuse(e, span, DIALECT, refused_help),
        }
    }

    /// A static shape: integers known while transpiling.
    pub(super) fn shape_of(&mut self, e: &ast::Expr) -> DResult<Vec<i64>> {
        let items: Vec<&ast::Expr> = match e {
            ast::Expr::Tuple(t) => t.elts.iter().collect(),
            ast::Expr::List(t) => t.elts.iter().collect(),
            x => vec![x],
        };
        let mut out = Vec::new();
        for it in items {
            let v = self.expr(it)?;
            out.extend(self.static_ints(v, self.span(it))?);
        }
        Ok(out)
    }

    /// Refuses a tensor shape that is not a compile-time constant (the
    /// seed; a scalar argument's launch value does not count here).
    pub(super) fn compile_time(&self, v: &Val, span: Span) -> DResult<()> {
        match v {
            Val::List(items) => items.iter().try_for_each(|i| self.compile_time(i, span)),
            Val::Num { e, .. } if fold_int(e).is_none() => Err(Diagnostic::new(
                span,
                "The shape of the tensor must be determined at the compile time",
            )
            .with_help("use constant expressions for the shape; to access a tensor whose shape is known only at run time, use a tensor pointer (tensor_pointer(f32, [n, 4], init=p))")),
            Val::Cell(..) => Err(Diagnostic::new(span, "The shape of the tensor must be determined at the compile time")),
            _ => Ok(()),
        }
    }

    /// Integers known while transpiling (a tensor shape, a layout's sizes).
    pub(super) fn static_ints(&self, v: Val, span: Span) -> DResult<Vec<i64>> {
        match v {
            Val::Int(i) if (0..=i64::from(u32::MAX) as i128).contains(&i) => Ok(vec![i as i64]),
            Val::Int(i) => err(span, format!("a dimension of {i}")),
            Val::List(items) => {
                let mut out = Vec::new();
                for it in items {
                    out.extend(self.static_ints(it, span)?);
                }
                Ok(out)
            }
            Val::Num { e, .. } if self.static_int(&e).is_some() => {
                self.static_ints(Val::Int(self.static_int(&e).expect("checked")), span)
            }
            Val::Num { .. } | Val::Cell(..) => Err(Diagnostic::new(
                span,
                "The shape of the tensor must be determined at the compile time",
            )
            .with_help("use constant expressions for the shape; to access a tensor whose shape is known only at run time, use a tensor pointer (~f32)")),
            _ => err(span, "a shape is a list of integers"),
        }
    }

    /// The value stored into (or assigned to) a `t` slot (`ops::value_for`).
    pub(super) fn value_for(&mut self, v: Val, t: DType, span: Span) -> DResult<Expr> {
        let s = self.scalar_of(v, span)?;
        Ok(ops::value_for(&s, t, span))
    }

    /// The value of an integer expression made of constants and scalar
    /// parameters whose launch values are known.
    pub(super) fn static_int(&self, e: &Expr) -> Option<i128> {
        let mut e = e.clone();
        substitute(&mut e, &self.known);
        fold_int(&e)
    }

    pub(super) fn attribute(&mut self, base: Val, attr: &str, span: Span) -> DResult<Val> {
        match base {
            Val::Path(p) => {
                let full = format!("{p}.{attr}");
                let owner = last(&p);
                if matches!(owner, "threadIdx" | "blockIdx" | "blockDim" | "gridDim") {
                    return self.cuda_index(owner, attr, span);
                }
                self.path_val(&full, span)
            }
            Val::Tensor(t) if attr == "shape" => Ok(Val::List(
                t.layout
                    .shape()
                    .into_iter()
                    .map(|s| Val::Int(s as i128))
                    .collect(),
            )),
            Val::Layout(l) if attr == "shape" => Ok(Val::List(
                l.shape().into_iter().map(|s| Val::Int(s as i128)).collect(),
            )),
            Val::Layout(l) if attr == "size" => Ok(Val::Int(l.size() as i128)),
            Val::TaskMap(m) if matches!(attr, "on" | "spatial" | "repeat") => {
                Ok(Val::Method(Box::new(Val::TaskMap(m)), attr.to_string()))
            }
            Val::TaskMap(m) if attr == "num_workers" => Ok(Val::Int(m.workers() as i128)),
            Val::TaskMap(m) if attr == "task_shape" => Ok(Val::List(
                m.task_shape()
                    .into_iter()
                    .map(|s| Val::Int(s as i128))
                    .collect(),
            )),
            _ => err(
                span,
                format!("Can not access attribute \"{attr}\" of this object."),
            ),
        }
    }

    /// `threadIdx.x` and friends: C's `unsigned int` values, Hidet type `int32`.
    pub(super) fn cuda_index(&self, owner: &str, attr: &str, span: Span) -> DResult<Val> {
        if self.kind == FuncKind::CpuKernel {
            return err(
                span,
                format!("{owner} is a CUDA variable; a cpu_kernel runs as one thread"),
            );
        }
        let dim = match attr {
            "x" => 0,
            "y" => 1,
            "z" => 2,
            _ => {
                return err(
                    span,
                    format!("{owner} has the components x, y and z, not {attr}"),
                )
            }
        };
        let kind = match owner {
            "threadIdx" => ExprKind::ThreadId(dim),
            "blockIdx" => ExprKind::BlockId(dim),
            "blockDim" => ExprKind::BlockDim(dim),
            _ => ExprKind::GridDim(dim),
        };
        let s = ops::cuda_index(kind, span);
        Ok(Val::from_scalar(s))
    }

    /// A binary operator on two values.
    pub(super) fn binop(&mut self, op: ast::Operator, l: Val, r: Val, span: Span) -> DResult<Val> {
        use ast::Operator as O;
        if op == O::Pow && matches!((&l, &r), (Val::Int(_), Val::Int(_))) {
            // measured: the transpiler sends `**` to Hidet's pow primitive
            return err(span, "pow is not supported for int32 (Hidet's `**` is its pow primitive, which takes floats)");
        }
        // Python arithmetic on host values
        if let Some(v) = host_binop(op, &l, &r) {
            return v.map_err(|e| {
                Diagnostic::new(
                    span,
                    format!("Python raises {e} here while Hidet transpiles"),
                )
            });
        }
        if let (Val::TaskMap(a), Val::TaskMap(b)) = (&l, &r) {
            if op != O::Mult {
                return err(span, "task mappings compose with `*`");
            }
            if a.task_shape().len() != b.task_shape().len() {
                return err(
                    span,
                    "composed task mappings must have the same number of dimensions",
                );
            }
            return Ok(Val::TaskMap(TaskMap::Composed(
                Box::new(a.clone()),
                Box::new(b.clone()),
            )));
        }
        if let (Val::Layout(a), Val::Layout(b)) = (&l, &r) {
            return match op {
                O::Mult => {
                    if a.shape().len() != b.shape().len() {
                        return err(
                            span,
                            "composed layouts must have the same number of dimensions",
                        );
                    }
                    Ok(Val::Layout(Layout::Composed(
                        Box::new(a.clone()),
                        Box::new(b.clone()),
                    )))
                }
                O::Add => Ok(Val::Layout(Layout::Concat(
                    Box::new(a.clone()),
                    Box::new(b.clone()),
                ))),
                _ => err(span, "Hidet does not support this operation on DataLayout."),
            };
        }
        if let Val::VoidPtr(p) = &l {
            // measured: `void_p + 4` moves by 4 bytes (C's `void *`
            // arithmetic, a g++ extension Hidet's code relies on)
            if matches!(op, O::Add | O::Sub)
                && !matches!(r, Val::Ptr(..) | Val::VoidPtr(_) | Val::Tensor(_))
            {
                let (mut i, _) = self.scalar(r, span)?;
                if !dtype_of(&i).is_int() {
                    return err(span, "a pointer moves by an integer number of bytes");
                }
                i = convert(i, DType::I64);
                if op == O::Sub {
                    i = unary(UnOp::Neg, i, span);
                }
                return Ok(Val::VoidPtr(bin(BinOp::PtrAddBytes, p.clone(), i, span)));
            }
            return err(
                span,
                format!("`{}` is not defined on a void pointer", py::op_text(op)),
            );
        }
        if let Val::Ptr(p, d, _)
        | Val::Tensor(Tensor {
            base: p,
            elt: d,
            prefix: _,
            ..
        }) = &l
        {
            if matches!(&l, Val::Tensor(t) if !t.prefix.is_empty()) {
                return err(span, "a partly indexed tensor is not a pointer: take the address of an element (~a[i, 0])");
            }
            if matches!(op, O::Add | O::Sub) && !matches!(r, Val::Ptr(..) | Val::Tensor(_)) {
                let (mut i, _) = self.scalar(r, span)?;
                if !dtype_of(&i).is_int() {
                    return err(span, "a pointer moves by an integer number of elements");
                }
                if op == O::Sub {
                    i = unary(UnOp::Neg, convert(i, DType::I64), span);
                }
                let i = memory::scaled(convert(i, DType::I64), *d, span);
                return Ok(Val::Ptr(bin(BinOp::PtrAdd, p.clone(), i, span), *d, false));
            }
            if op == O::Sub {
                if let Val::Ptr(q, e, _)
                | Val::Tensor(Tensor {
                    base: q, elt: e, ..
                }) = &r
                {
                    return self.ptr_diff(p.clone(), *d, &r, q.clone(), *e, span);
                }
            }
            return err(
                span,
                format!("`{}` is not defined on a pointer", py::op_text(op)),
            );
        }
        if let Some(e) = [&l, &r].iter().find_map(|v| match v {
            Val::Lanes(_, e) => Some(*e),
            _ => None,
        }) {
            return err(span, format!("Hidet has no arithmetic on vector types such as {e} (its type inference raises NotImplementedError)"));
        }
        if matches!(l, Val::Cx(_)) || matches!(r, Val::Cx(_)) {
            return self.complex_binop(Binary { op, l, r, span });
        }
        let op = match op {
            O::Add => ops::Op::Add,
            O::Sub => ops::Op::Sub,
            O::Mult => ops::Op::Mul,
            O::Div => ops::Op::Div,
            O::FloorDiv => ops::Op::FloorDiv,
            O::Mod => ops::Op::Mod,
            O::BitAnd => ops::Op::And,
            O::BitOr => ops::Op::Or,
            O::BitXor => ops::Op::Xor,
            O::LShift => ops::Op::Shl,
            O::RShift => ops::Op::Shr,
            O::Pow => {
                return py::unsupported(
                    span,
                    "`**` on a Hidet value",
                    DIALECT,
                    "multiply, or call a math primitive",
                )
            }
            O::MatMult => return err(span, "`@` is not an operator of Hidet script"),
        };
        let a = self.scalar_of(l, span)?;
        let b = self.scalar_of(r, span)?;
        let s = ops::binary(op, &a, &b, span)?;
        Ok(Val::from_scalar(s))
    }

    pub(super) fn unary_op(
        &mut self,
        op: ast::UnaryOp,
        v: Val,
        operand: &ast::Expr,
        span: Span,
    ) -> DResult<Val> {
        use ast::UnaryOp as U;
        if let (U::Invert, ast::Expr::Name(n)) = (op, operand) {
            if let Some(Val::PtrCell(id, d)) = self.lookup_local(n.id.as_str()) {
                // `~p` of a pointer variable: the address of its memory
                let cell = self.cell_ptr(id, DType::U64, span);
                return Ok(Val::Ptr(cell, Elt::Ptr(d), false));
            }
        }
        match (op, v) {
            (U::USub, Val::Int(i)) => Ok(Val::Int(-i)),
            (U::USub, Val::Float(f)) => Ok(Val::Float(-f)),
            (U::USub, Val::Bool(b)) => Ok(Val::Int(-(b as i128))),
            (U::UAdd, v @ (Val::Int(_) | Val::Float(_))) => Ok(v),
            (U::Not, Val::Bool(b)) => Ok(Val::Bool(!b)),
            (U::Not, Val::Int(i)) => Ok(Val::Bool(i == 0)),
            (U::Invert, Val::Type(t)) => match t {
                HType::Scalar(d) => Ok(Val::Type(HType::Pointer(Elt::Real(d)))),
                HType::Compound(e) => Ok(Val::Type(HType::Pointer(e))),
                // `~(~f16)`: the element is a pointer held in memory
                HType::Pointer(Elt::Real(d)) => Ok(Val::Type(HType::Pointer(Elt::Ptr(d)))),
                HType::Pointer(_) | HType::VoidPtr => err(span, "ksem runs pointers to pointers to numbers (~(~f16)), not deeper ones or to void or complex pointers"),
                HType::Void => Ok(Val::Type(HType::VoidPtr)),
                HType::Tensor(..) => err(span, "a pointer to a tensor type: use ~dtype"),
            },
            (U::Invert, v @ (Val::Cx(_) | Val::Lanes(..))) => {
                // `~a[i]` of a complex or vector element: the address of its first number
                let (first, elt) = match v {
                    Val::Cx(c) => {
                        let d = dtype_of(&c.re);
                        (c.re, Elt::Complex(d))
                    }
                    Val::Lanes(mut l, e) => (l.swap_remove(0), e),
                    _ => unreachable!("matched above"),
                };
                if let ExprKind::Load { ptr, mask: None, .. } = first.kind {
                    return Ok(Val::Ptr(*ptr, elt, false));
                }
                err(self.span(operand), "`~` takes the address of a tensor element (~a[i, j])")
            }
            (U::USub, Val::Cx(c)) => Ok(Val::Cx(crate::complex::neg(c, span))),
            (U::UAdd, v @ Val::Cx(_)) => Ok(v),
            // measured: `-a` of an f32x4 compiles (g++'s vector negation, lane by lane)
            (U::USub, Val::Lanes(l, e)) => Ok(Val::Lanes(
                l.into_iter().map(|x| unary(UnOp::Neg, x, span)).collect(),
                e,
            )),
            (U::UAdd, v @ Val::Lanes(..)) => Ok(v),
            (U::Invert, Val::Num { e, .. }) => {
                // `~a[i, j]`: the address of the element
                if let ExprKind::Load { ptr, mask: None, .. } = e.kind {
                    let d = e.ty.dtype();
                    return Ok(Val::Ptr(*ptr, Elt::Real(d), false));
                }
                if let ExprKind::Var(_) = e.kind {
                    return Err(Diagnostic::new(self.span(operand), "`~` of a parameter or loop variable: ksem takes the address of a variable the function declares or assigns")
                        .with_help("copy it into a variable first: x = n; p = ~x"));
                }
                err(self.span(operand), "`~` takes the address of a tensor element (~a[i, j]); use bitwise_not(x) for a bitwise complement")
            }
            (U::Invert, Val::Cell(id, d)) => {
                // `~x` of a scalar variable: C's `&x` (its address is taken,
                // so it lives in a one-element local array)
                Ok(Val::Ptr(self.cell_ptr(id, d, span), Elt::Real(d), false))
            }
            (U::Invert, Val::Ptr(..) | Val::VoidPtr(_)) => Err(Diagnostic::new(
                span,
                "ksem takes the address of a variable holding a pointer to numbers in global memory only",
            )
            .with_help("name the pointer first (p = …; pp = ~p); a void pointer or a pointer into a local tensor has no address here")),
            (U::Invert, Val::Int(_)) => err(span, "`~` takes the address of a tensor element; use bitwise_not(x) for a bitwise complement"),
            (U::Invert, _) => err(span, "`~` takes the address of a tensor element (~a[i, j]) or makes a pointer type (~f32)"),
                        (op, v) => {
                let x = self.scalar_of(v, span)?;
                Ok(match op {
                    U::USub => Val::from_scalar(ops::neg(&x, span)),
                    U::UAdd => Val::from_scalar(x),
                    _ => Val::from_scalar(ops::not(&x, span)),
                })
            }
        }
    }

    /// `a and b`, `a or b`: C's `&&`/`||`, the second operand evaluated
    /// only when it decides.
    pub(super) fn bool_op(&mut self, b: &ast::ExprBoolOp, span: Span) -> DResult<Val> {
        let is_and = matches!(b.op, ast::BoolOp::And);
        let first = self.expr(&b.values[0])?;
        if let Some(t) = host_truth(&first) {
            // decided while transpiling where the first operand is a host value
            if t != is_and {
                return Ok(Val::Bool(t));
            }
            if b.values.len() == 2 {
                let v = self.expr(&b.values[1])?;
                if let Some(t2) = host_truth(&v) {
                    return Ok(Val::Bool(t2));
                }
                return Ok(Val::num(self.truth(v, span)?, DType::Bool));
            }
        }
        let r = self.new_var("_boolop", Type::scalar(DType::Bool));
        let mut first = Some(first);
        let mut operand = |me: &mut Self, k: usize| {
            let v = match first.take() {
                Some(v) => v,
                None => me.expr(&b.values[k])?,
            };
            me.truth(v, span)
        };
        let go_on = |_: &Self, v: Expr| simt::undecided(is_and, v, span);
        self.short_circuit(r, b.values.len(), &mut operand, &go_on, span)?;
        Ok(Val::num(self.var_expr(r, span), DType::Bool))
    }

    /// `a < b`, `a < b < c`: each comparison in C's common type, the chain
    /// joined with C's `&&` (Hidet's transpiler builds `(a < b) && (b <
    /// c)`): a comparison known false while transpiling decides it; after
    /// a runtime one, the next is evaluated only where it holds.
    pub(super) fn compare(&mut self, c: &ast::ExprCompare, span: Span) -> DResult<Val> {
        let mut prev = self.expr(&c.left)?;
        let n = c.ops.len();
        let mut k = 0;
        let first_runtime = loop {
            let p = self.chain_part(c, k, &mut prev, span)?;
            k += 1;
            match host_truth(&p) {
                Some(false) if n > 1 => return Ok(Val::Bool(false)),
                Some(true) if k < n => {}
                _ => break p,
            }
        };
        if k == n {
            return Ok(first_runtime);
        }
        let r = self.new_var("_cmp", Type::scalar(DType::Bool));
        let mut first = Some(first_runtime);
        let mut operand = |me: &mut Self, j: usize| {
            let p = match first.take() {
                Some(p) => p,
                None => me.chain_part(c, k + j - 1, &mut prev, span)?,
            };
            me.truth(p, span)
        };
        self.short_circuit(r, n - k + 1, &mut operand, &|_, v| v, span)?;
        Ok(Val::num(self.var_expr(r, span), DType::Bool))
    }

    /// The `k`-th comparison of chain `c`: `prev` against its next operand
    /// (held in a variable in a chain, which compares it twice), which
    /// becomes `prev`.
    fn chain_part(
        &mut self,
        c: &ast::ExprCompare,
        k: usize,
        prev: &mut Val,
        span: Span,
    ) -> DResult<Val> {
        let r = match self.expr(&c.comparators[k])? {
            Val::Num { e, hty, pty } if c.ops.len() > 1 => Val::Num {
                e: self.temp(e),
                hty,
                pty,
            },
            other => other,
        };
        let l = std::mem::replace(prev, r.clone());
        self.cmp(c.ops[k], l, r, span)
    }

    pub(super) fn cmp(&mut self, op: ast::CmpOp, l: Val, r: Val, span: Span) -> DResult<Val> {
        if let Some(v) = host_cmp(op, &l, &r) {
            return Ok(Val::Bool(v));
        }
        if matches!(l, Val::Cx(_)) || matches!(r, Val::Cx(_)) {
            return self.complex_cmp(Binary { op, l, r, span });
        }
        if let Some(e) = [&l, &r].iter().find_map(|v| match v {
            Val::Lanes(_, e) => Some(*e),
            _ => None,
        }) {
            return err(span, format!("Hidet cannot compare vector values such as {e} (its type inference raises NotImplementedError)"));
        }
        let Some(bop) = py::value_cmp(op) else {
            return err(
                span,
                "Currently, we do not support this operator for hidet vars.",
            );
        };
        let a = self.scalar_of(l, span)?;
        let b = self.scalar_of(r, span)?;
        let s = ops::compare(bop, &a, &b, span)?;
        Ok(Val::from_scalar(s))
    }

    /// `a if c else b`: C's `c ? a : b`, one side evaluated.
    pub(super) fn if_exp(&mut self, i: &ast::ExprIfExp, span: Span) -> DResult<Val> {
        let c = self.expr(&i.test)?;
        if let Some(t) = host_truth(&c) {
            return self.expr(if t { &i.body } else { &i.orelse });
        }
        let cond = self.truth(c, span)?;
        // each side in its own block: evaluated only where taken
        let side = |me: &mut Self, e| me.expr(e).and_then(|v| me.scalar_of(v, span));
        let (a, pre_a) = self.collect(|me| side(me, &i.body));
        let a = a?;
        let (b, pre_b) = self.collect(|me| side(me, &i.orelse));
        let b = b?;
        // Hidet checks the branches' types while transpiling and again
        // after its passes have cast operands
        for (ta, tb) in [(a.hty, b.hty), (a.pty, b.pty)] {
            if ta != tb {
                return err(
                    span,
                    format!(
                        "If-then-else operand 1 and 2 have different types ({} vs {})",
                        Named(ta),
                        Named(tb)
                    ),
                );
            }
        }
        let (ha, pty) = (a.hty, a.pty);
        let (a, b) = (a.e, b.e);
        let c = ops::if_exp_type(dtype_of(&a), dtype_of(&b));
        let e = self.branch_value("_ifexp", cond, (pre_a, a), (pre_b, b), c, span);
        Ok(Val::Num { e, hty: ha, pty })
    }
}

/// Hidet's alternative to an expression form it refuses.
fn refused_help(form: Option<py::exprs::Form>) -> &'static str {
    use py::exprs::Form as F;
    match form {
        Some(F::Lambda) => "write a @hidet.script helper function",
        Some(F::ListComp | F::SetComp | F::DictComp | F::GeneratorExp) => "write a for loop",
        Some(F::Starred) => "pass each value by name",
        _ => "use arithmetic, comparisons, calls and indexing",
    }
}
