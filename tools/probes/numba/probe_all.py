#!/usr/bin/env python3
"""Measure what numba-cuda really does where the CUDA Python spec is silent.

    python3 tools/probes/numba/probe_all.py OUT.json [--compile-only]

Runs every probe of docs/numba-measured.md, sections (a)-(j), each case in its
own try/except, and writes one JSON object (sections -> lists of records) to
OUT.json.  Value probes launch small kernels (one thread per case, each thread
working on its own elements) and record every output element as exact bits
(lowercase hex, full width) plus a readable value.  Type probes (f) compile
device functions with numba-cuda's compile_cuda and record the inferred return
type and the typemap of the named variables.  Refusal probes (i) compile with
cuda.compile_ptx and record the exception class and the first line of its
message.

--compile-only: compile every kernel with cuda.compile_ptx (cc 9.0) instead of
launching it (no GPU needed; checks the script where only the CUDA toolkit's
NVVM is installed).
"""

import json
import math
import os
import platform
import struct
import sys
import time
import traceback

os.environ.setdefault("NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS", "0")

import numpy as np

if not hasattr(np, "row_stack"):
    np.row_stack = np.vstack  # numpy >= 2.4 removed it; some numba releases still use it

import numba  # noqa: E402
from numba import cuda  # noqa: E402
from numba import types as nt  # noqa: E402

COMPILE_ONLY = "--compile-only" in sys.argv
CC = (9, 0)

try:
    from numba.cuda.typing.typeof import typeof as nb_typeof
except Exception:  # pragma: no cover
    nb_typeof = numba.typeof

try:
    from numba.cuda.compiler import compile_cuda
except Exception:  # pragma: no cover
    compile_cuda = None

RESULTS = {}
LOG = []


def log(*a):
    s = " ".join(str(x) for x in a)
    LOG.append(s)
    print(s, flush=True)


def first_line(e):
    s = str(e).strip()
    lines = [ln for ln in s.splitlines() if ln.strip()]
    return lines[0].strip() if lines else type(e).__name__


def short_err(e):
    s = str(e).strip()
    lines = [ln.rstrip() for ln in s.splitlines() if ln.strip()]
    detail = ""
    for ln in lines:
        t = ln.strip()
        if t and not t.startswith("Failed in ") and not t.startswith("During: ") and not t.startswith("- Resolution failure"):
            detail = t
            break
    return {"error_type": type(e).__module__ + "." + type(e).__name__, "first_line": lines[0].strip() if lines else "",
            "detail": detail, "message_head": "\n".join(lines[:12])}


# ---------------------------------------------------------------------------
# values <-> bits
# ---------------------------------------------------------------------------

INT_RANGE = {
    "int8": (-2 ** 7, 2 ** 7 - 1), "int16": (-2 ** 15, 2 ** 15 - 1), "int32": (-2 ** 31, 2 ** 31 - 1),
    "int64": (-2 ** 63, 2 ** 63 - 1), "uint8": (0, 2 ** 8 - 1), "uint16": (0, 2 ** 16 - 1),
    "uint32": (0, 2 ** 32 - 1), "uint64": (0, 2 ** 64 - 1),
}


def width(dt):
    return np.dtype(dt).itemsize * 8


def make(dt, vals):
    """numpy array of dtype dt from Python values (ints wrap to dt's width; floats as given)."""
    dt = np.dtype(dt)
    if dt.kind in "iu":
        w = dt.itemsize * 8
        bits = [int(v) & ((1 << w) - 1) for v in vals]
        return np.array(bits, dtype=np.dtype("uint%d" % w)).view(dt)
    if dt.kind == "b":
        return np.array([bool(v) for v in vals], dtype=np.bool_)
    return np.array([float(v) for v in vals], dtype=np.float64).astype(dt)


def bits_of(a):
    a = np.ascontiguousarray(a).reshape(-1)
    w = a.dtype.itemsize * 8
    return [int(b) for b in a.view(np.dtype("uint%d" % w)).tolist()]


