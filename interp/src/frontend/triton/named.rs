//! NamedTuple classes in Triton kernels: `class P(NamedTuple): x: …` and
//! `P = namedtuple("P", "x y")` at module level, their instances built in
//! a kernel (`P(a, y=b)`) or passed by the host. Triton's code generator
//! calls the Python class and keeps the field names on the `tl.tuple` it
//! makes, so an instance is a tuple whose items are also read by name
//! (`p.x`); Python's rules decide the rest (`P.__new__`'s argument binding
//! and messages, the checks of `collections.namedtuple` and of a
//! `NamedTuple` class body). Where a tuple is used as a whole (`+`, `==`,
//! unpacking, indexing), an instance is its items.

use super::module::Module;
use super::value::Value;
use crate::span::{DResult, Diagnostic, Span};
use rustpython_parser::ast::{self, Expr, Ranged, Stmt};
use std::sync::Arc;

/// A NamedTuple class: its name, its fields in order and the defaults of
/// its last fields.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedClass {
    pub name: String,
    pub fields: Vec<String>,
    /// The defaults of the last `defaults.len()` fields.
    pub defaults: Vec<Value>,
}

/// What the module binds `typing.NamedTuple` to (`from typing import
/// NamedTuple [as N]`).
pub const TYPING_NAMEDTUPLE: &str = "py:NamedTuple";
/// What the module binds `collections.namedtuple` to.
pub const COLLECTIONS_NAMEDTUPLE: &str = "py:namedtuple";

/// The marker a `from typing/collections import NAME` binds, if NAME is
/// one of the two NamedTuple factories.
pub fn import_marker(module: &str, name: &str) -> Option<Value> {
    match (module, name) {
        ("typing", "NamedTuple") => Some(Value::Builtin(TYPING_NAMEDTUPLE.into())),
        ("collections", "namedtuple") => Some(Value::Builtin(COLLECTIONS_NAMEDTUPLE.into())),
        _ => None,
    }
}

fn is_marker(m: &Module, e: &Expr, marker: &str) -> bool {
    matches!(m.const_value(e), Some(Value::Builtin(b)) if b == marker)
}

/// `class NAME(NamedTuple): field: T [= default] …` (None where the class
/// is not a NamedTuple). Its body's annotated names are the fields;
/// docstrings, `pass` and methods are allowed (a method is not callable
/// in a kernel). A default must be a module-level constant; a field
/// without one after a field with one is Python's TypeError.
pub fn class_def(m: &Module, c: &ast::StmtClassDef) -> Option<DResult<NamedClass>> {
    if !c.bases.iter().any(|b| is_marker(m, b, TYPING_NAMEDTUPLE)) {
        return None;
    }
    Some(read_class(m, c))
}

fn read_class(m: &Module, c: &ast::StmtClassDef) -> DResult<NamedClass> {
    // the class's annotations in order (a name annotated twice is one
    // field) and the value each was last given
    let mut fields: Vec<(String, Span, Option<Value>)> = Vec::new();
    for s in &c.body {
        let Stmt::AnnAssign(a) = s else { continue };
        let Expr::Name(n) = &*a.target else { continue };
        let name = n.id.to_string();
        let default = match &a.value {
            Some(v) => Some(m.const_value(v).ok_or_else(|| {
                Diagnostic::new(
                    m.span(&**v),
                    format!("the default of NamedTuple field `{name}` is not a constant ksem can read (a number, string, None, dtype or tuple of these)"),
                )
            })?),
            None => None,
        };
        match fields.iter_mut().find(|f| f.0 == name) {
            Some(f) => f.2 = default.or(f.2.take()),
            None => fields.push((name, m.span(&*a.target), default)),
        }
    }
    let names: Vec<(String, Span)> = fields.iter().map(|f| (f.0.clone(), f.1)).collect();
    check_names(&names)?;
    let mut defaults = Vec::new();
    for (i, (name, span, default)) in fields.iter().enumerate() {
        match default {
            Some(d) => defaults.push(d.clone()),
            None if !defaults.is_empty() => {
                let before = &fields[i - 1].0;
                let msg = format!(
                    "TypeError: Non-default namedtuple field {name} cannot follow default field {before}"
                );
                return Err(Diagnostic::new(*span, msg));
            }
            None => {}
        }
    }
    Ok(NamedClass {
        name: c.name.to_string(),
        fields: names.into_iter().map(|f| f.0).collect(),
        defaults,
    })
}

