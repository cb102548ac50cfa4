//! Complex and vector values: their memory, variables, conversions and
//! operators. A complex number is its two parts (`Cx`), a vector its lanes;
//! in memory each is `Elt::width()` consecutive numbers of its component
//! dtype (docs/semantics.md, "Complex and vector types").

use super::*;
use crate::complex::{self, CxBuilder};

/// What g++ says of a vector type that Hidet's CPU code does not declare
/// (measured: tools/probes/hidet/complexvec.json).
fn cpu_vector_type_name(elt: Elt) -> Option<&'static str> {
    match elt {
        Elt::Vector(DType::F16, 2) => Some("half2"),
        Elt::Vector(DType::BF16, 2) => Some("__nv_bfloat162"),
        Elt::Vector(DType::F32, 2) => Some("float2"),
        Elt::Vector(DType::I8, 4) => Some("char4"),
        Elt::Vector(DType::U8, 4) => Some("uchar4"),
        _ => None,
    }
}

impl<'m> Elab<'m> {
    /// Refuses, in a `cpu_kernel`, the vector types whose C name g++ does
    /// not know there (only f32x4 and f32x8, `__m128`/`__m256`, compile).
    pub(super) fn vector_compiles(&self, elt: Elt, span: Span) -> DResult<()> {
        match cpu_vector_type_name(elt) {
            Some(c) if self.kind == FuncKind::CpuKernel => Err(Diagnostic::new(
                span,
                format!("{elt} is CUDA's {c}, which Hidet's cpu_kernel code cannot use (g++: '{c}' was not declared in this scope)"),
            )
            .with_help("on the CPU use f32x4 or f32x8, or a cuda_kernel")),
            _ => Ok(()),
        }
    }

    /// The value of the element at `ptr`.
    pub(super) fn load_elem(&mut self, ptr: Expr, elt: Elt, span: Span) -> Val {
        match elt {
            Elt::Real(d) => Val::num(load(ptr, d, span), d),
            // a pointer held in memory (its uint64 representation); Hidet
            // indexes it only as a store's target (`pp[0][1] = x`; `x =
            // pp[0][1]` is refused, measured)
            Elt::Ptr(d) => {
                let bits = load(ptr, DType::U64, span);
                Val::Ptr(bits_pointer(bits, Type::global_ptr(d)), Elt::Real(d), false)
            }
            Elt::Complex(d) => {
                let p = self.hold_ptr(ptr);
                Val::Cx(Cx {
                    re: load(crate::ir::build::part_ptr(&p, 0, span), d, span),
                    im: load(crate::ir::build::part_ptr(&p, 1, span), d, span),
                })
            }
            Elt::Vector(d, n) => {
                let p = self.hold_ptr(ptr);
                let lanes = (0..n as i64)
                    .map(|k| load(crate::ir::build::part_ptr(&p, k, span), d, span))
                    .collect();
                Val::Lanes(lanes, elt)
            }
        }
    }

    /// Stores `v` into the element at `ptr`, converted as the generated
    /// C++ assignment converts it.
    pub(super) fn store_elem(&mut self, ptr: Expr, elt: Elt, v: Val, span: Span) -> DResult<()> {
        let parts = match elt {
            Elt::Real(d) => {
                if matches!(v, Val::Cx(_) | Val::Lanes(..)) {
                    return err(
                        span,
                        format!(
                            "a {} value cannot be stored into a {} element",
                            self.kind_of(&v),
                            Named(d)
                        ),
                    );
                }
                vec![self.value_for(v, d, span)?]
            }
            Elt::Complex(d) => {
                let c = self.as_complex(v, d, span)?;
                vec![c.re, c.im]
            }
            Elt::Vector(..) => self.lanes_of(v, elt, span)?,
            Elt::Ptr(d) => vec![self.pointer_to_store(v, d, span)?],
        };
        let p = if parts.len() > 1 {
            self.hold_ptr(ptr)
        } else {
            ptr
        };
        for (k, value) in parts.into_iter().enumerate() {
            self.emit(Stmt::Store {
                ptr: crate::ir::build::part_ptr(&p, k as i64, span),
                value,
                mask: None,
                span,
            });
        }
        Ok(())
    }

