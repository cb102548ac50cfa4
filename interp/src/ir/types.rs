//! Value types of the IR: element types with address spaces, and shapes.

use crate::dtype::DType;

/// Where memory lives (DESIGN.md "Two programming models").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddrSpace {
    /// The launch's buffers, shared by every block.
    Global,
    /// One copy per block, uninitialised at block start.
    Shared,
    /// One copy per thread, uninitialised.
    Local,
}

impl AddrSpace {
    /// The space's name in the printed IR and in diagnostics.
    pub fn name(self) -> &'static str {
        match self {
            AddrSpace::Global => "global",
            AddrSpace::Shared => "shared",
            AddrSpace::Local => "local",
        }
    }
}

/// Element type of a value: a number or a pointer to numbers of a dtype in
/// an address space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Elem {
    Num(DType),
    Ptr(DType, AddrSpace),
}

/// Element type plus shape (empty shape: a 0-d value, e.g. a block id).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Type {
    pub elem: Elem,
    pub shape: Vec<usize>,
}

impl Type {
    /// A number tile of `shape`.
    pub fn num(d: DType, shape: Vec<usize>) -> Type {
        Type {
            elem: Elem::Num(d),
            shape,
        }
    }
    /// A 0-d number.
    pub fn scalar(d: DType) -> Type {
        Type::num(d, vec![])
    }
    /// A 0-d pointer to global memory.
    pub fn global_ptr(d: DType) -> Type {
        Type {
            elem: Elem::Ptr(d, AddrSpace::Global),
            shape: vec![],
        }
    }
    /// The numeric dtype (for pointers: the pointee's dtype).
    pub fn dtype(&self) -> DType {
        match self.elem {
            Elem::Num(d) | Elem::Ptr(d, _) => d,
        }
    }
    /// Whether the elements are pointers.
    pub fn is_ptr(&self) -> bool {
        matches!(self.elem, Elem::Ptr(..))
    }
    /// The address space of a pointer type.
    pub fn space(&self) -> Option<AddrSpace> {
        match self.elem {
            Elem::Ptr(_, s) => Some(s),
            Elem::Num(_) => None,
        }
    }
    /// Number of elements.
    pub fn numel(&self) -> usize {
        self.shape.iter().product()
    }
    /// The same element type with another shape.
    pub fn with_shape(&self, shape: Vec<usize>) -> Type {
        Type {
            elem: self.elem,
            shape,
        }
    }
    /// The same shape with another element type.
    pub fn with_elem(&self, elem: Elem) -> Type {
        Type {
            elem,
            shape: self.shape.clone(),
        }
    }
}

impl std::fmt::Display for Type {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.elem {
            Elem::Num(d) => write!(f, "{d}")?,
            Elem::Ptr(d, AddrSpace::Global) => write!(f, "*{d}")?,
            Elem::Ptr(d, s) => write!(f, "*{}:{d}", s.name())?,
        }
        if !self.shape.is_empty() {
            let dims: Vec<String> = self.shape.iter().map(|d| d.to_string()).collect();
            write!(f, "[{}]", dims.join(","))?;
        }
        Ok(())
    }
}
