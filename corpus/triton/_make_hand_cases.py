#!/usr/bin/env python3
"""Write NAME.json for the hand-derived Triton corpus cases in this directory.

The expected output values below are TYPED IN from the hand reasoning written in the
comment at the top of each NAME.py.  This script only

  1. encodes the typed-in values as bit patterns (stdlib ``struct`` for float32 /
     float16, the top half of an exact float32 for bfloat16, two's complement for
     integers), refusing any value that is not exactly representable, and
  2. re-derives every expected output a second, independent way (Python integers
     with explicit C-truncation and wrapping helpers; exact rational arithmetic
     with an explicitly written round-to-nearest-even / round-toward-zero into the
     target format) and asserts that both agree.  These checks are per case: the
     script never parses or evaluates a kernel.

Several cases also assert that a plausible *wrong* rule gives different bits, so a
mistaken implementation cannot pass by accident.

Usage:  python3 corpus/triton/_make_hand_cases.py          (check, then write JSONs)
        python3 corpus/triton/_make_hand_cases.py --check  (check only)
"""

import json
import math
import os
import struct
import sys
from fractions import Fraction as Fr
from functools import reduce

HERE = os.path.dirname(os.path.abspath(__file__))
PROVENANCE = "hand: see the comment at the top of {name}.py"

# ---------------------------------------------------------------------------
# dtypes and exact encoders (used for the typed-in values and the inputs)
# ---------------------------------------------------------------------------

INT = {"int8": (8, True), "int16": (16, True), "int32": (32, True), "int64": (64, True),
       "uint8": (8, False), "uint16": (16, False), "uint32": (32, False), "uint64": (64, False)}
FLT = {"float16": (5, 10), "bfloat16": (8, 7), "float32": (8, 23)}
F16, BF, F32 = "float16", "bfloat16", "float32"


def width(dt):
    if dt in INT:
        return INT[dt][0]
    eb, mb = FLT[dt]
    return 1 + eb + mb