/// `namedtuple("P", FIELDS, defaults=…)` (FIELDS a list or tuple of
/// strings, or one string of names separated by commas or spaces) and
/// `NamedTuple("P", [("x", T), …])`: the class they make (None where `e`
/// is neither call).
pub fn factory_call(m: &Module, e: &Expr) -> Option<DResult<NamedClass>> {
    let Expr::Call(c) = e else { return None };
    if is_marker(m, &c.func, COLLECTIONS_NAMEDTUPLE) {
        return Some(read_namedtuple(m, c));
    }
    if is_marker(m, &c.func, TYPING_NAMEDTUPLE) {
        return Some(read_typing_call(m, c));
    }
    None
}

fn string(e: &Expr) -> Option<String> {
    match e {
        Expr::Constant(c) => match &c.value {
            ast::Constant::Str(s) => Some(s.clone()),
            _ => None,
        },
        _ => None,
    }
}

fn elements(e: &Expr) -> Option<&[Expr]> {
    match e {
        Expr::List(l) => Some(&l.elts),
        Expr::Tuple(t) => Some(&t.elts),
        _ => None,
    }
}

fn unreadable<T>(m: &Module, e: &impl Ranged, what: &str) -> DResult<T> {
    Err(Diagnostic::new(
        m.span(e),
        format!("{what} is not written out as ksem reads it"),
    )
    .with_help("write the type name and field names as string literals"))
}

fn read_namedtuple(m: &Module, c: &ast::ExprCall) -> DResult<NamedClass> {
    let (Some(name), Some(spec)) = (c.args.first(), c.args.get(1)) else {
        return unreadable(m, c, "this namedtuple() call");
    };
    let Some(name) = string(name) else {
        return unreadable(m, name, "the namedtuple's type name");
    };
    let names: Vec<(String, Span)> = match (string(spec), elements(spec)) {
        (Some(s), _) => s
            .replace(',', " ")
            .split_whitespace()
            .map(|f| (f.to_string(), m.span(spec)))
            .collect(),
        (None, Some(items)) => items
            .iter()
            .map(|i| string(i).map(|s| (s, m.span(i))))
            .collect::<Option<_>>()
            .map_or_else(|| unreadable(m, spec, "the namedtuple's field names"), Ok)?,
        _ => return unreadable(m, spec, "the namedtuple's field names"),
    };
    check_names(&names)?;
    let fields: Vec<String> = names.into_iter().map(|f| f.0).collect();
    let mut defaults = Vec::new();
    for k in &c.keywords {
        match k.arg.as_deref() {
            Some("defaults") => {
                let d = match m.const_value(&k.value) {
                    Some(Value::Tuple(d)) => d,
                    Some(Value::None) => vec![],
                    _ => match elements(&k.value) {
                        Some(items) => items
                            .iter()
                            .map(|i| m.const_value(i))
                            .collect::<Option<_>>()
                            .map_or_else(|| unreadable(m, &k.value, "a default"), Ok)?,
                        None => return unreadable(m, &k.value, "the namedtuple's defaults"),
                    },
                };
                if d.len() > fields.len() {
                    return Err(Diagnostic::new(
                        m.span(&k.value),
                        "TypeError: Got more default values than field names",
                    ));
                }
                defaults = d;
            }
            Some("module") => {}
            _ => {
                return Err(Diagnostic::new(
                    m.span(k),
                    "namedtuple() is read with its type name, field names, `defaults=` and `module=` only",
                ))
            }
        }
    }
    Ok(NamedClass {
        name,
        fields,
        defaults,
    })
}

