# Probe (issue 24, branch nbhost): what numba-cuda 0.30.4 computes on the GPU for
# host-value kinds ksem's plugin passes: constant strings/bytes stored into
# `U<n>`/`S<n>` arrays and record fields (padding, truncation, code points),
# datetime64[D]/timedelta64[D] arithmetic and comparisons with NaT, Enum/IntEnum
# members as kernel arguments (==, !=, is, is not), and an `@overload` whose
# implementation depends on the argument types. Prints one JSON object.
# Run: python3 host_values.py > host_values.json
import json
from enum import Enum, IntEnum

import numpy as np

if not hasattr(np, "row_stack"):
    np.row_stack = np.vstack  # numpy >= 2.4 removed it; numba-cuda 0.30.4 still uses it
from numba import cuda
from numba.cuda import types
from numba.cuda.extending import overload

R = {}


def err(e):
    return f"{type(e).__name__}: {str(e)[:300]}"


# --- strings ---------------------------------------------------------------
U_CONSTS = ["XYZ", "", "0123456789abcdefXY", "é€😀", "é", "€", "ABCDEFGHIJKL"]
B_CONSTS = [b"XYZ", b"", b"0123456789abcdefXY", b"\xff\x00a", b"ABCDEFGHIJKL"]


@cuda.jit
def u_assign(arr):
    i = cuda.grid(1)
    if i == 0:
        arr[i] = "XYZ"
    elif i == 1:
        arr[i] = ""
    elif i == 2:
        arr[i] = "0123456789abcdefXY"
    elif i == 3:
        arr[i] = "é€😀"
    elif i == 4:
        arr[i] = "é"
    elif i == 5:
        arr[i] = "€"
    elif i == 6:
        arr[i] = "ABCDEFGHIJKL"


@cuda.jit
def b_assign(arr):
    i = cuda.grid(1)
    if i == 0:
        arr[i] = b"XYZ"
    elif i == 1:
        arr[i] = b""
    elif i == 2:
        arr[i] = b"0123456789abcdefXY"
    elif i == 3:
        arr[i] = b"\xff\x00a"
    elif i == 4:
        arr[i] = b"ABCDEFGHIJKL"


def strings():
    a = np.array(["pqrstuvwxyzW"] * 8, dtype="<U12")
    u_assign[1, 8](a)
    R["u12_prefilled_pqrstuvwxyzW"] = [[int(x) for x in row] for row in a.view(np.uint32).reshape(8, 12)]
    b = np.array([b"pqrstuvwxyzW"] * 6, dtype="S12")
    b_assign[1, 6](b)
    R["s12_prefilled_pqrstuvwxyzW"] = [[int(x) for x in row] for row in b.view(np.uint8).reshape(6, 12)]

    @cuda.jit
    def rec_u(a):
        a[0]["y"] = "ABC"
        a[1]["y"] = "0123456789abcdefXY"

    @cuda.jit
    def rec_b(a):
        a[0]["y"] = b"ABC"
        a[1]["y"] = b"0123456789abcdefXY"

    for name, k, dt in (("rec_u12", rec_u, "<U12"), ("rec_s12", rec_b, "S12")):
        rdt = np.dtype([("x", np.int32), ("y", np.dtype(dt))])
        r = np.zeros(2, rdt)
        r.view(np.uint8)[:] = 0x77
        try:
            k[1, 1](r)
            R[name + "_prefilled_0x77"] = [int(x) for x in r.view(np.uint8)]
        except Exception as e:
            R[name + "_prefilled_0x77"] = err(e)

    @cuda.jit
    def str_into_s(arr):
        arr[0] = "XYZ"

    @cuda.jit
    def bytes_into_u(arr):
        arr[0] = b"XYZ"

    for name, k, dt in (("str_into_S12", str_into_s, "S12"), ("bytes_into_U12", bytes_into_u, "<U12")):
        a = np.zeros(2, dt)
        try:
            k[1, 1](a)
            R[name] = [int(x) for x in a.view(np.uint8)]
        except Exception as e:
            R[name] = err(e)


# --- datetime --------------------------------------------------------------
@cuda.jit
def dt_sub(start, end, delta):
    i = cuda.grid(1)
    if i < delta.size:
        delta[i] = end[i] - start[i]


@cuda.jit
def dt_scalar(dates, target, delta, eq, ne, lt, outdelta, plus):
    i = cuda.grid(1)
    if i < dates.size:
        eq[i] = dates[i] == target
        ne[i] = dates[i] != target
        lt[i] = dates[i] < target
        outdelta[i] = dates[i] - delta
        plus[i] = dates[i] + delta


