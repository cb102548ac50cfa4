"""Writes the corpus/hidet cases: each NAME.py (a Hidet script file with one
cpu_kernel) and NAME.json (its launch). The expected bits are added by
tools/hidet_expect.py, which runs every case on real Hidet (0.6.1, cpu_kernel,
g++ without fast-math).

    python3 corpus/hidet/_make_cases.py

An existing case keeps its "expected"/"provenance" only while its .py and
its arguments are unchanged.

Every operand of integer division, remainder, shifts and of arithmetic whose
value matters comes from a buffer (a runtime value): Hidet folds constant
expressions with Python semantics (floor division, no wrapping; see
docs/hidet-measured.md, "Constant folding diverges"), and that folding is
kept out of the corpus. Literal operands appear only where their typing is
the point (`x * 0.1`, `x - 1`, `x * 1`), never `x * 0` or `x + 0.0`.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
HEAD = """import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout
"""

TYPES = ["i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64", "bool"]
DT = {"i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64", "u8": "uint8",
      "u16": "uint16", "u32": "uint32", "u64": "uint64", "f32": "float32", "f64": "float64",
      "bool": "bool"}
ANN = {t: ("boolean" if t == "bool" else t) for t in TYPES}
WIDTH = {"i8": 8, "i16": 16, "i32": 32, "i64": 64, "u8": 8, "u16": 16, "u32": 32, "u64": 64}


def indent(text, n):
    return "\n".join((" " * n + l) if l.strip() else "" for l in text.strip("\n").splitlines())


def kernel(params, body, helpers="", consts=""):
    """A file with one script module: `helpers` (script functions, unindented)
    then the cpu_kernel `kernel(params)` with `body`."""
    src = HEAD + ("\n" + consts.strip("\n") + "\n" if consts else "") + "\n"
    src += "with hidet.script_module() as script_module:\n"
    if helpers:
        src += indent(helpers, 4) + "\n\n"
    src += "    @hidet.script\n"
    src += f"    def kernel({params}):\n"
    src += "        attrs.func_kind = 'cpu_kernel'\n"
    src += indent(body, 8) + "\n"
    src += "\nmodule = script_module.build()\n"
    return src


def wrap(v, t):
    """an integer value as type t holds it (two's complement wrap)."""
    if t in WIDTH:
        w = WIDTH[t]
        v &= (1 << w) - 1
        if t.startswith("i") and v >> (w - 1):
            v -= 1 << w
    return v


def buf(t, data):
    t = DT.get(t, t)
    return {"buffer": {"dtype": t, "data": data}}


def ibuf(t, data):
    return buf(t, [wrap(v, t) for v in data])


def zeros(t, n):
    return {"buffer": {"dtype": DT.get(t, t), "len": n}}


def rnd(t, n, seed, low=None, high=None):
    r = {"seed": seed}
    if low is not None:
        r["low"], r["high"] = low, high
    return {"buffer": {"dtype": DT.get(t, t), "len": n, "init": {"random": r}}}


def scalar(t, v):
    return {"scalar": {"dtype": DT.get(t, t), "value": v}}


CASES = {}


def case(name, src, args):
    assert name not in CASES, name
    CASES[name] = (src, {"args": args})


# ---------------------------------------------------------------------------
# layouts: write t[c] = (flat coordinate) through a tensor of the layout, then
# read the storage back as it lies in memory (through ~t[0, ...])
# ---------------------------------------------------------------------------

def layout_case(name, layout, shape, size, via="pointer"):
    dims = len(shape)
    cs = [f"c{d}" for d in range(dims)]
    flat = "0"
    for d, c in enumerate(cs):
        flat = f"({flat}) * {shape[d]} + {c}" if d else c
    zero = ", ".join(["0"] * dims)
    # (Hidet 0.6.1 refuses to subscript `~t[0, 0]` directly: `(~t[0, 0])[k]`
    # is "Can not infer the tensor rank"; the address goes to a variable)
    if via == "pointer":
        read = f"p = ~t[{zero}]\nfor k in range({size}):\n    out[k] = p[k]"
    else:
        read = f"for k in range({size}):\n    p = ~t[{zero}]\n    out[k] = p[k]"
    body = (f"t = tensor(dtype=i32, layout={layout})\n"
            f"for {', '.join(cs)} in hidet.lang.grid({', '.join(map(str, shape))}):\n"
            f"    t[{', '.join(cs)}] = {flat}\n" + read)
    case(name, kernel(f"out: i32[{size}]", body), {"out": zeros("i32", size)})


layout_case("layout_row_major", "row_major(3, 4)", [3, 4], 12)
layout_case("layout_column_major", "column_major(3, 4)", [3, 4], 12, via="inline")
layout_case("layout_strided_seed", "strided_layout(shape=[2, 2, 2], ranks=[0, 2, 1])", [2, 2, 2], 8)
layout_case("layout_strided_ranks_row", "strided_layout(shape=[3, 4], ranks=[0, 1])", [3, 4], 12)
layout_case("layout_strided_ranks_column", "strided_layout(shape=[3, 4], ranks=[1, 0])", [3, 4], 12)
layout_case("layout_strided_3d", "strided_layout(shape=[2, 3, 4], ranks=[2, 0, 1])", [2, 3, 4], 24)
layout_case("layout_compose_seed_c", "row_major(2, 1) * row_major(2, 2)", [4, 2], 8)
layout_case("layout_compose_seed_d", "row_major(2, 1) * column_major(2, 2)", [4, 2], 8)
layout_case("layout_compose_seed_e", "row_major(2, 1) * row_major(2, 2) * column_major(2, 2)", [8, 4], 32)
layout_case("layout_compose_seed_e_right", "row_major(2, 1) * (row_major(2, 2) * column_major(2, 2))", [8, 4], 32)
layout_case("layout_compose_rm_cm", "row_major(2, 2) * column_major(2, 3)", [4, 6], 24, via="inline")
layout_case("layout_compose_cm_rm", "column_major(2, 2) * row_major(2, 3)", [4, 6], 24)
layout_case("layout_local_inner", "row_major(2, 2) * local_layout(2, 1)", [4, 2], 4)
layout_case("layout_local_outer", "local_layout(2, 1) * row_major(2, 2)", [4, 2], 4)
layout_case("layout_local_alone", "local_layout(2, 3)", [2, 3], 1)
layout_case("layout_concat", "row_major(2) + column_major(2, 3)", [2, 2, 3], 12)
layout_case("layout_concat_strided", "column_major(2, 2) + strided_layout(shape=[2, 3], ranks=[1, 0])", [2, 2, 2, 3], 24)

# a tensor with both shape and layout, a float tensor with a default layout,
# and layout attributes read while transpiling
case("layout_shape_and_layout", kernel(
    "a: f32[3, 4], out: f32[24]",
    """
t = tensor(dtype=f32, shape=[3, 4], layout=column_major(3, 4))
u = tensor(dtype=f32, shape=[3, 4])
for i, j in hidet.lang.grid(3, 4):
    t[i, j] = a[i, j]
    u[i, j] = a[i, j] * a[i, j]
pt = ~t[0, 0]
pu = ~u[0, 0]
for k in range(12):
    out[k] = pt[k]
    out[12 + k] = pu[k]
"""), {"a": rnd("f32", 12, 11), "out": zeros("f32", 24)})

# ---------------------------------------------------------------------------
# tensor parameters, pointers
# ---------------------------------------------------------------------------

case("tensor_param_transpose", kernel(
    "a: f32[3, 4], b: f32[4, 3]",
    """
for i in range(3):
    for j in range(4):
        b[j, i] = a[i, j] * 2.0 - a[2 - i, 3 - j]
"""), {"a": rnd("f32", 12, 1), "b": zeros("f32", 12)})

case("tensor_param_3d", kernel(
    "a: i64[2, 3, 4], s: i64[2, 3], out: i64[2, 3, 4]",
    """
for i, j in hidet.lang.grid(2, 3):
    acc: i64 = 0
    for k in range(4):
        acc = acc + a[i, j, k] * (k + 1)
        out[i, j, k] = acc
    s[i, j] = acc
"""), {"a": rnd("i64", 24, 2, -1000000, 1000000), "s": zeros("i64", 6), "out": zeros("i64", 24)})

case("pointer_arith", kernel(
    "p: ~f32, q: ~i32, out: ~f32, n: i32",
    """
r = p + 2
for i in range(n):
    pi = p + i
    out[i] = r[i] + pi[1] + f32(q[i])
s = out + n
s[0] = p[0]
w = r - 1
s[1] = w[0]
q3 = q + 3
q3[0] = q[0] + q[1]
q[4] = q[5] - 1
"""), {"p": rnd("f32", 8, 3), "q": ibuf("i32", [1, -2, 3, -4, 0, 6]),
       "out": zeros("f32", 8), "n": scalar("i32", 6)})

case("pointer_address_of_element", kernel(
    "a: f32[4, 4], out: f32[12]",
    """
r = ~a[1, 2]
for k in range(6):
    out[k] = r[k]
for i in range(4):
    row = ~a[i, 0]
    out[6 + i] = row[3] - row[0]
t = ~a[3, 3]
t[0] = out[0] + out[1]
out[10] = a[3, 3]
u = ~out[11]
v = ~a[0, 1]
u[0] = v[2]
"""), {"a": rnd("f32", 16, 4), "out": zeros("f32", 12)})

case("pointer_param_u8_i64", kernel(
    "b: ~u8, w: ~i64, n: i32",
    """
i = 0
while i < n:
    w[i] = w[i] * 3 + b[i]
    b[i] = b[i] + b[n - 1 - i]
    i += 1
"""), {"b": ibuf("u8", [200, 100, 255, 1, 7, 128]), "w": ibuf("i64", [1, -5, 1 << 40, -(1 << 50), 0, 9]),
       "n": scalar("i32", 6)})

# ---------------------------------------------------------------------------
# variables: declared, inferred from the first assignment
# ---------------------------------------------------------------------------

case("declared_vars", kernel(
    "a: f32[8], b: i32[8], out: f32[3], cnt: i32[2]",
    """
acc: f32 = 0.0
n: i32 = 0
big: f32
big = a[0]
for i in range(8):
    acc = acc + a[i] * f32(b[i])
    if a[i] > big:
        big = a[i]
    if b[i] > 0:
        n = n + 1
m: i64 = 1
for i in range(8):
    m = m * 3 + b[i]
out[0] = acc
out[1] = big
out[2] = f32(m)
cnt[0] = n
cnt[1] = i32(m)
"""), {"a": rnd("f32", 8, 5), "b": ibuf("i32", [3, -1, 4, 1, -5, 9, 2, -6]),
       "out": zeros("f32", 3), "cnt": zeros("i32", 2)})

case("declared_var_conversions", kernel(
    "f: f32[4], d: f64[4], iv: i32[4], uv: u32[4], o32: i32[4], o8: i8[4], ou8: u8[4], of: f32[4], o64: i64[4]",
    """
for i in range(4):
    x: i32 = f[i]
    y: u8 = iv[i]
    z: i8
    z = iv[i]
    w: f32 = d[i]
    q: i64 = uv[i]
    o32[i] = x
    ou8[i] = y
    o8[i] = z
    of[i] = w
    o64[i] = q
"""), {"f": buf("f32", [-2.7, 2.7, 127.5, -0.5]), "d": buf("f64", [0.1, 1e30, -3.3, 16777217.0]),
       "iv": ibuf("i32", [300, -129, 255, -1]), "uv": ibuf("u32", [4294967295, 2147483648, 7, 0]),
       "o32": zeros("i32", 4), "o8": zeros("i8", 4), "ou8": zeros("u8", 4), "of": zeros("f32", 4),
       "o64": zeros("i64", 4)})

case("inferred_types", kernel(
    "a: i8[4], f: f32[4], d: f64[4], o8: i8[4], o32: i32[4], of: f32[4], od: f64[4]",
    """
for i in range(4):
    x = a[i]
    x = x + x
    o8[i] = x
    s = 0
    s = s + f[i]
    s = s + f[i]
    o32[i] = s
    h = 1.5
    h = h * d[i]
    of[i] = h
    e = d[i]
    e = e + f[i]
    od[i] = e
"""), {"a": ibuf("i8", [100, -100, 63, -1]), "f": buf("f32", [1.7, -2.6, 0.3, 1e8]),
       "d": buf("f64", [0.1, 3.0000001, -7.25, 1e-40]), "o8": zeros("i8", 4), "o32": zeros("i32", 4),
       "of": zeros("f32", 4), "od": zeros("f64", 4)})

case("local_tensor_accumulate", kernel(
    "a: f32[4, 8], out: f32[4]",
    """
sums = tensor(dtype=f32, shape=[4])
for i in range(4):
    sums[i] = 0.0
for i, j in hidet.lang.grid(4, 8):
    sums[i] = sums[i] + a[i, j]
for i in range(4):
    out[i] = sums[i]
"""), {"a": rnd("f32", 32, 6), "out": zeros("f32", 4)})

# ---------------------------------------------------------------------------
# control flow
# ---------------------------------------------------------------------------

case("loop_range_forms", kernel(
    "out: i32[6], n: i32, m: i32",
    """
c0: i32 = 0
for i in range(n):
    c0 = c0 + i
c1: i32 = 0
for i in range(7):
    c1 = c1 * 2 + i + 2
c2: i32 = 0
for i in hidet.lang.grid(n - m):
    c2 = c2 * 10 + (m + i)
c3: i32 = 0
for i, j in hidet.lang.grid(m, n):
    c3 = c3 + i * j + 1
c4: i32 = 0
for i in range(m - n):
    c4 = c4 + 1
c5: i32 = 0
for i in range(n):
    for j in range(i):
        c5 = c5 + j
out[0] = c0
out[1] = c1
out[2] = c2
out[3] = c3
out[4] = c4
out[5] = c5
"""), {"out": zeros("i32", 6), "n": scalar("i32", 7), "m": scalar("i32", 3)})

case("loop_grid", kernel(
    "a: i32[2, 3, 4], out: i32[24], tot: i64[1]",
    """
t: i64 = 0
for i, j, k in hidet.lang.grid(2, 3, 4):
    out[(k * 3 + j) * 2 + i] = a[i, j, k] * 10 + i - j + k
    t = t + a[i, j, k]
tot[0] = t
"""), {"a": rnd("i32", 24, 7, -100, 100), "out": zeros("i32", 24), "tot": zeros("i64", 1)})

case("while_collatz", kernel(
    "a: i32[6], steps: i32[6]",
    """
for i in range(6):
    x = a[i]
    n = 0
    while x != 1:
        if x % 2 == 0:
            x = x / 2
        else:
            x = 3 * x + 1
        n += 1
    steps[i] = n
"""), {"a": ibuf("i32", [1, 6, 7, 27, 97, 871]), "steps": zeros("i32", 6)})

case("if_elif_else", kernel(
    "a: i32[8], f: f32[8], out: i32[8]",
    """
for i in range(8):
    if a[i] < -10:
        out[i] = 1
    elif a[i] < 0:
        out[i] = 2
    elif a[i] == 0:
        out[i] = 3
    else:
        if f[i] > 0.5 and a[i] > 5:
            out[i] = 4
        elif not (f[i] < 0.0) or a[i] == 1:
            out[i] = 5
        else:
            out[i] = 6
"""), {"a": ibuf("i32", [-20, -5, 0, 7, 3, 1, 100, 2]),
       "f": buf("f32", [0.0, 0.0, 0.0, 0.75, 0.9, -1.0, 0.25, -0.5]), "out": zeros("i32", 8)})

case("break_continue", kernel(
    "a: i32[10], out: i32[4]",
    """
s: i32 = 0
first: i32 = -1
for i in range(10):
    if a[i] % 2 != 0:
        continue
    if a[i] > 50:
        first = i
        break
    s = s + a[i]
out[0] = s
out[1] = first
pairs: i32 = 0
for i in range(10):
    for j in range(10):
        if j >= i:
            break
        if (a[i] + a[j]) % 3 == 0:
            continue
        pairs = pairs + 1
out[2] = pairs
k: i32 = 0
while k >= 0:
    k = k + 1
    if k * k > a[9]:
        break
out[3] = k
"""), {"a": ibuf("i32", [4, 7, 10, 13, 22, 60, 2, 8, 11, 90]), "out": zeros("i32", 4)})

# ---------------------------------------------------------------------------
# helpers (attrs.func_kind = 'cpu_internal')
# ---------------------------------------------------------------------------

case("helper_scalar_return", kernel(
    "a: i32[8], f: f32[8], oi: i32[8], of: f32[8]",
    """
for i in range(8):
    oi[i] = clamp(a[i], -5, 10) + sign(a[i])
    of[i] = sq(f[i]) - f32(sign(a[i]))
""", helpers="""
@hidet.script
def clamp(x: i32, lo: i32, hi: i32) -> i32:
    attrs.func_kind = 'cpu_internal'
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x

@hidet.script
def sign(x: i32) -> i32:
    attrs.func_kind = 'cpu_internal'
    r: i32 = 0
    if x > 0:
        r = 1
    elif x < 0:
        r = -1
    return r

@hidet.script
def sq(x: f32) -> f32:
    attrs.func_kind = 'cpu_internal'
    return x * x
"""), {"a": ibuf("i32", [-100, -5, -1, 0, 3, 10, 11, 1000]), "f": rnd("f32", 8, 8),
       "oi": zeros("i32", 8), "of": zeros("f32", 8)})

case("helper_pointer_tensor_params", kernel(
    "a: f32[4, 4], cnt: i32[4], out: f32[4]",
    """
for i in range(4):
    out[i] = row_sum(~a[i, 0], 4) + at(a, i, 3 - i)
fill(~cnt[0], 4, 7)
cnt[2] = cnt[2] + 1
""", helpers="""
@hidet.script
def row_sum(r: ~f32, n: i32) -> f32:
    attrs.func_kind = 'cpu_internal'
    s: f32 = 0.0
    for k in range(n):
        s = s + r[k]
    return s

@hidet.script
def at(t: f32[4, 4], i: i32, j: i32) -> f32:
    attrs.func_kind = 'cpu_internal'
    return t[i, j]

@hidet.script
def fill(p: ~i32, n: i32, v: i32):
    attrs.func_kind = 'cpu_internal'
    for k in range(n):
        p[k] = v + k
"""), {"a": rnd("f32", 16, 9), "cnt": zeros("i32", 4), "out": zeros("f32", 4)})

# ---------------------------------------------------------------------------
# promotion: every pair of types, ops + - * / % < == on runtime values
# ---------------------------------------------------------------------------

A_INT = [-7, 100, 5, -1]
B_INT = [2, -3, 7, 3]
A_FLT = [-7.0, 100.0, 5.0, -1.0]
B_FLT = [2.0, -3.0, 7.0, 3.0]


def operand(t, vals, fvals, boolvals):
    if t == "bool":
        return buf("bool", boolvals)
    if t in ("f32", "f64"):
        return buf(t, fvals)
    return ibuf(t, vals)


for ta in TYPES:
    params = [f"a: {ANN[ta]}[4]"] + [f"b_{tb}: {ANN[tb]}[4]" for tb in TYPES]
    lines_i, lines_f = [], []
    ni = nf = 0
    for tb in TYPES:
        flt = ta in ("f32", "f64") or tb in ("f32", "f64")
        ops = ["+", "-", "*", "/"] + ([] if flt else ["%"])
        for op in ops:
            if flt:
                lines_f.append(f"out_f[{nf} + i] = a[i] {op} b_{tb}[i]")
                nf += 4
            else:
                lines_i.append(f"out_i[{ni} + i] = a[i] {op} b_{tb}[i]")
                ni += 4
        for op in ["<", "=="]:
            lines_i.append(f"out_i[{ni} + i] = a[i] {op} b_{tb}[i]")
            ni += 4
    params += [f"out_i: i64[{ni}]"] + ([f"out_f: f64[{nf}]"] if nf else [])
    body = "for i in range(4):\n" + "\n".join("    " + l for l in lines_i + lines_f)
    args = {"a": operand(ta, A_INT, A_FLT, [1, 0, 1, 0])}
    for tb in TYPES:
        args[f"b_{tb}"] = operand(tb, B_INT, B_FLT, [1, 1, 1, 1])
    args["out_i"] = zeros("i64", ni)
    if nf:
        args["out_f"] = zeros("f64", nf)
    case(f"promote_{ta}", kernel(", ".join(params), body), args)

# comparisons decided in the promoted type, as branch conditions
case("compare_promoted", kernel(
    "a16: u16[4], b8: i8[4], a64: u64[4], b32: i32[4], u32v: u32[4], out: i32[16]",
    """
for i in range(4):
    if a16[i] < b8[i]:
        out[i] = 1
    else:
        out[i] = 0
    if a64[i] < b8[i]:
        out[4 + i] = 1
    else:
        out[4 + i] = 0
    out[8 + i] = b32[i] < a64[i]
    out[12 + i] = u32v[i] > b8[i]
"""), {"a16": ibuf("u16", [65529, 3, 100, 65535]), "b8": ibuf("i8", [2, 5, -3, -1]),
       "a64": ibuf("u64", [2 ** 64 - 7, 5, 2 ** 63, 1]), "b32": ibuf("i32", [100, -1, 7, 0]),
       "u32v": ibuf("u32", [4294967295, 5, 2147483648, 127]), "out": zeros("i32", 16)})

# ---------------------------------------------------------------------------
# integer division and remainder with negative operands, every width
# ---------------------------------------------------------------------------

for t in ["i8", "i16", "i32", "i64"]:
    case(f"int_div_mod_{t}", kernel(
        f"a: {t}[8], b: {t}[8], out: {t}[24]",
        """
for i in range(8):
    out[i] = a[i] / b[i]
    out[8 + i] = a[i] // b[i]
    out[16 + i] = a[i] % b[i]
"""), {"a": ibuf(t, [7, -7, 7, -7, 100, -100, 0, -128 if t == "i8" else -1000]),
       "b": ibuf(t, [2, 2, -2, -2, 7, 7, 3, -1 if t == "i8" else -7]), "out": zeros(t, 24)})

case("int_div_mod_unsigned_mixed", kernel(
    "u: u32[4], s: i32[4], w: u64[4], v: i64[4], o: i64[16]",
    """
for i in range(4):
    o[i] = u[i] / s[i]
    o[4 + i] = s[i] % u[i]
    o[8 + i] = w[i] // v[i]
    o[12 + i] = u[i] % w[i]
"""), {"u": ibuf("u32", [7, 4294967289, 100, 3]), "s": ibuf("i32", [-2, 2, -7, 5]),
       "w": ibuf("u64", [7, 2 ** 64 - 7, 100, 9]), "v": ibuf("i64", [-2, 2, -7, 4]),
       "o": zeros("i64", 16)})

# ---------------------------------------------------------------------------
# narrow integers wrap
# ---------------------------------------------------------------------------

case("narrow_int_wrap", kernel(
    "a8: i8[4], b8: i8[4], u8a: u8[4], a16: i16[4], u16a: u16[4], u32a: u32[4], o8: i8[12], ou8: u8[8], o16: i16[4], ou16: u16[4], ou32: u32[4]",
    """
for i in range(4):
    o8[i] = a8[i] + b8[i]
    o8[4 + i] = a8[i] * b8[i]
    o8[8 + i] = a8[i] - b8[i]
    ou8[i] = u8a[i] - u8a[3 - i]
    ou8[4 + i] = u8a[i] * u8a[i]
    o16[i] = a16[i] * a16[i]
    ou16[i] = u16a[i] * u16a[3 - i]
    ou32[i] = u32a[i] - u32a[3 - i]
acc: i8 = 0
for i in range(4):
    acc = acc + a8[i]
    acc += b8[i]
o8[11] = acc
"""), {"a8": ibuf("i8", [100, -100, 127, -128]), "b8": ibuf("i8", [100, 100, 1, -1]),
       "u8a": ibuf("u8", [1, 2, 200, 255]), "a16": ibuf("i16", [300, -300, 181, 256]),
       "u16a": ibuf("u16", [255, 256, 180, 181]), "u32a": ibuf("u32", [1, 2, 4000000000, 4294967295]),
       "o8": zeros("i8", 12), "ou8": zeros("u8", 8), "o16": zeros("i16", 4), "ou16": zeros("u16", 4),
       "ou32": zeros("u32", 4)})

# ---------------------------------------------------------------------------
# shifts and bitwise operators (counts < width, no signed overflow)
# ---------------------------------------------------------------------------

case("shifts", kernel(
    "a: i32[4], s: i32[4], a8: i8[4], u8a: u8[4], a64: i64[4], o32: i32[8], o8: i8[4], ow: i64[8], ou: u32[4]",
    """
for i in range(4):
    o32[i] = a[i] << s[i]
    o32[4 + i] = (a[i] - 1000) >> s[i]
    o8[i] = a8[i] << 1
    ow[i] = a8[i] << 1
    ow[4 + i] = a64[i] << s[i] + 20
    ou[i] = u8a[i] << 1
    ou[i] = ou[i] + (u8a[i] >> 3)
"""), {"a": ibuf("i32", [1, 3, 5, 1000]), "s": ibuf("i32", [4, 2, 3, 10]),
       "a8": ibuf("i8", [64, 3, 100, 1]), "u8a": ibuf("u8", [200, 1, 128, 255]),
       "a64": ibuf("i64", [1, 3, 5, 123456]), "o32": zeros("i32", 8), "o8": zeros("i8", 4),
       "ow": zeros("i64", 8), "ou": zeros("u32", 4)})

case("bitwise_same_types", kernel(
    "a: i32[4], b: i32[4], u: u16[4], v: u16[4], o: i32[12], ou: u16[12]",
    """
for i in range(4):
    o[i] = a[i] & b[i]
    o[4 + i] = a[i] | b[i]
    o[8 + i] = a[i] ^ b[i]
    ou[i] = u[i] & v[i]
    ou[4 + i] = u[i] | v[i]
    ou[8 + i] = u[i] ^ v[i]
"""), {"a": ibuf("i32", [0x1ff, -1, 12345, -12345]), "b": ibuf("i32", [0xf0f, 0x7fff, -256, 255]),
       "u": ibuf("u16", [0xffff, 0x1234, 0x8000, 0]), "v": ibuf("u16", [0x0ff0, 0xff00, 0x8001, 0xffff]),
       "o": zeros("i32", 12), "ou": zeros("u16", 12)})

case("bitwise_mixed_types", kernel(
    "a8: i8[4], b32: i32[4], u32a: u32[4], o8: i8[8], o32: i32[4], ow: i64[12]",
    """
for i in range(4):
    o8[i] = a8[i] & b32[i]
    o8[4 + i] = a8[i] ^ b32[i]
    o32[i] = b32[i] ^ a8[i]
    ow[i] = a8[i] & b32[i]
    ow[4 + i] = b32[i] | u32a[i]
    ow[8 + i] = a8[i] ^ u32a[i]
"""), {"a8": ibuf("i8", [-1, 5, -128, 127]), "b32": ibuf("i32", [0x1ff, -1, 0x0f0, -256]),
       "u32a": ibuf("u32", [0xffff, 5, 0x80000000, 0]), "o8": zeros("i8", 8), "o32": zeros("i32", 4),
       "ow": zeros("i64", 12)})

case("bitwise_not", kernel(
    "a: i32[4], u: u8[4], o: i32[4], ou: u8[4], ow: i64[4]",
    """
for i in range(4):
    o[i] = bitwise_not(a[i])
    ou[i] = bitwise_not(u[i])
    ow[i] = bitwise_not(u[i])
"""), {"a": ibuf("i32", [5, -1, 0, 2147483647]), "u": ibuf("u8", [5, 0, 255, 128]),
       "o": zeros("i32", 4), "ou": zeros("u8", 4), "ow": zeros("i64", 4)})

# ---------------------------------------------------------------------------
# casts
# ---------------------------------------------------------------------------

case("casts_int_to_float", kernel(
    "a: i32[4], b: i64[4], c: u64[4], of: f32[12], od: f64[8]",
    """
for i in range(4):
    of[i] = f32(a[i])
    of[4 + i] = f32(b[i])
    of[8 + i] = f32(c[i])
    od[i] = f64(b[i])
    od[4 + i] = f64(c[i])
"""), {"a": ibuf("i32", [16777217, 16777219, 2147483647, -3]),
       "b": ibuf("i64", [2 ** 53 + 1, -(2 ** 53) - 3, 2 ** 62 + 2 ** 39, -5]),
       "c": ibuf("u64", [2 ** 64 - 1, 2 ** 63 + 1, 12345, 2 ** 53 + 1]),
       "of": zeros("f32", 12), "od": zeros("f64", 8)})

case("casts_float_to_int", kernel(
    "f: f32[4], d: f64[4], o8: i8[4], ou8: u8[4], o32: i32[4], ou16: u16[4], o64: i64[4], ou32: u32[4], ou64: u64[4]",
    """
for i in range(4):
    o8[i] = i8(f[i])
    ou8[i] = u8(f[i] + 100.0)
    o32[i] = i32(d[i])
    ou16[i] = u16(f[i] * 100.0 + 20000.0)
    o64[i] = i64(d[i] * 1e10)
    ou32[i] = u32(d[i] * 1e8 + 2e9)
    ou64[i] = u64(d[i] * d[i] * 72057594037927936.0)
"""), {"f": buf("f32", [2.7, -2.7, 127.5, -100.9]), "d": buf("f64", [3.99, -3.99, 0.5, -1.5]),
       "o8": zeros("i8", 4), "ou8": zeros("u8", 4), "o32": zeros("i32", 4), "ou16": zeros("u16", 4),
       "o64": zeros("i64", 4), "ou32": zeros("u32", 4), "ou64": zeros("u64", 4)})

case("casts_int_narrowing", kernel(
    "a: i32[4], b: i64[4], u: u32[4], o8: i8[4], ou8: u8[4], o16: i16[4], ou32: u32[4], o32: i32[4], ob: i32[4]",
    """
for i in range(4):
    o8[i] = i8(a[i])
    ou8[i] = cast(a[i], u8)
    o16[i] = i16(b[i])
    ou32[i] = u32(b[i])
    o32[i] = i32(u[i])
    ob[i] = i32(boolean(a[i]))
"""), {"a": ibuf("i32", [300, -129, 256, -1]), "b": ibuf("i64", [70000, -1, 2 ** 40 + 5, -(2 ** 33) - 1]),
       "u": ibuf("u32", [2 ** 31, 4294967295, 7, 2 ** 31 - 1]),
       "o8": zeros("i8", 4), "ou8": zeros("u8", 4), "o16": zeros("i16", 4), "ou32": zeros("u32", 4),
       "o32": zeros("i32", 4), "ob": zeros("i32", 4)})

case("casts_float_float", kernel(
    "d: f64[6], f: f32[6], of: f32[6], od: f64[6]",
    """
for i in range(6):
    of[i] = f32(d[i])
    od[i] = f64(f[i]) * f64(f[i])
"""), {"d": buf("f64", [0.1, 65519.99, 1e300, -1e-50, 3.4028235677973366e38, "-inf"]),
       "f": buf("f32", [0.1, 3.0, -1e20, 1e-30, "inf", 16777217.0]),
       "of": zeros("f32", 6), "od": zeros("f64", 6)})

# ---------------------------------------------------------------------------
# unary minus keeps the operand's type
# ---------------------------------------------------------------------------

case("unary_minus", kernel(
    "a8: i8[4], u8a: u8[4], u16a: u16[4], u32a: u32[4], u64a: u64[4], a64: i64[4], f: f32[4], o8: i8[4], ou8: u8[4], ou16: u16[4], ou32: u32[4], ou64: u64[4], o64: i64[4], of: f32[4], ow: i64[8]",
    """
for i in range(4):
    o8[i] = -a8[i]
    ou8[i] = -u8a[i]
    ou16[i] = -u16a[i]
    ou32[i] = -u32a[i]
    ou64[i] = -u64a[i]
    o64[i] = -a64[i]
    of[i] = -f[i]
    ow[i] = -u8a[i]
    ow[4 + i] = -u32a[i]
"""), {"a8": ibuf("i8", [-128, 5, 0, 127]), "u8a": ibuf("u8", [5, 0, 255, 128]),
       "u16a": ibuf("u16", [5, 0, 65535, 32768]), "u32a": ibuf("u32", [5, 0, 4294967295, 2 ** 31]),
       "u64a": ibuf("u64", [5, 0, 2 ** 64 - 1, 2 ** 63]), "a64": ibuf("i64", [5, -7, 0, 2 ** 62]),
       "f": buf("f32", [1.5, 0.0, -0.0, "inf"]), "o8": zeros("i8", 4), "ou8": zeros("u8", 4),
       "ou16": zeros("u16", 4), "ou32": zeros("u32", 4), "ou64": zeros("u64", 4), "o64": zeros("i64", 4),
       "of": zeros("f32", 4), "ow": zeros("i64", 8)})

# ---------------------------------------------------------------------------
# Python literals: int -> i32 constant, float -> f32 constant
# ---------------------------------------------------------------------------

case("literal_typing_int", kernel(
    "u8a: u8[4], u32a: u32[4], a8: i8[4], a16: i16[4], ow: i64[28]",
    """
for i in range(4):
    ow[i] = u8a[i] - 1
    ow[4 + i] = u32a[i] - 1
    ow[8 + i] = a8[i] * 2
    ow[12 + i] = (a8[i] * 1) * a8[i]
    ow[16 + i] = (1 * a8[i]) * a8[i]
    ow[20 + i] = (a16[i] - 0) * a16[i]
    ow[24 + i] = 2 - u8a[i]
"""), {"u8a": ibuf("u8", [0, 255, 7, 1]), "u32a": ibuf("u32", [0, 4294967295, 7, 1]),
       "a8": ibuf("i8", [100, -100, 12, -1]), "a16": ibuf("i16", [300, -300, 181, 2]),
       "ow": zeros("i64", 28)})

# (an f64 operand with a float literal, `d * 0.1`, is left out: Hidet folds
# the cast of the f32 constant to f64 on its Python double, so C sees the
# double 0.1, not (double)0.1f -- a constant-folding divergence)
case("literal_typing_float", kernel(
    "d: f64[4], f: f32[4], a: i32[4], u: u8[4], od: f64[20]",
    """
for i in range(4):
    od[i] = d[i] * 0.5
    od[4 + i] = f[i] * 0.1
    od[8 + i] = a[i] + 1.5
    od[12 + i] = u[i] + 0.3
    od[16 + i] = 1.1 * f[i]
"""), {"d": buf("f64", [1.0, 3.0, -7.5, 1e10]), "f": buf("f32", [1.0, 3.0, -7.5, 1e10]),
       "a": ibuf("i32", [16777217, -16777219, 3, 2147483647]), "u": ibuf("u8", [0, 1, 200, 255]),
       "od": zeros("f64", 20)})

# arithmetic on Python values while transpiling (Python semantics, exact ints)
case("python_value_arithmetic", kernel(
    "o: i32[10], of: f32[4], x: i32[2]",
    """
o[0] = -7 // 2
o[1] = 7 // -2
o[2] = 7 % -2
o[3] = -7 % 2
o[4] = N // -2 + x[0]
o[5] = (N * 1000000) // 1000 - 7000 + x[1]
o[6] = 1 << 4
o[7] = 0x1ff & 0xf0
o[8] = -(-5) * 3 - 2
o[9] = -7 / 2
of[0] = -7 / 2
of[1] = -7.0 // 2.0
of[2] = 7.5 % 2.0
of[3] = 0.1 + 0.2
""", consts="N = 7\n"), {"o": zeros("i32", 10), "of": zeros("f32", 4), "x": ibuf("i32", [1, -1])})

# ---------------------------------------------------------------------------
# floats
# ---------------------------------------------------------------------------

case("float_arith_f32", kernel(
    "a: f32[16], b: f32[16], o: f32[64]",
    """
for i in range(16):
    o[i] = a[i] + b[i]
    o[16 + i] = a[i] - b[i]
    o[32 + i] = a[i] * b[i]
    o[48 + i] = a[i] / b[i]
"""), {"a": rnd("f32", 16, 12, -100.0, 100.0), "b": rnd("f32", 16, 13, 0.5, 3.0), "o": zeros("f32", 64)})

case("float_arith_f64_accumulate", kernel(
    "a: f64[32], o: f64[3]",
    """
s: f64 = 0.0
p: f64 = 1.0
for i in range(32):
    s = s + a[i]
    p = p * (a[i] + 1.5)
o[0] = s
o[1] = p
o[2] = s / p
"""), {"a": rnd("f64", 32, 14), "o": zeros("f64", 3)})

case("float_special_values", kernel(
    "a: f32[6], b: f32[6], x: f32[6], y: f32[6], o: f32[18], c: i32[18]",
    """
for i in range(6):
    o[i] = a[i] * b[i]
    o[6 + i] = a[i] / b[i]
    o[12 + i] = a[i] + b[i]
    c[i] = x[i] < y[i]
    c[6 + i] = x[i] == y[i]
    c[12 + i] = x[i] != y[i]
"""), {"a": buf("f32", ["inf", 1.0, -0.0, "-inf", 1e38, 3.0]),
       "b": buf("f32", [2.0, 0.0, 5.0, -1.0, 10.0, -0.0]),
       "x": buf("f32", ["inf", 1.0, "nan", -0.0, "-inf", 1e38]),
       "y": buf("f32", [0.0, 0.0, 1.0, 0.0, "inf", 10.0]),
       "o": zeros("f32", 18), "c": zeros("i32", 18)})
# (no arithmetic result is a NaN: a NaN's bits on the CPU are x86's, not the
# GPU's rule that ksem follows; docs/divergences.md H4)

case("bool_logic", kernel(
    "a: i32[6], f: boolean[6], o: i32[18], ob: boolean[6]",
    """
for i in range(6):
    o[i] = a[i] > 0 and a[i] < 10
    o[6 + i] = a[i] < 0 or f[i]
    o[12 + i] = not f[i]
    ob[i] = f[i] + f[i]
"""), {"a": ibuf("i32", [5, -3, 10, 0, 7, -100]), "f": buf("bool", [True, False, True, False, False, True]),
       "o": zeros("i32", 18), "ob": zeros("bool", 6)})


# ---- kernels of the kinds in Hidet's own examples (small sizes) ----

case("example_matmul_tiled", kernel(
    "a: f32[8, 8], b: f32[8, 8], c: f32[8, 8]",
    """
# 4 x 4 output tiles accumulated in a local tensor, k in tiles of 4
for bi, bj in grid(2, 2):
    acc = tensor(dtype=f32, shape=[4, 4])
    for i, j in grid(4, 4):
        acc[i, j] = 0.0
    for bk in range(2):
        for i, j in grid(4, 4):
            for k in range(4):
                acc[i, j] = acc[i, j] + a[bi * 4 + i, bk * 4 + k] * b[bk * 4 + k, bj * 4 + j]
    for i, j in grid(4, 4):
        c[bi * 4 + i, bj * 4 + j] = acc[i, j]
"""), {"a": rnd("f32", 64, 11), "b": rnd("f32", 64, 12), "c": zeros("f32", 64)})

case("example_row_reduce", kernel(
    "x: f32[6, 10], s: f32[6], m: f32[6], idx: i32[6]",
    """
for r in range(6):
    acc: f32 = 0.0
    best: f32 = x[r, 0]
    at: i32 = 0
    for k in range(10):
        acc = acc + x[r, k]
        if x[r, k] > best:
            best = x[r, k]
            at = k
    s[r] = acc
    m[r] = best
    idx[r] = at
"""), {"x": rnd("f32", 60, 13), "s": zeros("f32", 6), "m": zeros("f32", 6), "idx": zeros("i32", 6)})

case("example_softmax_rows", kernel(
    "x: f32[4, 8], y: f32[4, 8]",
    """
for r in range(4):
    mx: f32 = x[r, 0]
    for k in range(8):
        if x[r, k] > mx:
            mx = x[r, k]
    total: f32 = 0.0
    for k in range(8):
        y[r, k] = exp(x[r, k] - mx)
        total = total + y[r, k]
    for k in range(8):
        y[r, k] = y[r, k] / total
""", consts="from hidet.ir.primitives.math import exp"),
    {"x": rnd("f32", 32, 14), "y": zeros("f32", 32)})

case("example_task_mapping_copy", kernel(
    "a: i32[4, 8], b: i32[4, 8], who: i32[4, 8]",
    """
# four workers share a 4 x 8 grid: spatial(2, 2) workers, each repeats 2 x 4
for w in range(4):
    for i, j in spatial(2, 2).repeat(2, 4).on(w):
        b[i, j] = a[i, j] * 2 + 1
        who[i, j] = w
""", consts="from hidet.lang.mapping import spatial, repeat"),
    {"a": rnd("i32", 32, 15, -50, 50), "b": zeros("i32", 32), "who": zeros("i32", 32)})

case("example_auto_map_transpose", kernel(
    "a: f32[6, 4], t: f32[4, 6]",
    """
# auto_map(4, 6, workers=3) = repeat(4, 2).spatial(1, 3); the transpose goes
# through a column-major local tensor
tile = tensor(dtype=f32, layout=column_major(4, 6))
for w in range(3):
    for i, j in auto_map(4, 6, workers=3).on(w):
        tile[i, j] = a[j, i]
for i, j in grid(4, 6):
    t[i, j] = tile[i, j]
""", consts="from hidet.lang.mapping import auto_map"),
    {"a": rnd("f32", 24, 16), "t": zeros("f32", 24)})

case("example_layernorm_f64", kernel(
    "x: f64[3, 16], g: f64[16], y: f64[3, 16]",
    """
for r in range(3):
    mean: f64 = 0.0
    for k in range(16):
        mean = mean + x[r, k]
    mean = mean / 16
    var: f64 = 0.0
    for k in range(16):
        d = x[r, k] - mean
        var = var + d * d
    var = var / 16
    inv = 1.0 / sqrt(var + 1e-5)
    for k in range(16):
        y[r, k] = (x[r, k] - mean) * inv * g[k]
""", consts="from hidet.ir.primitives.math import sqrt"),
    {"x": rnd("f64", 48, 17), "g": rnd("f64", 16, 18), "y": zeros("f64", 48)})


# ---------------------------------------------------------------------------
# complex64/complex128 and vector types: a complex or vector element is held
# in a launch buffer as consecutive numbers of its component dtype (real then
# imaginary part; the lanes in order; docs/formats.md). Operands come from
# buffers; NaN results are kept out (ksem's NaN bits are the GPU's, x86's
# default NaN differs: docs/semantics.md), NaN and inf operands are not.
# ---------------------------------------------------------------------------

CX = "from hidet.ir.dtypes import complex64, complex128, float32x4, float32x8\n" \
     "from hidet.ir.primitives.complex import real, imag, conj, make_complex"
INF = "inf"


def cx_case(name, t, body, inp, nout, params=None):
    comp = "f32" if t == "complex64" else "f64"
    case(name, kernel(params or f"a: ~{comp}, out: ~{comp}", body, consts=CX),
         {"a": buf(comp, inp), "out": zeros(comp, 2 * nout)})


# the textbook values, rounding, and libgcc's recovery of infinities
cx_case("complex64_arith", "complex64", """
x = cast(a, ~complex64)
o = cast(out, ~complex64)
for i in range(4):
    p = x[2 * i]
    q = x[2 * i + 1]
    o[4 * i] = p + q
    o[4 * i + 1] = p - q
    o[4 * i + 2] = p * q
    o[4 * i + 3] = p / q
""", [1.5, -2.0, 0.5, 4.0, 0.1, 0.7, 0.3, -0.9, 1e30, 1e30, 3e-39, 1e-38, -7.25, 0.0, -0.0, 3.5], 16)
cx_case("complex128_arith", "complex128", """
x = cast(a, ~complex128)
o = cast(out, ~complex128)
for i in range(4):
    p = x[2 * i]
    q = x[2 * i + 1]
    o[4 * i] = p + q
    o[4 * i + 1] = p - q
    o[4 * i + 2] = p * q
    o[4 * i + 3] = p / q
""", [1.5, -2.0, 0.5, 4.0, 0.1, 0.7, 0.3, -0.9, 1e300, 1e300, 1e-310, 3e-309, -7.25, 0.0, -0.0, 3.5], 16)
# Annex G: x / 0 is a signed infinity per part, inf * finite recovers inf
cx_case("complex64_annex_g", "complex64", """
x = cast(a, ~complex64)
o = cast(out, ~complex64)
o[0] = x[0] / x[1]
o[1] = x[2] * x[3]
o[2] = x[2] / x[3]
o[3] = x[3] / x[2]
o[4] = x[0] / x[2]
""", [1.0, -2.0, 0.0, 0.0, INF, 2.0, 1.0, 1.0], 5)
cx_case("complex128_annex_g", "complex128", """
x = cast(a, ~complex128)
o = cast(out, ~complex128)
o[0] = x[0] / x[1]
o[1] = x[2] * x[3]
o[2] = x[2] / x[3]
o[3] = x[3] / x[2]
o[4] = x[0] / x[2]
o[5] = x[4] / x[5]
""", [1.0, -2.0, 0.0, 0.0, INF, 2.0, 1.0, 1.0, 1e-300, 1e300, 1e300, 1e-300], 6)
# real operands: complex64 with float32 (the float becomes (f, +0)), Python
# float literals (float32 constants), the `a * 1` / `a + 0.0` shortcuts
cx_case("complex64_real_operands", "complex64", """
x = cast(a, ~complex64)[0]
f = a[2]
o = cast(out, ~complex64)
o[0] = x * f
o[1] = f - x
o[2] = x + 2.5
o[3] = 0.1 * x
o[4] = x / f
o[5] = x * 1
o[6] = complex64(f)
o[7] = x == f
""", [1.5, -0.0, 2.0], 8)
# construction, parts, conjugate, negation, conversions between widths
cx_case("complex_parts_conversions", "complex64", """
x = cast(a, ~complex64)[0]
o = cast(out, ~complex64)
o[0] = make_complex(imag(x), real(x))
o[1] = conj(x)
o[2] = -x
z = complex128(x)
w = z * z
o[3] = complex64(w)
out[8] = real(x) * imag(x)
o[5] = make_complex(1.0, 2.0)
o[6] = complex64(a[2])
o[7] = x != conj(x)
""", [0.1, -3.0, 7.0], 8)
# variables, local complex tensors, pointer arithmetic and address-of
cx_case("complex_variables_tensors", "complex64", """
p = cast(a, ~complex64)
t = tensor(dtype=complex64, shape=[3])
acc: complex64 = p[0]
for i in range(3):
    t[i] = acc
    acc = acc * p[1] + p[2]
    acc += t[i]
q = p + 1
o = cast(out, ~complex64)
o[0] = acc
o[1] = q[1]
r = ~t[1]
o[2] = r[1]
t[0] *= p[2]
o[3] = t[0]
""", [0.5, 0.25, 1.0, -0.5, -0.125, 2.0], 4)
# a complex tensor parameter takes interleaved re/im numbers
case("complex_tensor_params", kernel("x: complex64[2, 2], y: complex128[3], o: complex128[3]", """
for i in range(2):
    for j in range(2):
        x[i, j] = x[i, j] * x[j, i]
for k in range(3):
    o[k] = y[k] / y[(k + 1) % 3]
""", consts=CX), {"x": buf("f32", [1.0, 2.0, 3.0, -1.0, -2.0, 0.5, 0.25, 4.0]),
                  "y": buf("f64", [1.0, 1.0, -2.0, 0.5, 3.0, -4.0]), "o": zeros("f64", 6)})
# vector types: f32x4 / f32x8 copies, lanes through a cast to ~f32
case("vector_f32x4_copy", kernel("a: ~f32, out: ~f32", """
src = cast(a, ~float32x4)
dst = cast(out, ~float32x4)
for i in range(2):
    v = src[i]
    dst[1 - i] = v
w: float32x4 = src[0]
dst[2] = w
lanes = cast(cast(out, ~float32x4) + 2, ~f32)
lanes[1] = a[7]
""", consts=CX), {"a": buf("f32", [1.0, 2.0, 3.0, 4.0, 0.5, -0.25, -1.0, 8.0]), "out": zeros("f32", 12)})
# the fuzzer's vector constructs: lanes written through cast(~t[0], ~f32),
# whole elements copied through variables and negated (NaN and -0 lanes),
# a lane read of a runtime element
case("vector_f32x4_lanes_negate", kernel("a: ~f32, k: i32, out: ~f32", """
t = tensor(dtype=float32x4, shape=[3])
for j in range(12):
    cast(~t[0], ~f32)[j] = a[j % 8]
v = t[k]
w = -v
t[(k + 1) % 3] = w
u = t[0]
t[2] = -u
for j in range(12):
    out[j] = cast(~t[0], ~f32)[j]
out[12] = cast(~t[k], ~f32)[3]
""", consts=CX), {"a": buf("f32", [1.5, -2.25, "nan", -0.0, 3.0, 1e-45, -7.5, 65504.0]),
                  "k": scalar("i32", 1), "out": zeros("f32", 13)})
# pointer - pointer: the elements between two pointers to one type (int32)
case("pointer_difference", kernel("a: ~f32, k: i32, out: ~i64, o2: ~f32", """
p = a + (k + 5)
q = a + 2
out[0] = p - a
out[1] = a - p
out[2] = (p - q) * 3 + 1
t = tensor(dtype=f32, shape=[4, 4])
out[3] = ~t[k, 2] - ~t[0, 1]
d = p - q
o2[0] = d * 1.5
o2[1] = a[p - q]
r = a + (p - q)
o2[2] = r[0]
""", consts=CX), {"a": buf("f32", [0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5]), "k": scalar("i32", 1),
                  "out": zeros("i64", 4), "o2": zeros("f32", 3)})
# (an f32x8 is a __m256, which the CPU loads from 32-byte aligned memory
# only: a launch buffer is 16-byte aligned, so the vectors live in a local
# tensor and their lanes are reached through ~f32)
case("vector_f32x8_tensor", kernel("a: ~f32, out: ~f32", """
t = tensor(dtype=float32x8, shape=[2])
p = cast(~t[0], ~f32)
for k in range(8):
    p[k] = a[k]
t[1] = t[0]
q = cast(~t[1], ~f32)
for k in range(8):
    out[k] = q[7 - k]
""", consts=CX), {"a": buf("f32", [float(i) - 7.5 for i in range(8)]), "out": zeros("f32", 8)})

# ---- void pointers and addresses of variables (tools/probes/hidet/voidptr.py)
VOID = "from hidet.lang.types import void_p, void"
case("pointer_address_of_variable", kernel("a: ~f32, q: ~i32, out: ~f32, iout: ~i32", """
x = a[0]
p = ~x
p[0] = p[0] * 2.0 + a[1]
out[0] = x
x = x + 1.0
out[1] = p[0]
y: i32 = q[0]
r = ~y
for i in range(4):
    r[0] = r[0] + q[i]
    y = y * 2
iout[0] = y
z: i32
s = ~z
s[0] = q[3]
iout[1] = z - q[2]
w: f32 = a[2]
v = cast(~w, void_p)
cast(v, ~f32)[0] = a[3]
out[2] = w
""", consts=VOID), {"a": buf("f32", [1.5, 2.0, -3.25, 4.5]), "q": ibuf("i32", [3, -7, 11, 100]),
                    "out": zeros("f32", 3), "iout": zeros("i32", 2)})

case("void_pointer_bytes", kernel("v: void_p, a: ~f32, d: ~f64, out: ~f32, dout: ~f64, n: i32", """
w = v + 8
out[0] = cast(w, ~f32)[0]
u = w - 4
out[1] = cast(u, ~f32)[0]
k = n * 4
out[2] = cast(v + k, ~f32)[0]
t: void_p = a
t += 12
out[3] = cast(t, ~f32)[0]
b = cast(a, void_p)
c = cast(b + 4 * n - 4, ~f32)
out[4] = c[1]
e = cast(d, void_p) + 16
dout[0] = cast(e, ~f64)[0]
dout[1] = load_at(cast(d, void_p), n)
""", helpers="""
@hidet.script
def load_at(p: void_p, i: i32) -> f64:
    attrs.func_kind = 'cpu_internal'
    return cast(p + i * 8, ~f64)[0]
""", consts=VOID), {"v": buf("f32", [1.5, 2.0, 3.0, 4.0, 5.0, 6.0]), "a": buf("f32", [-1.0, -2.0, -3.0, -4.0, -5.0]),
                    "d": buf("f64", [0.1, 0.2, 0.3, 0.4]), "out": zeros("f32", 5), "dout": zeros("f64", 2),
                    "n": scalar("i32", 3)})

case("void_pointer_local_tensor", kernel("a: ~f32, out: ~f32", """
t = tensor(dtype=f32, shape=[4])
v = cast(~t[0], void_p)
for i in range(4):
    cast(v + 4 * i, ~f32)[0] = a[i] * 2.0
q = cast(v + 8, ~f32)
out[0] = q[0] + q[1]
out[1] = t[0] - t[1]
""", consts=VOID), {"a": buf("f32", [0.5, 1.25, -2.0, 3.0]), "out": zeros("f32", 2)})

# the seed's `~(~f16)`: a pointer held in memory (voidptr.py, complex2.py)
case("pointer_to_pointer", kernel("a: ~f32, h: ~f16, out: ~f32, hout: ~f16, n: i32", """
p = out + 1
pp = ~p
pp[0][1] = a[0] * 2.0
q = pp[0]
q[2] = a[1]
pp[0] = p + 3
p[0] = a[2]
r: ~(~f32) = ~p
s = r[0]
s[1] = a[3] + 1.0
for i in range(n):
    p = p + 1
u = pp[0]
out[0] = u[0]
(out + 6)[0] = a[4]
(pp + 0)[0][2] = a[5]
p = a
w = r[0]
out[9] = w[3]
g = h + 1
gg: ~(~f16) = ~g
gg[0][0] = h[0] + h[2]
gg[0] = h
v = gg[0]
hout[0] = v[1]
""", consts="from hidet.lang.types import f16"), {"a": buf("f32", [1.5, 2.0, 3.0, 4.0, 5.0, 6.0]), "h": buf("float16", [0.5, 1.25, -3.0, 8.0]),
       "out": zeros("f32", 10), "hout": zeros("float16", 1), "n": scalar("i32", 2)})


def main():
    for name, (src, launch) in CASES.items():
        py = os.path.join(HERE, name + ".py")
        path = os.path.join(HERE, name + ".json")
        old_src = open(py).read() if os.path.exists(py) else None
        old = {}
        if os.path.exists(path):
            with open(path) as f:
                old = json.load(f)
        if old_src == src and old.get("args") == launch["args"]:
            for k in ("provenance", "expected"):
                if k in old:
                    launch[k] = old[k]
        with open(py, "w") as f:
            f.write(src)
        with open(path, "w") as f:
            json.dump(launch, f, indent=1)
            f.write("\n")
    print(f"{len(CASES)} cases")


if __name__ == "__main__":
    main()
