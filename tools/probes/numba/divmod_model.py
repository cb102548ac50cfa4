#!/usr/bin/env python3
"""numba-cuda 0.30.4's float `//` and `%` on the GPU, as an executable model.

    python3 tools/probes/numba/divmod_model.py [tools/probes/numba/measured.json]

numba-cuda lowers Python's float divmod (CPython's float_divmod) with `frem`,
which NVPTX expands to |x| - floor(|x|/|y|) * |y|; ptxas contracts that mul+sub
into one fma.  So the remainder is NOT an exact fmod (1e30 % 3.0 == 2**46).
This file states the instruction sequence (from the PTX in measured.json,
"ptx" -> "float32 // and %"; float64 is the same with .f64 ops) and checks it
bit for bit, NaN bit patterns included, against every measured float32/float64
// and % result (8260 cases).
Standard library only.
"""

import json
import math
import os
import struct
import sys
from fractions import Fraction

INF, NAN = math.inf, math.nan


# -- IEEE helpers: every op rounds to the format (f64: Python floats; f32: round after) --

def f32(v):
    """Round a Python float (binary64) to binary32 (nearest even), as a Python float."""
    if math.isnan(v) or math.isinf(v):
        return v
    try:
        return struct.unpack("<f", struct.pack("<f", v))[0]
    except OverflowError:
        return math.copysign(INF, v)


def _round_frac_f32(x):
    """Exact Fraction -> binary32 nearest even."""
    if x == 0:
        return 0.0
    neg = x < 0
    a = -x if neg else x
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    e = max(e, -126)
    q = Fraction(2) ** (e - 23)
    n = a / q
    m = n.numerator // n.denominator
    rem = n - m
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and m & 1):
        m += 1
    v = m * q
    r = INF if v >= Fraction(2) ** 128 else float(v)
    return -r if neg else r


# NaN results (measured): every float32 operation that yields a NaN yields the
# canonical 0x7fffffff; `neg` (the sign select of frem) flips its sign bit, so
# x % y can be 0xffffffff.  float64: a generated NaN is 0xfff8000000000000 and a
# NaN operand propagates (0x7ff8000000000000 in the measurements); the model
# gives float64 NaNs those bits by rule in `nan_bits_f64` instead of per op.
CANON_F32_NAN = struct.unpack("<f", struct.pack("<I", 0x7FFFFFFF))[0]


class Fmt:
    def __init__(self, name):
        self.name = name
        r = f32 if name == "float32" else (lambda v: v)
        if name == "float32":
            self.r = lambda v: CANON_F32_NAN if math.isnan(v) else r(v)
        else:
            self.r = r

    def add(self, a, b):
        return self.r(a + b)

    def sub(self, a, b):
        return self.r(a - b)

    def mul(self, a, b):
        return self.r(a * b)

    def div(self, a, b):  # div.rn
        if b == 0:
            if a == 0 or math.isnan(a):
                return self.r(NAN)
            return math.copysign(INF, a) * math.copysign(1.0, b)
        if math.isinf(a) and math.isinf(b) or math.isnan(a) or math.isnan(b):
            return self.r(NAN)
        return self.r(a / b)

    def floor(self, a):  # cvt.rmi
        return a if (math.isnan(a) or math.isinf(a)) else float(math.floor(a)) if a != 0 else a

    def fma(self, a, b, c):  # a*b + c rounded once
        if any(math.isnan(t) or math.isinf(t) for t in (a, b, c)):
            return self.r(a * b + c)  # inf/nan rules are those of the unfused ops here
        v = Fraction(a) * Fraction(b) + Fraction(c)
        if v == 0:
            return a * b + c  # sign of an exact zero
        return float(v) if self.name == "float64" else _round_frac_f32(v)


def signed_frem(x, y, T):
    """frem(x, y) as NVPTX+ptxas compute it: sign(x) * fma(-floor(|x|/|y|), |y|, |x|)."""
    ax, ay = abs(x), abs(y)
    m0 = T.fma(-T.floor(T.div(ax, ay)), ay, ax)
    return -m0 if x < 0 else m0


def floordiv(x, y, T):
    if y == 0:                      # setp.eq (true for +0.0 and -0.0)
        return T.div(x, y)          # +-inf, or NaN for 0/0 and NaN/0
    mod = signed_frem(x, y, T)
    div = T.div(T.sub(x, mod), y)
    if not (mod == 0) and ((y < 0) != (mod < 0)):   # setp.neu (NaN counts as != 0)
        div = T.add(div, -1.0)
    if div == 0 or math.isnan(div):                 # setp.equ
        return T.div(T.mul(x, T.mul(div, div)), y)  # zero with the sign of x/y (or NaN)
    fl = T.floor(div)
    return T.add(fl, 1.0) if T.sub(div, fl) > 0.5 else fl


def mod(x, y, T):
    r = signed_frem(x, y, T)
    if y == 0:
        return r                    # NaN (sign of x)
    if not (r == 0):                # setp.neu
        return T.add(y, r) if (y < 0) != (r < 0) else r
    return -0.0 if y < 0 else 0.0


# -- checking against the measurements --

def from_bits(b, dtype):
    if dtype == "float32":
        return struct.unpack("<f", struct.pack("<I", b))[0]
    return struct.unpack("<d", struct.pack("<Q", b))[0]


def to_bits(v, dtype):
    if dtype == "float32":
        return struct.unpack("<I", struct.pack("<f", v))[0]
    return struct.unpack("<Q", struct.pack("<d", v))[0]


def nan_bits_f64(x, y):
    for t in (x, y):
        if math.isnan(t):
            return to_bits(t, "float64") | (1 << 51)  # the operand's NaN, quieted
    return 0xFFF8000000000000


def same(v, bits, dtype, x, y):
    """Exact bit comparison, NaNs included (float64 NaN bits by nan_bits_f64)."""
    if math.isnan(v) and dtype == "float64":
        return bits == nan_bits_f64(x, y)
    return to_bits(v, dtype) == bits


def check(cases, dtype, label):
    T = Fmt(dtype)
    bad = 0
    for xb, yb, qb, rb in cases:
        x, y = from_bits(xb, dtype), from_bits(yb, dtype)
        q, r = floordiv(x, y, T), mod(x, y, T)
        if not (same(q, qb, dtype, x, y) and same(r, rb, dtype, x, y)):
            bad += 1
            if bad <= 5:
                print(f"  MISMATCH {dtype} x={x!r} y={y!r}: gpu q={from_bits(qb, dtype)!r} "
                      f"r={from_bits(rb, dtype)!r}; model q={q!r} r={r!r}")
    print(f"{label}: {len(cases)} cases, {bad} mismatches")
    return bad


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                              "measured.json")
    with open(path) as fh:
        d = json.load(fh)
    bad = 0
    for rec in d["probe_all"]["c_float_floordiv_mod"]:
        if rec.get("dtype") in ("float32", "float64") and not rec.get("literal") and rec.get("ok"):
            cases = [tuple(int(r[a][k]["bits"], 16) for a, k in (("in", "x"), ("in", "y"), ("out", "q"), ("out", "r")))
                     for r in rec["rows"]]
            bad += check(cases, rec["dtype"], rec["label"])
    for rec in d["probe_extra"]["k3_float_divmod_random"]:
        if rec.get("ok"):
            cases = [tuple(int(v, 16) for v in t) for t in zip(rec["x"], rec["y"], rec["q"], rec["r"])]
            bad += check(cases, rec["dtype"], rec["label"])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
