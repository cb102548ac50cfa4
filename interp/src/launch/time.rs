//! numpy's datetime64/timedelta64 elements in a launch (`"dtype":
//! "datetime64[D]"`, `"timedelta64[D]"`): int64 counts of a unit, with
//! numpy's NaT as the int64 minimum (docs/formats.md).

use std::fmt;

/// A datetime64 or timedelta64 type of one unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimeType {
    /// timedelta64 (`m8`) rather than datetime64 (`M8`).
    pub delta: bool,
    /// numpy's unit code: `Y`, `M`, `W`, `D`, `h`, `m`, `s`, `ms`, `us`,
    /// `ns`, `ps`, `fs` or `as`.
    pub unit: &'static str,
}

/// numpy's NaT ("not a time"): the int64 minimum.
pub const NAT: i64 = i64::MIN;

const UNITS: [&str; 13] = [
    "Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as",
];

impl TimeType {
    /// Parses `datetime64[U]` / `timedelta64[U]` (numpy's names); None for
    /// anything else (a generic unit, `datetime64` alone, a multiple `2D`).
    pub fn from_name(name: &str) -> Option<TimeType> {
        let (delta, rest) = if let Some(r) = name.strip_prefix("datetime64[") {
            (false, r)
        } else {
            (true, name.strip_prefix("timedelta64[")?)
        };
        let unit = rest.strip_suffix(']')?;
        let unit = UNITS.iter().find(|u| **u == unit)?;
        Some(TimeType { delta, unit })
    }
}

impl fmt::Display for TimeType {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let kind = if self.delta {
            "timedelta64"
        } else {
            "datetime64"
        };
        write!(f, "{kind}[{}]", self.unit)
    }
}
