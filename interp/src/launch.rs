//! Launch specs (which kernel, grid, arguments) and run results, as JSON.
//! The formats are DESIGN.md's "Interfaces" with the details of docs/formats.md.

use crate::dtype::DType;
use crate::float::{self, Overflow, Rounding};
use serde_json::{json, Map, Value as Json};

/// Largest number of program instances a launch may ask for.
pub const MAX_PROGRAMS: u64 = 1 << 24;
/// Largest number of threads of one block (CUDA's limit).
pub const MAX_BLOCK_THREADS: u64 = 1024;
/// Largest number of elements of one buffer.
pub const MAX_BUFFER_LEN: usize = 1 << 28;

/// A compile-time constant argument value.
#[derive(Clone, Debug, PartialEq)]
pub enum ConstArg {
    Int(i128),
    Float(f64),
    Bool(bool),
    Str(String),
    None,
}

/// One kernel argument of a launch.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgSpec {
    /// A buffer with its initial contents as raw bits (bool as 0/1).
    Buffer {
        dtype: DType,
        bits: Vec<u64>,
        /// The array's shape (`"shape"`), row-major; `None`: one-dimensional.
        shape: Option<Vec<usize>>,
    },
    /// A runtime scalar with its bits.
    Scalar {
        dtype: DType,
        bits: u64,
    },
    Constexpr(ConstArg),
}

/// A parsed launch spec.
#[derive(Clone, Debug, PartialEq)]
pub struct Launch {
    pub kernel: Option<String>,
    pub grid: [u32; 3],
    /// Threads per block (`"block"`), for SIMT dialects.
    pub block: Option<[u32; 3]>,
    /// Arguments of a kernel factory (`"factory_args"`), by name.
    pub factory_args: Vec<(String, ConstArg)>,
    /// Arguments by name, in the order given.
    pub args: Vec<(String, ArgSpec)>,
}

impl Launch {
    pub fn arg(&self, name: &str) -> Option<&ArgSpec> {
        self.args.iter().find(|(n, _)| n == name).map(|(_, a)| a)
    }
    pub fn num_programs(&self) -> u64 {
        self.grid.iter().map(|&g| g as u64).product()
    }
}

/// Parses launch JSON text. Errors are one-line messages (path in the JSON, what is wrong).
pub fn parse_launch(text: &str) -> Result<Launch, String> {
    let v: Json = serde_json::from_str(text).map_err(|e| format!("invalid JSON: {e}"))?;
    let obj = v.as_object().ok_or("launch spec must be a JSON object")?;
    let kernel = match obj.get("kernel") {
        None | Some(Json::Null) => None,
        Some(Json::String(s)) => Some(s.clone()),
        Some(_) => return Err("\"kernel\" must be a string".into()),
    };
    let grid = parse_grid(obj.get("grid").ok_or("missing \"grid\"")?)?;
    let args_obj = match obj.get("args") {
        None => Map::new(),
        Some(Json::Object(m)) => m.clone(),
        Some(_) => return Err("\"args\" must be an object".into()),
    };
    let mut args = Vec::new();
    for (name, spec) in &args_obj {
        let a = parse_arg(spec).map_err(|e| format!("args.{name}: {e}"))?;
        args.push((name.clone(), a));
    }
    let block = match obj.get("block") {
        None | Some(Json::Null) => None,
        Some(b) => Some(parse_block(b)?),
    };
    let mut factory_args = Vec::new();
    match obj.get("factory_args") {
        None | Some(Json::Null) => {}
        Some(Json::Object(m)) => {
            for (name, v) in m {
                let c = parse_const(v).map_err(|e| format!("factory_args.{name}: {e}"))?;
                factory_args.push((name.clone(), c));
            }
        }
        Some(_) => return Err("\"factory_args\" must be an object".into()),
    }
    Ok(Launch {
        kernel,
        grid,
        block,
        factory_args,
        args,
    })
}

/// `"block"`: 1 to 3 positive ints, at most [`MAX_BLOCK_THREADS`] threads in all.
fn parse_block(v: &Json) -> Result<[u32; 3], String> {
    let items: Vec<Json> = match v {
        Json::Array(a) => a.clone(),
        Json::Number(_) => vec![v.clone()],
        _ => return Err("\"block\" must be a list of 1 to 3 positive integers".into()),
    };
    if items.is_empty() || items.len() > 3 {
        return Err(format!(
            "\"block\" must have 1 to 3 dimensions, got {}",
            items.len()
        ));
    }
    let mut b = [1u32; 3];
    for (i, it) in items.iter().enumerate() {
        let n = it
            .as_u64()
            .ok_or_else(|| format!("block[{i}] must be a positive integer, got {it}"))?;
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
            "block {b:?} has {total} threads; CUDA allows at most {MAX_BLOCK_THREADS} per block"
        ));
    }
    Ok(b)
}

