//! Launch JSON → [`Launch`]. The shape of the JSON is serde derive on the
//! `*Json` types below, read through `serde_path_to_error`, so every error
//! names where in the JSON it is (`args.x.buffer.data[1]: …`); what serde
//! cannot say (value ranges, limits, keys that exclude each other) is checked
//! after, with the same kind of path.

use super::record::{self, RecordJson};
use super::values::{random_init, raw_bits, value_bits};
use super::{
    ArgSpec, BufferView, ConfigChoice, ConstArg, Launch, LaunchLimits, Target, MAX_BLOCK_THREADS,
    TRITON_BASE_VERSION,
};
use crate::dtype::DType;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::fmt;

/// A launch spec as written. Corpus cases keep their provenance and expected
/// result beside the launch in the same object, fuzz findings also the
/// command that reproduces them; those keys are skipped here.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a JSON object (a launch spec)")]
struct LaunchJson {
    #[serde(default)]
    kernel: Option<String>,
    #[serde(default)]
    grid: Option<Dims>,
    #[serde(default)]
    block: Option<Dims>,
    #[serde(default)]
    args: BTreeMap<String, ArgJson>,
    #[serde(default)]
    factory_args: BTreeMap<String, ConstArg>,
    #[serde(default, rename = "provenance")]
    _provenance: Option<IgnoredAny>,
    #[serde(default, rename = "expected")]
    _expected: Option<IgnoredAny>,
    /// A fuzz finding's command line that reproduces it.
    #[serde(default, rename = "reproduce")]
    _reproduce: Option<IgnoredAny>,
    #[serde(default)]
    config: Option<ConfigJson>,
    #[serde(default)]
    target: Option<TargetJson>,
    #[serde(default)]
    shared_bytes: Option<u64>,
    #[serde(default)]
    constants: BTreeMap<String, ArgJson>,
}

/// `"target"`: the device host queries describe; a key left out keeps the
/// default's value ([`Target::default`]).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TargetJson {
    #[serde(default)]
    num_sms: Option<u32>,
    #[serde(default)]
    capability: Option<(u32, u32)>,
    /// `"3.9"` or `"3.9.0"`.
    #[serde(default)]
    triton: Option<String>,
}

/// `"config"`: an index into the autotune configs, or the values of one.
#[derive(Deserialize)]
#[serde(
    untagged,
    expecting = "an index into the kernel's autotune configs, or an object of meta-parameter values"
)]
enum ConfigJson {
    Index(usize),
    Values(BTreeMap<String, ConstArg>),
}

/// `"grid"` or `"block"`: one integer or a list of 1 to 3.
struct Dims(Vec<u64>);

/// One dimension of a grid or block: a non-negative integer (0 is refused
/// after, with a message that says what 0 means there).
struct Dim(u64);

/// One kernel argument: exactly one of `{"buffer": …}`, `{"scalar": …}`,
/// `{"constexpr": …}`.
enum ArgJson {
    Buffer(BufferJson),
    Scalar(ScalarJson),
    Constexpr(ConstArg),
    View(ViewJson),
}

/// `{"view": {"of": "x", "offset": 1, "len": 7}}`: a pointer argument into
/// buffer argument `x`'s memory (arguments that alias one storage).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ViewJson {
    of: String,
    offset: u64,
    len: u64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BufferJson {
    /// Absent for a record buffer (`"record"`).
    #[serde(default)]
    dtype: Option<ElemDType>,
    #[serde(default)]
    record: Option<RecordJson>,
    /// Fixed-size text elements (`"S12"`, `"U12"`): numpy's `S<n>`/`U<n>` arrays.
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    len: Option<u64>,
    #[serde(default)]
    shape: Option<Shape>,
    #[serde(default)]
    data: Option<Vec<Json>>,
    #[serde(default)]
    bits: Option<Vec<Json>>,
    #[serde(default)]
    init: Option<Json>,
    #[serde(default)]
    undefined: Option<Vec<u64>>,
}

/// `"shape"`: a list of non-negative integers.
struct Shape(Vec<u64>);