def datetimes():
    nat = np.datetime64("NaT", "D")
    start = np.array(["2005-02-01", "NaT", "2005-02-03", "NaT", "1970-01-01"], dtype="datetime64[D]")
    end = np.array(["2005-03-01", "2005-01-01", "NaT", "NaT", "1969-12-01"], dtype="datetime64[D]")
    delta = np.zeros(5, dtype="timedelta64[D]")
    dt_sub[1, 8](start, end, delta)
    R["dt_sub_int64"] = [int(x) for x in delta.view(np.int64)]
    dates = np.array(["2005-02-01", "NaT", "2005-02-06", "2005-02-07"], dtype="datetime64[D]")
    for tname, target, dl in (
        ("target_2005-02-06_delta_1", np.datetime64("2005-02-06"), np.timedelta64(1, "D")),
        ("target_NaT_delta_NaT", nat, np.timedelta64("NaT", "D")),
    ):
        outs = [np.zeros(4, np.bool_) for _ in range(3)] + [np.zeros(4, "datetime64[D]") for _ in range(2)]
        try:
            dt_scalar[1, 4](dates, target, dl, *outs)
            R["dt_scalar_" + tname] = {
                "eq": [bool(x) for x in outs[0]],
                "ne": [bool(x) for x in outs[1]],
                "lt": [bool(x) for x in outs[2]],
                "minus_int64": [int(x) for x in outs[3].view(np.int64)],
                "plus_int64": [int(x) for x in outs[4].view(np.int64)],
            }
        except Exception as e:
            R["dt_scalar_" + tname] = err(e)


# --- enums -----------------------------------------------------------------
class Color(Enum):
    red = 1
    green = 2
    blue = 3


class Shake(Enum):
    vanilla = 7
    mint = 3


class Planet(Enum):
    VENUS = (4.869e24, 6.0518e6)
    EARTH = (5.976e24, 6.37814e6)
    MARS = (6.421e23, 3.3972e6)


class Shape(IntEnum):
    circle = 2
    square = 500


class IntEnumWithNegatives(IntEnum):
    one = 1
    two = 2


def compare(a, b, out):
    out[0] = a == b
    out[1] = a != b
    out[2] = a is b
    out[3] = a is not b


def enums():
    k = cuda.jit(compare)
    pairs = {
        "Color.red,Color.red": (Color.red, Color.red),
        "Color.red,Color.green": (Color.red, Color.green),
        "Planet.EARTH,Planet.EARTH": (Planet.EARTH, Planet.EARTH),
        "Planet.VENUS,Planet.MARS": (Planet.VENUS, Planet.MARS),
        "Shape.circle,IntEnumWithNegatives.two": (Shape.circle, IntEnumWithNegatives.two),
        "Shape.circle,Shape.circle": (Shape.circle, Shape.circle),
        "Color.blue,Shake.mint": (Color.blue, Shake.mint),
        "Shape.circle,Color.green": (Shape.circle, Color.green),
        "Shape.circle,2": (Shape.circle, 2),
        "Color.green,2": (Color.green, 2),
    }
    for name, (a, b) in pairs.items():
        out = np.zeros(4, np.bool_)
        try:
            k[1, 1](a, b, out)
            R["enum_" + name] = [bool(x) for x in out]
        except Exception as e:
            R["enum_" + name] = err(e)


# --- overload ----------------------------------------------------------------
def overload_this(a, b=None):
    if isinstance(b, tuple):
        b = b[0]
    return b


@overload(overload_this)
def ol(a, b=None):
    b_is_tuple = isinstance(b, (types.Tuple, types.UniTuple))

    def impl(a, b=None):
        if b_is_tuple is True:
            b = b[0]
        return b

    return impl


@cuda.jit
def use_overload(result, a, b):
    result[0] = overload_this(a, b)


def overloads():
    for name, b in (("tuple_(2,)", (2,)), ("int_5", 5)):
        r = np.zeros(1, np.int64)
        try:
            use_overload[1, 1](r, 1, b)
            R["overload5219_" + name] = int(r[0])
        except Exception as e:
            R["overload5219_" + name] = err(e)


for part in (strings, datetimes, enums, overloads):
    try:
        part()
    except Exception as e:
        R[part.__name__ + "_failed"] = err(e)
print(json.dumps(R, indent=1, ensure_ascii=True))
