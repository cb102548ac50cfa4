//! Constant memory: `cuda.const.array_like(NAME)` is the module-level numpy
//! array `NAME`, copied to the device when the kernel is compiled (numba:
//! its contents are baked into the kernel). ksem's front end reads only
//! source text, so the launch carries the array (`"constants"`, as the
//! Python drop-ins pass it); the kernel reads it as a global buffer of that
//! name. Every `array_like` of one name is one array.

use super::*;

impl Elab<'_> {
    /// `cuda.const.array_like(NAME)`.
    pub(super) fn const_array(&mut self, c: &ast::ExprCall, span: Span) -> DResult<Val> {
        let [ast::Expr::Name(n)] = c.args.as_slice() else {
            return err(
                span,
                "cuda.const.array_like(NAME) takes one module-level array by its name",
            );
        };
        self.const_array_named(n.id.as_str(), span)
    }

    /// A module-level numpy array the kernel reads by its name (numba-cuda
    /// copies it into the kernel as a constant array, as
    /// `cuda.const.array_like` does); `None` where the launch carries no
    /// constant of that name.
    pub(super) fn global_array(&mut self, name: &str, span: Span) -> DResult<Option<Val>> {
        if !self.constants.iter().any(|(k, _)| k == name) {
            return Ok(None);
        }
        self.const_array_named(name, span).map(Some)
    }

    /// The constant array `name` of the launch.
    fn const_array_named(&mut self, name: &str, span: Span) -> DResult<Val> {
        let name = name.to_string();
        if let Some(v) = self.const_vals.get(&name) {
            return Ok(v.clone());
        }
        let Some(spec) = self
            .constants
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, a)| a.clone())
        else {
            return Err(Diagnostic::new(
                span,
                format!("the launch gives no constant array `{name}`"),
            )
            .with_help(format!(
                "pass its contents in the launch: \"constants\": {{\"{name}\": {{\"buffer\": …}}}}"
            )));
        };
        let ArgSpec::Buffer {
            dtype,
            bits,
            shape,
            complex,
            record,
            text,
            ..
        } = spec
        else {
            return err(span, format!("constant `{name}` is not an array"));
        };
        let var = self.new_var(&name, Type::global_ptr(dtype));
        let base = self.var_expr(var, span);
        let v = if let Some(layout) = record {
            let shape = shape.unwrap_or_else(|| vec![bits.len() / layout.itemsize]);
            self.record_param_val(base, shape, layout)
        } else if let Some(kind) = text {
            let shape = shape.unwrap_or_else(|| vec![bits.len() / kind.size()]);
            records::text_array_val(base, shape, kind)
        } else {
            let per = if complex { 2 } else { 1 };
            Val::Array(ArrayVal {
                base,
                dtype,
                shape: shape.unwrap_or_else(|| vec![bits.len() / per]),
                pairs: if complex { Pairs::Complex } else { Pairs::No },
                view: None,
            })
        };
        self.const_params.push(Param {
            name: name.clone(),
            kind: ParamKind::Pointer(dtype),
            var: Some(var),
        });
        self.const_vals.insert(name, v.clone());
        Ok(v)
    }
}
