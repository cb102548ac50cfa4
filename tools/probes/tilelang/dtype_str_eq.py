"""How a TileLang dtype compares with a string (meta-programming in a
kernel factory: `if dtype == "float": ...`). Prints one JSON object:
{"T.float32 == 'float32'": true, ...}. Run with tilelang 0.1.15 installed:
python3 tools/probes/tilelang/dtype_str_eq.py > tools/probes/tilelang/dtype_str_eq.json
"""
import json

import tilelang.language as T

CASES = [
    ("float32", "float32"), ("float32", "float"), ("float32", "fp32"),
    ("float16", "float16"), ("float16", "half"), ("float16", "fp16"),
    ("float64", "float64"), ("float64", "double"),
    ("bfloat16", "bfloat16"), ("bfloat16", "bf16"),
    ("int32", "int32"), ("int32", "int"),
    ("bool", "bool"), ("int8", "int8"), ("uint8", "uint8"),
    ("float8_e4m3fn", "float8_e4m3fn"), ("float8_e4m3", "float8_e4m3"),
    ("float8_e4m3fn", "float8_e4m3"), ("float8_e5m2", "float8_e5m2"),
]

out = {}
for attr, s in CASES:
    d = getattr(T, attr)
    out[f"T.{attr} == {s!r}"] = bool(d == s)
    out[f"{s!r} == T.{attr}"] = bool(s == d)
    out[f"T.{attr} != {s!r}"] = bool(d != s)
print(json.dumps(out, indent=1))