fn read_typing_call(m: &Module, c: &ast::ExprCall) -> DResult<NamedClass> {
    let (Some(name), Some(spec)) = (c.args.first(), c.args.get(1)) else {
        return unreadable(m, c, "this NamedTuple() call");
    };
    let (Some(name), Some(items)) = (string(name), elements(spec)) else {
        return unreadable(m, c, "this NamedTuple() call");
    };
    let mut names = Vec::new();
    for i in items {
        let f = elements(i)
            .filter(|p| p.len() == 2)
            .and_then(|p| string(&p[0]));
        let Some(f) = f else {
            return unreadable(m, i, "a (name, type) pair");
        };
        names.push((f, m.span(i)));
    }
    check_names(&names)?;
    Ok(NamedClass {
        name,
        fields: names.into_iter().map(|f| f.0).collect(),
        defaults: vec![],
    })
}

/// Python 3.11's keywords (`keyword.kwlist`).
const KEYWORDS: [&str; 35] = [
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// `collections.namedtuple`'s checks of the field names, in its order
/// (Python's ValueError): every name an identifier and no keyword, then
/// none starting with `_` and none twice.
fn check_names(names: &[(String, Span)]) -> DResult<()> {
    let fail = |span: Span, msg: String| Err(Diagnostic::new(span, format!("ValueError: {msg}")));
    for (f, span) in names {
        let ident = f
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
            && f.chars().all(|c| c.is_alphanumeric() || c == '_');
        if !ident {
            return fail(
                *span,
                format!("Type names and field names must be valid identifiers: '{f}'"),
            );
        }
        if KEYWORDS.contains(&f.as_str()) {
            return fail(
                *span,
                format!("Type names and field names cannot be a keyword: '{f}'"),
            );
        }
    }
    for (i, (f, span)) in names.iter().enumerate() {
        if f.starts_with('_') {
            return fail(
                *span,
                format!("Field names cannot start with an underscore: '{f}'"),
            );
        }
        if names[..i].iter().any(|(g, _)| g == f) {
            return fail(*span, format!("Encountered duplicate field name: '{f}'"));
        }
    }
    Ok(())
}

/// `P(*args, **kwargs)`: binds the arguments to the fields as Python's
/// `P.__new__` does (positional first, then by name, then the defaults),
/// with its TypeError messages.
pub fn construct(
    class: &Arc<NamedClass>,
    args: Vec<Value>,
    kwargs: Vec<(String, Value)>,
    span: Span,
) -> DResult<Value> {
    let what = format!("{}.__new__()", class.name);
    let n = class.fields.len();
    let required = n - class.defaults.len();
    if args.len() > n {
        // CPython counts the class argument `_cls` too
        let takes = if required == n {
            format!(
                "{} positional argument{}",
                n + 1,
                if n == 0 { "" } else { "s" }
            )
        } else {
            format!("from {} to {} positional arguments", required + 1, n + 1)
        };
        return type_error(
            span,
            format!("{what} takes {takes} but {} were given", args.len() + 1),
        );
    }
    let mut items: Vec<Option<Value>> = args.into_iter().map(Some).collect();
    items.resize(n, None);
    for (k, v) in kwargs {
        let Some(i) = class.fields.iter().position(|f| *f == k) else {
            return type_error(
                span,
                format!("{what} got an unexpected keyword argument '{k}'"),
            );
        };
        if items[i].is_some() {
            return type_error(
                span,
                format!("{what} got multiple values for argument '{k}'"),
            );
        }
        items[i] = Some(v);
    }
    let mut missing = Vec::new();
    for (i, item) in items.iter_mut().enumerate() {
        if item.is_none() {
            match i.checked_sub(required) {
                Some(d) => *item = Some(class.defaults[d].clone()),
                None => missing.push(format!("'{}'", class.fields[i])),
            }
        }
    }
    if !missing.is_empty() {
        let k = missing.len();
        return type_error(
            span,
            format!(
                "{what} missing {k} required positional argument{}: {}",
                if k == 1 { "" } else { "s" },
                and_list(&missing)
            ),
        );
    }
    Ok(Value::Named(
        class.clone(),
        items.into_iter().map(|v| v.expect("bound")).collect(),
    ))
}

/// CPython's list of names in a message: `'x'`, `'x' and 'y'`, `'x', 'y',
/// and 'z'`.
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [a] => a.clone(),
        [a, b] => format!("{a} and {b}"),
        [rest @ .., last] => format!("{}, and {last}", rest.join(", ")),
    }
}