    /// The `uint64` representation of pointer `v` to numbers of `d`, to
    /// be stored in memory: only a pointer into global memory has one
    /// (a pointer into a local or shared tensor is an element's place).
    pub(super) fn pointer_to_store(&mut self, v: Val, d: DType, span: Span) -> DResult<Expr> {
        let (p, elt) = self.pointer(v, span)?;
        if elt != Elt::Real(d) {
            return err(span, format!("a ~{} cannot point to {elt}", Named(d)));
        }
        if p.ty.space() != Some(AddrSpace::Global) {
            return Err(Diagnostic::new(
                span,
                "ksem keeps in memory only pointers into global memory (a kernel's buffers)",
            )
            .with_help("a pointer into a local or shared tensor is not a value ksem can store"));
        }
        Ok(pointer_bits(p))
    }

    fn kind_of(&self, v: &Val) -> String {
        match v {
            Val::Cx(c) => Elt::Complex(dtype_of(&c.re)).to_string(),
            Val::Lanes(_, e) => e.to_string(),
            _ => "scalar".into(),
        }
    }

    /// The lanes of a vector value of type `elt` (only a vector of that
    /// very type: Hidet has no conversions between vector types).
    fn lanes_of(&mut self, v: Val, elt: Elt, span: Span) -> DResult<Vec<Expr>> {
        match v {
            Val::Lanes(l, e) if e == elt => Ok(l),
            Val::Lanes(_, e) => err(span, format!("a {e} value cannot be used as {elt}")),
            _ => err(
                span,
                format!("a {elt} value is only loaded or stored whole: Hidet has no conversion to a vector type"),
            ),
        }
    }

    /// `v` as a complex number with parts of dtype `d`: a complex value of
    /// either width converted part by part, a real value `x` as `(x, +0)`
    /// (C++'s `(complex64_t)(x)`; a Python number becomes the float32
    /// constant first).
    pub(super) fn as_complex(&mut self, v: Val, d: DType, span: Span) -> DResult<Cx> {
        match v {
            Val::Cx(c) => Ok(Cx {
                re: convert(c.re, d),
                im: convert(c.im, d),
            }),
            Val::Lanes(_, e) => err(
                span,
                format!("a {e} value cannot be converted to {}", Elt::Complex(d)),
            ),
            v => {
                let (e, _) = self.scalar(v, span)?;
                Ok(Cx {
                    re: convert(e, d),
                    im: float_const(d, 0.0, span),
                })
            }
        }
    }

    /// A new variable holding a complex or vector value.
    pub(super) fn define_compound(&mut self, name: &str, v: Val, span: Span) -> DResult<()> {
        let held = self.hold_compound(name, v, span);
        self.define(name, held);
        Ok(())
    }

    /// A complex or vector value with its parts held in new variables.
    pub(super) fn hold_compound(&mut self, name: &str, v: Val, span: Span) -> Val {
        let parts = match &v {
            Val::Cx(c) => vec![c.re.clone(), c.im.clone()],
            Val::Lanes(l, _) => l.clone(),
            _ => unreachable!("only compound values come here"),
        };
        let vars: Vec<Expr> = parts
            .into_iter()
            .enumerate()
            .map(|(k, e)| {
                let id = self.new_var(&format!("{name}.{k}"), e.ty.clone());
                self.emit(Stmt::Let(id, e));
                self.var_expr(id, span)
            })
            .collect();
        match v {
            Val::Cx(_) => Val::Cx(Cx {
                re: vars[0].clone(),
                im: vars[1].clone(),
            }),
            Val::Lanes(_, e) => Val::Lanes(vars, e),
            _ => unreachable!("only compound values come here"),
        }
    }

    /// `cast(p, ~T)`: the same address seen as a pointer to `T`. Only
    /// element types of one number type (`~f32`, `~f32x4`, `~complex64`)
    /// convert: ksem's memory holds typed numbers, so a cast that would
    /// reinterpret their bits is refused.
    pub(super) fn pointer_cast(&mut self, x: Val, elt: Elt, span: Span) -> DResult<Val> {
        let (p, from) = match x {
            // the memory a void pointer addresses holds numbers of its dtype
            Val::VoidPtr(p) => {
                let d = p.ty.dtype();
                (p, Elt::Real(d))
            }
            x => self.pointer(x, span)?,
        };
        if from.comp() != elt.comp() {
            return Err(Diagnostic::new(
                span,
                format!("casting a ~{from} to ~{elt} reinterprets the bits of memory, which ksem does not run"),
            )
            .with_help(format!("cast between pointers to one number type: ~{0}, ~{0}x4, complex of {0}", Named(from.comp()))));
        }
        self.vector_compiles(elt, span)?;
        Ok(Val::Ptr(p, elt, true))
    }