fn parse_grid(v: &Json) -> Result<[u32; 3], String> {
    let items: Vec<Json> = match v {
        Json::Array(a) => a.clone(),
        Json::Number(_) => vec![v.clone()],
        _ => return Err("\"grid\" must be a list of 1 to 3 positive integers".into()),
    };
    if items.is_empty() || items.len() > 3 {
        return Err(format!(
            "\"grid\" must have 1 to 3 dimensions, got {}",
            items.len()
        ));
    }
    let mut g = [1u32; 3];
    for (i, it) in items.iter().enumerate() {
        let n = it
            .as_u64()
            .ok_or_else(|| format!("grid[{i}] must be a positive integer, got {it}"))?;
        if n == 0 {
            return Err(format!(
                "grid[{i}] is 0: the launch has no program instances"
            ));
        }
        if n > u32::MAX as u64 {
            return Err(format!("grid[{i}] = {n} is too large"));
        }
        g[i] = n as u32;
    }
    let total: u64 = g.iter().map(|&x| x as u64).product();
    if total > MAX_PROGRAMS {
        return Err(format!(
            "grid {g:?} has {total} program instances; ksem runs at most {MAX_PROGRAMS}"
        ));
    }
    Ok(g)
}

fn parse_dtype(v: Option<&Json>) -> Result<DType, String> {
    let s = v
        .and_then(|d| d.as_str())
        .ok_or("missing \"dtype\" (a string such as \"float32\")")?;
    DType::from_name(s).ok_or_else(|| format!("unknown dtype {s:?}"))
}

fn parse_arg(spec: &Json) -> Result<ArgSpec, String> {
    let obj = spec
        .as_object()
        .ok_or("an argument must be {\"buffer\": …}, {\"scalar\": …} or {\"constexpr\": …}")?;
    if obj.len() != 1 {
        return Err(
            "an argument must have exactly one of \"buffer\", \"scalar\", \"constexpr\"".into(),
        );
    }
    let (k, body) = obj.iter().next().expect("one key");
    match k.as_str() {
        "buffer" => parse_buffer(body),
        "scalar" => {
            let b = body.as_object().ok_or("\"scalar\" must be an object")?;
            let dtype = parse_dtype(b.get("dtype"))?;
            let v = b.get("value").ok_or("scalar needs \"value\"")?;
            Ok(ArgSpec::Scalar {
                dtype,
                bits: value_bits(dtype, v)?,
            })
        }
        "constexpr" => Ok(ArgSpec::Constexpr(parse_const(body)?)),
        other => Err(format!("unknown argument kind {other:?}")),
    }
}

/// A compile-time constant: a number, bool, string or null.
fn parse_const(body: &Json) -> Result<ConstArg, String> {
    Ok(match body {
        Json::Bool(b) => ConstArg::Bool(*b),
        Json::Null => ConstArg::None,
        Json::String(s) => ConstArg::Str(s.clone()),
        Json::Number(n) => {
            if let Some(i) = n.as_i64() {
                ConstArg::Int(i as i128)
            } else if let Some(u) = n.as_u64() {
                ConstArg::Int(u as i128)
            } else {
                ConstArg::Float(n.as_f64().unwrap_or(f64::NAN))
            }
        }
        _ => return Err("constexpr value must be a number, bool, string or null".into()),
    })
}

