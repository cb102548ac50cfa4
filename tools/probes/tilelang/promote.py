"""Probe: TileLang 0.1.15's result dtype and value for mixed-dtype binary
operations, integer `/`, negative indices and T.ceildiv with a negative
divisor, on its C target (CPU). Run with the tilelang venv's python; prints
one JSON line per case: {"case", "dtype" | "error", "value"}.

    python tools/probes/tilelang/promote.py > tools/probes/tilelang/promote.json
"""
import json
import sys

import tilelang
import tilelang.language as T
import torch

CFG = {"tirx.disable_vectorize": True}

TORCH = {
    "int8": torch.int8, "int16": torch.int16, "int32": torch.int32, "int64": torch.int64,
    "uint8": torch.uint8, "float16": torch.float16, "float32": torch.float32,
    "float64": torch.float64, "bool": torch.bool,
}


def binop(da, db, op, a, b, out_dtype="float64"):
    """C[0] = A[0] op B[0]; reports the dtype TileLang gives A[0] op B[0]."""
    seen = {}

    @T.prim_func
    def main(A: T.Tensor((1,), da), B: T.Tensor((1,), db), C: T.Tensor((1,), out_dtype)):
        with T.Kernel(1, threads=1) as bx:
            r = op(A[0], B[0])
            seen["dtype"] = str(r.dtype)
            C[0] = r

    k = tilelang.compile(main, target="c", pass_configs=CFG)
    ta = torch.tensor([a], dtype=TORCH[da])
    tb = torch.tensor([b], dtype=TORCH[db])
    tc = torch.zeros(1, dtype=TORCH[out_dtype])
    k(ta, tb, tc)
    return seen["dtype"], tc.item()


def lit(da, op, a, out_dtype="float64"):
    seen = {}

    @T.prim_func
    def main(A: T.Tensor((1,), da), C: T.Tensor((1,), out_dtype)):
        with T.Kernel(1, threads=1) as bx:
            r = op(A[0])
            seen["dtype"] = str(r.dtype)
            C[0] = r

    k = tilelang.compile(main, target="c", pass_configs=CFG)
    ta = torch.tensor([a], dtype=TORCH[da])
    tc = torch.zeros(1, dtype=TORCH[out_dtype])
    k(ta, tc)
    return seen["dtype"], tc.item()


def case(name, f):
    try:
        d, v = f()
        print(json.dumps({"case": name, "dtype": d, "value": v}), flush=True)
    except Exception as e:  # noqa: BLE001 - a refusal is a measurement
        msg = str(e).strip().splitlines()
        print(json.dumps({"case": name, "error": msg[-1][:300] if msg else type(e).__name__}), flush=True)


add = lambda x, y: x + y
pairs = [("int8", "int32"), ("int32", "int64"), ("int16", "int8"), ("uint8", "int8"),
         ("uint8", "int32"), ("int32", "float16"), ("int64", "float32"), ("float16", "float32"),
         ("float32", "float64"), ("bool", "int32"), ("int8", "float16")]
for da, db in pairs:
    case(f"{da} + {db}", lambda: binop(da, db, add, 3, 4))
case("int32 / int32 (-7, 2)", lambda: binop("int32", "int32", lambda x, y: x / y, -7, 2))
case("int32 // int32 (-7, 2)", lambda: binop("int32", "int32", lambda x, y: x // y, -7, 2))
case("int32 % int32 (-7, 2)", lambda: binop("int32", "int32", lambda x, y: x % y, -7, 2))
case("float32 // float32 (-7, 2)", lambda: binop("float32", "float32", lambda x, y: x // y, -7.0, 2.0))
case("float32 % float32 (-7, 2)", lambda: binop("float32", "float32", lambda x, y: x % y, -7.0, 2.0))
case("ceildiv(7, -2)", lambda: binop("int32", "int32", lambda x, y: T.ceildiv(x, y), 7, -2))
case("ceildiv(-7, 2)", lambda: binop("int32", "int32", lambda x, y: T.ceildiv(x, y), -7, 2))
case("truncdiv(-7, 2)", lambda: binop("int32", "int32", lambda x, y: T.truncdiv(x, y), -7, 2))
case("truncmod(7, -2)", lambda: binop("int32", "int32", lambda x, y: T.truncmod(x, y), 7, -2))
case("int8 + 1", lambda: lit("int8", lambda x: x + 1, 127))
case("int8 + 200", lambda: lit("int8", lambda x: x + 200, 1))
case("int8 + 1.5", lambda: lit("int8", lambda x: x + 1.5, 1))
case("float16 + 1", lambda: lit("float16", lambda x: x + 1, 1.5))
case("float16 * 1e5", lambda: lit("float16", lambda x: x * 100000.0, 1.0))
case("int64 + 2**40", lambda: lit("int64", lambda x: x + 2**40, 1))
case("int32 + 2**40", lambda: lit("int32", lambda x: x + 2**40, 1))
case("uint8 - 1", lambda: lit("uint8", lambda x: x - 1, 0))
case("int32 ** 2", lambda: lit("int32", lambda x: x ** 2, 7))
case("float32 ** 2", lambda: lit("float32", lambda x: x ** 2, 1.5))
case("int32 >> 1 (-7)", lambda: lit("int32", lambda x: x >> 1, -7))
case("~int32", lambda: lit("int32", lambda x: ~x, 5))
case("-uint8", lambda: lit("uint8", lambda x: -x, 5))
case("1 / int32(2)", lambda: lit("int32", lambda x: 1 / x, 2))
case("float32 / int literal 2", lambda: lit("float32", lambda x: x / 2, 7.0))