    /// `cast(p, void_p)`: a typed or void pointer as a void pointer.
    pub(super) fn void_cast(&mut self, x: Val, span: Span) -> DResult<Val> {
        match x {
            Val::VoidPtr(p) => Ok(Val::VoidPtr(p)),
            x => Ok(Val::VoidPtr(self.pointer(x, span)?.0)),
        }
    }

    /// `name = v` where `name` is a complex or vector variable whose parts
    /// are the IR variables `vars`: converted to its type, all parts
    /// computed before any is set.
    pub(super) fn assign_compound(&mut self, old: Val, v: Val, span: Span) -> DResult<()> {
        let (vars, parts) = match old {
            Val::Cx(c) => {
                let n = self.as_complex(v, dtype_of(&c.re), span)?;
                (vec![c.re, c.im], vec![n.re, n.im])
            }
            Val::Lanes(l, e) => {
                let parts = self.lanes_of(v, e, span)?;
                (l, parts)
            }
            _ => unreachable!("only compound variables come here"),
        };
        let held: Vec<Expr> = parts
            .into_iter()
            .map(|e| {
                let id = self.new_var("_t", e.ty.clone());
                self.emit(Stmt::Let(id, e));
                self.var_expr(id, span)
            })
            .collect();
        for (var, value) in vars.into_iter().zip(held) {
            if let ExprKind::Var(id) = var.kind {
                self.emit(Stmt::Let(id, value));
            }
        }
        Ok(())
    }

    /// The Hidet type of an operand of a complex operation, and the value
    /// as a complex number of that type's parts where it is one.
    fn operand_type(&mut self, v: &Val) -> Option<String> {
        Some(match v {
            Val::Cx(c) => match dtype_of(&c.re) {
                DType::F32 => "complex64".into(),
                _ => "complex128".into(),
            },
            Val::Int(_) => "int32".into(),
            Val::Float(_) => "float32".into(),
            Val::Bool(_) => "bool".into(),
            Val::Num { hty, .. } | Val::Cell(_, hty) => hty.json_name().into(),
            _ => return None,
        })
    }

    /// The part dtype of Hidet's promotion of a complex operation's
    /// operands (`promotion.py`: complex64 with complex64 or float32,
    /// complex128 with complex128 or float64; every other pair refused).
    fn complex_promote(&mut self, l: &Val, r: &Val, span: Span) -> DResult<DType> {
        let (a, b) = (self.operand_type(l), self.operand_type(r));
        let (Some(a), Some(b)) = (a, b) else {
            return err(span, "this operation takes numbers");
        };
        let ok = |x: &str, y: &str| match (x, y) {
            ("complex64", "complex64" | "float32") | ("float32", "complex64") => Some(DType::F32),
            ("complex128", "complex128" | "float64") | ("float64", "complex128") => {
                Some(DType::F64)
            }
            _ => None,
        };
        ok(&a, &b).ok_or_else(|| {
            Diagnostic::new(span, format!("Can not promote type hidet.{a} and hidet.{b}"))
                .with_help("Hidet mixes complex64 only with float32, complex128 only with float64: convert with complex64(x) / complex128(x)")
        })
    }

