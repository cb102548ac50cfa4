//! Run results and undefined-behaviour reports, as the result JSON of DESIGN.md.

use crate::dtype::DType;
use crate::ub::UbKind;
use serde_json::{json, Map, Value as Json};

/// Formats bits as lowercase hex with `0x` and the dtype's full stored width.
pub fn hex_bits(dtype: DType, bits: u64) -> String {
    let digits = (dtype.storage_bits() / 4) as usize;
    format!("0x{bits:0digits$x}")
}

/// One undefined-behaviour finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UbReport {
    /// Short kind, e.g. `division-by-zero`: a [`UbKind`]'s name.
    pub kind: String,
    pub line: u32,
    pub col: u32,
    /// Program instance (pid x, y, z).
    pub program: [u32; 3],
    /// Index of the element within the tile (empty for 0-d values); for a
    /// data race, the index of the element in the buffer.
    pub element: Vec<usize>,
    pub message: String,
    /// The thread (x, y, z) within the block, for SIMT programs.
    pub thread: Option<[u32; 3]>,
    /// The other party of a data race: where and who made the other access.
    pub other: Option<UbSite>,
}

/// A place in the source and the thread that was there (the second access of a race).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UbSite {
    pub line: u32,
    pub col: u32,
    pub program: [u32; 3],
    pub thread: Option<[u32; 3]>,
}

impl UbReport {
    /// A report of `kind` at `line:col` in program instance `program`.
    pub fn new(
        kind: UbKind,
        line: u32,
        col: u32,
        program: [u32; 3],
        element: Vec<usize>,
        message: String,
    ) -> UbReport {
        UbReport {
            kind: kind.name().into(),
            line,
            col,
            program,
            element,
            message,
            thread: None,
            other: None,
        }
    }

    /// The report's kind (`None` only for a report made by hand with a
    /// name that no kind has).
    pub fn ub_kind(&self) -> Option<UbKind> {
        UbKind::from_name(&self.kind)
    }

    /// The report as result JSON (`thread` and `other` only where known).
    pub fn to_json(&self) -> Json {
        let mut o = json!({
            "kind": self.kind,
            "line": self.line,
            "col": self.col,
            "program": self.program,
            "element": self.element,
            "message": self.message,
        });
        if let Some(t) = self.thread {
            o["thread"] = json!(t);
        }
        if let Some(s) = &self.other {
            let mut so = json!({"line": s.line, "col": s.col, "program": s.program});
            if let Some(t) = s.thread {
                so["thread"] = json!(t);
            }
            o["other"] = so;
        }
        o
    }
}

/// A buffer's final contents.
#[derive(Clone, Debug, PartialEq)]
pub struct BufferResult {
    pub name: String,
    pub dtype: DType,
    pub bits: Vec<u64>,
    /// Per element: true where the value came from approximate math.
    pub inexact: Vec<bool>,
    /// Per element: true where the value is undefined (an element of a
    /// buffer the launch left uninitialised that nothing wrote); empty:
    /// every element is defined.
    pub undefined: Vec<bool>,
}

impl BufferResult {
    /// Whether element `i` holds an undefined value.
    pub fn is_undefined(&self, i: usize) -> bool {
        self.undefined.get(i).copied().unwrap_or(false)
    }
}

/// The result of running a kernel on a backend.
#[derive(Clone, Debug, PartialEq)]
pub struct RunResult {
    pub kernel: String,
    pub backend: String,
    pub buffers: Vec<BufferResult>,
    pub ub: Vec<UbReport>,
}

impl RunResult {
    /// The result JSON of DESIGN.md.
    pub fn to_json(&self) -> Json {
        let mut bufs = Map::new();
        for b in &self.buffers {
            let mut o = Map::new();
            o.insert("dtype".into(), json!(b.dtype.json_name()));
            o.insert("len".into(), json!(b.bits.len()));
            o.insert(
                "bits".into(),
                Json::Array(
                    b.bits
                        .iter()
                        .map(|&x| json!(hex_bits(b.dtype, x)))
                        .collect(),
                ),
            );
            let exact = !b.inexact.iter().any(|&x| x);
            o.insert("exact".into(), json!(exact));
            if !exact {
                let idx: Vec<usize> = (0..b.inexact.len()).filter(|&i| b.inexact[i]).collect();
                o.insert("inexact_elements".into(), json!(idx));
            }
            let undefined: Vec<usize> =
                (0..b.undefined.len()).filter(|&i| b.undefined[i]).collect();
            if !undefined.is_empty() {
                o.insert("undefined_elements".into(), json!(undefined));
            }
            bufs.insert(b.name.clone(), Json::Object(o));
        }
        json!({
            "kernel": self.kernel,
            "backend": self.backend,
            "buffers": Json::Object(bufs),
            "ub": self.ub.iter().map(|u| u.to_json()).collect::<Vec<_>>(),
        })
    }
}