fn parse_buffer(body: &Json) -> Result<ArgSpec, String> {
    let b = body.as_object().ok_or("\"buffer\" must be an object")?;
    let dtype = parse_dtype(b.get("dtype"))?;
    let mut len = match b.get("len") {
        None => None,
        Some(l) => Some(l.as_u64().ok_or("\"len\" must be a non-negative integer")? as usize),
    };
    if let Some(l) = len {
        if l > MAX_BUFFER_LEN {
            return Err(format!(
                "len {l} exceeds ksem's limit of {MAX_BUFFER_LEN} elements"
            ));
        }
    }
    let sources = ["data", "bits", "init"]
        .iter()
        .filter(|k| b.contains_key(**k))
        .count();
    if sources > 1 {
        return Err("give at most one of \"data\", \"bits\", \"init\"".into());
    }
    let shape = match b.get("shape") {
        None => None,
        Some(Json::Array(dims)) => Some(
            dims.iter()
                .enumerate()
                .map(|(i, d)| {
                    d.as_u64()
                        .map(|d| d as usize)
                        .ok_or_else(|| format!("shape[{i}] must be a non-negative integer"))
                })
                .collect::<Result<Vec<usize>, String>>()?,
        ),
        Some(_) => return Err("\"shape\" must be a list of non-negative integers".into()),
    };
    if let Some(dims) = &shape {
        if dims.is_empty() || dims.len() > 8 {
            return Err("\"shape\" must have 1 to 8 dimensions".into());
        }
        let n = dims
            .iter()
            .try_fold(1usize, |a, &d| a.checked_mul(d))
            .filter(|&n| n <= MAX_BUFFER_LEN)
            .ok_or_else(|| {
                format!("shape {dims:?} exceeds ksem's limit of {MAX_BUFFER_LEN} elements")
            })?;
        match len {
            Some(l) if l != n => {
                return Err(format!(
                    "\"len\" is {l} but shape {dims:?} has {n} elements"
                ))
            }
            _ => len = Some(n),
        }
    }
    for key in b.keys() {
        if !["dtype", "len", "shape", "data", "bits", "init"].contains(&key.as_str()) {
            return Err(format!("unknown buffer key {key:?}"));
        }
    }
    let bits: Vec<u64> = if let Some(d) = b.get("data") {
        let arr = d.as_array().ok_or("\"data\" must be a list")?;
        arr.iter()
            .enumerate()
            .map(|(i, v)| value_bits(dtype, v).map_err(|e| format!("data[{i}]: {e}")))
            .collect::<Result<_, _>>()?
    } else if let Some(d) = b.get("bits") {
        let arr = d.as_array().ok_or("\"bits\" must be a list")?;
        arr.iter()
            .enumerate()
            .map(|(i, v)| raw_bits(dtype, v).map_err(|e| format!("bits[{i}]: {e}")))
            .collect::<Result<_, _>>()?
    } else if let Some(init) = b.get("init") {
        let n = len.ok_or("\"init\" needs \"len\"")?;
        random_init(dtype, n, init)?
    } else {
        vec![0; len.ok_or("a buffer needs \"len\", \"data\", \"bits\" or \"init\"")?]
    };
    if let Some(l) = len {
        if l != bits.len() {
            return Err(format!(
                "\"len\" is {l} but {} values were given",
                bits.len()
            ));
        }
    }
    Ok(ArgSpec::Buffer { dtype, bits, shape })
}

/// Bits of a JSON value (number, bool or "nan"/"inf"/"-inf"/"-0.0") in `dtype`.
pub fn value_bits(dtype: DType, v: &Json) -> Result<u64, String> {
    if dtype.is_float() {
        let f = match v {
            Json::Number(n) => {
                if let Some(i) = n.as_i64() {
                    return Ok(float::from_int(dtype, i as i128, Rounding::NearestEven));
                }
                if let Some(u) = n.as_u64() {
                    return Ok(float::from_int(dtype, u as i128, Rounding::NearestEven));
                }
                n.as_f64().ok_or("not a number")?
            }
            Json::String(s) => match s.as_str() {
                "nan" => f64::NAN,
                "inf" => f64::INFINITY,
                "-inf" => f64::NEG_INFINITY,
                "-0.0" => -0.0,
                _ => s
                    .parse::<f64>()
                    .map_err(|_| format!("{s:?} is not a number"))?,
            },
            Json::Bool(b) => *b as u8 as f64,
            _ => return Err(format!("{v} is not a number")),
        };
        return Ok(float::from_f64(
            dtype,
            f,
            Rounding::NearestEven,
            Overflow::Infinity,
        ));
    }
    let i: i128 = match v {
        Json::Bool(b) => *b as i128,
        Json::Number(n) => {
            if let Some(i) = n.as_i64() {
                i as i128
            } else if let Some(u) = n.as_u64() {
                u as i128
            } else {
                return Err(format!(
                    "{n} is not an integer (dtype {})",
                    dtype.json_name()
                ));
            }
        }
        _ => return Err(format!("{v} is not an integer")),
    };
    if dtype == DType::Bool {
        return match i {
            0 | 1 => Ok(i as u64),
            _ => Err(format!("{i} is not a bool (0 or 1)")),
        };
    }
    let (lo, hi) = dtype.int_range();
    if i < lo || i > hi {
        return Err(format!("{i} is out of range for {}", dtype.json_name()));
    }
    Ok((i as u64) & dtype.mask())
}

