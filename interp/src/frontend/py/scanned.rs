//! What the module scans of CUDA Python and Hidet collect, in one shape:
//! the file, the dialect's functions (by name and in source order) and the
//! module-level names with the Python values ([`PyValue`]) they are bound
//! to.

use super::value::PyValue;
use super::Source;
use std::collections::HashMap;

/// A module's top-level names: imports as module paths, constants as their
/// values. A name bound to something ksem cannot evaluate is unbound here
/// (its use is an error, not a guess).
pub struct Globals<X>(HashMap<String, PyValue<X>>);

impl<X> Default for Globals<X> {
    fn default() -> Self {
        Globals(HashMap::new())
    }
}

impl<X> Globals<X> {
    /// The value `name` is bound to.
    pub fn get(&self, name: &str) -> Option<&PyValue<X>> {
        self.0.get(name)
    }

    /// Whether `name` is bound.
    pub fn contains_key(&self, name: &str) -> bool {
        self.0.contains_key(name)
    }

    /// Binds `name` to `value`, or unbinds it (`None`: a value ksem does
    /// not know), as a later assignment of Python's replaces an earlier.
    pub fn bind(&mut self, name: &str, value: Option<PyValue<X>>) {
        match value {
            Some(v) => self.0.insert(name.to_string(), v),
            None => self.0.remove(name),
        };
    }

    /// A dotted name with its first part replaced by the module path it
    /// was imported as (`cuda.jit` → `numba.cuda.jit`); other names as
    /// written.
    pub fn resolve(&self, dotted: &str) -> String {
        let (head, rest) = match dotted.split_once('.') {
            Some((h, r)) => (h, Some(r)),
            None => (dotted, None),
        };
        match (self.0.get(head), rest) {
            (Some(PyValue::Path(p)), Some(r)) => format!("{p}.{r}"),
            (Some(PyValue::Path(p)), None) => p.clone(),
            _ => dotted.to_string(),
        }
    }
}

/// A scanned module: the file, its functions of the dialect, and its
/// module-level names.
pub struct ScannedFile<F, X> {
    /// The parsed file.
    pub src: Source,
    /// The dialect's functions by name.
    pub funcs: HashMap<String, F>,
    /// Their names in source order.
    pub order: Vec<String>,
    /// The module-level names.
    pub globals: Globals<X>,
}

impl<F, X> ScannedFile<F, X> {
    /// An empty scan of `src`.
    pub fn new(src: Source) -> Self {
        ScannedFile {
            src,
            funcs: HashMap::new(),
            order: Vec::new(),
            globals: Globals::default(),
        }
    }

    /// Adds function `f` under `name`, after those before it.
    pub fn add(&mut self, name: String, f: F) {
        self.order.push(name.clone());
        self.funcs.insert(name, f);
    }
}

impl<F, X> super::modules::Scanned for ScannedFile<F, X> {
    fn source_mut(&mut self) -> &mut Source {
        &mut self.src
    }
}