/// A buffer's or scalar's `"dtype"`: a number dtype, or `"complex64"` /
/// `"complex128"`: pairs of float32 / float64 parts (docs/formats.md).
struct ElemDType {
    dtype: DType,
    complex: bool,
    /// `"datetime64[U]"`/`"timedelta64[U]"`: int64 counts (`time.rs`).
    time: Option<super::TimeType>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InitJson {
    random: RandomJson,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RandomJson {
    seed: u64,
    #[serde(default)]
    low: Option<Json>,
    #[serde(default)]
    high: Option<Json>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScalarJson {
    dtype: ElemDType,
    value: Json,
}

/// The most dynamic shared memory a launch may ask for per block: 227 KiB,
/// an H100's (and H200's) largest opt-in shared memory per block.
const MAX_SHARED_BYTES: u64 = 227 * 1024;

/// Parses launch JSON text under the default [`LaunchLimits`]. Errors are
/// one line: the path in the JSON, then what is wrong there.
pub fn parse_launch(text: &str) -> Result<Launch, String> {
    parse_launch_with(text, &LaunchLimits::default())
}

/// [`parse_launch`] under explicit limits.
pub fn parse_launch_with(text: &str, limits: &LaunchLimits) -> Result<Launch, String> {
    let v: Json = serde_json::from_str(text).map_err(|e| format!("invalid JSON: {e}"))?;
    if !v.is_object() {
        return Err("a launch spec must be a JSON object".into());
    }
    launch(read_raw(v)?, limits)
}

/// [`parse_launch`] of a launch spec already read as JSON (what the fuzzer
/// builds): the same launch and errors as of its text, without printing
/// and reading it again.
pub fn parse_launch_json(v: &Json) -> Result<Launch, String> {
    if !v.is_object() {
        return Err("a launch spec must be a JSON object".into());
    }
    launch(read_raw(v)?, &LaunchLimits::default())
}

/// The JSON's shape as [`LaunchJson`]; an error names where in the JSON.
fn read_raw<'de, D: Deserializer<'de>>(d: D) -> Result<LaunchJson, String> {
    serde_path_to_error::deserialize(d).map_err(|e| {
        let path = e.path().to_string();
        match path.as_str() {
            "." => e.into_inner().to_string(),
            _ => format!("{path}: {}", e.into_inner()),
        }
    })
}

/// The launch a well-shaped spec describes, its values and limits checked.
fn launch(raw: LaunchJson, limits: &LaunchLimits) -> Result<Launch, String> {
    let grid = raw
        .grid
        .as_ref()
        .map(|d| grid(d, limits.max_programs))
        .transpose()?;
    let block = raw.block.as_ref().map(block).transpose()?;
    let mut args = Vec::new();
    let mut views = Vec::new();
    // Buffer elements the launch may still ask for (all buffers together).
    let mut room = limits.max_buffer_elems;
    for (name, a) in raw.args {
        let spec = match a {
            ArgJson::Buffer(b) => {
                buffer(b, &mut room, limits).map_err(|e| format!("args.{name}.buffer.{e}"))?
            }
            ArgJson::Scalar(s) => {
                scalar(s, &mut room, limits).map_err(|e| format!("args.{name}.scalar.{e}"))?
            }
            ArgJson::Constexpr(c) => ArgSpec::Constexpr(c),
            ArgJson::View(v) => {
                views.push((name, v));
                continue;
            }
        };
        args.push((name, spec));
    }
    for (name, v) in views {
        let spec = view(&args, v).map_err(|e| format!("args.{name}.view: {e}"))?;
        args.push((name, spec));
    }
    let target = raw.target.map_or(Ok(Target::default()), target)?;
    let mut constants = Vec::new();
    for (name, a) in raw.constants {
        let ArgJson::Buffer(b) = a else {
            return Err(format!(
                "constants.{name}: a constant array is {{\"buffer\": …}}"
            ));
        };
        let spec =
            buffer(b, &mut room, limits).map_err(|e| format!("constants.{name}.buffer.{e}"))?;
        constants.push((name, spec));
    }
    let shared_bytes = raw.shared_bytes.unwrap_or(0);
    if shared_bytes > MAX_SHARED_BYTES {
        return Err(format!(
            "shared_bytes: {shared_bytes} bytes of dynamic shared memory; a block has at most {MAX_SHARED_BYTES} (an H100's 227 KiB)"
        ));
    }
    Ok(Launch {
        shared_bytes,
        constants,
        target,
        kernel: raw.kernel,
        grid,
        block,
        factory_args: raw.factory_args.into_iter().collect(),
        args,
        config: raw.config.map(|c| match c {
            ConfigJson::Index(i) => ConfigChoice::Index(i),
            ConfigJson::Values(v) => ConfigChoice::Values(v.into_iter().collect()),
        }),
    })
}

/// The target device: at least one SM, a compute capability of a CUDA
/// device (major version 1 or more).
fn target(t: TargetJson) -> Result<Target, String> {
    let d = Target::default();
    let num_sms = t.num_sms.unwrap_or(d.num_sms);
    if num_sms == 0 {
        return Err("target.num_sms is 0: a device has at least one SM".into());
    }
    let capability = t.capability.unwrap_or(d.capability);
    if capability.0 == 0 {
        return Err(format!(
            "target.capability: {}.{} is no CUDA device's compute capability (the major version is 1 or more)",
            capability.0, capability.1
        ));
    }
    let triton = match t.triton {
        Some(v) => triton_version(&v)?,
        None => d.triton,
    };
    Ok(Target {
        num_sms,
        capability,
        triton,
    })
}

/// `"3.9"` or `"3.9.1"` → (3, 9); releases before the measured base
/// (3.6) are refused: ksem has no rules for them.
fn triton_version(v: &str) -> Result<(u32, u32), String> {
    let parts: Option<Vec<u32>> = v.split('.').map(|p| p.parse().ok()).collect();
    let Some(&[major, minor, ..]) = parts.as_deref().filter(|p| matches!(p.len(), 2 | 3)) else {
        return Err(format!(
            "target.triton: {v:?} is not a Triton release (write it as \"3.9\" or \"3.9.0\")"
        ));
    };
    if (major, minor) < TRITON_BASE_VERSION {
        return Err(format!(
            "target.triton: {v} is older than Triton {}.{}, the release ksem's Triton rules were measured on",
            TRITON_BASE_VERSION.0, TRITON_BASE_VERSION.1
        ));
    }
    Ok((major, minor))
}

/// The grid: at most `max` program instances, none of its dimensions 0.
fn grid(d: &Dims, max: u64) -> Result<[u32; 3], String> {
    let mut g = [1u32; 3];
    for (i, &n) in d.0.iter().enumerate() {
        if n == 0 {
            return Err(format!(
                "grid[{i}] is 0: the launch has no program instances"
            ));
        }
        g[i] = u32::try_from(n).map_err(|_| format!("grid[{i}] = {n} is too large"))?;
    }
    let total: u64 = g.iter().map(|&x| x as u64).product();
    if total > max {
        return Err(format!(
            "grid: {g:?} has {total} program instances; ksem runs at most {max} \
             (--max-programs raises the limit)"
        ));
    }
    Ok(g)
}

/// The block: at least one and at most [`MAX_BLOCK_THREADS`] threads.
fn block(d: &Dims) -> Result<[u32; 3], String> {
    let mut b = [1u32; 3];
    for (i, &n) in d.0.iter().enumerate() {
        if n == 0 {
            return Err(format!(
                "block[{i}] is 0: a block needs at least one thread"
            ));
        }
        b[i] = n.min(u32::MAX as u64) as u32;
    }
    let total: u64 = b.iter().map(|&x| x as u64).product();
    if total > MAX_BLOCK_THREADS {
        return Err(format!(
            "block: {b:?} has {total} threads; CUDA allows at most {MAX_BLOCK_THREADS} per block"
        ));
    }
    Ok(b)
}

/// What a buffer of `n` elements leaves of `room` (the elements the launch
/// may still ask for), or the error that it asks for too many.
fn take_room(n: u64, room: &mut u64, limits: &LaunchLimits) -> Result<(), String> {
    if n > *room {
        let max = limits.max_buffer_elems;
        return Err(format!(
            "{n} elements exceed ksem's limit of {max} buffer elements per launch \
             (--max-buffer-elems raises the limit)"
        ));
    }
    *room -= n;
    Ok(())
}

/// A buffer's contents, counted against `room` before anything is allocated.
/// Errors start with the key under `buffer` they are about.
fn buffer(mut b: BufferJson, room: &mut u64, limits: &LaunchLimits) -> Result<ArgSpec, String> {
    let mut time = None;
    let (dtype, complex, record, text) = match (b.dtype.take(), b.record.take(), b.text.take()) {
        (Some(e), None, None) => {
            time = e.time;
            (e.dtype, e.complex, None, None)
        }
        (None, Some(r), None) => {
            let r = record::layout(r).map_err(|e| format!("record.{e}"))?;
            (DType::U8, false, Some(r), None)
        }
        (None, None, Some(t)) => {
            let kind = record::text_dtype(&t).map_err(|e| format!("text: {e}"))?;
            (DType::U8, false, None, Some(kind))
        }
        _ => return Err("dtype: give exactly one of \"dtype\", \"record\" and \"text\"".into()),
    };
    // a complex element is two numbers of its part dtype, a record or a
    // text element its bytes
    let parts: u64 = match (&record, &text) {
        (Some(r), _) => r.itemsize as u64,
        (None, Some(t)) => t.size() as u64,
        (None, None) if complex => 2,
        (None, None) => 1,
    };
    let sources = [b.data.is_some(), b.bits.is_some(), b.init.is_some()];
    if sources.iter().filter(|&&s| s).count() > 1 {
        return Err("data: give at most one of \"data\", \"bits\", \"init\"".into());
    }
    let mut len = b.len;
    let shape = match b.shape.take() {
        None => None,
        Some(Shape(dims)) => {
            if (dims.is_empty() && record.is_none()) || dims.len() > 8 {
                return Err("shape: must have 1 to 8 dimensions".into());
            }
            let n = dims
                .iter()
                .try_fold(1u64, |a, &d| a.checked_mul(d))
                .ok_or_else(|| format!("shape: {dims:?} has more than 2^64 elements"))?;
            if len.is_none() {
                take_room(n.saturating_mul(parts), room, limits)
                    .map_err(|e| format!("shape: {dims:?}: {e}"))?;
            }
            match len {
                Some(l) if l != n => {
                    return Err(format!(
                        "len: \"len\" is {l} but shape {dims:?} has {n} elements"
                    ))
                }
                _ => len = Some(n),
            }
            Some(dims.iter().map(|&d| d as usize).collect())
        }
    };
    if let Some(l) = b.len {
        take_room(l.saturating_mul(parts), room, limits).map_err(|e| format!("len: {e}"))?;
    }
    // from here on, `len` counts numbers (two per complex element)
    let len = len.map(|l| (l * parts) as usize);
    let bits: Vec<u64> = if let Some(d) = &b.data {
        d.iter()
            .enumerate()
            .map(|(i, v)| value_bits(dtype, v).map_err(|e| format!("data[{i}]: {e}")))
            .collect::<Result<_, _>>()?
    } else if let Some(d) = &b.bits {
        d.iter()
            .enumerate()
            .map(|(i, v)| raw_bits(dtype, v).map_err(|e| format!("bits[{i}]: {e}")))
            .collect::<Result<_, _>>()?
    } else if b.init.as_ref().is_some_and(|i| i == "none") {
        // uninitialised: zeros, each element undefined until written
        vec![0; len.ok_or("init: \"init\": \"none\" needs \"len\"")?]
    } else if let Some(init) = &b.init {
        let n = len.ok_or("init: \"init\" needs \"len\"")?;
        let init: InitJson = serde_path_to_error::deserialize(init.clone()).map_err(|e| {
            let at = e.path().to_string();
            let at = if at == "." {
                String::new()
            } else {
                format!(".{at}")
            };
            format!(
                "init{at}: {} (\"init\" is \"none\" or {{\"random\": {{\"seed\": …}}}})",
                e.inner()
            )
        })?;
        let r = &init.random;
        let bounds = match (&r.low, &r.high) {
            (None, None) => None,
            (Some(l), Some(h)) => Some((l, h)),
            _ => return Err("init.random: give both \"low\" and \"high\" or neither".into()),
        };
        random_init(dtype, n, r.seed, bounds).map_err(|e| format!("init.random: {e}"))?
    } else {
        vec![0; len.ok_or("len: a buffer needs \"len\", \"data\", \"bits\" or \"init\"")?]
    };
    if len.is_none() {
        take_room(bits.len() as u64, room, limits).map_err(|e| format!("data: {e}"))?;
    }
    if let Some(l) = len {
        if l != bits.len() {
            return Err(format!(
                "len: \"len\" is {} but {} values were given",
                l as u64 / parts,
                bits.len()
            ));
        }
    }
    if complex && !bits.len().is_multiple_of(2) {
        return Err(format!(
            "data: a complex buffer gives two numbers (real, imaginary) per element, but {} were given",
            bits.len()
        ));
    }
    if !bits.len().is_multiple_of(parts as usize) {
        let (kind, per) = if text.is_some() {
            ("text", "element")
        } else {
            ("record", "record")
        };
        return Err(format!(
            "data: a {kind} buffer gives {parts} bytes per {per}, but {} were given",
            bits.len()
        ));
    }
    let undefined = undefined_elements(&b, bits.len() / parts as usize)?.map(|u| {
        u.into_iter()
            .flat_map(|x| std::iter::repeat_n(x, parts as usize))
            .collect()
    });
    Ok(ArgSpec::Buffer {
        dtype,
        bits,
        shape,
        undefined,
        complex,
        record,
        view: None,
        text,
        time,
    })
}

/// A view argument: `len` elements of buffer argument `of` from `offset`,
/// all inside it; the base is a plain buffer of numbers (not itself a view,
/// a record or complex buffer).
fn view(args: &[(String, ArgSpec)], v: ViewJson) -> Result<ArgSpec, String> {
    let base = args.iter().find(|(n, _)| *n == v.of).map(|(_, a)| a);
    let Some(ArgSpec::Buffer {
        dtype,
        bits,
        undefined,
        complex: false,
        record: None,
        view: None,
        text: None,
        time: None,
        ..
    }) = base
    else {
        return Err(format!(
            "of: {:?} is not a buffer argument of numbers of this launch",
            v.of
        ));
    };
    let end = v
        .offset
        .checked_add(v.len)
        .filter(|&e| e <= bits.len() as u64);
    let Some(end) = end else {
        return Err(format!(
            "elements {}..{}+{} are not all inside `{}` ({} elements)",
            v.offset,
            v.offset,
            v.len,
            v.of,
            bits.len()
        ));
    };
    let (start, end) = (v.offset as usize, end as usize);
    Ok(ArgSpec::Buffer {
        dtype: *dtype,
        bits: bits[start..end].to_vec(),
        shape: None,
        undefined: undefined.as_ref().map(|u| u[start..end].to_vec()),
        complex: false,
        record: None,
        text: None,
        time: None,
        view: Some(BufferView {
            of: v.of,
            offset: start,
        }),
    })
}

/// Which elements hold no defined value: all of them for `"init": "none"`,
/// those `"undefined"` lists (beside `"data"`/`"bits"`, as a caller that
/// knows which elements it never wrote gives them), or none; one flag per
/// element of `n` (the caller repeats it for each part of a complex one).
fn undefined_elements(b: &BufferJson, n: usize) -> Result<Option<Vec<bool>>, String> {
    let none = b.init.as_ref().is_some_and(|i| i == "none");
    match &b.undefined {
        None if none => Ok(Some(vec![true; n])),
        None => Ok(None),
        Some(_) if none => {
            Err("undefined: \"init\": \"none\" leaves every element undefined already".into())
        }
        Some(list) => {
            let mut u = vec![false; n];
            for (k, &i) in list.iter().enumerate() {
                let slot = usize::try_from(i).ok().and_then(|i| u.get_mut(i));
                *slot.ok_or_else(|| {
                    format!("undefined[{k}]: {i} is past the buffer's {n} elements")
                })? = true;
            }
            Ok(Some(u))
        }
    }
}

/// A runtime scalar; a complex one (`"value": [re, im]`) is carried as a
/// 0-d complex buffer of its two parts (docs/formats.md).
fn scalar(s: ScalarJson, room: &mut u64, limits: &LaunchLimits) -> Result<ArgSpec, String> {
    let ElemDType {
        dtype,
        complex,
        time,
    } = s.dtype;
    if time.is_some() {
        // a datetime64/timedelta64 scalar: a 0-d buffer of its int64 count
        take_room(1, room, limits).map_err(|e| format!("value: {e}"))?;
        let bits = value_bits(dtype, &s.value).map_err(|e| format!("value: {e}"))?;
        return Ok(ArgSpec::Buffer {
            dtype,
            bits: vec![bits],
            shape: Some(vec![]),
            undefined: None,
            complex: false,
            record: None,
            text: None,
            time,
            view: None,
        });
    }
    if !complex {
        let bits = value_bits(dtype, &s.value).map_err(|e| format!("value: {e}"))?;
        return Ok(ArgSpec::Scalar { dtype, bits });
    }
    let Json::Array(parts) = &s.value else {
        return Err("value: a complex scalar is [real, imaginary]".into());
    };
    if parts.len() != 2 {
        return Err("value: a complex scalar is [real, imaginary]".into());
    }
    take_room(2, room, limits).map_err(|e| format!("value: {e}"))?;
    let bits = parts
        .iter()
        .enumerate()
        .map(|(i, v)| value_bits(dtype, v).map_err(|e| format!("value[{i}]: {e}")))
        .collect::<Result<_, _>>()?;
    Ok(ArgSpec::Buffer {
        dtype,
        bits,
        shape: Some(vec![]),
        undefined: None,
        complex: true,
        record: None,
        view: None,
        text: None,
        time: None,
    })
}

impl<'de> Deserialize<'de> for DType {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<DType, D::Error> {
        let s = String::deserialize(d)?;
        DType::from_name(&s).ok_or_else(|| de::Error::custom(format!("unknown dtype {s:?}")))
    }
}

impl<'de> Deserialize<'de> for ElemDType {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ElemDType, D::Error> {
        let s = String::deserialize(d)?;
        if let Some(t) = super::TimeType::from_name(&s) {
            return Ok(ElemDType {
                dtype: DType::I64,
                complex: false,
                time: Some(t),
            });
        }
        let (dtype, complex) = match s.as_str() {
            "complex64" => (DType::F32, true),
            "complex128" => (DType::F64, true),
            _ => (
                DType::from_name(&s)
                    .ok_or_else(|| de::Error::custom(format!("unknown dtype {s:?}")))?,
                false,
            ),
        };
        Ok(ElemDType {
            dtype,
            complex,
            time: None,
        })
    }
}

impl<'de> Deserialize<'de> for Dim {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Dim, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Dim;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a positive integer")
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Dim, E> {
                Ok(Dim(n))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for Dims {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Dims, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Dims;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of 1 to 3 positive integers")
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Dims, E> {
                Ok(Dims(vec![n]))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Dims, A::Error> {
                let mut v = Vec::new();
                while let Some(Dim(n)) = seq.next_element()? {
                    v.push(n);
                }
                if v.is_empty() || v.len() > 3 {
                    return Err(de::Error::custom(format!(
                        "must have 1 to 3 dimensions, got {}",
                        v.len()
                    )));
                }
                Ok(Dims(v))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for Shape {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Shape, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Shape;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of non-negative integers")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Shape, A::Error> {
                let mut v = Vec::new();
                while let Some(n) = seq.next_element::<u64>()? {
                    v.push(n);
                }
                Ok(Shape(v))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for ArgJson {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ArgJson, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ArgJson;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("{\"buffer\": …}, {\"scalar\": …}, {\"constexpr\": …} or {\"view\": …}")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ArgJson, A::Error> {
                let one = "an argument must have exactly one of \"buffer\", \"scalar\", \"constexpr\", \"view\"";
                let kind: String = map.next_key()?.ok_or_else(|| de::Error::custom(one))?;
                let arg = match kind.as_str() {
                    "buffer" => ArgJson::Buffer(map.next_value()?),
                    "scalar" => ArgJson::Scalar(map.next_value()?),
                    "constexpr" => ArgJson::Constexpr(map.next_value()?),
                    "view" => ArgJson::View(map.next_value()?),
                    other => {
                        return Err(de::Error::custom(format!(
                            "unknown argument kind {other:?} (buffer, scalar, constexpr or view)"
                        )))
                    }
                };
                if map.next_key::<IgnoredAny>()?.is_some() {
                    return Err(de::Error::custom(one));
                }
                Ok(arg)
            }
        }
        d.deserialize_map(V)
    }
}

impl<'de> Deserialize<'de> for ConstArg {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ConstArg, D::Error> {
        struct V;
        impl<'v> Visitor<'v> for V {
            type Value = ConstArg;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a constexpr value: a number, bool, string, null or an array of these")
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<ConstArg, E> {
                Ok(ConstArg::Bool(b))
            }
            fn visit_i64<E: de::Error>(self, i: i64) -> Result<ConstArg, E> {
                Ok(ConstArg::Int(i as i128))
            }
            fn visit_u64<E: de::Error>(self, u: u64) -> Result<ConstArg, E> {
                Ok(ConstArg::Int(u as i128))
            }
            fn visit_f64<E: de::Error>(self, f: f64) -> Result<ConstArg, E> {
                Ok(ConstArg::Float(f))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<ConstArg, E> {
                Ok(ConstArg::Str(s.into()))
            }
            fn visit_unit<E: de::Error>(self) -> Result<ConstArg, E> {
                Ok(ConstArg::None)
            }
            fn visit_seq<A: de::SeqAccess<'v>>(self, mut seq: A) -> Result<ConstArg, A::Error> {
                let mut items = Vec::new();
                while let Some(c) = seq.next_element::<ConstArg>()? {
                    items.push(c);
                }
                Ok(ConstArg::Tuple(items))
            }
        }
        d.deserialize_any(V)
    }
}