fn raw_bits(dtype: DType, v: &Json) -> Result<u64, String> {
    let b = match v {
        Json::String(s) => {
            let h = s
                .strip_prefix("0x")
                .or_else(|| s.strip_prefix("0X"))
                .ok_or_else(|| format!("{s:?} must be hex with 0x"))?;
            u64::from_str_radix(h, 16).map_err(|_| format!("{s:?} is not hex"))?
        }
        Json::Number(n) => n.as_u64().ok_or("bits must be non-negative")?,
        _ => return Err("bits must be hex strings or integers".into()),
    };
    let mask = if dtype == DType::Bool {
        0xff
    } else {
        dtype.mask()
    };
    if b & !mask != 0 {
        return Err(format!(
            "{b:#x} does not fit in {} bits",
            dtype.storage_bits()
        ));
    }
    Ok(if dtype == DType::Bool {
        (b != 0) as u64
    } else {
        b
    })
}

/// splitmix64, the generator of `init.random` (docs/formats.md).
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

fn random_init(dtype: DType, n: usize, init: &Json) -> Result<Vec<u64>, String> {
    let r = init
        .get("random")
        .and_then(|r| r.as_object())
        .ok_or("\"init\" must be {\"random\": {\"seed\": S}}")?;
    let seed = r
        .get("seed")
        .and_then(|s| s.as_u64())
        .ok_or("init.random needs an integer \"seed\"")?;
    let bounds = match (r.get("low"), r.get("high")) {
        (None, None) => None,
        (Some(l), Some(h)) => Some((l.clone(), h.clone())),
        _ => return Err("give both \"low\" and \"high\" or neither".into()),
    };
    let mut g = SplitMix64(seed);
    let mut out = Vec::with_capacity(n);
    if dtype.is_float() {
        let (lo, hi) = match &bounds {
            None => (None, None),
            Some((l, h)) => (
                Some(l.as_f64().ok_or("low must be a number")?),
                Some(h.as_f64().ok_or("high must be a number")?),
            ),
        };
        for _ in 0..n {
            let r = g.next_u64() >> 40;
            let v = match (lo, hi) {
                (Some(l), Some(h)) => l + (h - l) * (r as f64 * 2f64.powi(-24)),
                _ => r as f64 * 2f64.powi(-23) - 1.0,
            };
            out.push(float::from_f64(
                dtype,
                v,
                Rounding::NearestEven,
                Overflow::Infinity,
            ));
        }
    } else {
        let range = match &bounds {
            None => None,
            Some((l, h)) => {
                let l = l.as_i64().ok_or("low must be an integer")? as i128;
                let h = h.as_i64().ok_or("high must be an integer")? as i128;
                let (dl, dh) = dtype.int_range();
                if l >= h || l < dl || h - 1 > dh {
                    return Err(format!(
                        "bounds [{l}, {h}) are empty or outside {}",
                        dtype.json_name()
                    ));
                }
                Some((l, h))
            }
        };
        for _ in 0..n {
            let r = g.next_u64();
            let v = match range {
                None if dtype == DType::Bool => r & 1,
                None => r & dtype.mask(),
                Some((l, h)) => ((l + (r as i128).rem_euclid(h - l)) as u64) & dtype.mask(),
            };
            out.push(v);
        }
    }
    Ok(out)
}

/// Formats bits as lowercase hex with `0x` and the dtype's full stored width.
pub fn hex_bits(dtype: DType, bits: u64) -> String {
    let digits = (dtype.storage_bits() / 4) as usize;
    format!("0x{bits:0digits$x}")
}

/// One undefined-behaviour finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UbReport {
    /// Short kind, e.g. `division-by-zero`.
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
        kind: &str,
        line: u32,
        col: u32,
        program: [u32; 3],
        element: Vec<usize>,
        message: String,
    ) -> UbReport {
        UbReport {
            kind: kind.into(),
            line,
            col,
            program,
            element,
            message,
            thread: None,
            other: None,
        }
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
