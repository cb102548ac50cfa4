//! Record layouts: a numpy structured dtype as a launch describes it
//! (`"record": {"itemsize": …, "fields": […]}`, docs/formats.md). A record
//! buffer holds the array's bytes as numpy lays them out; a field is a
//! number, a complex number, a nested record, or an array of any of these,
//! at a byte offset inside each record.

use crate::dtype::DType;
use serde::Deserialize;
use std::sync::Arc;

/// A structured dtype: its size in bytes and its named fields.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordLayout {
    /// Bytes from one record to the next (numpy's `itemsize`, padding included).
    pub itemsize: usize,
    /// The fields in numpy's order (`dtype.names`).
    pub fields: Vec<RecordField>,
}

/// One named field of a record.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordField {
    pub name: String,
    /// Where the field starts in its record, in bytes.
    pub offset: usize,
    /// The field's element.
    pub kind: FieldKind,
    /// A subarray field's shape (`("h", np.float32, 2)`: `[2]`), row-major
    /// and contiguous; empty for a plain field.
    pub shape: Vec<usize>,
}

/// What one element of a field is.
#[derive(Clone, Debug, PartialEq)]
pub enum FieldKind {
    /// A number of this dtype, little-endian.
    Num(DType),
    /// A complex number of these parts (real part first).
    Complex(DType),
    /// A nested record.
    Record(Arc<RecordLayout>),
    /// Fixed-size text (numpy `S<n>`: `n` bytes; `U<n>`: `n` UTF-32 code
    /// units): `bytes` bytes in all, of `unit` bytes each.
    Text { bytes: usize, unit: usize },
}

impl FieldKind {
    /// The bytes one element of the field takes.
    pub fn size(&self) -> usize {
        match self {
            FieldKind::Num(d) => d.storage_bits() as usize / 8,
            FieldKind::Complex(d) => 2 * (d.storage_bits() as usize / 8),
            FieldKind::Record(r) => r.itemsize,
            FieldKind::Text { bytes, .. } => *bytes,
        }
    }
}

impl RecordField {
    /// The bytes the whole field takes (all elements of a subarray).
    pub fn size(&self) -> usize {
        self.kind.size() * self.shape.iter().product::<usize>()
    }
}

impl RecordLayout {
    /// The field named `name`.
    pub fn field(&self, name: &str) -> Option<&RecordField> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// The field names, for messages.
    pub fn names(&self) -> String {
        let n: Vec<&str> = self.fields.iter().map(|f| f.name.as_str()).collect();
        n.join(", ")
    }
}

/// `"record"` as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RecordJson {
    itemsize: usize,
    fields: Vec<FieldJson>,
}

/// One field as written: `{"name", "offset", "dtype" | "record", "shape"?}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FieldJson {
    name: String,
    offset: usize,
    #[serde(default)]
    dtype: Option<String>,
    #[serde(default)]
    record: Option<RecordJson>,
    #[serde(default)]
    shape: Vec<usize>,
}

/// A layout from a JSON value written as the launch's `"record"` (also a
/// kernel text's `ksem.record({…})`, docs/formats.md).
pub fn layout_from_json(v: serde_json::Value) -> Result<Arc<RecordLayout>, String> {
    let r: RecordJson = serde_json::from_value(v).map_err(|e| e.to_string())?;
    layout(r)
}

/// The largest record ksem takes, in bytes.
const MAX_ITEMSIZE: usize = 1 << 20;

/// A layout from its JSON: every field inside the record, of a known
/// element kind. Errors start with the path under `record` they are about.
pub(super) fn layout(r: RecordJson) -> Result<Arc<RecordLayout>, String> {
    if r.itemsize == 0 || r.itemsize > MAX_ITEMSIZE {
        return Err(format!(
            "itemsize: {} bytes; a record takes 1 to {MAX_ITEMSIZE} bytes",
            r.itemsize
        ));
    }
    let mut fields: Vec<RecordField> = Vec::new();
    for (i, f) in r.fields.into_iter().enumerate() {
        let at = format!("fields[{i}]");
        if fields.iter().any(|g| g.name == f.name) {
            return Err(format!("{at}.name: a second field named {:?}", f.name));
        }
        let kind = match (f.dtype, f.record) {
            (Some(d), None) => field_dtype(&d).map_err(|e| format!("{at}.dtype: {e}"))?,
            (None, Some(r)) => {
                FieldKind::Record(layout(r).map_err(|e| format!("{at}.record.{e}"))?)
            }
            _ => {
                return Err(format!(
                    "{at}: give exactly one of \"dtype\" and \"record\""
                ))
            }
        };
        let field = RecordField {
            name: f.name,
            offset: f.offset,
            kind,
            shape: f.shape,
        };
        let end = field
            .shape
            .iter()
            .try_fold(field.kind.size(), |a, &d| a.checked_mul(d))
            .and_then(|s| s.checked_add(field.offset));
        if end.is_none_or(|e| e > r.itemsize) {
            return Err(format!(
                "{at}: field {:?} at byte {} does not fit in the record's {} bytes",
                field.name, field.offset, r.itemsize
            ));
        }
        fields.push(field);
    }
    Ok(Arc::new(RecordLayout {
        itemsize: r.itemsize,
        fields,
    }))
}

/// A text buffer's `"text"`: `S<n>` (n bytes) or `U<n>` (n UTF-32 code units).
pub fn text_dtype(name: &str) -> Result<FieldKind, String> {
    match field_dtype(name) {
        Ok(k @ FieldKind::Text { .. }) => Ok(k),
        _ => Err(format!("unknown text dtype {name:?} (S<n> or U<n>)")),
    }
}

/// A field's `"dtype"`: a number dtype, `complex64`/`complex128`, or text
/// (`S12`: 12 bytes; `U12`: 12 UTF-32 code units).
fn field_dtype(name: &str) -> Result<FieldKind, String> {
    match name {
        "complex64" => return Ok(FieldKind::Complex(DType::F32)),
        "complex128" => return Ok(FieldKind::Complex(DType::F64)),
        _ => {}
    }
    if let Some(d) = DType::from_name(name) {
        return Ok(FieldKind::Num(d));
    }
    let text = |rest: &str, unit: usize| -> Option<FieldKind> {
        let n: usize = rest.parse().ok().filter(|&n| n > 0)?;
        Some(FieldKind::Text {
            bytes: n * unit,
            unit,
        })
    };
    let kind = match name.split_at_checked(1) {
        Some(("S", rest)) => text(rest, 1),
        Some(("U", rest)) => text(rest, 4),
        _ => None,
    };
    kind.ok_or_else(|| {
        format!(
            "unknown field dtype {name:?} (a number dtype, complex64, complex128, S<n> or U<n>)"
        )
    })
}