fn type_error<T>(span: Span, msg: String) -> DResult<T> {
    Err(Diagnostic::new(span, format!("TypeError: {msg}")))
}

/// `p.attr` of an instance: the field's item (Python's AttributeError
/// otherwise).
pub fn field(class: &NamedClass, items: &[Value], attr: &str, span: Span) -> DResult<Value> {
    match class.fields.iter().position(|f| f == attr) {
        Some(i) => Ok(items[i].clone()),
        None => Err(Diagnostic::new(
            span,
            format!(
                "AttributeError: '{}' object has no attribute '{attr}'",
                class.name
            ),
        )),
    }
}

/// `v` with every NamedTuple instance in it made a plain tuple of its
/// items (where a tuple is used as a whole).
pub fn plain(v: Value) -> Value {
    match v {
        Value::Named(_, items) | Value::Tuple(items) => {
            Value::Tuple(items.into_iter().map(plain).collect())
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(fields: &[&str], defaults: Vec<Value>) -> Arc<NamedClass> {
        Arc::new(NamedClass {
            name: "P".into(),
            fields: fields.iter().map(|s| s.to_string()).collect(),
            defaults,
        })
    }

    fn msg(r: DResult<Value>) -> String {
        r.expect_err("refused").message
    }

    /// The messages are CPython 3.11's (`P.__new__` of `class P(NamedTuple):
    /// x: int; y: int = 3`, run with python3.11).
    #[test]
    fn binds_as_python() {
        use crate::frontend::triton::promote::PyNum;
        let i = |v| Value::Num(PyNum::Int(v));
        let p = class(&["x", "y"], vec![i(3)]);
        let s = Span::default();
        assert_eq!(
            construct(&p, vec![i(1)], vec![], s).unwrap(),
            Value::Named(p.clone(), vec![i(1), i(3)])
        );
        assert_eq!(
            construct(&p, vec![], vec![("y".into(), i(2)), ("x".into(), i(1))], s).unwrap(),
            Value::Named(p.clone(), vec![i(1), i(2)])
        );
        assert_eq!(
            msg(construct(&p, vec![i(1), i(2), i(3)], vec![], s)),
            "TypeError: P.__new__() takes from 2 to 3 positional arguments but 4 were given"
        );
        assert_eq!(
            msg(construct(&p, vec![], vec![], s)),
            "TypeError: P.__new__() missing 1 required positional argument: 'x'"
        );
        assert_eq!(
            msg(construct(&p, vec![i(1)], vec![("z".into(), i(2))], s)),
            "TypeError: P.__new__() got an unexpected keyword argument 'z'"
        );
        assert_eq!(
            msg(construct(&p, vec![i(1)], vec![("x".into(), i(2))], s)),
            "TypeError: P.__new__() got multiple values for argument 'x'"
        );
        let q = class(&["a", "b", "c"], vec![]);
        assert_eq!(
            msg(construct(&q, vec![], vec![], s)),
            "TypeError: P.__new__() missing 3 required positional arguments: 'a', 'b', and 'c'"
        );
        assert_eq!(
            msg(construct(&q, vec![i(0); 4], vec![], s)),
            "TypeError: P.__new__() takes 4 positional arguments but 5 were given"
        );
    }
}