def hexs(dt, b):
    w = width(dt)
    assert 0 <= b < (1 << w), (dt, b)
    return "0x%0*x" % (w // 4, b)


def int_bits(dt, v):
    """Two's complement bits of an integer that must fit dt (signed or unsigned view)."""
    w, _ = INT[dt]
    assert -(1 << (w - 1)) <= v < (1 << w), (dt, v)
    return v & ((1 << w) - 1)


def float_bits(dt, v):
    """Exact bits of a typed-in float; a '0x..' string is taken as the bits themselves."""
    if isinstance(v, str):
        if v.startswith("0x"):
            b = int(v, 16)
            assert b < (1 << width(dt))
            return b
        v = float(v)  # 'inf', '-inf', '-0.0'
    v = float(v)
    if dt == F32:
        b = struct.unpack("<I", struct.pack("<f", v))[0]
        back = struct.unpack("<f", struct.pack("<I", b))[0]
    elif dt == F16:
        b = struct.unpack("<H", struct.pack("<e", v))[0]
        back = struct.unpack("<e", struct.pack("<H", b))[0]
    elif dt == BF:
        b32 = float_bits(F32, v)
        assert b32 & 0xFFFF == 0, "not exactly representable in bfloat16: %r" % v
        return b32 >> 16
    else:
        raise KeyError(dt)
    assert back == v and math.copysign(1, back) == math.copysign(1, v), \
        "not exactly representable in %s: %r" % (dt, v)
    return b


def enc(dt, v):
    return int_bits(dt, v) if dt in INT else float_bits(dt, v)


# ---------------------------------------------------------------------------
# second-derivation helpers (independent of the encoders above)
# ---------------------------------------------------------------------------

def p2(e):
    return Fr(2) ** e


def dec(dt, b):
    """bits -> Fraction (zero loses its sign), or 'inf' / '-inf' / 'nan'."""
    eb, mb = FLT[dt]
    w = 1 + eb + mb
    s, E, M = b >> (w - 1), (b >> mb) & ((1 << eb) - 1), b & ((1 << mb) - 1)
    if E == (1 << eb) - 1:
        return "nan" if M else ("-inf" if s else "inf")
    bias = (1 << (eb - 1)) - 1
    v = Fr(M, 1 << mb) * p2(1 - bias) if E == 0 else (1 + Fr(M, 1 << mb)) * p2(E - bias)
    return -v if s else v


def rnd(dt, q, mode="rne"):
    """Round an exact value (Fraction / int / 'inf' / '-inf') into dt; returns bits."""
    eb, mb = FLT[dt]
    w = 1 + eb + mb
    inf = ((1 << eb) - 1) << mb
    if isinstance(q, str):
        assert q in ("inf", "-inf"), q
        return inf | ((q == "-inf") << (w - 1))
    q = Fr(q)
    sign = (q < 0) << (w - 1)
    a = abs(q)
    if a == 0:
        return sign
    bias = (1 << (eb - 1)) - 1
    emin, emax = 1 - bias, bias
    e = a.numerator.bit_length() - a.denominator.bit_length()
    while p2(e) > a:
        e -= 1
    while p2(e + 1) <= a:
        e += 1
    e = max(e, emin)
    m = a / p2(e - mb)
    n = m.numerator // m.denominator
    rem = m - n
    if mode == "rne":
        if rem > Fr(1, 2) or (rem == Fr(1, 2) and n % 2 == 1):
            n += 1
    else:
        assert mode == "rtz"
    if n == 1 << (mb + 1):
        n >>= 1
        e += 1
    if e > emax:
        if mode == "rne":
            return sign | inf
        return sign | (((1 << eb) - 2) << mb) | ((1 << mb) - 1)
    if n < (1 << mb):
        assert e == emin
        return sign | n
    return sign | ((e + bias) << mb) | (n - (1 << mb))


def widen(src, dst, b):
    """Exact float widening (bf16/f16 -> f32) of bits, preserving signed zero."""
    v = dec(src, b)
    out = rnd(dst, v)
    if v == 0:
        out |= (b >> (width(src) - 1)) << (width(dst) - 1)
    return out


def wrap(dt, v):
    """Integer value -> bits of dt, wrapping mod 2^w."""
    w, _ = INT[dt]
    return v % (1 << w)


def sval(dt, b):
    """bits -> integer value in dt's signedness."""
    w, signed = INT[dt]
    b %= 1 << w
    return b - (1 << w) if signed and b >> (w - 1) else b


def cdiv(a, b):
    """C division: truncate toward zero."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def cmod(a, b):
    return a - b * cdiv(a, b)


def trunc(q):
    return int(q)  # int(Fraction) truncates toward zero


# ---------------------------------------------------------------------------
# case description
# ---------------------------------------------------------------------------

class Buf:
    def __init__(self, dtype, data=None, bits=None, n=None):
        self.dtype = dtype
        if data is not None:
            self.init = [enc(dtype, v) for v in data]
            self.spec = {"dtype": dtype, "data": data}
        elif bits is not None:
            self.init = [b if isinstance(b, int) else int(b, 16) for b in bits]
            for b in self.init:
                assert 0 <= b < (1 << width(dtype))
            self.spec = {"dtype": dtype, "bits": [hexs(dtype, b) for b in self.init]}
        else:
            self.init = [0] * n
            self.spec = {"dtype": dtype, "len": n}

    def values(self):
        if self.dtype in INT:
            return [sval(self.dtype, b) for b in self.init]
        return [dec(self.dtype, b) for b in self.init]


class Scalar:
    def __init__(self, dtype, value):
        self.dtype, self.value = dtype, value


class Const:
    def __init__(self, value):
        self.value = value


CASES = []


def case(name, grid, args, expect, check, alt=None):
    """args: list of (name, Buf|Scalar|Const); expect: {buf: typed values};
    check(I) -> {buf: bits} re-derived; alt(I) -> {buf: bits} of a wrong rule."""
    CASES.append((name, grid, args, expect, check, alt))


class Inputs(dict):
    __getattr__ = dict.__getitem__


def run_case(name, grid, args, expect, check, alt):
    bufs = {k: v for k, v in args if isinstance(v, Buf)}
    I = Inputs()
    for k, v in args:
        I[k] = v.values() if isinstance(v, Buf) else v.value
    I["bits"] = {k: v.init for k, v in bufs.items()}
    typed = {}
    for k, vals in expect.items():
        assert k in bufs, (name, k)
        dt = bufs[k].dtype
        typed[k] = [enc(dt, v) for v in vals]
        assert len(typed[k]) == len(bufs[k].init), (name, k, len(typed[k]), len(bufs[k].init))
    derived = check(I)
    assert set(derived) == set(typed), (name, set(derived), set(typed))
    for k in typed:
        dt = bufs[k].dtype
        if derived[k] != typed[k]:
            raise AssertionError("%s.%s: typed %s != derived %s" % (
                name, k, [hexs(dt, b) for b in typed[k]], [hexs(dt, b) for b in derived[k]]))
    if alt is not None:
        wrong = alt(I)
        for k, bits in wrong.items():
            assert bits != typed[k], "%s.%s: the wrong rule gives the same bits" % (name, k)
    # the JSON
    jargs = {}
    for k, v in args:
        if isinstance(v, Buf):
            jargs[k] = {"buffer": v.spec}
        elif isinstance(v, Scalar):
            jargs[k] = {"scalar": {"dtype": v.dtype, "value": v.value}}
        else:
            jargs[k] = {"constexpr": v.value}
    exp_bufs = {}
    for k, b in bufs.items():
        final = typed.get(k, b.init)
        exp_bufs[k] = {"dtype": b.dtype, "len": len(final), "bits": [hexs(b.dtype, x) for x in final]}
    return {
        "kernel": name + "_kernel",
        "grid": grid,
        "args": jargs,
        "expected": {"buffers": exp_bufs, "ub": []},
        "provenance": PROVENANCE.format(name=name),
    }


def lanes(f, *cols):
    return [f(*t) for t in zip(*cols)]


# ===========================================================================
# promotion: tensor / tensor
# ===========================================================================

case("promo_i32_bf16", [1],
     [("x_ptr", Buf("int32", data=[257, 1, -257, 3])),
      ("y_ptr", Buf(BF, bits=[0x0000, 0x4380, 0x3f00, 0x3e80])),
      ("out_ptr", Buf(F32, n=4)),
      ("BLOCK", Const(4))],
     {"out_ptr": [256.0, 256.0, -256.0, 3.25]},
     lambda I: {"out_ptr": lanes(lambda x, y: widen(BF, F32, rnd(BF, dec(BF, rnd(BF, x)) + y)),
                                 I.x_ptr, I.y_ptr)},
     alt=lambda I: {"out_ptr": lanes(lambda x, y: rnd(F32, x + y), I.x_ptr, I.y_ptr)})

case("promo_f32_f16", [1],
     [("x_ptr", Buf(F32, bits=[0x35800000, 0x477fe000, 0x3dcccccd, 0xbf800000])),  # 2^-20, 65504, 0.1f, -1
      ("y_ptr", Buf(F16, bits=[0x3c00, 0x7bff, 0x0000, 0x0001])),
      ("out_ptr", Buf(F32, n=4)),
      ("BLOCK", Const(4))],
     {"out_ptr": [1 + 2.0 ** -20, 131008.0, "0x3dcccccd", -(1 - 2.0 ** -24)]},
     lambda I: {"out_ptr": lanes(lambda x, y: rnd(F32, x + y), I.x_ptr, I.y_ptr)},
     alt=lambda I: {"out_ptr": lanes(lambda x, y: widen(F16, F32, rnd(F16, x + y)), I.x_ptr, I.y_ptr)})


def _promo_f16_bf16(I):
    out = []
    for x, y in zip(I.x_ptr, I.y_ptr):
        yh = dec(F16, rnd(F16, y))          # bf16 -> fp16 first
        s = yh if isinstance(yh, str) else x + yh
        out.append(widen(F16, F32, rnd(F16, s)))
    return {"out_ptr": out}


case("promo_f16_bf16", [1],
     [("x_ptr", Buf(F16, bits=[0x3c00, 0x0000, 0x0001, 0xc000])),
      ("y_ptr", Buf(BF, bits=[0x3a40, 0x4780, 0x3300, 0x3f00])),
      ("out_ptr", Buf(F32, n=4)),
      ("BLOCK", Const(4))],
     {"out_ptr": [1 + 2.0 ** -10, "inf", 2.0 ** -24, -1.5]},
     _promo_f16_bf16,
     alt=lambda I: {"out_ptr": lanes(lambda x, y: rnd(F32, x + y), I.x_ptr, I.y_ptr)})


def _promo_i32_u32(I):
    s = [wrap("uint32", x + y) for x, y in zip(I.x_ptr, I.y_ptr)]
    return {"gt_ptr": [wrap("int32", int(v > 0)) for v in s],
            "lt_ptr": [wrap("int32", int(wrap("uint32", x) < y)) for x, y in zip(I.x_ptr, I.y_ptr)],
            "shr_ptr": [v >> 1 for v in s]}


case("promo_i32_u32", [1],
     [("x_ptr", Buf("int32", data=[-1, 5, -2147483648, 7])),
      ("y_ptr", Buf("uint32", data=[0, 3, 1, 0xfffffff0])),
      ("gt_ptr", Buf("int32", n=4)),
      ("lt_ptr", Buf("int32", n=4)),
      ("shr_ptr", Buf("int32", n=4)),
      ("BLOCK", Const(4))],
     {"gt_ptr": [1, 1, 1, 1],
      "lt_ptr": [0, 0, 0, 1],
      "shr_ptr": [0x7fffffff, 4, 0x40000000, 0x7ffffffb]},
     _promo_i32_u32,
     alt=lambda I: {"gt_ptr": [int(x + sval("int32", y) > 0) for x, y in zip(I.x_ptr, I.y_ptr)],
                    "lt_ptr": [int(x < sval("int32", y)) for x, y in zip(I.x_ptr, I.y_ptr)],
                    "shr_ptr": [wrap("int32", sval("int32", wrap("int32", x + y)) >> 1)
                                for x, y in zip(I.x_ptr, I.y_ptr)]})

case("promo_i8_i16", [1],
     [("x_ptr", Buf("int8", data=[100, -128, 127, -1])),
      ("y_ptr", Buf("int16", data=[32700, -1, 32767, -32768])),
      ("out_ptr", Buf("int32", n=4)),
      ("BLOCK", Const(4))],
     {"out_ptr": [-32736, -129, -32642, 32767]},
     lambda I: {"out_ptr": lanes(lambda x, y: wrap("int32", sval("int16", wrap("int16", x + y))),
                                 I.x_ptr, I.y_ptr)},
     alt=lambda I: {"out_ptr": lanes(lambda x, y: wrap("int32", x + y), I.x_ptr, I.y_ptr)})

# ===========================================================================
# promotion: tensor / scalar
# ===========================================================================

case("scalar_u8_int", [1],
     [("x_ptr", Buf("uint8", data=[250, 255, 0, 6])),
      ("add_ptr", Buf("int32", n=4)),
      ("sub_ptr", Buf("int32", n=4)),
      ("BLOCK", Const(4))],
     {"add_ptr": [4, 9, 10, 16], "sub_ptr": [243, 248, 249, 255]},
     lambda I: {"add_ptr": [wrap("uint8", x + 10) for x in I.x_ptr],
                "sub_ptr": [wrap("uint8", x - 7) for x in I.x_ptr]},
     alt=lambda I: {"add_ptr": [wrap("int32", x + 10) for x in I.x_ptr],
                    "sub_ptr": [wrap("int32", x - 7) for x in I.x_ptr]})

_LIT = 0.0009765625009094947
assert Fr(_LIT) == p2(-10) + p2(-40)


def _scalar_i16_float(I):
    c = dec(F32, rnd(F32, Fr(_LIT)))       # the literal rounded to float32 first
    assert c == p2(-10)
    return {"mul_ptr": [rnd(F32, Fr(x) * 4) for x in I.x_ptr],
            "add_ptr": [rnd(F32, x + c) for x in I.x_ptr]}


case("scalar_i16_float", [1],
     [("x_ptr", Buf("int16", data=[3, 16385, -32768, 1])),
      ("mul_ptr", Buf(F32, n=4)),
      ("add_ptr", Buf(F32, n=4)),
      ("BLOCK", Const(4))],
     {"mul_ptr": [12.0, 65540.0, -131072.0, 4.0],
      "add_ptr": [3.0009765625, 16385.0, -32768.0, 1.0009765625]},
     _scalar_i16_float,
     alt=lambda I: {"add_ptr": [rnd(F32, x + Fr(_LIT)) for x in I.x_ptr]})

case("scalar_i8_mul_wrap", [1],
     [("x_ptr", Buf("int8", data=[100, -100, 64, -65])),
      ("out_ptr", Buf("int32", n=4)),
      ("BLOCK", Const(4))],
     {"out_ptr": [-56, 56, -128, 126]},
     lambda I: {"out_ptr": [wrap("int32", sval("int8", wrap("int8", x * 2))) for x in I.x_ptr]},
     alt=lambda I: {"out_ptr": [wrap("int32", x * 2) for x in I.x_ptr]})


def _scalar_f16_literal(I):
    direct = rnd(F16, Fr(1e-4))
    via32 = rnd(F16, dec(F32, rnd(F32, Fr(1e-4))))   # the literal may pass through fp32
    assert direct == via32 == 0x068e
    c = dec(F16, direct)
    return {"out_ptr": [widen(F16, F32, rnd(F16, x + c)) for x in I.x_ptr]}


case("scalar_f16_literal", [1],
     [("x_ptr", Buf(F16, bits=[0x3c00, 0x0000, 0x6800, 0x868e])),
      ("out_ptr", Buf(F32, n=4)),
      ("BLOCK", Const(4))],
     {"out_ptr": [1.0, 1678 * 2.0 ** -24, 2048.0, 0.0]},
     _scalar_f16_literal,
     alt=lambda I: {"out_ptr": [rnd(F32, x + dec(F32, rnd(F32, Fr(1e-4)))) for x in I.x_ptr]})

case("scalar_bool_plus_int", [1],
     [("x_ptr", Buf("int32", data=[5, -5, 0, 7])),
      ("o32_ptr", Buf("int32", n=4)),
      ("o64_ptr", Buf("int64", n=4)),
      ("BLOCK", Const(4))],
     {"o32_ptr": [2, 1, 1, 2],
      "o64_ptr": [-2147483648, 2147483647, 2147483647, -2147483648]},
     lambda I: {"o32_ptr": [wrap("int32", int(x > 0) + 1) for x in I.x_ptr],
                "o64_ptr": [wrap("int64", sval("int32", wrap("int32", int(x > 0) + 2147483647)))
                            for x in I.x_ptr]},
     alt=lambda I: {"o64_ptr": [wrap("int64", int(x > 0) + 2147483647) for x in I.x_ptr]})

case("scalar_runtime_arg", [1],
     [("x_ptr", Buf("int8", data=[100, -128, 27, -1])),
      ("add_ptr", Buf("int32", n=4)),
      ("mul_ptr", Buf("int32", n=4)),
      ("n", Scalar("int32", 100)),
      ("BLOCK", Const(4))],
     {"add_ptr": [200, -28, 127, 99], "mul_ptr": [10000, -12800, 2700, -100]},
     lambda I: {"add_ptr": [wrap("int32", x + I.n) for x in I.x_ptr],
                "mul_ptr": [wrap("int32", x * I.n) for x in I.x_ptr]},
     alt=lambda I: {"add_ptr": [wrap("int32", sval("int8", wrap("int8", x + I.n))) for x in I.x_ptr]})

# ===========================================================================
# integer // and %
# ===========================================================================

case("intdiv_tensor_trunc", [1],
     [("x_ptr", Buf("int32", data=[-7, 7, -7, 7, 6, -6, 0, -1])),
      ("y_ptr", Buf("int32", data=[2, -2, -2, 2, 3, 4, 5, 2])),
      ("q_ptr", Buf("int32", n=8)),
      ("r_ptr", Buf("int32", n=8)),
      ("BLOCK", Const(8))],
     {"q_ptr": [-3, -3, 3, 3, 2, -1, 0, 0], "r_ptr": [-1, 1, -1, 1, 0, -2, 0, -1]},
     lambda I: {"q_ptr": lanes(lambda x, y: wrap("int32", cdiv(x, y)), I.x_ptr, I.y_ptr),
                "r_ptr": lanes(lambda x, y: wrap("int32", cmod(x, y)), I.x_ptr, I.y_ptr)},
     alt=lambda I: {"q_ptr": lanes(lambda x, y: wrap("int32", x // y), I.x_ptr, I.y_ptr),
                    "r_ptr": lanes(lambda x, y: wrap("int32", x % y), I.x_ptr, I.y_ptr)})


def _intdiv_constexpr_floor(I):
    A, B = I.A, I.B
    return {"py_ptr": [wrap("int32", v) for v in (A // B, A % B, (-9) // 4, (-9) % 4)],
            "cq_ptr": [wrap("int32", cdiv(x, B)) for x in I.x_ptr],
            "cr_ptr": [wrap("int32", cmod(x, B)) for x in I.x_ptr],
            "mix_ptr": [wrap("int32", x + A // B) for x in I.x_ptr]}


case("intdiv_constexpr_floor", [1],
     [("x_ptr", Buf("int32", data=[-7, 7, -9, 9])),
      ("py_ptr", Buf("int32", n=4)),
      ("cq_ptr", Buf("int32", n=4)),
      ("cr_ptr", Buf("int32", n=4)),
      ("mix_ptr", Buf("int32", n=4)),
      ("A", Const(-7)),
      ("B", Const(2)),
      ("BLOCK", Const(4))],
     {"py_ptr": [-4, 1, -3, 3],
      "cq_ptr": [-3, 3, -4, 4],
      "cr_ptr": [-1, 1, -1, 1],
      "mix_ptr": [-11, 3, -13, 5]},
     _intdiv_constexpr_floor,
     alt=lambda I: {"py_ptr": [wrap("int32", v) for v in (cdiv(-7, 2), cmod(-7, 2), cdiv(-9, 4), cmod(-9, 4))],
                    "cq_ptr": [wrap("int32", x // 2) for x in I.x_ptr]})

case("intdiv_assigned_literal", [1],
     [("out_ptr", Buf("int32", n=4))],
     {"out_ptr": [-3, -1, -4, 1]},
     lambda I: {"out_ptr": [wrap("int32", v) for v in (cdiv(-7, 2), cmod(-7, 2), (-7) // 2, (-7) % 2)]},
     alt=lambda I: {"out_ptr": [wrap("int32", v) for v in ((-7) // 2, (-7) % 2, (-7) // 2, (-7) % 2)]})

case("intdiv_program_id", [4],
     [("q_ptr", Buf("int32", n=4)),
      ("r_ptr", Buf("int32", n=4))],
     {"q_ptr": [-1, -1, 0, 0], "r_ptr": [-1, 0, -1, 0]},
     lambda I: {"q_ptr": [wrap("int32", cdiv(p - 3, 2)) for p in range(4)],
                "r_ptr": [wrap("int32", cmod(p - 3, 2)) for p in range(4)]},
     alt=lambda I: {"q_ptr": [wrap("int32", (p - 3) // 2) for p in range(4)],
                    "r_ptr": [wrap("int32", (p - 3) % 2) for p in range(4)]})

case("fmod_float", [1],
     [("x_ptr", Buf(F32, data=[-7.5, 7.5, -7.5, 7.5, 5.25, -0.75, 1.0, 9.0])),
      ("y_ptr", Buf(F32, data=[2.0, 2.0, -2.0, -2.0, 2.0, 0.5, 4.0, -4.0])),
      ("out_ptr", Buf(F32, n=8)),
      ("BLOCK", Const(8))],
     {"out_ptr": [-1.5, 1.5, -1.5, 1.5, 1.25, -0.25, 1.0, 1.0]},
     lambda I: {"out_ptr": lanes(lambda x, y: rnd(F32, x - y * trunc(x / y)), I.x_ptr, I.y_ptr)},
     alt=lambda I: {"out_ptr": lanes(lambda x, y: rnd(F32, x - y * math.floor(x / y)), I.x_ptr, I.y_ptr)})

# ===========================================================================
# bitwise, shifts, comparisons, where, min/max, abs, fma, cdiv
# ===========================================================================

case("bitwise_ops", [1],
     [("a_ptr", Buf("int32", data=[0x0f0f0f0f, -1, 12, -8])),
      ("b_ptr", Buf("int32", data=[0x00ff00ff, 0x7f, 10, 3])),
      ("and_ptr", Buf("int32", n=4)),
      ("or_ptr", Buf("int32", n=4)),
      ("xor_ptr", Buf("int32", n=4)),
      ("inv_ptr", Buf("int32", n=4)),
      ("BLOCK", Const(4))],
     {"and_ptr": [0x000f000f, 0x7f, 8, 0],
      "or_ptr": [0x0fff0fff, -1, 14, -5],
      "xor_ptr": [0x0ff00ff0, 0xffffff80, 6, -5],
      "inv_ptr": [0xf0f0f0f0, 0, -13, 7]},
     lambda I: {"and_ptr": lanes(lambda a, b: wrap("int32", a & b), I.a_ptr, I.b_ptr),
                "or_ptr": lanes(lambda a, b: wrap("int32", a | b), I.a_ptr, I.b_ptr),
                "xor_ptr": lanes(lambda a, b: wrap("int32", a ^ b), I.a_ptr, I.b_ptr),
                "inv_ptr": [wrap("int32", -a - 1) for a in I.a_ptr]})

case("shift_ops", [1],
     [("x_ptr", Buf("int32", data=[-16, -1, 1, 0x40000001])),
      ("u_ptr", Buf("uint32", data=[0xfffffff0, 0x80000000, 1, 0x7fffffff])),
      ("s_ptr", Buf("int32", data=[0, 31, 1, 30])),
      ("o1_ptr", Buf("int32", n=4)),
      ("o2_ptr", Buf("uint32", n=4)),
      ("o3_ptr", Buf("int32", n=4)),
      ("o4_ptr", Buf("uint32", n=4)),
      ("o5_ptr", Buf("int32", n=4)),
      ("BLOCK", Const(4))],
     {"o1_ptr": [-4, -1, 0, 0x10000000],
      "o2_ptr": [0x3ffffffc, 0x20000000, 0, 0x1fffffff],
      "o3_ptr": [-64, -4, 4, 4],
      "o4_ptr": [0xffffffe0, 0, 2, 0xfffffffe],
      "o5_ptr": [-16, -1, 0, 1]},
     # Python's >> on a negative int is floor division by 2^k == arithmetic shift;
     # the logical shift is done on the unsigned value.
     lambda I: {"o1_ptr": [wrap("int32", x // 4) for x in I.x_ptr],
                "o2_ptr": [u // 4 for u in I.u_ptr],
                "o3_ptr": [wrap("int32", x * 4) for x in I.x_ptr],
                "o4_ptr": [wrap("uint32", u * 2) for u in I.u_ptr],
                "o5_ptr": lanes(lambda x, s: wrap("int32", x // (1 << s)), I.x_ptr, I.s_ptr)},
     alt=lambda I: {"o1_ptr": [wrap("int32", x) >> 2 for x in I.x_ptr],
                    "o2_ptr": [wrap("uint32", sval("int32", u) >> 2) for u in I.u_ptr]})


def _fcmp(a, b, op):
    if a == "nan" or b == "nan":
        return op == "ne"
    return {"lt": a < b, "eq": a == b, "ne": a != b, "ge": a >= b}[op]


case("compare_ops", [1],
     [("a_ptr", Buf(F32, bits=[0x3f800000, 0x7fc00000, 0x80000000, 0x40000000])),
      ("b_ptr", Buf(F32, data=[2.0, 1.0, 0.0, 2.0])),
      ("ia_ptr", Buf("int32", data=[-1, 5, 3, -2147483648])),
      ("ib_ptr", Buf("int32", data=[1, 5, 2, 2147483647])),
      ("fcode_ptr", Buf("int32", n=4)),
      ("icode_ptr", Buf("int32", n=4)),
      ("BLOCK", Const(4))],
     {"fcode_ptr": [5, 4, 10, 10], "icode_ptr": [5, 1, 6, 5]},
     lambda I: {"fcode_ptr": lanes(lambda a, b: _fcmp(a, b, "lt") + 2 * _fcmp(a, b, "eq") + 4 * _fcmp(a, b, "ne")
                                   + 8 * _fcmp(a, b, "ge"), I.a_ptr, I.b_ptr),
                "icode_ptr": lanes(lambda a, b: (a <= b) + 2 * (a > b) + 4 * (a != b), I.ia_ptr, I.ib_ptr)})


case("where_promote", [1],
     [("x_ptr", Buf("int32", data=[1, 0, 3, 0])),
      ("a_ptr", Buf("int32", data=[16777217, 5, -16777219, 7])),
      ("b_ptr", Buf(F32, data=[0.5, 0.25, 1.5, -2.5])),
      ("of_ptr", Buf(F32, n=4)),
      ("oi_ptr", Buf("int32", n=4)),
      ("BLOCK", Const(4))],
     {"of_ptr": [16777216.0, 0.25, -16777220.0, -2.5],
      "oi_ptr": [16777217, -1, -16777219, -1]},
     lambda I: {"of_ptr": [rnd(F32, a if x != 0 else b) for x, a, b in zip(I.x_ptr, I.a_ptr, I.b_ptr)],
                "oi_ptr": [wrap("int32", a if x != 0 else -1) for x, a in zip(I.x_ptr, I.a_ptr)]})

case("minmax_clamp", [1],
     [("ia_ptr", Buf("int32", data=[-1, 5, -7, 0])),
      ("ib_ptr", Buf("int32", data=[1, 3, -8, 0])),
      ("ua_ptr", Buf("uint32", data=[0xffffffff, 1, 0x80000000, 5])),
      ("ub_ptr", Buf("uint32", data=[1, 2, 0x7fffffff, 5])),
      ("f_ptr", Buf(F32, data=[-3.0, 0.5, 2.5, 1.75])),
      ("imin_ptr", Buf("int32", n=4)),
      ("imax_ptr", Buf("int32", n=4)),
      ("umin_ptr", Buf("uint32", n=4)),
      ("umax_ptr", Buf("uint32", n=4)),
      ("fcl_ptr", Buf(F32, n=4)),
      ("BLOCK", Const(4))],
     {"imin_ptr": [-1, 3, -8, 0],
      "imax_ptr": [1, 5, -7, 0],
      "umin_ptr": [1, 1, 0x7fffffff, 5],
      "umax_ptr": [0xffffffff, 2, 0x80000000, 5],
      "fcl_ptr": [-1.0, 0.5, 2.0, 1.75]},
     lambda I: {"imin_ptr": lanes(lambda a, b: wrap("int32", min(a, b)), I.ia_ptr, I.ib_ptr),
                "imax_ptr": lanes(lambda a, b: wrap("int32", max(a, b)), I.ia_ptr, I.ib_ptr),
                "umin_ptr": lanes(min, I.ua_ptr, I.ub_ptr),
                "umax_ptr": lanes(max, I.ua_ptr, I.ub_ptr),
                "fcl_ptr": [rnd(F32, min(max(f, Fr(-1)), Fr(2))) for f in I.f_ptr]},
     alt=lambda I: {"umin_ptr": lanes(lambda a, b: wrap("uint32", min(sval("int32", a), sval("int32", b))),
                                      I.ua_ptr, I.ub_ptr)})

case("abs_ops", [1],
     [("ia_ptr", Buf("int32", data=[-5, 5, 0, -2147483647])),
      ("fa_ptr", Buf(F32, bits=[0xc0200000, 0x80000000, 0x40400000, 0xff800000])),
      ("io_ptr", Buf("int32", n=4)),
      ("fo_ptr", Buf(F32, n=4)),
      ("BLOCK", Const(4))],
     {"io_ptr": [5, 5, 0, 2147483647], "fo_ptr": [2.5, 0.0, 3.0, "inf"]},
     lambda I: {"io_ptr": [wrap("int32", abs(a)) for a in I.ia_ptr],
                "fo_ptr": [b & 0x7fffffff for b in I.bits["fa_ptr"]]})

_FMA_A = [0x3f800800, 0x40400000, 0x40000000, 0xbfc00000]   # 1+2^-12, 3, 2, -1.5
_FMA_B = [0x3f800800, 0x3eaaaaab, 0x40400000, 0x40800000]   # 1+2^-12, ~1/3, 3, 4
_FMA_C = [0xbf801000, 0xbf800000, 0x3f800000, 0x40c00000]   # -(1+2^-11), -1, 1, 6
assert dec(F32, 0x3eaaaaab) == Fr(11184811, 2 ** 25)

case("fma_exact", [1],
     [("a_ptr", Buf(F32, bits=_FMA_A)),
      ("b_ptr", Buf(F32, bits=_FMA_B)),
      ("c_ptr", Buf(F32, bits=_FMA_C)),
      ("fma_ptr", Buf(F32, n=4)),
      ("mul_ptr", Buf(F32, n=4)),
      ("BLOCK", Const(4))],
     {"fma_ptr": [2.0 ** -24, 2.0 ** -25, 7.0, 0.0],
      "mul_ptr": [1 + 2.0 ** -11, 1.0, 6.0, -6.0]},
     lambda I: {"fma_ptr": [rnd(F32, a * b + c) for a, b, c in zip(I.a_ptr, I.b_ptr, I.c_ptr)],
                "mul_ptr": [rnd(F32, a * b) for a, b in zip(I.a_ptr, I.b_ptr)]},
     alt=lambda I: {"fma_ptr": [rnd(F32, dec(F32, rnd(F32, a * b)) + c)
                                for a, b, c in zip(I.a_ptr, I.b_ptr, I.c_ptr)]})

case("fp_no_contraction", [1],
     [("a_ptr", Buf(F32, bits=_FMA_A)),
      ("b_ptr", Buf(F32, bits=_FMA_B)),
      ("c_ptr", Buf(F32, bits=_FMA_C)),
      ("out_ptr", Buf(F32, n=4)),
      ("BLOCK", Const(4))],
     {"out_ptr": [0.0, 0.0, 7.0, 0.0]},
     lambda I: {"out_ptr": [rnd(F32, dec(F32, rnd(F32, a * b)) + c)
                            for a, b, c in zip(I.a_ptr, I.b_ptr, I.c_ptr)]},
     alt=lambda I: {"out_ptr": [rnd(F32, a * b + c) for a, b, c in zip(I.a_ptr, I.b_ptr, I.c_ptr)]})

case("cdiv_tensor", [1],
     [("x_ptr", Buf("int32", data=[0, 1, 4, 5, 8, -5, -1, 7])),
      ("out_ptr", Buf("int32", n=8)),
      ("BLOCK", Const(8))],
     {"out_ptr": [0, 1, 1, 2, 2, 0, 0, 2]},
     lambda I: {"out_ptr": [wrap("int32", cdiv(x + 4 - 1, 4)) for x in I.x_ptr]},
     alt=lambda I: {"out_ptr": [wrap("int32", -((-x) // 4)) for x in I.x_ptr]})

case("cdiv_constexpr", [1],
     [("n_ptr", Buf("int32", data=[-5])),
      ("out_ptr", Buf("int32", n=2)),
      ("N", Const(-5))],
     {"out_ptr": [-1, 0]},
     lambda I: {"out_ptr": [wrap("int32", (I.N + 4 - 1) // 4), wrap("int32", cdiv(I.n_ptr[0] + 4 - 1, 4))]})

# ===========================================================================
# casts
# ===========================================================================

case("cast_f32_f16_rne", [1],
     [("x_ptr", Buf(F32, bits=[0x3f801000, 0x3f803000, 0x477ff000, 0x477fef00,
                               0x33000000, 0x33400000, 0xb3c00000, 0x3dcccccd])),
      ("out_ptr", Buf(F16, n=8)),
      ("BLOCK", Const(8))],
     {"out_ptr": [1.0, 1 + 2.0 ** -9, "inf", 65504.0, 0.0, 2.0 ** -24, -(2.0 ** -23), "0x2e66"]},
     lambda I: {"out_ptr": [rnd(F16, x) for x in I.x_ptr]},
     alt=lambda I: {"out_ptr": [rnd(F16, x, "rtz") for x in I.x_ptr]})


def _oob(g):
    raise AssertionError("float -> int8 out of range (UB): %r" % g)


def _bf16_bits_trick(b):
    return (b + 0x7fff + ((b >> 16) & 1)) >> 16   # RNE on the raw bits (finite inputs)


case("cast_f32_bf16_rne", [1],
     [("x_ptr", Buf(F32, bits=[0x3f808000, 0x3f818000, 0x43808000, 0x43818000,
                               0x3f808001, 0x7f7fffff, 0x00018000, 0xbfc00000])),
      ("out_ptr", Buf(BF, n=8)),
      ("BLOCK", Const(8))],
     {"out_ptr": [1.0, 1 + 2.0 ** -6, 256.0, 260.0, "0x3f81", "inf", "0x0002", -1.5]},
     lambda I: {"out_ptr": [rnd(BF, x) for x in I.x_ptr]},
     alt=lambda I: {"out_ptr": [b >> 16 for b in I.bits["x_ptr"]]})
assert [_bf16_bits_trick(b) for b in [0x3f808000, 0x3f818000, 0x43808000, 0x43818000,
                                      0x3f808001, 0x7f7fffff, 0x00018000, 0xbfc00000]] == \
    [0x3f80, 0x3f82, 0x4380, 0x4382, 0x3f81, 0x7f80, 0x0002, 0xbfc0]

case("cast_int_float", [1],
     [("i_ptr", Buf("int32", data=[16777217, 16777219, -16777217, 2147483647])),
      ("f_ptr", Buf(F32, bits=[0x402ccccd, 0xc02ccccd, 0x3f000000, 0xbf400000])),
      ("g_ptr", Buf(F32, bits=[0x42ffcccd, 0xc300e666, 0x40600000, 0xc0600000])),
      ("fi_ptr", Buf(F32, n=4)),
      ("fo_ptr", Buf("int32", n=4)),
      ("go_ptr", Buf("int8", n=4)),
      ("BLOCK", Const(4))],
     {"fi_ptr": [16777216.0, 16777220.0, -16777216.0, 2147483648.0],
      "fo_ptr": [2, -2, 0, 0],
      "go_ptr": [127, -128, 3, -3]},
     lambda I: {"fi_ptr": [rnd(F32, i) for i in I.i_ptr],
                "fo_ptr": [wrap("int32", trunc(f)) for f in I.f_ptr],
                "go_ptr": [wrap("int8", trunc(g)) for g in I.g_ptr if -128 <= trunc(g) <= 127 or _oob(g)]},
     alt=lambda I: {"fo_ptr": [wrap("int32", math.floor(f)) for f in I.f_ptr]})
assert struct.unpack("<f", struct.pack("<I", 0x402ccccd))[0] == struct.unpack("<f", struct.pack("<f", 2.7))[0]

case("cast_rtz_bitcast", [1],
     [("x_ptr", Buf(F32, bits=[0x3f803000, 0xbf803000, 0x477ff000, 0x3f800000])),
      ("rtz_ptr", Buf(F16, n=4)),
      ("rne_ptr", Buf(F16, n=4)),
      ("bits_ptr", Buf("int32", n=4)),
      ("BLOCK", Const(4))],
     {"rtz_ptr": [1 + 2.0 ** -10, -(1 + 2.0 ** -10), 65504.0, 1.0],
      "rne_ptr": [1 + 2.0 ** -9, -(1 + 2.0 ** -9), "inf", 1.0],
      "bits_ptr": [0x3f803000, 0xbf803000, 0x477ff000, 0x3f800000]},
     lambda I: {"rtz_ptr": [rnd(F16, x, "rtz") for x in I.x_ptr],
                "rne_ptr": [rnd(F16, x) for x in I.x_ptr],
                "bits_ptr": list(I.bits["x_ptr"])})

case("cast_int_widths", [1],
     [("x_ptr", Buf("int8", data=[-1, -128, 127, 5])),
      ("y_ptr", Buf("int32", data=[300, -129, 255, -1])),
      ("u8_ptr", Buf("uint8", n=4)),
      ("i32_ptr", Buf("int32", n=4)),
      ("zx_ptr", Buf("int32", n=4)),
      ("i8_ptr", Buf("int8", n=4)),
      ("BLOCK", Const(4))],
     {"u8_ptr": [0xff, 0x80, 0x7f, 0x05],
      "i32_ptr": [-1, -128, 127, 5],
      "zx_ptr": [255, 128, 127, 5],
      "i8_ptr": [44, 127, -1, -1]},
     lambda I: {"u8_ptr": [wrap("uint8", x) for x in I.x_ptr],
                "i32_ptr": [wrap("int32", x) for x in I.x_ptr],
                "zx_ptr": [wrap("int32", x % 256) for x in I.x_ptr],
                "i8_ptr": [wrap("int8", y) for y in I.y_ptr]})

case("store_implicit_cast", [1],
     [("x_ptr", Buf(F32, bits=[0x43808000, 0x40200000, 0xc0200000, 0x3f808000])),
      ("bf_ptr", Buf(BF, n=4)),
      ("h_ptr", Buf(F16, n=4)),
      ("i_ptr", Buf("int32", n=4)),
      ("BLOCK", Const(4))],
     {"bf_ptr": [256.0, 2.5, -2.5, 1.0],
      "h_ptr": [257.0, 2.5, -2.5, 1 + 2.0 ** -8],
      "i_ptr": [257, 2, -2, 1]},
     lambda I: {"bf_ptr": [rnd(BF, x) for x in I.x_ptr],
                "h_ptr": [rnd(F16, x) for x in I.x_ptr],
                "i_ptr": [wrap("int32", trunc(x)) for x in I.x_ptr]})

# ===========================================================================
# reductions
# ===========================================================================

_X24 = [1, 2, 3, 4, 10, 20, 30, 40]


def _rows(v, m, n):
    return [v[r * n:(r + 1) * n] for r in range(m)]


def _reduce_sum_axes(I):
    rows = _rows(I.x_ptr, 2, 4)
    cols = list(zip(*rows))
    return {"s0_ptr": [wrap("int32", sum(c)) for c in cols],
            "s1_ptr": [wrap("int32", sum(r)) for r in rows],
            "sa_ptr": [wrap("int32", sum(I.x_ptr))],
            "sk_ptr": [wrap("int32", sum(r) + j) for r in rows for j in range(4)]}


case("reduce_sum_axes", [1],
     [("x_ptr", Buf("int32", data=_X24)),
      ("s0_ptr", Buf("int32", n=4)),
      ("s1_ptr", Buf("int32", n=2)),
      ("sa_ptr", Buf("int32", n=1)),
      ("sk_ptr", Buf("int32", n=8)),
      ("M", Const(2)),
      ("N", Const(4))],
     {"s0_ptr": [11, 22, 33, 44],
      "s1_ptr": [10, 100],
      "sa_ptr": [110],
      "sk_ptr": [10, 11, 12, 13, 100, 101, 102, 103]},
     _reduce_sum_axes)


def _tree_argext(vals, better):
    """Canonical tree order with the (value, index) combine of tl.argmax/argmin."""
    slots = list(zip(vals, range(len(vals))))
    s = len(slots) // 2
    while s >= 1:
        for i in range(s):
            (v1, i1), (v2, i2) = slots[i], slots[i + s]
            take1 = better(v1, v2) or (v1 == v2 and i1 < i2)
            slots[i] = (v1, i1) if take1 else (v2, i2)
        s //= 2
    return slots[0]


def _reduce_argmax_ties(I):
    x = I.x_ptr
    mx, mn = max(x), min(x)
    # first occurrence = lowest index; and the same through the tree order
    assert _tree_argext(x, lambda a, b: a > b) == (mx, x.index(mx))
    assert _tree_argext(x, lambda a, b: a < b) == (mn, x.index(mn))
    return {"vals_ptr": [rnd(F32, mx), rnd(F32, mn)], "idx_ptr": [x.index(mx), x.index(mn)]}


def _argext_keep_left(vals, better):
    slots = list(zip(vals, range(len(vals))))
    s = len(slots) // 2
    while s >= 1:
        for i in range(s):
            if not better(slots[i][0], slots[i + s][0]) and slots[i][0] != slots[i + s][0]:
                slots[i] = slots[i + s]
        s //= 2
    return slots[0][1]


case("reduce_argmax_ties", [1],
     [("x_ptr", Buf(F32, data=[3.0, 7.0, -1.0, -5.0, 7.0, 2.0, -5.0, 0.0])),
      ("vals_ptr", Buf(F32, n=2)),
      ("idx_ptr", Buf("int32", n=2)),
      ("BLOCK", Const(8))],
     {"vals_ptr": [7.0, -5.0], "idx_ptr": [1, 3]},
     _reduce_argmax_ties,
     alt=lambda I: {"idx_ptr": [_argext_keep_left(I.x_ptr, lambda a, b: a > b),
                                _argext_keep_left(I.x_ptr, lambda a, b: a < b)]})


def _reduce_minmax_2d(I):
    rows = _rows(I.x_ptr, 2, 4)
    cols = list(zip(*rows))
    return {"mx0_ptr": [wrap("int32", max(c)) for c in cols],
            "mn0_ptr": [wrap("int32", min(c)) for c in cols],
            "am1_ptr": [r.index(max(r)) for r in rows],
            "an1_ptr": [r.index(min(r)) for r in rows]}


case("reduce_minmax_2d", [1],
     [("x_ptr", Buf("int32", data=[5, 9, 9, 1, 4, 4, 2, 4])),
      ("mx0_ptr", Buf("int32", n=4)),
      ("mn0_ptr", Buf("int32", n=4)),
      ("am1_ptr", Buf("int32", n=2)),
      ("an1_ptr", Buf("int32", n=2)),
      ("M", Const(2)),
      ("N", Const(4))],
     {"mx0_ptr": [5, 9, 9, 4], "mn0_ptr": [4, 4, 2, 1], "am1_ptr": [1, 0], "an1_ptr": [3, 2]},
     _reduce_minmax_2d)


def _xor(v):
    return reduce(lambda a, b: a ^ b, v)


case("reduce_xor_sum", [1],
     [("x_ptr", Buf("int32", data=[1, 2, 4, 8, 3, 5, 6, -1])),
      ("ax1_ptr", Buf("int32", n=2)),
      ("ax0_ptr", Buf("int32", n=4)),
      ("all_ptr", Buf("int32", n=1)),
      ("M", Const(2)),
      ("N", Const(4))],
     {"ax1_ptr": [15, -1], "ax0_ptr": [2, 7, 2, -9], "all_ptr": [-16]},
     lambda I: {"ax1_ptr": [wrap("int32", _xor(r)) for r in _rows(I.x_ptr, 2, 4)],
                "ax0_ptr": [wrap("int32", _xor(c)) for c in zip(*_rows(I.x_ptr, 2, 4))],
                "all_ptr": [wrap("int32", _xor(I.x_ptr))]})


def _tree_fsum(v):
    x = list(v)
    s = len(x) // 2
    while s >= 1:
        for i in range(s):
            x[i] = dec(F32, rnd(F32, x[i] + x[i + s]))
        s //= 2
    return rnd(F32, x[0])


def _seq_fsum(v):
    acc = v[0]
    for t in v[1:]:
        acc = dec(F32, rnd(F32, acc + t))
    return rnd(F32, acc)


assert float_bits(F32, 1e8) == 0x4cbebc20 and dec(F32, 0x4cbebc20) == 100000000
case("reduce_fsum_order", [1],
     [("x_ptr", Buf(F32, data=[1e8, 1.0, 1.0, 1.0, -1e8, 1.0, 1.0, 1.0])),
      ("y_ptr", Buf(F32, data=[1e8, 1.0, -1e8, 1.0, 1.0, 1e8, 1.0, -1e8])),
      ("s_ptr", Buf(F32, n=1)),
      ("r_ptr", Buf(F32, n=2)),
      ("BLOCK", Const(8)),
      ("M", Const(2)),
      ("N", Const(4))],
     {"s_ptr": [6.0], "r_ptr": [2.0, 2.0]},
     lambda I: {"s_ptr": [_tree_fsum(I.x_ptr)], "r_ptr": [_tree_fsum(r) for r in _rows(I.y_ptr, 2, 4)]},
     alt=lambda I: {"s_ptr": [_seq_fsum(I.x_ptr)], "r_ptr": [_seq_fsum(r) for r in _rows(I.y_ptr, 2, 4)]})

case("reduce_custom_combine", [1],
     [("x_ptr", Buf("int32", data=[65537, 65537, 3, -1])),
      ("out_ptr", Buf("int32", n=1)),
      ("BLOCK", Const(4))],
     {"out_ptr": [-393219]},
     lambda I: {"out_ptr": [wrap("int32", reduce(lambda a, b: sval("int32", wrap("int32", a * b)), I.x_ptr))]})

def _tuple_tree(ts, f):
    """The canonical tree over a list of tuples, the lower index on the left."""
    x = list(ts)
    s = len(x) // 2
    while s >= 1:
        for i in range(s):
            x[i] = f(x[i], x[i + s])
        s //= 2
    return x[0]


def _tuple_seq(ts, f):
    acc = ts[0]
    for t in ts[1:]:
        acc = f(acc, t)
    return acc


def _fadd(a, b):
    return dec(F32, rnd(F32, a + b))


def _sum_count(p, q):
    return (_fadd(p[0], q[0]), p[1] + q[1])


def _argmax_pair(p, q):
    return p if (p[0] > q[0] or (p[0] == q[0] and p[1] < q[1])) else q


def _reduce_tuple_combine(I, order):
    rows = _rows(I.x_ptr, 2, 4)
    sc = [order([(v, 1) for v in r], _sum_count) for r in rows]
    am = [order([(v, j) for j, v in enumerate(r)], _argmax_pair) for r in rows]
    return {"s_ptr": [rnd(F32, t[0]) for t in sc], "n_ptr": [wrap("int32", t[1]) for t in sc],
            "v_ptr": [rnd(F32, t[0]) for t in am], "i_ptr": [wrap("int32", t[1]) for t in am]}


case("reduce_tuple_combine", [1],
     [("x_ptr", Buf(F32, data=[1e8, 1.0, -1e8, 1.0, 1.0, 2.0, 3.0, 4.0])),
      ("s_ptr", Buf(F32, n=2)),
      ("n_ptr", Buf("int32", n=2)),
      ("v_ptr", Buf(F32, n=2)),
      ("i_ptr", Buf("int32", n=2)),
      ("M", Const(2)),
      ("N", Const(4))],
     {"s_ptr": [2.0, 10.0], "n_ptr": [4, 4], "v_ptr": [1e8, 4.0], "i_ptr": [0, 3]},
     lambda I: _reduce_tuple_combine(I, _tuple_tree),
     alt=lambda I: {"s_ptr": _reduce_tuple_combine(I, _tuple_seq)["s_ptr"]})


def _affine(p, q):
    return (sval("int32", wrap("int32", p[0] * q[0])), sval("int32", wrap("int32", p[1] * q[0] + q[1])))


def _scan(xs, f, reverse=False, acc_left=True):
    order = list(range(len(xs)))[::-1] if reverse else list(range(len(xs)))
    ys = [None] * len(xs)
    acc = None
    for i in order:
        acc = xs[i] if acc is None else (f(acc, xs[i]) if acc_left else f(xs[i], acc))
        ys[i] = acc
    return ys


def _scan_tuple_affine(I, acc_left=True):
    xs = list(zip(I.a_ptr, I.b_ptr))
    fw = _scan(xs, _affine, acc_left=acc_left)
    rv = _scan(xs, _affine, reverse=True, acc_left=acc_left)
    s = _scan(I.f_ptr, _fadd)
    return {"fa_ptr": [wrap("int32", t[0]) for t in fw], "fb_ptr": [wrap("int32", t[1]) for t in fw],
            "ra_ptr": [wrap("int32", t[0]) for t in rv], "rb_ptr": [wrap("int32", t[1]) for t in rv],
            "s_ptr": [rnd(F32, v) for v in s]}


case("scan_tuple_affine", [1],
     [("a_ptr", Buf("int32", data=[3, 1, 4, 1, 5, 9, 2, 6])),
      ("b_ptr", Buf("int32", data=[1, -2, 3, 0, 2, 1, -1, 4])),
      ("f_ptr", Buf(F32, data=[1e8, 1.0, -1e8, 1.0])),
      ("fa_ptr", Buf("int32", n=8)),
      ("fb_ptr", Buf("int32", n=8)),
      ("ra_ptr", Buf("int32", n=8)),
      ("rb_ptr", Buf("int32", n=8)),
      ("s_ptr", Buf(F32, n=4)),
      ("N", Const(8))],
     {"fa_ptr": [3, 3, 12, 12, 60, 540, 1080, 6480],
      "fb_ptr": [1, -1, -1, -1, -3, -26, -53, -314],
      "ra_ptr": [6480, 2160, 2160, 540, 540, 108, 12, 6],
      "rb_ptr": [3868, 1289, 1291, 322, 322, 64, 7, 4],
      "s_ptr": [1e8, 1e8, 0.0, 1.0]},
     _scan_tuple_affine,
     alt=lambda I: {k: v for k, v in _scan_tuple_affine(I, acc_left=False).items() if k == "fb_ptr"})


# ===========================================================================
# shapes, memory
# ===========================================================================

case("bcast_outer", [1],
     [("x_ptr", Buf("int32", data=[0, 10, 20, 30])),
      ("y_ptr", Buf("int32", data=[1, 2])),
      ("sum_ptr", Buf("int32", n=8)),
      ("bc_ptr", Buf("int32", n=8)),
      ("M", Const(4)),
      ("N", Const(2))],
     {"sum_ptr": [1, 2, 11, 12, 21, 22, 31, 32], "bc_ptr": [100, 200] * 4},
     lambda I: {"sum_ptr": [wrap("int32", x + y) for x in I.x_ptr for y in I.y_ptr],
                "bc_ptr": [wrap("int32", y * 100) for _ in I.x_ptr for y in I.y_ptr]})

case("reshape_trans", [1],
     [("x_ptr", Buf("int32", data=[0, 10, 20, 30, 40, 50, 60, 70])),
      ("out_ptr", Buf("int32", n=8)),
      ("BLOCK", Const(8))],
     {"out_ptr": [0, 40, 10, 50, 20, 60, 30, 70]},
     # out[i*2 + j] = t[i][j] = r[j][i] = x[j*4 + i]
     lambda I: {"out_ptr": [wrap("int32", I.x_ptr[j * 4 + i]) for i in range(4) for j in range(2)]})

case("masked_load_other", [1],
     [("x_ptr", Buf("int32", data=[10, 20, 30, 40, 50])),
      ("out_ptr", Buf("int32", n=8)),
      ("n", Scalar("int32", 5)),
      ("BLOCK", Const(8))],
     {"out_ptr": [10, 20, 30, 40, 50, -1, -1, -1]},
     lambda I: {"out_ptr": [wrap("int32", I.x_ptr[i] if i < I.n else -1) for i in range(8)]})

case("masked_store_partial", [1],
     [("x_ptr", Buf("int32", data=[1, 2, 3, 4, 5, 6, 7, 8])),
      ("out_ptr", Buf("int32", data=[99] * 8)),
      ("n", Scalar("int32", 6)),
      ("BLOCK", Const(8))],
     {"out_ptr": [2, 99, 6, 99, 10, 99, 99, 99]},
     lambda I: {"out_ptr": [wrap("int32", I.x_ptr[i] * 2 if (i % 2 == 0 and i < I.n) else I.out_ptr[i])
                            for i in range(8)]})

def _reads_before_writes(I):
    x = list(I.x_ptr)
    return {"x_ptr": [enc("int32", wrap("int32", x[7 - i] + 1)) for i in range(8)]}


def _reads_interleaved(I):
    # the wrong rule: each element loaded just before it is stored, in order
    x = list(I.x_ptr)
    for i in range(8):
        x[7 - i] = wrap("int32", x[i] + 1)
    return {"x_ptr": [enc("int32", v) for v in x]}


case("store_reads_before_writes", [1],
     [("x_ptr", Buf("int32", data=[10, 11, 12, 13, 14, 15, 16, 17])),
      ("BLOCK", Const(8))],
     {"x_ptr": [18, 17, 16, 15, 14, 13, 12, 11]},
     _reads_before_writes, _reads_interleaved)


# ===========================================================================
# control flow
# ===========================================================================

case("loop_for_range", [1],
     [("x_ptr", Buf("int32", data=[1, 2, 3, 4])),
      ("o1_ptr", Buf("int32", n=4)),
      ("o2_ptr", Buf("int32", n=4)),
      ("n", Scalar("int32", 5)),
      ("BLOCK", Const(4))],
     {"o1_ptr": [10, 20, 30, 40], "o2_ptr": [4, 8, 12, 16]},
     lambda I: {"o1_ptr": [wrap("int32", sum(x * i for i in range(0, I.n))) for x in I.x_ptr],
                "o2_ptr": [wrap("int32", sum(x * i for i in range(1, I.n, 2))) for x in I.x_ptr]})


def _loop_while(I):
    k, acc = I.k_ptr[0], 0
    while k < I.limit:
        acc += k
        k *= 3
    return {"out_ptr": [wrap("int32", acc + j) for j in range(4)], "kout_ptr": [wrap("int32", k)]}


case("loop_while", [1],
     [("k_ptr", Buf("int32", data=[2])),
      ("out_ptr", Buf("int32", n=4)),
      ("kout_ptr", Buf("int32", n=1)),
      ("limit", Scalar("int32", 100)),
      ("BLOCK", Const(4))],
     {"out_ptr": [80, 81, 82, 83], "kout_ptr": [162]},
     _loop_while)

case("if_else_scalar", [2],
     [("flag_ptr", Buf("int32", data=[3, -1])),
      ("x_ptr", Buf("int32", data=[1, 2, 3, 4, 5, 6, 7, 8])),
      ("out_ptr", Buf("int32", n=8)),
      ("BLOCK", Const(4))],
     {"out_ptr": [10, 20, 30, 40, -5, -4, -3, -2]},
     lambda I: {"out_ptr": [wrap("int32", I.x_ptr[i] * 10 if I.flag_ptr[i // 4] > 2 else I.x_ptr[i] - 10)
                            for i in range(8)]})

case("static_range_unroll", [1],
     [("x_ptr", Buf("int32", data=[1, 2, 3, 4, 5, 6, 7, 8])),
      ("o1_ptr", Buf("int32", n=2)),
      ("o2_ptr", Buf("int32", n=2)),
      ("BLOCK", Const(2))],
     {"o1_ptr": [50, 60], "o2_ptr": [6, 8]},
     lambda I: {"o1_ptr": [wrap("int32", sum(I.x_ptr[2 * i + j] * (i + 1) for i in range(4))) for j in range(2)],
                "o2_ptr": [wrap("int32", sum(I.x_ptr[2 * i + j] for i in range(4) if i % 2 == 0))
                           for j in range(2)]})

case("constexpr_if", [1],
     [("x_ptr", Buf("int32", data=[-3, 2, 5, 0])),
      ("out_ptr", Buf("int32", n=4)),
      ("MODE", Const(2)),
      ("BLOCK", Const(4))],
     {"out_ptr": [9, 4, 25, 0]},
     lambda I: {"out_ptr": [wrap("int32", x * x) for x in I.x_ptr]},
     alt=lambda I: {"out_ptr": [wrap("int32", x + 1) for x in I.x_ptr]})

case("helper_jit_fn", [1],
     [("x_ptr", Buf("int32", data=[1, -2, 3, 4])),
      ("y_ptr", Buf("int32", data=[10, 20, 30, -40])),
      ("sq_ptr", Buf("int32", n=4)),
      ("s_ptr", Buf("int32", n=4)),
      ("d_ptr", Buf("int32", n=4)),
      ("BLOCK", Const(4))],
     {"sq_ptr": [4, 7, 12, 19], "s_ptr": [11, 18, 33, -36], "d_ptr": [-9, -22, -27, 44]},
     lambda I: {"sq_ptr": [wrap("int32", x * x + 3) for x in I.x_ptr],
                "s_ptr": lanes(lambda x, y: wrap("int32", x + y), I.x_ptr, I.y_ptr),
                "d_ptr": lanes(lambda x, y: wrap("int32", x - y), I.x_ptr, I.y_ptr)})

case("ptr2d_strides", [1],
     [("x_ptr", Buf("int32", data=[100 * r + c for r in range(4) for c in range(8)])),
      ("o_ptr", Buf("int32", n=16)),
      ("ot_ptr", Buf("int32", n=16)),
      ("stride_xm", Scalar("int32", 8)),
      ("stride_xn", Scalar("int32", 2)),
      ("BM", Const(4)),
      ("BN", Const(4))],
     {"o_ptr": [0, 2, 4, 6, 100, 102, 104, 106, 200, 202, 204, 206, 300, 302, 304, 306],
      "ot_ptr": [0, 100, 200, 300, 2, 102, 202, 302, 4, 104, 204, 304, 6, 106, 206, 306]},
     lambda I: {"o_ptr": [wrap("int32", I.x_ptr[r * I.stride_xm + c * I.stride_xn])
                          for r in range(4) for c in range(4)],
                "ot_ptr": [wrap("int32", I.x_ptr[r * I.stride_xm + c * I.stride_xn])
                           for c in range(4) for r in range(4)]})

case("zeros_full", [1],
     [("x_ptr", Buf(F16, data=[1.5, -2.0, 3.0, 0.25])),
      ("z_ptr", Buf(F16, n=4)),
      ("f_ptr", Buf(F16, n=4)),
      ("w_ptr", Buf("int32", n=4)),
      ("z32_ptr", Buf("int32", data=[7, 7, 7, 7])),
      ("BLOCK", Const(4))],
     {"z_ptr": [1.0] * 4,
      "f_ptr": [2.25, -3.0, 4.5, 0.375],
      "w_ptr": [-56] * 4,
      "z32_ptr": [0] * 4},
     lambda I: {"z_ptr": [rnd(F16, 0 + 1) for _ in I.x_ptr],
                "f_ptr": [rnd(F16, Fr(3, 2) * x) for x in I.x_ptr],
                "w_ptr": [wrap("int32", sval("int8", wrap("int8", 100 + 100))) for _ in I.x_ptr],
                "z32_ptr": [0 for _ in I.x_ptr]})

case("int_truediv", [1],
     [("x_ptr", Buf("int32", data=[7, -1, 1, 12])),
      ("y_ptr", Buf("int32", data=[2, 4, -8, 16])),
      ("out_ptr", Buf(F32, n=4)),
      ("BLOCK", Const(4))],
     {"out_ptr": [3.5, -0.25, -0.125, 0.75]},
     lambda I: {"out_ptr": lanes(lambda x, y: rnd(F32, Fr(x, y)), I.x_ptr, I.y_ptr)},
     alt=lambda I: {"out_ptr": lanes(lambda x, y: rnd(F32, cdiv(x, y)), I.x_ptr, I.y_ptr)})

case("bf16_arith", [1],
     [("x_ptr", Buf(BF, bits=[0x3f80, 0x3f81, 0x4380, 0x4040])),
      ("y_ptr", Buf(BF, bits=[0x3b80, 0x3f81, 0x3f80, 0x3f00])),
      ("add_ptr", Buf(F32, n=4)),
      ("mul_ptr", Buf(F32, n=4)),
      ("BLOCK", Const(4))],
     {"add_ptr": [1.0, 2 + 2.0 ** -6, 256.0, 3.5],
      "mul_ptr": [2.0 ** -8, 1 + 2.0 ** -6, 256.0, 1.5]},
     lambda I: {"add_ptr": lanes(lambda x, y: widen(BF, F32, rnd(BF, x + y)), I.x_ptr, I.y_ptr),
                "mul_ptr": lanes(lambda x, y: widen(BF, F32, rnd(BF, x * y)), I.x_ptr, I.y_ptr)},
     alt=lambda I: {"add_ptr": lanes(lambda x, y: rnd(F32, x + y), I.x_ptr, I.y_ptr),
                    "mul_ptr": lanes(lambda x, y: rnd(F32, x * y), I.x_ptr, I.y_ptr)})


# ===========================================================================
# tl.dot
# ===========================================================================

_MM_M, _MM_N, _MM_K = 24, 20, 40


def _mm_closed(i, j):
    """C[i, j] = sum_k (i - 2k)(3k + j - 7) in closed form (see matmul_tiled.py)."""
    K = _MM_K
    S1, S2 = K * (K - 1) // 2, (K - 1) * K * (2 * K - 1) // 6
    return 3 * i * S1 + K * i * j - 7 * K * i - 6 * S2 - 2 * j * S1 + 14 * S1


def _mm_loop(I, kmax=_MM_K):
    """k ascending from +0, every product and sum rounded to float32; the
    operands are the float16 inputs as exact fractions."""
    M, N, K = _MM_M, _MM_N, _MM_K
    out = []
    for i in range(M):
        for j in range(N):
            acc = Fr(0)
            for k in range(kmax):
                p = dec(F32, rnd(F32, I.a_ptr[i * K + k] * I.b_ptr[k * N + j]))
                acc = dec(F32, rnd(F32, acc + p))
            out.append(rnd(F32, acc))
    return {"c_ptr": out}


case("matmul_tiled", [4],
     [("a_ptr", Buf(F16, data=[float(i - 2 * k) for i in range(_MM_M) for k in range(_MM_K)])),
      ("b_ptr", Buf(F16, data=[float(3 * k + j - 7) for k in range(_MM_K) for j in range(_MM_N)])),
      ("c_ptr", Buf(F32, n=_MM_M * _MM_N)),
      ("M", Scalar("int32", _MM_M)), ("N", Scalar("int32", _MM_N)), ("K", Scalar("int32", _MM_K)),
      ("stride_am", Scalar("int32", _MM_K)), ("stride_ak", Scalar("int32", 1)),
      ("stride_bk", Scalar("int32", _MM_N)), ("stride_bn", Scalar("int32", 1)),
      ("stride_cm", Scalar("int32", _MM_N)), ("stride_cn", Scalar("int32", 1)),
      ("BLOCK_SIZE_M", Const(16)), ("BLOCK_SIZE_N", Const(16)), ("BLOCK_SIZE_K", Const(16)),
      ("GROUP_SIZE_M", Const(2))],
     {"c_ptr": [float(_mm_closed(i, j)) for i in range(_MM_M) for j in range(_MM_N)]},
     _mm_loop,
     # a wrong rule: the ragged last K block (k = 32..39) dropped
     alt=lambda I: _mm_loop(I, kmax=32))

assert _mm_closed(0, 0) == -112320 and _mm_closed(23, 19) == -77100


# ---------------------------------------------------------------------------

def self_test():
    # the rounding helper against struct's own conversions on a few values
    for v in [0.1, 1e-4, 65519.0, 3 * 2.0 ** -26, 2.0 ** -25, -1.0009765625, 1.00146484375, 2049.0]:
        assert rnd(F16, Fr(v)) == struct.unpack("<H", struct.pack("<e", v))[0], v
    for v in [0.1, 1e-4, 65520.0, 1e8 + 1, 2.7, -128.9, 16777219.0, 2.0 ** -140]:
        assert rnd(F32, Fr(v)) == struct.unpack("<I", struct.pack("<f", v))[0], v
    assert rnd(F16, Fr(65520)) == 0x7c00 and rnd(F16, Fr(65520), "rtz") == 0x7bff
    assert rnd(F32, Fr(16777217)) == 0x4b800000 and rnd(BF, Fr(257)) == 0x4380
    assert dec(F16, 0x0001) == p2(-24) and dec(BF, 0x3a40) == 3 * p2(-12)
    assert cdiv(-7, 2) == -3 and cmod(-7, 2) == -1 and cdiv(7, -2) == -3 and cmod(7, -2) == 1


def main():
    self_test()
    check_only = "--check" in sys.argv[1:]
    names = set()
    for name, grid, args, expect, check, alt in CASES:
        assert name not in names, name
        names.add(name)
        assert os.path.exists(os.path.join(HERE, name + ".py")), name
        doc = run_case(name, grid, args, expect, check, alt)
        if not check_only:
            with open(os.path.join(HERE, name + ".json"), "w") as f:
                f.write(render(doc))
    print("%d cases %s" % (len(CASES), "checked" if check_only else "checked and written"))


def render(doc):
    """JSON with one buffer / argument per line (readable diffs)."""
    lines = ["{", '  "kernel": %s,' % json.dumps(doc["kernel"]), '  "grid": %s,' % json.dumps(doc["grid"]),
             '  "args": {']
    items = list(doc["args"].items())
    for i, (k, v) in enumerate(items):
        lines.append("    %s: %s%s" % (json.dumps(k), json.dumps(v), "," if i + 1 < len(items) else ""))
    lines.append("  },")
    lines.append('  "expected": {')
    lines.append('    "buffers": {')
    items = list(doc["expected"]["buffers"].items())
    for i, (k, v) in enumerate(items):
        lines.append("      %s: %s%s" % (json.dumps(k), json.dumps(v), "," if i + 1 < len(items) else ""))
    lines.append("    },")
    lines.append('    "ub": []')
    lines.append("  },")
    lines.append('  "provenance": %s' % json.dumps(doc["provenance"]))
    lines.append("}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