    /// A binary operator with a complex operand.
    pub(super) fn complex_binop(&mut self, x: Binary<Val>) -> DResult<Val> {
        let Binary { op, l, r, span } = x;
        use ast::Operator as O;
        if !matches!(op, O::Add | O::Sub | O::Mult | O::Div | O::FloorDiv) {
            return err(
                span,
                format!("`{}` is not defined on complex numbers (g++: no match for 'operator{}' on std::complex)", py::op_text(op), py::op_text(op)),
            );
        }
        // Hidet's `Expr._binary` shortcuts with a Python number operand:
        // `a + 0`, `a - 0`, `0 + a`, `a * 1`, `a / 1`, `1 * a` are `a`
        // itself; `a * 0`, `0 * a` are the zero of the promoted type.
        let lit = |v: &Val| match v {
            Val::Int(i) => Some(*i as f64),
            Val::Float(f) => Some(*f),
            Val::Bool(b) => Some(*b as u8 as f64),
            _ => None,
        };
        match (lit(&l), lit(&r)) {
            (_, Some(z)) if z == 0.0 && matches!(op, O::Add | O::Sub) => return Ok(l),
            (_, Some(o)) if o == 1.0 && matches!(op, O::Mult | O::Div | O::FloorDiv) => {
                return Ok(l)
            }
            (Some(z), _) if z == 0.0 && op == O::Add => return Ok(r),
            (Some(o), _) if o == 1.0 && op == O::Mult => return Ok(r),
            (Some(z), _) | (_, Some(z)) if z == 0.0 && op == O::Mult => {
                let d = self.complex_promote(&l, &r, span)?;
                let zero = float_const(d, 0.0, span);
                return Ok(Val::Cx(Cx {
                    re: zero.clone(),
                    im: zero,
                }));
            }
            _ => {}
        }
        let (a, b) = self.complex_operands(l, r, span)?;
        Ok(Val::Cx(match op {
            O::Add => complex::add(a, b, span),
            O::Sub => complex::sub(a, b, span),
            O::Mult => self.with_builder(span, |k| k.mul(a, b)),
            _ => self.with_builder(span, |k| k.div(a, b)),
        }))
    }

    /// `a == b`, `a != b` with a complex operand (`<` and the others do
    /// not compile: g++ has no `operator<` for std::complex).
    pub(super) fn complex_cmp(&mut self, x: Binary<Val, ast::CmpOp>) -> DResult<Val> {
        let Binary { op, l, r, span } = x;
        let ne = match op {
            ast::CmpOp::Eq => false,
            ast::CmpOp::NotEq => true,
            _ => {
                return err(
                    span,
                    "complex numbers are only compared with == and != (g++: no match for 'operator<' on std::complex)",
                )
            }
        };
        let (a, b) = self.complex_operands(l, r, span)?;
        Ok(Val::num(complex::equal(a, b, ne, span), DType::Bool))
    }

    /// The operands of a complex operation, both as complex numbers of
    /// their promoted type ([`Elab::complex_promote`]).
    fn complex_operands(&mut self, l: Val, r: Val, span: Span) -> DResult<(Cx, Cx)> {
        let d = self.complex_promote(&l, &r, span)?;
        Ok((self.as_complex(l, d, span)?, self.as_complex(r, d, span)?))
    }

    /// Runs a complex operation's builder and emits its statements.
    fn with_builder(&mut self, span: Span, f: impl FnOnce(&mut CxBuilder) -> Cx) -> Cx {
        let (r, out) = crate::complex::build(&mut self.vars, span, crate::complex::CxRules::Gcc, f);
        for s in out {
            self.emit(s);
        }
        r
    }

    /// `hidet.ir.primitives.complex`: `real`, `imag`, `conj`, `make_complex`.
    pub(super) fn complex_primitive(
        &mut self,
        name: &str,
        args: Vec<Val>,
        span: Span,
    ) -> DResult<Option<Val>> {
        let one = |args: &[Val]| match args {
            [Val::Cx(c)] => Ok(c.clone()),
            [_] => err(span, format!("The argument of {name} must be complex")),
            _ => err(span, format!("{name}(x) takes one value")),
        };
        Ok(Some(match name {
            "real" => {
                let c = one(&args)?;
                let d = dtype_of(&c.re);
                Val::num(c.re, d)
            }
            "imag" => {
                let c = one(&args)?;
                let d = dtype_of(&c.im);
                Val::num(c.im, d)
            }
            "conj" => {
                let c = one(&args)?;
                Val::Cx(Cx {
                    re: c.re,
                    im: unary(UnOp::Neg, c.im, span),
                })
            }
            "make_complex" => {
                let [x, y] = <[Val; 2]>::try_from(args)
                    .map_err(|_| Diagnostic::new(span, "make_complex(x, y) takes two values"))?;
                let (x, tx) = self.scalar(x, span)?;
                let (y, ty) = self.scalar(y, span)?;
                if tx != ty {
                    return err(
                        span,
                        format!(
                            "The argument of make_complex must be the same type, got {} and {}",
                            tx.json_name(),
                            ty.json_name()
                        ),
                    );
                }
                if !matches!(tx, DType::F32 | DType::F64) {
                    return err(
                        span,
                        format!(
                            "The argument of make_complex must be float32 or float64, got {}",
                            tx.json_name()
                        ),
                    );
                }
                Val::Cx(Cx { re: x, im: y })
            }
            _ => return Ok(None),
        }))
    }
}