def hexs(a):
    w = np.dtype(a.dtype).itemsize * 8
    return ["0x%0*x" % (w // 4, b) for b in bits_of(a)]


def readable(a):
    a = np.ascontiguousarray(a).reshape(-1)
    out = []
    for v in a.tolist():
        if isinstance(v, float):
            if math.isnan(v):
                out.append("nan")
            elif math.isinf(v):
                out.append("inf" if v > 0 else "-inf")
            elif v == 0 and math.copysign(1, v) < 0:
                out.append("-0.0")
            else:
                out.append(repr(v))
        else:
            out.append(v)
    return out


def enc(a):
    return {"dtype": str(a.dtype), "bits": hexs(a), "values": readable(a)}


def val_repr(v):
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        if v == 0 and math.copysign(1, v) < 0:
            return "-0.0"
        return repr(v)
    return v


# ---------------------------------------------------------------------------
# kernels
# ---------------------------------------------------------------------------

NS = {"cuda": cuda, "math": math, "np": np, "numba": numba}
for _n in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float16", "float32", "float64", "boolean", "intp"):
    NS[_n] = getattr(numba, _n, None) or getattr(nt, _n)

_kid = [0]


def make_fn(src, name=None):
    """exec `src` (one def) in NS and return the function."""
    ns = dict(NS)
    exec(compile(src, "<probe%d>" % _kid[0], "exec"), ns)
    _kid[0] += 1
    fns = [v for k, v in ns.items() if callable(v) and getattr(v, "__code__", None) is not None
           and k not in NS and (name is None or k == name)]
    assert len(fns) == 1, src
    return fns[0]


def launch(src, arrays, nthreads, jitopts=None, grid=1):
    """Compile `src` as a kernel and launch it on `arrays` (numpy) with one block of nthreads.
    Returns the arrays after the launch (copied back)."""
    fn = make_fn(src)
    if COMPILE_ONLY:
        sig = tuple(nb_typeof(a) for a in arrays)
        cuda.compile_ptx(fn, sig, cc=CC, **({"debug": True, "opt": False} if (jitopts or {}).get("debug") else {}))
        return [a.copy() for a in arrays]
    k = cuda.jit(**(jitopts or {}))(fn)
    d = [cuda.to_device(a) for a in arrays]
    k[grid, nthreads](*d)
    cuda.synchronize()
    return [x.copy_to_host() for x in d]


def elementwise(section, label, src, ins, outs, extra=None):
    """ins: list of (name, numpy array) (same length n); outs: list of (name, dtype).
    Kernel params: ins then outs, in order. Appends one record with per-case rows."""
    n = len(ins[0][1])
    out_arrays = [np.zeros(n, dtype=np.dtype(dt)) for _, dt in outs]
    rec = {"label": label, "src": src.strip("\n")}
    if extra:
        rec.update(extra)
    try:
        res = launch(src, [a for _, a in ins] + out_arrays, n)
        rows = []
        for i in range(n):
            row = {"in": {nm: {"dtype": str(a.dtype), "bits": hexs(a[i:i + 1])[0], "value": readable(a[i:i + 1])[0]}
                          for nm, a in ins}, "out": {}}
            for (nm, dt), r in zip(outs, res[len(ins):]):
                row["out"][nm] = {"dtype": str(r.dtype), "bits": hexs(r[i:i + 1])[0], "value": readable(r[i:i + 1])[0]}
            rows.append(row)
        rec["rows"] = rows
        rec["ok"] = True
    except Exception as e:
        rec["ok"] = False
        rec.update(short_err(e))
        rec["traceback_tail"] = traceback.format_exc().splitlines()[-3:]
    RESULTS.setdefault(section, []).append(rec)
    log(section, label, "ok" if rec["ok"] else "FAILED: " + rec.get("first_line", ""))
    return rec


def typeinfo(fn, argtypes):
    cres = compile_cuda(fn, None, tuple(argtypes), cc=CC)
    tm = {}
    for k, v in cres.type_annotation.typemap.items():
        if k.startswith("$") or k.startswith("arg."):
            continue
        tm[k] = str(v)
    return str(cres.signature.return_type), tm


# ---------------------------------------------------------------------------
# (a) integer // and % with negative operands
# ---------------------------------------------------------------------------

def wide_of(dt):
    return "uint64" if dt in ("uint64",) else "int64"


def sec_a():
    S = "a_int_floordiv_mod"
    src = """
def k(x, y, q, r, qw, rw):
    i = cuda.grid(1)
    if i < x.size:
        q[i] = x[i] // y[i]
        r[i] = x[i] % y[i]
        qw[i] = x[i] // y[i]
        rw[i] = x[i] % y[i]
"""
    for dt in ("int8", "int16", "int32", "int64"):
        lo, hi = INT_RANGE[dt]
        pairs = [(-7, 2), (7, -2), (-7, -2), (7, 2), (-8, 2), (-1, 3), (1, -3), (0, -3), (-7, 7), (7, -7),
                 (lo, -1), (lo, 1), (lo, 2), (lo, 3), (lo, -3), (hi, -1), (lo, lo), (hi, lo), (lo, hi), (-1, lo)]
        xs, ys = zip(*pairs)
        elementwise(S, f"{dt} // % (q,r stored to {dt}; qw,rw stored to int64)", src,
                    [("x", make(dt, xs)), ("y", make(dt, ys))],
                    [("q", dt), ("r", dt), ("qw", "int64"), ("rw", "int64")], {"dtype": dt})
    for dt in ("uint32", "uint64", "uint8"):
        lo, hi = INT_RANGE[dt]
        pairs = [(7, 2), (hi - 6, 2), (7, hi - 1), (hi, 1), (hi, hi), (1 << (width(dt) - 1), hi), (5, 7),
                 (hi, 2), (hi - 6, 7)]
        xs, ys = zip(*pairs)
        elementwise(S, f"{dt} // % (q,r stored to {dt}; qw,rw stored to {wide_of(dt)})", src,
                    [("x", make(dt, xs)), ("y", make(dt, ys))],
                    [("q", dt), ("r", dt), ("qw", wide_of(dt)), ("rw", wide_of(dt))], {"dtype": dt})
    # mixed signedness
    for dx, dy, pairs in (("int32", "uint32", [(-7, 2), (7, 2), (-1, 0xFFFFFFFF), (-2 ** 31, 3)]),
                          ("uint32", "int32", [(7, -2), (0xFFFFFFF9, 2), (0xFFFFFFFF, -1), (5, -7)]),
                          ("int64", "uint64", [(-7, 2), (7, 2), (-1, 2 ** 64 - 1), (-7, 2 ** 63)]),
                          ("uint64", "int64", [(7, -2), (2 ** 64 - 7, 2), (2 ** 64 - 1, -1), (2 ** 63, -1)]),
                          ("int8", "uint8", [(-7, 2), (-128, 255), (7, 200)])):
        xs, ys = zip(*pairs)
        elementwise(S, f"{dx} // {dy}, % (qw,rw stored to int64; q,r stored to {dx})", src,
                    [("x", make(dx, xs)), ("y", make(dy, ys))],
                    [("q", dx), ("r", dx), ("qw", "int64"), ("rw", "int64")], {"dtype": f"{dx},{dy}"})
    # literal divisors
    srcl = """
def k(x, a, b, c, d, e, f):
    i = cuda.grid(1)
    if i < x.size:
        a[i] = x[i] // 2
        b[i] = x[i] % 2
        c[i] = x[i] // -2
        d[i] = x[i] % -2
        e[i] = x[i] // -1
        f[i] = x[i] % -1
"""
    for dt in ("int32", "int64", "uint32"):
        lo, hi = INT_RANGE[dt]
        xs = [-7, 7, lo, hi, 0, -1] if dt != "uint32" else [7, hi - 6, hi, 0, 1 << 31]
        elementwise(S, f"{dt} // and % by literals 2, -2, -1 (stored to int64)", srcl,
                    [("x", make(dt, xs))], [(n, "int64") for n in "abcdef"], {"dtype": dt, "literal": True})


# ---------------------------------------------------------------------------
# (b) integer division by zero
# ---------------------------------------------------------------------------

def sec_b():
    S = "b_int_div_zero"
    log("error_model default (numba-cuda compile_cuda): 'numpy' unless debug=True -> 'python'")
    src = """
def k(x, y, q, r, qw, rw, t):
    i = cuda.grid(1)
    if i < x.size:
        q[i] = x[i] // y[i]
        r[i] = x[i] % y[i]
        qw[i] = x[i] // y[i]
        rw[i] = x[i] % y[i]
        t[i] = x[i] / y[i]
"""
    for dt in ("int8", "int32", "int64", "uint32", "uint64"):
        lo, hi = INT_RANGE[dt]
        xs = sorted(set([7, 1, 0, hi, lo] + ([-7, -1] if lo < 0 else [])))
        elementwise(S, f"{dt} // 0, % 0, / 0 (q,r in {dt}; qw,rw in {wide_of(dt)}; t float64)", src,
                    [("x", make(dt, xs)), ("y", make(dt, [0] * len(xs)))],
                    [("q", dt), ("r", dt), ("qw", wide_of(dt)), ("rw", wide_of(dt)), ("t", "float64")],
                    {"dtype": dt})
    srcl = """
def k(x, q, r, t):
    i = cuda.grid(1)
    if i < x.size:
        q[i] = x[i] // 0
        r[i] = x[i] % 0
        t[i] = x[i] / 0
"""
    for dt in ("int32", "uint32"):
        xs = [7, -7, 0] if dt == "int32" else [7, 0, 0xFFFFFFFF]
        elementwise(S, f"{dt} // 0, % 0, / 0 with a literal 0 (stored to int64/int64/float64)", srcl,
                    [("x", make(dt, xs))], [("q", "int64"), ("r", "int64"), ("t", "float64")],
                    {"dtype": dt, "literal": True})


# ---------------------------------------------------------------------------
# (c) float // and %
# ---------------------------------------------------------------------------

def sec_c():
    S = "c_float_floordiv_mod"
    src = """
def k(x, y, q, r, t):
    i = cuda.grid(1)
    if i < x.size:
        q[i] = x[i] // y[i]
        r[i] = x[i] % y[i]
        t[i] = x[i] / y[i]
"""
    inf, nan = math.inf, math.nan
    pairs = [(7.0, 2.0), (-7.0, 2.0), (7.0, -2.0), (-7.0, -2.0), (7.5, 2.0), (-7.5, 2.0), (7.5, -2.0),
             (0.0, -3.0), (-0.0, 3.0), (-0.0, -3.0), (6.0, -3.0), (-6.0, 3.0), (1.0, 0.1), (-1.0, 0.1),
             (5.0, 0.0), (-5.0, 0.0), (5.0, -0.0), (0.0, 0.0), (-0.0, 0.0),
             (inf, 2.0), (-inf, 2.0), (2.0, inf), (-2.0, inf), (2.0, -inf), (-2.0, -inf), (0.0, inf), (-0.0, -inf),
             (inf, inf), (nan, 2.0), (2.0, nan), (nan, 0.0), (1e300, 1e-300), (1e30, 3.0), (-1e-30, 3.0)]
    xs, ys = zip(*pairs)
    for dt in ("float32", "float64"):
        elementwise(S, f"{dt} //, %, / (stored to {dt})", src,
                    [("x", make(dt, xs)), ("y", make(dt, ys))], [("q", dt), ("r", dt), ("t", dt)], {"dtype": dt})
    # mixed: float32 // int32, int32 // float32 stored to float64
    src2 = """
def k(x, y, q, r):
    i = cuda.grid(1)
    if i < x.size:
        q[i] = x[i] // y[i]
        r[i] = x[i] % y[i]
"""
    elementwise(S, "float32 // int32, % (stored to float64)", src2,
                [("x", make("float32", [-7.5, 7.5, 1.0, -1.0])), ("y", make("int32", [2, -2, 0, 0]))],
                [("q", "float64"), ("r", "float64")], {"dtype": "float32,int32"})
    # float literals
    src3 = """
def k(x, a, b, c, d):
    i = cuda.grid(1)
    if i < x.size:
        a[i] = x[i] // 0.0
        b[i] = x[i] % 0.0
        c[i] = x[i] // -2.0
        d[i] = x[i] % -2.0
"""
    elementwise(S, "float32 //,% by literals 0.0 and -2.0 (stored to float32)", src3,
                [("x", make("float32", [7.0, -7.0, 0.0, -0.0, inf, nan]))],
                [(n, "float32") for n in "abcd"], {"dtype": "float32", "literal": True})


# ---------------------------------------------------------------------------
# (d) shifts
# ---------------------------------------------------------------------------

def sec_d():
    S = "d_shifts"
    src = """
def k(x, s, shl, shr, shlw, shrw):
    i = cuda.grid(1)
    if i < x.size:
        shl[i] = x[i] << s[i]
        shr[i] = x[i] >> s[i]
        shlw[i] = x[i] << s[i]
        shrw[i] = x[i] >> s[i]
"""
    amounts = [0, 1, 4, 31, 32, 33, 63, 64, 65, 127, 128, -1, -31, -32, -64]
    for dt, vals in (("int32", [1, -8, -2 ** 31, 2 ** 30 + 1]),
                     ("int64", [1, -8, -2 ** 63, 2 ** 62 + 1]),
                     ("uint32", [1, 0xFFFFFFF8, 0x80000000]),
                     ("uint64", [1, 2 ** 64 - 8]),
                     ("int8", [1, -8]),
                     ("uint8", [0x81])):
        for sdt in ("int32", "int64", "uint32"):
            if sdt == "uint32":
                am = [a for a in amounts if a >= 0]
                if dt not in ("int32", "uint32"):
                    continue
            else:
                am = amounts
            xs, ss = [], []
            for v in vals:
                for a in am:
                    xs.append(v)
                    ss.append(a)
            w = "uint64" if dt.startswith("u") else "int64"
            elementwise(S, f"{dt} << s, >> s with s {sdt} (shl,shr stored to {dt}; shlw,shrw to {w})", src,
                        [("x", make(dt, xs)), ("s", make(sdt, ss))],
                        [("shl", dt), ("shr", dt), ("shlw", w), ("shrw", w)], {"dtype": dt, "amount_dtype": sdt})
    # literal amounts, each its own kernel
    for dt, vals in (("int32", [1, -8, -2 ** 31]), ("int64", [1, -8]), ("uint32", [1, 0xFFFFFFF8])):
        for op in ("<<", ">>"):
            for a in (0, 31, 32, 33, 63, 64, 65, -1):
                srcl = f"""
def k(x, o, ow):
    i = cuda.grid(1)
    if i < x.size:
        o[i] = x[i] {op} {a}
        ow[i] = x[i] {op} {a}
"""
                elementwise(S, f"{dt} {op} literal {a} (o in {dt}; ow in int64)", srcl,
                            [("x", make(dt, vals))], [("o", dt), ("ow", "int64")],
                            {"dtype": dt, "literal": a, "op": op})


# ---------------------------------------------------------------------------
# (e) float -> int
# ---------------------------------------------------------------------------

def sec_e():
    S = "e_float_to_int"
    inf, nan = math.inf, math.nan
    vals = [3.9, -3.9, 0.5, -0.5, -0.0, 1e10, -1e10, nan, inf, -inf, 127.9, 128.0, 255.9, 256.0, -1.0, -128.9,
            -129.0, 32768.0, 65536.0, 2147483647.5, 2147483648.0, -2147483648.9, -2147483649.0, 4294967295.0,
            4294967296.0, 9.2e18, 9.3e18, -9.3e18, 1.8e19, 1.9e19, 1e20, -1e20]
    convs = [("int8", "int8(x[i])"), ("int16", "int16(x[i])"), ("int32", "int32(x[i])"),
             ("int64", "int64(x[i])"), ("uint8", "uint8(x[i])"), ("uint16", "uint16(x[i])"),
             ("uint32", "uint32(x[i])"), ("uint64", "uint64(x[i])"), ("int64", "int(x[i])"),
             ("bool", "bool(x[i])")]
    for fdt in ("float64", "float32"):
        body = "\n".join(f"        o{j}[i] = {expr}" for j, (_, expr) in enumerate(convs))
        params = ", ".join(f"o{j}" for j in range(len(convs)))
        src = f"""
def k(x, {params}):
    i = cuda.grid(1)
    if i < x.size:
{body}
"""
        x = make(fdt, vals)
        elementwise(S, f"conversions of {fdt}: " + ", ".join(f"o{j}={e} into {d}" for j, (d, e) in enumerate(convs)),
                    src, [("x", x)], [(f"o{j}", d) for j, (d, _) in enumerate(convs)], {"dtype": fdt})
        # implicit conversion by storing a float into an int array
        dts = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool"]
        body = "\n".join(f"        s{j}[i] = x[i]" for j in range(len(dts)))
        params = ", ".join(f"s{j}" for j in range(len(dts)))
        src = f"""
def k(x, {params}):
    i = cuda.grid(1)
    if i < x.size:
{body}
"""
        elementwise(S, f"store {fdt} element into arrays of " + ", ".join(f"s{j}={d}" for j, d in enumerate(dts)),
                    src, [("x", x)], [(f"s{j}", d) for j, d in enumerate(dts)], {"dtype": fdt, "store": True})
    # literal stores
    lits = ["3.7", "-3.7", "-1e20", "1e20", "1e10", "-1e10", "math.nan", "math.inf", "255.5", "256.0", "-1.0", "0.5"]
    for dt in ("int32", "int64", "uint8", "uint32", "int8"):
        body = "\n".join(f"    a[{j}] = {lit}" for j, lit in enumerate(lits))
        src = f"""
def k(x, a):
{body}
"""
        rec = {"label": f"literal stores into {dt} array: " + ", ".join(f"a[{j}] = {l}" for j, l in enumerate(lits)),
               "src": src.strip("\n"), "dtype": dt, "literals": lits}
        try:
            res = launch(src, [np.zeros(1, np.float64), np.zeros(len(lits), np.dtype(dt))], 1)
            rec["ok"] = True
            rec["a"] = enc(res[1])
        except Exception as e:
            rec["ok"] = False
            rec.update(short_err(e))
        RESULTS.setdefault(S, []).append(rec)
        log(S, rec["label"], rec["ok"])


# ---------------------------------------------------------------------------
# (f) result types
# ---------------------------------------------------------------------------

def sec_f():
    S = "f_types"
    T = nt
    i8, i16, i32, i64 = T.int8, T.int16, T.int32, T.int64
    u8, u16, u32, u64 = T.uint8, T.uint16, T.uint32, T.uint64
    f16, f32, f64, b1 = T.float16, T.float32, T.float64, T.boolean
    A32 = T.Array(i32, 1, "C")
    Af32 = T.Array(f32, 1, "C")
    Au32 = T.Array(u32, 1, "C")
    Af64 = T.Array(f64, 1, "C")
    cases = [
        ("int32 + int32", (i32, i32), "a + b"),
        ("int8 + int8", (i8, i8), "a + b"),
        ("int16 * int16", (i16, i16), "a * b"),
        ("uint8 + uint8", (u8, u8), "a + b"),
        ("uint32 + uint32", (u32, u32), "a + b"),
        ("uint32 + int32", (u32, i32), "a + b"),
        ("int32 + uint32", (i32, u32), "a + b"),
        ("uint64 + int64", (u64, i64), "a + b"),
        ("uint64 + uint64", (u64, u64), "a + b"),
        ("uint64 + int32", (u64, i32), "a + b"),
        ("uint32 + int64", (u32, i64), "a + b"),
        ("int32 - uint32", (i32, u32), "a - b"),
        ("int32 + float32", (i32, f32), "a + b"),
        ("int16 + float32", (i16, f32), "a + b"),
        ("int64 + float32", (i64, f32), "a + b"),
        ("float32 + float64", (f32, f64), "a + b"),
        ("float16 + float16", (f16, f16), "a + b"),
        ("float16 + float32", (f16, f32), "a + b"),
        ("float16 + int32", (f16, i32), "a + b"),
        ("int32 / int32", (i32, i32), "a / b"),
        ("int8 / int8", (i8, i8), "a / b"),
        ("float32 / float32", (f32, f32), "a / b"),
        ("float32 / int32", (f32, i32), "a / b"),
        ("int32 // int32", (i32, i32), "a // b"),
        ("int8 // int8", (i8, i8), "a // b"),
        ("uint32 // uint32", (u32, u32), "a // b"),
        ("int32 % int32", (i32, i32), "a % b"),
        ("float32 // float32", (f32, f32), "a // b"),
        ("float32 % float32", (f32, f32), "a % b"),
        ("float32 // int32", (f32, i32), "a // b"),
        ("-uint32", (u32,), "-a"),
        ("-int8", (i8,), "-a"),
        ("-int32", (i32,), "-a"),
        ("+int8", (i8,), "+a"),
        ("~int32", (i32,), "~a"),
        ("~uint8", (u8,), "~a"),
        ("~uint32", (u32,), "~a"),
        ("-float32", (f32,), "-a"),
        ("-bool", (b1,), "-a"),
        ("~bool", (b1,), "~a"),
        ("not int32", (i32,), "not a"),
        ("abs(int8)", (i8,), "abs(a)"),
        ("abs(int32)", (i32,), "abs(a)"),
        ("abs(uint32)", (u32,), "abs(a)"),
        ("abs(float32)", (f32,), "abs(a)"),
        ("int literal alone", (), "5"),
        ("big int literal alone (2**40)", (), "1099511627776"),
        ("int literal > int64 (2**63)", (), "9223372036854775808"),
        ("float literal alone", (), "0.5"),
        ("True literal", (), "True"),
        ("int32 + 1 (int literal)", (i32,), "a + 1"),
        ("int8 + 1", (i8,), "a + 1"),
        ("uint32 + 1", (u32,), "a + 1"),
        ("uint64 + 1", (u64,), "a + 1"),
        ("float32 + 1 (int literal)", (f32,), "a + 1"),
        ("float32 * 0.5 (float literal)", (f32,), "a * 0.5"),
        ("float16 * 0.5", (f16,), "a * 0.5"),
        ("int32 & int64", (i32, i64), "a & b"),
        ("int32 & int32", (i32, i32), "a & b"),
        ("uint32 & int32", (u32, i32), "a & b"),
        ("int8 | int8", (i8, i8), "a | b"),
        ("int32 << int32", (i32, i32), "a << b"),
        ("uint32 >> int32", (u32, i32), "a >> b"),
        ("int8 << int8", (i8, i8), "a << b"),
        ("uint8 << int32", (u8, i32), "a << b"),
        ("uint64 >> int64", (u64, i64), "a >> b"),
        ("bool + bool", (b1, b1), "a + b"),
        ("bool & bool", (b1, b1), "a & b"),
        ("bool | int32", (b1, i32), "a | b"),
        ("bool * float32", (b1, f32), "a * b"),
        ("int32 < int32", (i32, i32), "a < b"),
        ("int32 < uint32", (i32, u32), "a < b"),
        ("int32 == float32", (i32, f32), "a == b"),
        ("int32 ** 2", (i32,), "a ** 2"),
        ("int32 ** int32", (i32, i32), "a ** b"),
        ("int8 ** 2", (i8,), "a ** 2"),
        ("int32 ** -1", (i32,), "a ** -1"),
        ("float32 ** 2", (f32,), "a ** 2"),
        ("float32 ** 2.0", (f32,), "a ** 2.0"),
        ("float32 ** float32", (f32, f32), "a ** b"),
        ("float32 ** int32", (f32, i32), "a ** b"),
        ("math.sqrt(int32)", (i32,), "math.sqrt(a)"),
        ("math.sqrt(float32)", (f32,), "math.sqrt(a)"),
        ("math.sqrt(int64)", (i64,), "math.sqrt(a)"),
        ("math.floor(float32)", (f32,), "math.floor(a)"),
        ("math.floor(float64)", (f64,), "math.floor(a)"),
        ("math.floor(int32)", (i32,), "math.floor(a)"),
        ("math.ceil(float32)", (f32,), "math.ceil(a)"),
        ("math.trunc(float32)", (f32,), "math.trunc(a)"),
        ("round(float32)", (f32,), "round(a)"),
        ("round(float64, 1)", (f64,), "round(a, 1)"),
        ("math.fabs(int32)", (i32,), "math.fabs(a)"),
        ("math.fabs(float32)", (f32,), "math.fabs(a)"),
        ("math.exp(float32)", (f32,), "math.exp(a)"),
        ("math.exp(int32)", (i32,), "math.exp(a)"),
        ("math.sin(float16)", (f16,), "math.sin(a)"),
        ("math.isnan(float32)", (f32,), "math.isnan(a)"),
        ("math.fmod(float32, float32)", (f32, f32), "math.fmod(a, b)"),
        ("math.pow(float32, float32)", (f32, f32), "math.pow(a, b)"),
        ("math.copysign(float32, float32)", (f32, f32), "math.copysign(a, b)"),
        ("min(int32, int64)", (i32, i64), "min(a, b)"),
        ("max(int32, float32)", (i32, f32), "max(a, b)"),
        ("max(uint32, int32)", (u32, i32), "max(a, b)"),
        ("min(float32, float32)", (f32, f32), "min(a, b)"),
        ("int16(5) + int16(5)", (), "int16(5) + int16(5)"),
        ("int16(5)", (), "int16(5)"),
        ("float32(1) + float32(2)", (), "float32(1) + float32(2)"),
        ("float32(1) + 2.0", (), "float32(1) + 2.0"),
        ("int32(a) with a float64", (f64,), "int32(a)"),
        ("int(float32)", (f32,), "int(a)"),
        ("float(int32)", (i32,), "float(a)"),
        ("bool(int32)", (i32,), "bool(a)"),
        ("a if c else b (int32, float32)", (b1, i32, f32), "a if c else b", ("c", "a", "b")),
        ("array int32 element", (A32,), "a[0]"),
        ("array float32 element + 1.0", (Af32,), "a[0] + 1.0"),
        ("array uint32 element * 2", (Au32,), "a[0] * 2"),
        ("array shape[0]", (A32,), "a.shape[0]"),
        ("array size", (A32,), "a.size"),
        ("len(array)", (A32,), "len(a)"),
        ("cuda.threadIdx.x", (), "cuda.threadIdx.x"),
        ("cuda.blockIdx.x * cuda.blockDim.x", (), "cuda.blockIdx.x * cuda.blockDim.x"),
        ("cuda.grid(1)", (), "cuda.grid(1)"),
        ("cuda.grid(2)", (), "cuda.grid(2)"),
        ("cuda.gridsize(1)", (), "cuda.gridsize(1)"),
        ("cuda.atomic.add(int32[:], 0, 1)", (A32,), "cuda.atomic.add(a, 0, 1)"),
        ("cuda.atomic.add(float32[:], 0, 1.5)", (Af32,), "cuda.atomic.add(a, 0, 1.5)"),
        ("cuda.atomic.max(float64[:], 0, float32)", (Af64, f32), "cuda.atomic.max(a, 0, b)"),
        ("cuda.atomic.inc(uint32[:], 0, 10)", (Au32,), "cuda.atomic.inc(a, 0, 10)"),
    ]
    blocks = [
        ("loop-carried: x = 0; for: x = x + 0.5", (i32,), ("n",),
         "    x = 0\n    for i in range(n):\n        x = x + 0.5\n    return x"),
        ("loop-carried: x = int32(0); for: x = x + int32(1)", (i32,), ("n",),
         "    x = int32(0)\n    for i in range(n):\n        x = x + int32(1)\n    return x"),
        ("loop-carried: x = int32(0); for: x += 1", (i32,), ("n",),
         "    x = int32(0)\n    for i in range(n):\n        x += 1\n    return x"),
        ("loop-carried: x = float32(0); for: x += float32(1.5)", (i32,), ("n",),
         "    x = float32(0)\n    for i in range(n):\n        x += float32(1.5)\n    return x"),
        ("loop-carried: x = float32(0); for: x += 1.5", (i32,), ("n",),
         "    x = float32(0)\n    for i in range(n):\n        x += 1.5\n    return x"),
        ("range loop variable over int32 n", (i32,), ("n",),
         "    s = 0\n    for i in range(n):\n        s = i\n    return s"),
        ("range loop variable over int64 n", (i64,), ("n",),
         "    s = 0\n    for i in range(n):\n        s = i\n    return s"),
        ("range loop variable over uint32 n", (u32,), ("n",),
         "    s = 0\n    for i in range(n):\n        s = i\n    return s"),
        ("if/else assign int then float", (b1,), ("c",),
         "    if c:\n        x = 1\n    else:\n        x = 2.5\n    return x"),
        ("redefinition: x = int32(1); x = 2.5 (straight line)", (), (),
         "    x = int32(1)\n    y = x\n    x = 2.5\n    return x + y"),
        ("augmented: a int8 local; a += 1", (i8,), ("a",), "    a += 1\n    return a"),
        ("augmented: a float32 local; a *= 2", (f32,), ("a",), "    a *= 2\n    return a"),
        ("tuple unpack of array shape", (T.Array(f32, 2, "C"),), ("a",), "    m, n = a.shape\n    return m"),
        ("local array cuda.local.array(4, int16)", (), (),
         "    t = cuda.local.array(4, int16)\n    t[0] = 1\n    return t[0]"),
        ("shared array cuda.shared.array(4, float32)", (), (),
         "    t = cuda.shared.array(4, float32)\n    t[0] = 1\n    return t[0]"),
    ]
    for c in cases:
        label, argt, expr = c[0], c[1], c[2]
        names = c[3] if len(c) > 3 else ("a", "b", "c")[:len(argt)]
        src = f"def f({', '.join(names)}):\n    r = {expr}\n    return r\n"
        _type_case(S, label, src, argt)
    for label, argt, names, body in blocks:
        src = f"def f({', '.join(names)}):\n{body}\n"
        _type_case(S, label, src, argt)


def _type_case(S, label, src, argt):
    rec = {"label": label, "src": src.strip("\n"), "args": [str(t) for t in argt]}
    try:
        fn = make_fn(src)
        rt, tm = typeinfo(fn, argt)
        rec["ok"] = True
        rec["return_type"] = rt
        rec["typemap"] = tm
    except Exception as e:
        rec["ok"] = False
        rec.update(short_err(e))
    RESULTS.setdefault(S, []).append(rec)
    log(S, label, "->", rec.get("return_type", "ERROR " + rec.get("first_line", "")))


# ---------------------------------------------------------------------------
# (g) atomics
# ---------------------------------------------------------------------------

def sec_g():
    S = "g_atomics"
    inf, nan = math.inf, math.nan
    I32 = INT_RANGE["int32"]
    src = """
def k(a, v, old):
    i = cuda.grid(1)
    if i < a.size:
        old[i] = cuda.atomic.{op}(a, i, v[i])
"""
    src_cas = """
def k(a, c, v, old):
    i = cuda.grid(1)
    if i < a.size:
        old[i] = cuda.atomic.cas(a, i, c[i], v[i])
"""
    src_cas1 = """
def k(a, c, v, old):
    old[0] = cuda.atomic.compare_and_swap(a, c[0], v[0])
"""

    def int_cases(dt, op):
        lo, hi = INT_RANGE[dt]
        signed = lo < 0
        c = {
            "add": [(5, 3), (hi, 1), (lo, -1) if signed else (hi, hi), (-5, -3) if signed else (0, 0)],
            "sub": [(5, 3), (lo, 1) if signed else (0, 1), (0, -1) if signed else (3, 5)],
            "max": [(5, 3), (3, 5), (-1, 1) if signed else (1 << (width(dt) - 1), 1), (lo, hi)],
            "min": [(5, 3), (3, 5), (-1, 1) if signed else (1 << (width(dt) - 1), 1), (lo, hi)],
            "exch": [(5, 9), (hi, lo)],
            "inc": [(5, 10), (9, 10), (10, 10), (11, 10), (0, 0), (hi, 10), (hi, hi), (hi - 1, hi)] +
                   ([(-1, 10), (5, -1)] if signed else []),
            "dec": [(5, 10), (1, 10), (0, 10), (10, 10), (11, 10), (0, 0), (hi, hi), (hi, 10)] +
                   ([(-1, 10), (5, -1)] if signed else []),
            "and_": [(0b1100, 0b1010), (-1, 0x0F0F)],
            "or_": [(0b1100, 0b1010), (lo, 1) if signed else (1 << (width(dt) - 1), 1)],
            "xor": [(0b1100, 0b1010), (-1, 0x0F0F)],
        }
        return c.get(op)

    def float_cases(op):
        common = [(1.0, 2.0), (2.0, 1.0), (nan, 1.0), (1.0, nan), (nan, nan), (-0.0, 0.0), (0.0, -0.0),
                  (-inf, nan), (inf, -inf)]
        c = {
            "add": [(1.5, 2.25), (inf, -inf), (nan, 1.0), (1.0, nan), (-0.0, -0.0), (0.0, -0.0), (-0.0, 0.0),
                    (16777216.0, 1.0), (1e38, 1e38)],
            "sub": [(1.5, 2.25), (-0.0, 0.0), (0.0, 0.0), (inf, inf), (nan, 1.0)],
            "max": common, "min": common, "nanmax": common, "nanmin": common,
            "exch": [(1.5, nan), (nan, -0.0)],
        }
        return c.get(op)

    ops = ["add", "sub", "max", "min", "nanmax", "nanmin", "exch", "inc", "dec", "and_", "or_", "xor"]
    for dt in ("int32", "uint32", "int64", "uint64", "float32", "float64"):
        for op in ops:
            if dt.startswith("float"):
                cases = float_cases(op) or [(5.0, 3.0)]
            else:
                cases = int_cases(dt, op) or [(5, 3), (3, 5)]
            a0, v = zip(*cases)
            elementwise(S, f"old = cuda.atomic.{op}({dt} array a, i, v[i] {dt}); a after", src.replace("{op}", op),
                        [("a", make(dt, a0)), ("v", make(dt, v))], [("old", dt)], {"dtype": dt, "op": op})
    # a after the atomic: elementwise reports inputs before the launch, so rerun to report the array itself
    src_arr = """
def k(a, v, old, after):
    i = cuda.grid(1)
    if i < a.size:
        old[i] = cuda.atomic.{op}(a, i, v[i])
        cuda.syncthreads()
        after[i] = a[i]
"""
    for dt in ("int32", "uint32", "int64", "uint64", "float32", "float64"):
        for op in ops:
            if dt.startswith("float"):
                cases = float_cases(op) or [(5.0, 3.0)]
            else:
                cases = int_cases(dt, op) or [(5, 3), (3, 5)]
            a0, v = zip(*cases)
            elementwise(S, f"[array after] cuda.atomic.{op} {dt}", src_arr.replace("{op}", op),
                        [("a", make(dt, a0)), ("v", make(dt, v))], [("old", dt), ("after", dt)],
                        {"dtype": dt, "op": op, "after": True})
    # cas (per element) and compare_and_swap (element 0)
    for dt in ("int32", "uint32", "int64", "uint64", "float32", "float64"):
        if dt.startswith("float"):
            trip = [(1.0, 1.0, 2.0), (1.0, 3.0, 2.0), (nan, nan, 2.0), (-0.0, 0.0, 2.0), (0.0, -0.0, 2.0)]
        else:
            trip = [(5, 5, 9), (5, 6, 9), (INT_RANGE[dt][1], INT_RANGE[dt][1], 0)]
        a0, c, v = zip(*trip)
        elementwise(S, f"[array after] old = cuda.atomic.cas({dt} a, i, c[i], v[i])", src_cas.replace(
            "old[i] = cuda.atomic.cas(a, i, c[i], v[i])",
            "old[i] = cuda.atomic.cas(a, i, c[i], v[i])\n        cuda.syncthreads()\n        after[i] = a[i]").replace(
            "def k(a, c, v, old):", "def k(a, c, v, old, after):"),
            [("a", make(dt, a0)), ("c", make(dt, c)), ("v", make(dt, v))], [("old", dt), ("after", dt)],
            {"dtype": dt, "op": "cas", "after": True})
        rec = {"label": f"old = cuda.atomic.compare_and_swap({dt} a, c, v) (acts on a[0])", "dtype": dt,
               "op": "compare_and_swap", "rows": []}
        try:
            fn_src = src_cas1
            for t in trip:
                res = launch(fn_src, [make(dt, [t[0]]), make(dt, [t[1]]), make(dt, [t[2]]), np.zeros(1, dt)], 1)
                rec["rows"].append({"a0": val_repr(t[0]), "c": val_repr(t[1]), "v": val_repr(t[2]),
                                    "old": enc(res[3]), "after": enc(res[0])})
            rec["ok"] = True
        except Exception as e:
            rec["ok"] = False
            rec.update(short_err(e))
        RESULTS.setdefault(S, []).append(rec)
        log(S, rec["label"], rec["ok"])
    # mixed value types and literals
    mixed = [
        ("int32 array, int64 literal 1", "int32", [5, 2 ** 31 - 1], "cuda.atomic.add(a, i, 1)"),
        ("int32 array, float literal 2.7", "int32", [5, -5], "cuda.atomic.add(a, i, 2.7)"),
        ("float32 array, float64 literal 0.1", "float32", [1.0, 0.0], "cuda.atomic.add(a, i, 0.1)"),
        ("float32 array, int literal 1", "float32", [1.0, 16777216.0], "cuda.atomic.add(a, i, 1)"),
        ("uint32 array, int literal -1", "uint32", [5, 0], "cuda.atomic.add(a, i, -1)"),
        ("int32 array max with float literal 7.5", "int32", [5, 9], "cuda.atomic.max(a, i, 7.5)"),
        ("float32 array max with int literal 7", "float32", [5.0, 9.0], "cuda.atomic.max(a, i, 7)"),
        ("uint32 inc with int literal 3", "uint32", [0, 3], "cuda.atomic.inc(a, i, 3)"),
        ("float32 array, float64 value v[i]", "float32", [1.0, 0.0], "cuda.atomic.add(a, i, w[i])"),
    ]
    for label, dt, a0, expr in mixed:
        srcm = f"""
def k(a, w, old, after):
    i = cuda.grid(1)
    if i < a.size:
        old[i] = {expr}
        cuda.syncthreads()
        after[i] = a[i]
"""
        elementwise(S, f"[array after] {label}: old = {expr}", srcm,
                    [("a", make(dt, a0)), ("w", make("float64", [0.1] * len(a0)))], [("old", "float64"), ("after", dt)],
                    {"dtype": dt, "op": "mixed"})
    # contention: 256 threads add 1 to one int32 / float32 element, returns distinct olds
    srcc = """
def k(a, old):
    i = cuda.grid(1)
    old[i] = cuda.atomic.add(a, 0, 1)
"""
    rec = {"label": "256 threads cuda.atomic.add(int32 a, 0, 1): final a[0], sorted olds == 0..255"}
    try:
        res = launch(srcc, [np.zeros(1, np.int32), np.zeros(256, np.int32)], 256)
        rec["ok"] = True
        rec["final"] = int(res[0][0])
        rec["olds_are_permutation"] = sorted(res[1].tolist()) == list(range(256))
    except Exception as e:
        rec["ok"] = False
        rec.update(short_err(e))
    RESULTS.setdefault(S, []).append(rec)


# ---------------------------------------------------------------------------
# (h) unary minus/abs of MIN; int32 overflow
# ---------------------------------------------------------------------------

def sec_h():
    S = "h_minus_abs_overflow"
    src = """
def k(x, n, m, nw, mw):
    i = cuda.grid(1)
    if i < x.size:
        n[i] = -x[i]
        m[i] = abs(x[i])
        nw[i] = -x[i]
        mw[i] = abs(x[i])
"""
    for dt in ("int8", "int16", "int32", "int64", "uint32"):
        lo, hi = INT_RANGE[dt]
        xs = [lo, hi, -1, 1, 0] if lo < 0 else [0, 1, hi, 1 << 31]
        w = "int64"
        elementwise(S, f"-x, abs(x) on {dt} (n,m stored to {dt}; nw,mw to {w})", src,
                    [("x", make(dt, xs))], [("n", dt), ("m", dt), ("nw", w), ("mw", w)], {"dtype": dt})
    src2 = """
def k(x, y, p, s, d, pw, sw, dw):
    i = cuda.grid(1)
    if i < x.size:
        p[i] = x[i] * y[i]
        s[i] = x[i] + y[i]
        d[i] = x[i] - y[i]
        pw[i] = x[i] * y[i]
        sw[i] = x[i] + y[i]
        dw[i] = x[i] - y[i]
"""
    for dt, pairs in (("int32", [(65536, 65536), (2 ** 31 - 1, 2), (-2 ** 31, -1), (46341, 46341),
                                 (-(2 ** 31 - 1), 2 ** 31 - 1), (2 ** 31 - 1, 1), (-2 ** 31, 1), (100000, -100000)]),
                      ("int8", [(100, 100), (127, 1), (-128, -1), (-128, 1), (16, 16)]),
                      ("int16", [(30000, 30000), (32767, 1), (-32768, -1)]),
                      ("uint32", [(0, 1), (0xFFFFFFFF, 1), (0xFFFFFFFF, 0xFFFFFFFF), (65536, 65536)]),
                      ("uint8", [(0, 1), (255, 1), (16, 16)]),
                      ("int64", [(2 ** 63 - 1, 1), (-2 ** 63, -1), (2 ** 32, 2 ** 32), (-2 ** 63, 1)]),
                      ("uint64", [(0, 1), (2 ** 64 - 1, 1), (2 ** 32, 2 ** 32)])):
        xs, ys = zip(*pairs)
        w = "uint64" if dt == "uint64" else "int64"
        elementwise(S, f"{dt} *, +, - (p,s,d stored to {dt}; pw,sw,dw to {w})", src2,
                    [("x", make(dt, xs)), ("y", make(dt, ys))],
                    [("p", dt), ("s", dt), ("d", dt), ("pw", w), ("sw", w), ("dw", w)], {"dtype": dt})
    # mixed int32 * uint32 and uint64 + int64 (value check of the type rules)
    src3 = """
def k(x, y, p, s, d, pf, sf, df):
    i = cuda.grid(1)
    if i < x.size:
        p[i] = x[i] * y[i]
        s[i] = x[i] + y[i]
        d[i] = x[i] - y[i]
        pf[i] = x[i] * y[i]
        sf[i] = x[i] + y[i]
        df[i] = x[i] - y[i]
"""
    for dx, dy, pairs in (("int32", "uint32", [(-1, 1), (-1, 0xFFFFFFFF), (2, 0x80000000)]),
                          ("uint64", "int64", [(2 ** 64 - 1, 1), (2 ** 63, 0), (1, -2), (2 ** 64 - 1, -1)]),
                          ("uint64", "int32", [(2 ** 64 - 1, 1), (0, -1)])):
        xs, ys = zip(*pairs)
        elementwise(S, f"{dx} op {dy} (p,s,d stored to int64; pf,sf,df to float64)", src3,
                    [("x", make(dx, xs)), ("y", make(dy, ys))],
                    [("p", "int64"), ("s", "int64"), ("d", "int64"), ("pf", "float64"), ("sf", "float64"),
                     ("df", "float64")], {"dtype": f"{dx},{dy}"})


# ---------------------------------------------------------------------------
# (i) refusals
# ---------------------------------------------------------------------------

G_COUNTER = 0


def sec_i():
    S = "i_refusals"
    NS["G_COUNTER"] = 0
    NS["G_ARRAY"] = np.arange(4, dtype=np.int32)
    A = "(int32[:], int32[:])"
    cases = [
        ("slice a[1:3]", "def k(a, out):\n    b = a[1:3]\n    out[0] = b[0] + b.size"),
        ("slice assignment out[0:2] = 7", "def k(a, out):\n    out[0:2] = 7"),
        ("for x in a", "def k(a, out):\n    s = 0\n    for x in a:\n        s += x\n    out[0] = s"),
        ("try/except", "def k(a, out):\n    try:\n        out[0] = a[0]\n    except Exception:\n        out[0] = 1"),
        ("try/except bare", "def k(a, out):\n    try:\n        out[0] = a[0]\n    except:\n        out[0] = 1"),
        ("try/finally", "def k(a, out):\n    try:\n        out[0] = a[0]\n    finally:\n        out[1] = 1"),
        ("list literal", "def k(a, out):\n    l = [1, 2, 3]\n    out[0] = l[1]"),
        ("list literal unused", "def k(a, out):\n    l = [1, 2, 3]\n    out[0] = 1"),
        ("list comprehension", "def k(a, out):\n    l = [i for i in range(3)]\n    out[0] = l[1]"),
        ("tuple literal + index", "def k(a, out):\n    t = (1, 2, 3)\n    out[0] = t[1]"),
        ("tuple indexed by runtime int", "def k(a, out):\n    t = (1, 2, 3)\n    out[0] = t[a[0]]"),
        ("str literal assigned", "def k(a, out):\n    s = 'abc'\n    out[0] = 1"),
        ("len(str)", "def k(a, out):\n    s = 'abc'\n    out[0] = len(s)"),
        ("str concat", "def k(a, out):\n    s = 'abc' + 'd'\n    out[0] = len(s)"),
        ("f-string", "def k(a, out):\n    s = f'{a[0]}'\n    out[0] = 1"),
        ("raise ValueError", "def k(a, out):\n    if a[0] < 0:\n        raise ValueError('negative')\n    out[0] = a[0]"),
        ("assert", "def k(a, out):\n    assert a[0] >= 0\n    out[0] = a[0]"),
        ("with open", "def k(a, out):\n    with open('x') as f:\n        out[0] = 1"),
        ("class definition", "def k(a, out):\n    class C:\n        pass\n    out[0] = 1"),
        ("dict literal", "def k(a, out):\n    d = {1: 2}\n    out[0] = d[1]"),
        ("set literal", "def k(a, out):\n    s = {1, 2}\n    out[0] = len(s)"),
        ("while-else", "def k(a, out):\n    i = 0\n    while i < a[0]:\n        i += 1\n    else:\n        out[1] = 7\n    out[0] = i"),
        ("for-else", "def k(a, out):\n    for i in range(a[0]):\n        out[0] = i\n    else:\n        out[1] = 7"),
        ("break/continue", "def k(a, out):\n    s = 0\n    for i in range(10):\n        if i == 2:\n            continue\n        if i == 5:\n            break\n        s += i\n    out[0] = s"),
        ("lambda", "def k(a, out):\n    f = lambda x: x + 1\n    out[0] = f(a[0])"),
        ("nested def (closure)", "def k(a, out):\n    def g(x):\n        return x + a[0]\n    out[0] = g(1)"),
        ("global mutation", "def k(a, out):\n    global G_COUNTER\n    G_COUNTER = 5\n    out[0] = 1"),
        ("global read (int constant)", "def k(a, out):\n    out[0] = G_COUNTER + 1"),
        ("global numpy array read", "def k(a, out):\n    out[0] = G_ARRAY[2]"),
        ("global numpy array write", "def k(a, out):\n    G_ARRAY[2] = 5"),
        ("print", "def k(a, out):\n    print('value', a[0], 1.5)\n    out[0] = 1"),
        ("print with format", "def k(a, out):\n    print('v=%d' % a[0])"),
        ("return value from kernel", "def k(a, out):\n    return 1"),
        ("return None from kernel", "def k(a, out):\n    out[0] = 1\n    return"),
        ("yield (generator)", "def k(a, out):\n    yield 1"),
        ("recursion (self call)", "def k(a, out):\n    if a[0] > 0:\n        k(a, out)"),
        ("array expression a + 1", "def k(a, out):\n    b = a + 1\n    out[0] = b[0]"),
        ("a.sum()", "def k(a, out):\n    out[0] = a.sum()"),
        ("np.zeros in kernel", "def k(a, out):\n    b = np.zeros(3)\n    out[0] = b[0]"),
        ("np.empty in kernel", "def k(a, out):\n    b = np.empty(3, np.int32)\n    out[0] = b[0]"),
        ("2-D index on 1-D array", "def k(a, out):\n    out[0] = a[0, 0]"),
        ("index with float", "def k(a, out):\n    out[0] = a[1.0]"),
        ("array attribute shape/ndim/strides", "def k(a, out):\n    out[0] = a.shape[0] + a.ndim + a.strides[0] + a.size"),
        ("store None", "def k(a, out):\n    out[0] = None"),
        ("min/max builtins on arrays", "def k(a, out):\n    out[0] = min(a)"),
        ("range with step", "def k(a, out):\n    s = 0\n    for i in range(10, 0, -3):\n        s += i\n    out[0] = s"),
        ("sorted", "def k(a, out):\n    out[0] = sorted((3, 1, 2))[0]"),
        ("object attribute", "def k(a, out):\n    out[0] = a.foo"),
        ("undefined name", "def k(a, out):\n    out[0] = undefined_name_xyz"),
        ("type-unstable variable (int then array)", "def k(a, out):\n    x = 1\n    if a[0] > 0:\n        x = a\n    out[0] = 1"),
        ("complex arithmetic", "def k(a, out):\n    z = complex(1.0, 2.0) * complex(0.0, 1.0)\n    out[0] = int(z.real)"),
        ("star args", "def k(*args):\n    args[1][0] = 1"),
        ("keyword default arg", "def k(a, out=None):\n    a[0] = 1"),
        ("del statement", "def k(a, out):\n    x = 1\n    del x\n    out[0] = 1"),
        ("walrus", "def k(a, out):\n    if (n := a[0]) > 0:\n        out[0] = n"),
        ("chained comparison", "def k(a, out):\n    out[0] = 1 if 0 < a[0] < 10 else 0"),
        ("is None test", "def k(a, out):\n    out[0] = 1 if a is None else 2"),
        ("cuda.local.array with runtime size", "def k(a, out):\n    t = cuda.local.array(a[0], int32)\n    out[0] = t[0]"),
        ("cuda.local.array constant size", "def k(a, out):\n    t = cuda.local.array(4, int32)\n    t[0] = 3\n    out[0] = t[0]"),
        ("cuda.syncthreads in branch", "def k(a, out):\n    if a[0] > 0:\n        cuda.syncthreads()\n    out[0] = 1"),
        ("math.gcd", "def k(a, out):\n    out[0] = math.gcd(a[0], a[1])"),
        ("pow(int, int, mod)", "def k(a, out):\n    out[0] = pow(a[0], 2, 7)"),
        ("int.bit_length method", "def k(a, out):\n    out[0] = a[0].bit_length()"),
        ("match statement", "def k(a, out):\n    match a[0]:\n        case 1:\n            out[0] = 1\n        case _:\n            out[0] = 2"),
        ("async def", None),
    ]
    for label, body in cases:
        rec = {"label": label, "src": body}
        if body is None:
            rec.update({"ok": False, "note": "not attempted: async def cannot be a numba function"})
            RESULTS.setdefault(S, []).append(rec)
            continue
        try:
            fn = make_fn(body + "\n")
            if label == "star args":
                sig = "void(int32[:], int32[:])"
            else:
                sig = "void" + A
            ptx, resty = cuda.compile_ptx(fn, sig, cc=CC)
            rec["ok"] = True
            rec["compiled"] = True
            rec["return_type"] = str(resty)
        except Exception as e:
            rec["ok"] = False
            rec["compiled"] = False
            rec.update(short_err(e))
        RESULTS.setdefault(S, []).append(rec)
        log(S, label, "compiles" if rec["ok"] else ("REFUSED " + rec.get("error_type", "") + ": " + rec.get("first_line", "")))
    # the ones that compile and have observable behaviour: run a few
    runs = [
        ("slice a[1:3] run", "def k(a, out):\n    b = a[1:3]\n    out[0] = b[0]\n    out[1] = b.size", [10, 11, 12, 13]),
        ("for x in a run", "def k(a, out):\n    s = 0\n    for x in a:\n        s += x\n    out[0] = s", [1, 2, 3, 4]),
        ("while-else run", "def k(a, out):\n    i = 0\n    while i < a[0]:\n        i += 1\n    else:\n        out[1] = 7\n    out[0] = i", [3, 0, 0, 0]),
        ("raise ValueError run (a[0] < 0, default jit)", "def k(a, out):\n    if a[0] < 0:\n        raise ValueError('negative')\n    out[0] = 5", [-1, 0, 0, 0]),
        ("assert run (a[0] < 0, default jit)", "def k(a, out):\n    assert a[0] >= 0\n    out[0] = 5", [-1, 0, 0, 0]),
        ("global int read run", "def k(a, out):\n    out[0] = G_COUNTER + 1", [0, 0, 0, 0]),
        ("global array read run", "def k(a, out):\n    out[0] = G_ARRAY[2]", [0, 0, 0, 0]),
    ]
    for label, body, a0 in runs:
        rec = {"label": label, "src": body}
        try:
            res = launch(body + "\n", [make("int32", a0), np.zeros(4, np.int32)], 1)
            rec["ok"] = True
            rec["out"] = enc(res[1])
        except Exception as e:
            rec["ok"] = False
            rec.update(short_err(e))
        RESULTS.setdefault(S, []).append(rec)
        log(S, label, rec.get("out", {}).get("values") if rec["ok"] else rec.get("first_line"))


# ---------------------------------------------------------------------------
# (j) misc: min/max with NaN, rounding functions, float32 literal arithmetic
# ---------------------------------------------------------------------------

def sec_j():
    S = "j_misc"
    inf, nan = math.inf, math.nan
    src = """
def k(x, y, mx, mn):
    i = cuda.grid(1)
    if i < x.size:
        mx[i] = max(x[i], y[i])
        mn[i] = min(x[i], y[i])
"""
    pairs = [(nan, 1.0), (1.0, nan), (nan, nan), (-0.0, 0.0), (0.0, -0.0), (1.0, 2.0), (-inf, nan)]
    xs, ys = zip(*pairs)
    for dt in ("float32", "float64"):
        elementwise(S, f"max(x, y) / min(x, y) builtins on {dt}", src,
                    [("x", make(dt, xs)), ("y", make(dt, ys))], [("mx", dt), ("mn", dt)], {"dtype": dt})
    elementwise(S, "max(x, y) / min(x, y) builtins on int32 x, uint32 y (stored to int64)", src,
                [("x", make("int32", [-1, 5])), ("y", make("uint32", [1, 3]))], [("mx", "int64"), ("mn", "int64")],
                {"dtype": "int32,uint32"})
    src = """
def k(x, fl, ce, tr, ro, rn, ab, sq, fl32):
    i = cuda.grid(1)
    if i < x.size:
        fl[i] = math.floor(x[i])
        ce[i] = math.ceil(x[i])
        tr[i] = math.trunc(x[i])
        ro[i] = round(x[i])
        rn[i] = round(x[i], 0)
        ab[i] = abs(x[i])
        sq[i] = math.sqrt(x[i])
        fl32[i] = math.floor(x[i])
"""
    vals = [2.5, 3.5, -2.5, 0.5, -0.5, 1.5, -1.7, 4503599627370497.0, 1e20, -1e20,
            nan, inf, -0.0, 2.0, 1e-45]
    for dt in ("float32", "float64"):
        elementwise(S, f"floor/ceil/trunc/round/round(x,0)/abs/sqrt of {dt} (fl,ce,tr,ro stored to int64; "
                       f"rn,ab,sq to {dt}; fl32 = math.floor stored to float32)", src,
                    [("x", make(dt, vals))],
                    [("fl", "int64"), ("ce", "int64"), ("tr", "int64"), ("ro", "int64"), ("rn", dt), ("ab", dt),
                     ("sq", dt), ("fl32", "float32")], {"dtype": dt})
    # float32 arithmetic with float literals (computed in float64, stored back)
    src = """
def k(x, a, b, c, d, e):
    i = cuda.grid(1)
    if i < x.size:
        a[i] = x[i] * 0.1
        b[i] = x[i] / 3
        c[i] = x[i] + 1e-8
        d[i] = x[i] * float32(0.1)
        e[i] = x[i] / float32(3)
"""
    elementwise(S, "float32 x with literals: a = x*0.1, b = x/3, c = x+1e-8, d = x*float32(0.1), e = x/float32(3) "
                   "(all stored to float32)", src,
                [("x", make("float32", [1.0, 3.0, 16777217.0 - 1, 0.7, 1e-30]))],
                [(n, "float32") for n in "abcde"], {"dtype": "float32"})
    # float32 division / sqrt exactness, exp/sin accuracy samples
    src = """
def k(x, y, q, s, ex, sn, lg, pw):
    i = cuda.grid(1)
    if i < x.size:
        q[i] = x[i] / y[i]
        s[i] = math.sqrt(x[i])
        ex[i] = math.exp(x[i])
        sn[i] = math.sin(x[i])
        lg[i] = math.log(x[i])
        pw[i] = x[i] ** y[i]
"""
    xs = [1.0, 2.0, 0.1, 10.0, 1e-40, 100.0, -1.0, 3.0]
    ys = [3.0, 7.0, 3.0, 0.3, 3.0, 0.5, 0.5, -2.0]
    for dt in ("float32", "float64"):
        elementwise(S, f"{dt} /, sqrt, exp, sin, log, ** (stored to {dt})", src,
                    [("x", make(dt, xs)), ("y", make(dt, ys))],
                    [(n, dt) for n in ("q", "s", "ex", "sn", "lg", "pw")], {"dtype": dt})
    # int ** int
    src = """
def k(x, y, p, pw):
    i = cuda.grid(1)
    if i < x.size:
        p[i] = x[i] ** y[i]
        pw[i] = x[i] ** y[i]
"""
    elementwise(S, "int32 ** int32 (p stored to int32, pw to float64)", src,
                [("x", make("int32", [2, 3, -2, 2, 0, 2, 1, 2])), ("y", make("int32", [10, 20, 3, -1, 0, 31, -5, 32]))],
                [("p", "int32"), ("pw", "float64")], {"dtype": "int32"})
    # bool conversions and truthiness of NaN
    src = """
def k(x, b, t):
    i = cuda.grid(1)
    if i < x.size:
        b[i] = bool(x[i])
        if x[i]:
            t[i] = 1
        else:
            t[i] = 2
"""
    elementwise(S, "bool(x) and `if x:` for float64 x", src,
                [("x", make("float64", [0.0, -0.0, nan, 1e-300, inf]))], [("b", "bool"), ("t", "int32")],
                {"dtype": "float64"})
    # float16
    src = """
def k(x, y, s, p, s32):
    i = cuda.grid(1)
    if i < x.size:
        s[i] = x[i] + y[i]
        p[i] = x[i] * y[i]
        s32[i] = x[i] + y[i]
"""
    elementwise(S, "float16 + and * (s,p stored to float16; s32 to float32)", src,
                [("x", make("float16", [65504.0, 1.0, 0.1, 2049.0])), ("y", make("float16", [32.0, 0.0004882812, 0.2, 1.0]))],
                [("s", "float16"), ("p", "float16"), ("s32", "float32")], {"dtype": "float16"})


def sec_z():
    S = "b_int_div_zero"
    # debug=True (error_model 'python'): does the host see ZeroDivisionError?
    rec = {"label": "int32 // 0 with @cuda.jit(debug=True, opt=False)"}
    try:
        x, y, q = make("int32", [7]), make("int32", [0]), np.zeros(1, np.int32)
        res = launch("""
def k(x, y, q):
    q[0] = x[0] // y[0]
""", [x, y, q], 1, jitopts={"debug": True, "opt": False})
        rec["ok"] = True
        rec["q"] = enc(res[2])
        rec["raised"] = None
    except Exception as e:
        rec["ok"] = False
        rec["raised"] = short_err(e)
    RESULTS.setdefault(S, []).append(rec)
    log(S, rec["label"], rec.get("raised"))
    try:
        # after a kernel raised, numba's context may need a reset
        if not COMPILE_ONLY:
            cuda.synchronize()
    except Exception as e:
        log("sync after debug kernel:", first_line(e))



    rec = {"label": "raise ValueError / assert in a kernel with @cuda.jit(debug=True, opt=False)"}
    for what, body in (("raise", "def k(a, out):\n    if a[0] < 0:\n        raise ValueError('negative')\n    out[0] = 5"),
                       ("assert", "def k(a, out):\n    assert a[0] >= 0, 'neg'\n    out[0] = 5")):
        try:
            res = launch(body + "\n", [make("int32", [-1]), np.zeros(1, np.int32)], 1,
                         jitopts={"debug": True, "opt": False})
            rec[what] = {"raised": None, "out": enc(res[1])}
        except Exception as e:
            rec[what] = {"raised": short_err(e)}
    rec["ok"] = True
    RESULTS.setdefault("i_refusals", []).append(rec)
    log("i_refusals", rec)


# ---------------------------------------------------------------------------
# PTX of a few kernels

PTX_CASES = [
    ("int32 // and % (runtime)", "def k(x, y, q, r):\n    q[0] = x[0] // y[0]\n    r[0] = x[0] % y[0]", "(int32[:], int32[:], int32[:], int32[:])"),
    ("int32 << and >> (runtime)", "def k(x, s, a, b):\n    a[0] = x[0] << s[0]\n    b[0] = x[0] >> s[0]", "(int32[:], int32[:], int32[:], int32[:])"),
    ("uint32 >> (runtime)", "def k(x, s, a, b):\n    a[0] = x[0] << s[0]\n    b[0] = x[0] >> s[0]", "(uint32[:], int32[:], uint32[:], uint32[:])"),
    ("float64 -> int32, uint8, int64, store", "def k(x, a, b, c, d):\n    a[0] = int32(x[0])\n    b[0] = uint8(x[0])\n    c[0] = int64(x[0])\n    d[0] = x[0]", "(float64[:], int32[:], uint8[:], int64[:], int32[:])"),
    ("float32 // and %", "def k(x, y, q, r):\n    q[0] = x[0] // y[0]\n    r[0] = x[0] % y[0]", "(float32[:], float32[:], float32[:], float32[:])"),
    ("atomic max/min float32", "def k(a, v, o):\n    o[0] = cuda.atomic.max(a, 0, v[0])\n    o[1] = cuda.atomic.min(a, 1, v[1])", "(float32[:], float32[:], float32[:])"),
    ("atomic nanmax float32", "def k(a, v, o):\n    o[0] = cuda.atomic.nanmax(a, 0, v[0])", "(float32[:], float32[:], float32[:])"),
    ("atomic inc/dec uint32", "def k(a, v, o):\n    o[0] = cuda.atomic.inc(a, 0, v[0])\n    o[1] = cuda.atomic.dec(a, 1, v[1])", "(uint32[:], uint32[:], uint32[:])"),
    ("-x, abs(x) int32", "def k(x, a, b):\n    a[0] = -x[0]\n    b[0] = abs(x[0])", "(int32[:], int32[:], int32[:])"),
]


def ptx_dump(path):
    out = {}
    for label, body, sig in PTX_CASES:
        try:
            fn = make_fn(body + "\n")
            ptx, _ = cuda.compile_ptx(fn, "void" + sig, cc=CC)
            if isinstance(ptx, bytes):
                ptx = ptx.decode()
            out[label] = {"src": body, "sig": "void" + sig, "ptx": ptx}
        except Exception as e:
            out[label] = {"src": body, "sig": "void" + sig, **short_err(e)}
    with open(path, "w") as fh:
        json.dump(out, fh, indent=1)
    log("wrote", path)


# ---------------------------------------------------------------------------

def main():
    out = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("--") else "measured.json"
    meta = {"python": platform.python_version(), "numba": numba.__version__, "numpy": np.__version__,
            "compile_only": COMPILE_ONLY, "started": time.strftime("%Y-%m-%d %H:%M:%S %Z")}
    try:
        import importlib.metadata as md
        meta["numba_cuda"] = md.version("numba-cuda")
    except Exception as e:
        meta["numba_cuda"] = "unknown: " + first_line(e)
    try:
        if not COMPILE_ONLY:
            dev = cuda.get_current_device()
            n = dev.name
            meta["gpu"] = n.decode() if isinstance(n, bytes) else str(n)
            meta["compute_capability"] = list(dev.compute_capability)
        try:
            from numba.cuda.cudadrv import nvvm
            meta["nvvm_version"] = list(nvvm.NVVM().get_version())
        except Exception as e:
            meta["nvvm_version"] = "unknown: " + first_line(e)
        try:
            meta["cuda_runtime"] = list(cuda.runtime.get_version())
        except Exception as e:
            meta["cuda_runtime"] = "unknown: " + first_line(e)
        try:
            meta["driver"] = list(cuda.cudadrv.driver.driver.get_version())
        except Exception as e:
            meta["driver"] = "unknown: " + first_line(e)
    except Exception as e:
        meta["gpu"] = "unknown: " + first_line(e)
    RESULTS["meta"] = meta
    log("meta", json.dumps(meta))
    only = os.environ.get("PROBE_ONLY")
    for name, fn in (("a", sec_a), ("b", sec_b), ("c", sec_c), ("d", sec_d), ("e", sec_e), ("f", sec_f),
                     ("g", sec_g), ("h", sec_h), ("i", sec_i), ("j", sec_j), ("z", sec_z)):
        if only and name not in only:
            continue
        t0 = time.time()
        try:
            fn()
        except Exception as e:
            RESULTS.setdefault("section_errors", {})[name] = traceback.format_exc()
            log("SECTION", name, "crashed:", first_line(e))
        log(f"section {name} took {time.time() - t0:.1f}s")
        with open(out, "w") as fh:  # write as we go
            json.dump(RESULTS, fh, indent=1)
    try:
        ptx_dump(os.path.join(os.path.dirname(os.path.abspath(out)), "ptx.json"))
    except Exception as e:
        log("ptx dump failed:", first_line(e))
    meta["finished"] = time.strftime("%Y-%m-%d %H:%M:%S %Z")
    with open(out, "w") as fh:
        json.dump(RESULTS, fh, indent=1)
    log("wrote", out)


if __name__ == "__main__":
    main()
