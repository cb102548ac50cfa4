//! Buffer contents from launch JSON: values rounded into a dtype, raw bit
//! patterns, and the seeded generator of `init.random` (docs/formats.md).

use crate::dtype::DType;
use crate::float::{self, Overflow, Rounding};
use serde_json::Value as Json;

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

/// A raw bit pattern (`"0x…"` or a non-negative integer) that must fit `dtype`.
pub(super) fn raw_bits(dtype: DType, v: &Json) -> Result<u64, String> {
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

/// `n` values of `dtype` from `init.random` with `seed` and optional
/// bounds `[low, high)` (both or neither).
pub(super) fn random_init(
    dtype: DType,
    n: usize,
    seed: u64,
    bounds: Option<(&Json, &Json)>,
) -> Result<Vec<u64>, String> {
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
