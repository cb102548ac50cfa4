#!/usr/bin/env python3
"""Run a Triton kernel with real Triton on the GPU and print ksem's result JSON.

    python3 tools/triton_run.py PROGRAM.py --launch LAUNCH.json [--kernel NAME] [--json] [--time]
    python3 tools/triton_run.py --batch CASES.jsonl
    python3 tools/triton_run.py --serve            (cases as JSON lines on stdin)
    python3 tools/triton_run.py --selftest
    python3 tools/triton_run.py --fill-expected CASE.json RESULT.json --provenance LINE

PROGRAM.py is an unmodified Triton source file; it is imported with importlib and
its ``@triton.jit`` kernel is launched with the launch spec of DESIGN.md
("Interfaces") and docs/formats.md.  The output is the result JSON of DESIGN.md
with ``"backend": "triton"`` and ``"ub": []`` (real Triton detects no UB).  Keys of
the launch spec other than "kernel", "grid" and "args" (e.g. "expected",
"provenance") are ignored.  The result's buffers carry no "exact" key: real
Triton cannot tell exact elements from approximate ones.

Scalars.  Triton types a plain Python ``int`` argument by its value (i32 if it
fits, else i64, else u64; the value 1 becomes the constexpr 1) and a Python
``float`` always as fp32, so an int64 scalar that happens to be small would be
seen as i32.  To make the kernel see the declared dtype, this tool sets the
parameter's annotation on the imported JITFunction (``KernelParam._param``)
before the first launch, exactly as if the source had said ``n: tl.int64``;
Triton's binder then uses the annotated type (see ``_force_scalar_types``).
Ints whose value is 1 additionally get ``do_not_specialize`` so they stay
runtime scalars of the declared type instead of becoming the constexpr 1.  The
source file itself is never modified.  Float scalars are rounded (to nearest
even) into their declared dtype here, so the launcher's own conversion is exact.

An ``@triton.autotune`` kernel runs the launch's ``"config"`` (an index into its
configs, or the meta-parameter values of one; the first where none is given),
as ksem does, instead of benchmarking the configs; values that match no config
(configs built at run time) run as a config of their own, and a launch that
gives the tuned meta-parameters as arguments launches the layer below the
autotuner (see ``_launch_target``).

KSEM_TRITON_STUB_IMPORTS=1 stands stubs in for host-side imports the machine
lacks (a missing module, or a name a present module no longer has, such as
Triton 3.0's ``AttrsDescriptor``), so that another project's file whose
kernels need none of them loads; for surveys (tools/triton_coverage.py).

Constexprs ``{"constexpr": V}`` are passed as V (int, float, bool); a string that
names a dtype (``"float16"``) is passed as that ``tl`` dtype.

--time: after the result is read, 10 warm-up launches, then 5 batches of 100
back-to-back launches between two CUDA events; "time_ms" is the mean time per
launch over all batches ("time_ms_min": best batch; also "time_ms_batches",
"device").  The reported bits are those of the first launch.  The int8 launcher
quirk: Triton 3.6 parses i8 scalars as C unsigned char, so a negative int8 is
re-passed as its 0..255 bit pattern.  With TRITON_INTERPRET=1 (Triton's CPU
interpreter) the tool runs on the CPU; that is for checking scripts only
(scalar dtypes are not forced there).

--wall-time N: after the first launch (not timed: it compiles, or warms the
interpreter up), N more launches each timed by the wall clock with a
synchronize after it; prints one JSON line {"kernel", "device", "wall_s": [..],
"wall_s_min"} and no bits.  `ksem bench` uses it to time Triton's interpreter
(TRITON_INTERPRET=1) on the same kernel and launch as ksem's.

--batch CASES.jsonl runs many cases in one process (one import of torch and
Triton; `ksem fuzz --backends interp,triton` uses it): each line is
{"program": PATH, "launch": {...}, "kernel": NAME?, "options": {...}?} where
"options" are Triton compile options passed with the launch (the fuzzer passes
{"enable_fp_fusion": false}: contraction is divergence 3); each case prints one
line, its result JSON or {"error": "..."}.

--serve is the same protocol on stdin/stdout, for a long-lived worker (the
reducer keeps one while it tries candidates). With KSEM_TRITON_CASE_TIMEOUT=S
a case that runs past S seconds ends the worker, every thread's stack on
stderr.

Only the standard library is needed for everything but the launch itself
(``--selftest`` and ``--fill-expected`` run without torch/triton); the launch
needs torch and triton.

Exit codes: 0 success; 2 bad input, or Triton refused to compile the program
(a CompilationError, or its MLIR pipeline failing: "PassManager::run failed");
the error goes to stderr.  Anything else (a launch failure) is a Python
traceback and exit code 1.
"""

import argparse
import contextlib
import importlib.util
import io
import json
import math
import os
import re
import struct
import sys
from fractions import Fraction

# ---------------------------------------------------------------------------
# dtypes (pure Python)
# ---------------------------------------------------------------------------

ALIASES = {
    "int1": "bool", "i1": "bool",
    "fp16": "float16", "half": "float16", "f16": "float16",
    "bf16": "bfloat16",
    "fp32": "float32", "float": "float32", "f32": "float32",
    "fp64": "float64", "double": "float64", "f64": "float64",
    "fp8e4nv": "float8e4nv", "float8_e4m3fn": "float8e4nv",
    "fp8e5": "float8e5", "float8_e5m2": "float8e5",
    "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
    "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
}

# name -> (kind, storage width in bits, extra)
#   kind "bool": extra None; "int": extra = signed; "float": extra = float format key
DTYPES = {
    "bool": ("bool", 8, None),
    "int8": ("int", 8, True), "int16": ("int", 16, True),
    "int32": ("int", 32, True), "int64": ("int", 64, True),
    "uint8": ("int", 8, False), "uint16": ("int", 16, False),
    "uint32": ("int", 32, False), "uint64": ("int", 64, False),
    "float8e4nv": ("float", 8, "e4m3fn"), "float8e5": ("float", 8, "e5m2"),
    "float16": ("float", 16, "f16"), "bfloat16": ("float", 16, "bf16"),
    "float32": ("float", 32, "f32"), "float64": ("float", 64, "f64"),
}

# Triton's canonical type strings (runtime/_utils.type_canonicalisation_dict values)
TRITON_TY = {
    "bool": "u1", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
    "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
    "float8e4nv": "fp8e4nv", "float8e5": "fp8e5", "float16": "fp16",
    "bfloat16": "bf16", "float32": "fp32", "float64": "fp64",
}


class InputError(Exception):
    """The launch spec or an argument is wrong (exit code 2)."""


def canon_dtype(name):
    if not isinstance(name, str):
        raise InputError(f"dtype must be a string, got {name!r}")
    n = ALIASES.get(name, name)
    if n not in DTYPES:
        raise InputError(f"unknown dtype {name!r}")
    return n


def width(dtype):
    return DTYPES[dtype][1]


# Float formats: exponent bits, mantissa bits, ieee (has inf; NaN = all-ones exponent)
# e4m3fn (float8e4nv) has no inf; its only NaN is S.1111.111.
FLOAT_FMT = {
    "e4m3fn": (4, 3, False),
    "e5m2": (5, 2, True),
    "f16": (5, 10, True),
    "bf16": (8, 7, True),
    "f32": (8, 23, True),
    "f64": (11, 52, True),
}

# The NaN written for "nan" in data and scalars (the canonical quiet NaN)
CANON_NAN = {"e4m3fn": 0x7F, "e5m2": 0x7E, "f16": 0x7E00, "bf16": 0x7FC0,
             "f32": 0x7FC00000, "f64": 0x7FF8000000000000}


_STRUCT_FMT = {"f64": ("<d", "<Q"), "f32": ("<f", "<I"), "f16": ("<e", "<H")}


def _fmt(dtype):
    kind, w, f = DTYPES[dtype]
    if kind != "float":
        raise InputError(f"{dtype} is not a float dtype")
    return f, FLOAT_FMT[f], w


def float_encode(value, dtype):
    """Round `value` to nearest even into `dtype` and return its bits.

    `value` is an int (exact), a Fraction (exact), a Python float (exact binary64),
    or one of the strings "nan", "inf", "-inf", "-0.0".  Overflow of an IEEE
    format gives +-inf (IEEE round-to-nearest-even overflow); a value that would
    round beyond float8e4nv's largest finite value (448) is an InputError
    (float8e4nv has no infinity).
    """
    f, (eb, mb, ieee), w = _fmt(dtype)
    if isinstance(value, float) and f in _STRUCT_FMT and math.isfinite(value):
        # fast path: CPython packs binary64/32/16 with round-to-nearest-even
        # (checked against the exact path below by --selftest)
        pk, uk = _STRUCT_FMT[f]
        try:
            return struct.unpack(uk, struct.pack(pk, value))[0]
        except OverflowError:
            pass
    sign_bit = 1 << (w - 1)
    bias = (1 << (eb - 1)) - 1
    exp_all = (1 << eb) - 1
    inf_bits = (exp_all << mb) if ieee else None
    if isinstance(value, str):
        v = value.strip().lower()
        if v == "nan":
            return CANON_NAN[f]
        if v in ("inf", "+inf", "infinity"):
            if not ieee:
                raise InputError(f"{dtype} has no infinity")
            return inf_bits
        if v in ("-inf", "-infinity"):
            if not ieee:
                raise InputError(f"{dtype} has no infinity")
            return sign_bit | inf_bits
        if v == "-0.0":
            return sign_bit
        try:
            value = float(v)
        except ValueError:
            raise InputError(f"bad float value {value!r}")
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, float):
        if math.isnan(value):
            return CANON_NAN[f]
        if math.isinf(value):
            if not ieee:
                raise InputError(f"{dtype} has no infinity")
            return inf_bits | (sign_bit if value < 0 else 0)
        neg = math.copysign(1.0, value) < 0
        x = Fraction(value)
    elif isinstance(value, (int, Fraction)):
        x = Fraction(value)
        neg = x < 0
    else:
        raise InputError(f"bad float value {value!r}")
    x = abs(x)
    s = sign_bit if neg else 0
    if x == 0:
        return s
    emin = 1 - bias
    emax = exp_all - 1 - bias if ieee else exp_all - bias
    # e = floor(log2 x)
    e = x.numerator.bit_length() - x.denominator.bit_length()
    if Fraction(2) ** e > x:
        e -= 1
    if e < emin:
        e = emin
    q = Fraction(2) ** (e - mb)
    n = x / q
    m = n.numerator // n.denominator
    rem = n - m
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and (m & 1)):
        m += 1
    if m == (1 << (mb + 1)):
        m >>= 1
        e += 1
    if m < (1 << mb):  # subnormal (only possible at e == emin) or zero
        return s | m
    if ieee:
        if e > emax:
            return s | inf_bits
    else:
        if e > emax or (e == emax and (m - (1 << mb)) == (1 << mb) - 1):
            raise InputError(f"value {float(x) if not neg else -float(x)} is out of range for {dtype}")
    return s | ((e + bias) << mb) | (m - (1 << mb))


def float_decode(bits, dtype):
    """Bits -> Python float (exact for every format here), or nan/inf floats."""
    f, (eb, mb, ieee), w = _fmt(dtype)
    if f == "f64":
        return struct.unpack("<d", struct.pack("<Q", bits))[0]
    if f == "f32":
        return struct.unpack("<f", struct.pack("<I", bits))[0]
    sign = -1.0 if bits >> (w - 1) else 1.0
    exp = (bits >> mb) & ((1 << eb) - 1)
    man = bits & ((1 << mb) - 1)
    bias = (1 << (eb - 1)) - 1
    exp_all = (1 << eb) - 1
    if ieee and exp == exp_all:
        return sign * math.inf if man == 0 else math.nan
    if not ieee and exp == exp_all and man == (1 << mb) - 1:
        return math.nan
    if exp == 0:
        return sign * math.ldexp(man, 1 - bias - mb)
    return sign * math.ldexp(man | (1 << mb), exp - bias - mb)


def int_encode(value, dtype):
    kind, w, signed = DTYPES[dtype]
    if isinstance(value, bool):
        value = int(value)
    if not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise InputError(f"{dtype} value must be an integer, got {value!r}")
    lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if signed else (0, (1 << w) - 1)
    if not lo <= value <= hi:
        raise InputError(f"value {value} is out of range for {dtype}")
    return value & ((1 << w) - 1)


def value_to_bits(value, dtype):
    kind = DTYPES[dtype][0]
    if kind == "bool":
        if isinstance(value, bool) or value in (0, 1):
            return int(bool(value))
        raise InputError(f"bool value must be true/false/0/1, got {value!r}")
    if kind == "int":
        return int_encode(value, dtype)
    return float_encode(value, dtype)


def parse_bits(b, dtype):
    w = width(dtype)
    if isinstance(b, str):
        try:
            v = int(b, 16) if b.lower().startswith("0x") else int(b, 0)
        except ValueError:
            raise InputError(f"bad bit pattern {b!r}")
    elif isinstance(b, int) and not isinstance(b, bool):
        v = b
    else:
        raise InputError(f"bad bit pattern {b!r}")
    if v < 0 or v >> w:
        raise InputError(f"bit pattern {b!r} does not fit {dtype} ({w} bits)")
    if dtype == "bool" and v > 1:
        raise InputError(f"bool bit pattern must be 0x00 or 0x01, got {b!r}")
    return v


def hexbits(v, dtype):
    return "0x%0*x" % (width(dtype) // 4, v)


# ---------------------------------------------------------------------------
# seeded generator (docs/formats.md)
# ---------------------------------------------------------------------------

M64 = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed):
        self.s = seed & M64

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & M64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)


def random_bits(dtype, n, spec):
    """Bits of n elements of `dtype` from init.random spec {"seed", "low"?, "high"?}."""
    if not isinstance(spec, dict) or "seed" not in spec:
        raise InputError("init.random needs a seed")
    seed = spec["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0 or seed > M64:
        raise InputError(f"seed must be a u64, got {seed!r}")
    extra = set(spec) - {"seed", "low", "high"}
    if extra:
        raise InputError(f"unknown init.random keys {sorted(extra)}")
    has_bounds = "low" in spec or "high" in spec
    if has_bounds and not ("low" in spec and "high" in spec):
        raise InputError("init.random needs both low and high")
    g = SplitMix64(seed)
    kind, w, _ = DTYPES[dtype]
    out = []
    if kind == "bool":
        if has_bounds:
            raise InputError("init.random bounds are not allowed for bool")
        for _ in range(n):
            out.append(g.next() & 1)
    elif kind == "int":
        if has_bounds:
            lo, hi = spec["low"], spec["high"]
            if not all(isinstance(t, int) and not isinstance(t, bool) for t in (lo, hi)) or not lo < hi:
                raise InputError("init.random low/high must be ints with low < high")
            int_encode(lo, dtype)
            int_encode(hi - 1, dtype)
            for _ in range(n):
                out.append(int_encode(lo + g.next() % (hi - lo), dtype))
        else:
            for _ in range(n):
                out.append(g.next() & ((1 << w) - 1))
    else:
        if has_bounds:
            lo, hi = spec["low"], spec["high"]
            if not all(isinstance(t, (int, float)) and not isinstance(t, bool) for t in (lo, hi)):
                raise InputError("init.random low/high must be numbers")
            lo, hi = float(lo), float(hi)
            if not lo < hi:
                raise InputError("init.random needs low < high")
            for _ in range(n):
                r = g.next()
                v = lo + (hi - lo) * float(r >> 40) * 2.0 ** -24  # float64, left to right
                out.append(float_encode(v, dtype))
        else:
            for _ in range(n):
                r = g.next()
                v = float(r >> 40) * 2.0 ** -23 - 1.0  # exact, float32-representable
                out.append(float_encode(v, dtype))
    return out


# ---------------------------------------------------------------------------
# launch spec (pure Python)
# ---------------------------------------------------------------------------

def _json_data_value(v):
    if isinstance(v, (bool, int, float, str)):
        return v
    raise InputError(f"bad data value {v!r}")


def buffer_bits(name, spec):
    """Return (dtype, [bits]) for a buffer argument spec."""
    if not isinstance(spec, dict) or "dtype" not in spec:
        raise InputError(f"{name}: buffer needs a dtype")
    dtype = canon_dtype(spec["dtype"])
    extra = set(spec) - {"dtype", "data", "bits", "len", "init"}
    if extra:
        raise InputError(f"{name}: unknown buffer keys {sorted(extra)}")
    srcs = [k for k in ("data", "bits", "init") if k in spec]
    if len(srcs) > 1:
        raise InputError(f"{name}: give only one of data, bits, init")
    n = spec.get("len")
    if n is not None and (not isinstance(n, int) or isinstance(n, bool) or n < 0):
        raise InputError(f"{name}: len must be a non-negative int")
    if "data" in spec:
        data = spec["data"]
        if not isinstance(data, list):
            raise InputError(f"{name}: data must be a list")
        bits = [value_to_bits(_json_data_value(v), dtype) for v in data]
    elif "bits" in spec:
        if not isinstance(spec["bits"], list):
            raise InputError(f"{name}: bits must be a list")
        bits = [parse_bits(b, dtype) for b in spec["bits"]]
    elif "init" in spec:
        init = spec["init"]
        if n is None:
            raise InputError(f"{name}: init needs len")
        if not isinstance(init, dict) or set(init) != {"random"}:
            raise InputError(f"{name}: init must be {{\"random\": {{...}}}}")
        bits = random_bits(dtype, n, init["random"])
    else:
        if n is None:
            raise InputError(f"{name}: buffer needs data, bits, len or init")
        bits = [0] * n
    if n is not None and n != len(bits):
        raise InputError(f"{name}: len {n} does not match {len(bits)} elements")
    return dtype, bits


def scalar_value(name, spec):
    """Return (dtype, python value to pass) for a scalar spec."""
    if not isinstance(spec, dict) or "dtype" not in spec or "value" not in spec:
        raise InputError(f"{name}: scalar needs dtype and value")
    dtype = canon_dtype(spec["dtype"])
    v = spec["value"]
    kind = DTYPES[dtype][0]
    if kind == "bool":
        return dtype, bool(value_to_bits(v, dtype))
    if kind == "int":
        int_encode(v, dtype)  # range check
        return dtype, int(v)
    bits = float_encode(_json_data_value(v), dtype)
    return dtype, float_decode(bits, dtype)


def load_launch(path):
    try:
        with open(path) as fh:
            launch = json.load(fh)
    except (OSError, json.JSONDecodeError) as e:
        raise InputError(f"{path}: {e}")
    if not isinstance(launch, dict):
        raise InputError(f"{path}: launch spec must be an object")
    grid = launch.get("grid")
    if isinstance(grid, int) and not isinstance(grid, bool):
        grid = [grid]
    if (not isinstance(grid, list) or not 1 <= len(grid) <= 3
            or not all(isinstance(g, int) and not isinstance(g, bool) and g >= 1 for g in grid)):
        raise InputError(f"{path}: grid must be a list of 1 to 3 positive ints")
    args = launch.get("args")
    if not isinstance(args, dict):
        raise InputError(f"{path}: args must be an object")
    launch["grid"] = grid
    return launch


# ---------------------------------------------------------------------------
# triton side
# ---------------------------------------------------------------------------

def _torch_dtype(torch, dtype):
    return {
        "bool": torch.bool, "int8": torch.int8, "int16": torch.int16,
        "int32": torch.int32, "int64": torch.int64, "uint8": torch.uint8,
        "uint16": getattr(torch, "uint16", None), "uint32": getattr(torch, "uint32", None),
        "uint64": getattr(torch, "uint64", None),
        "float8e4nv": torch.float8_e4m3fn, "float8e5": torch.float8_e5m2,
        "float16": torch.float16, "bfloat16": torch.bfloat16,
        "float32": torch.float32, "float64": torch.float64,
    }[dtype]


def _signed_storage(torch, w):
    return {8: torch.int8, 16: torch.int16, 32: torch.int32, 64: torch.int64}[w]


def make_tensor(torch, dtype, bits, device):
    w = width(dtype)
    td = _torch_dtype(torch, dtype)
    if td is None:
        raise InputError(f"this torch has no dtype for {dtype}")
    if not any(bits):  # fast path for zero-filled buffers
        return torch.zeros(len(bits), dtype=_signed_storage(torch, w), device=device).view(td)
    vals = [b - (1 << w) if b >> (w - 1) else b for b in bits]
    t = torch.tensor(vals, dtype=_signed_storage(torch, w), device=device)
    return t.view(td)


def read_tensor(torch, t, dtype):
    w = width(dtype)
    vals = t.view(_signed_storage(torch, w)).cpu().tolist()
    mask = (1 << w) - 1
    return [v & mask for v in vals]


def _package_of(path):
    """The dotted package a file belongs to (its directories with an
    ``__init__.py``, innermost last) and the directory above the outermost."""
    parts, d = [], os.path.dirname(path)
    while os.path.isfile(os.path.join(d, "__init__.py")):
        parts.insert(0, os.path.basename(d))
        d = os.path.dirname(d)
    return parts, d


def import_program(path):
    # as Python runs a script: through symbolic links to the real file
    path = os.path.realpath(path)
    if not os.path.isfile(path):
        raise InputError(f"{path}: no such file")
    modname = "ksem_prog_" + "".join(c if c.isalnum() else "_" for c in os.path.splitext(os.path.basename(path))[0])
    modname += "_%x" % (abs(hash(path)) & 0xFFFFFF)
    pkg, root = _package_of(path)
    if pkg:
        # a module of a package (`from .utils import x`): import it under
        # its dotted name, the root on sys.path; the packages' own
        # __init__.py files are not run (they import the whole project),
        # only the submodules the file imports
        import types
        if root not in sys.path:
            sys.path.insert(0, root)
        for i in range(len(pkg)):
            name = ".".join(pkg[: i + 1])
            if name not in sys.modules:
                m = types.ModuleType(name)
                m.__path__ = [os.path.join(root, *pkg[: i + 1])]
                sys.modules[name] = m
        modname = ".".join(pkg) + "." + os.path.splitext(os.path.basename(path))[0]
        if modname in sys.modules:
            return sys.modules[modname]
    if os.environ.get("KSEM_TRITON_STUB_IMPORTS") == "1":
        return _exec_with_stubs(modname, path)
    return _exec(modname, path)


def _exec(modname, path, text=None):
    """Runs the file at `path` as module `modname` (or `text`, compiled as
    that file, line numbers kept); on failure it is not left in
    sys.modules."""
    spec = importlib.util.spec_from_file_location(modname, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[modname] = mod
    try:
        if text is None:
            spec.loader.exec_module(mod)
        else:
            exec(compile(text, path, "exec"), mod.__dict__)
    except BaseException:
        del sys.modules[modname]
        raise
    return mod


class _Stub:
    """Stands for a host-side name a kernel file imports but this machine
    lacks (KSEM_TRITON_STUB_IMPORTS=1): callable, subscriptable, usable as a
    base class and a decorator's result; false and unequal to everything."""

    def __init__(self, name="stub"):
        self._name = name

    def __getattr__(self, attr):
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)
        return _Stub(f"{self._name}.{attr}")

    def __call__(self, *args, **kwargs):
        return _Stub(f"{self._name}()")

    def __getitem__(self, key):
        return _Stub(f"{self._name}[]")

    def __mro_entries__(self, bases):
        return (object,)

    def __bool__(self):
        return False

    def __iter__(self):
        return iter(())

    def __eq__(self, other):
        return other is self

    __hash__ = object.__hash__
    __lt__ = __le__ = __gt__ = __ge__ = lambda self, other: False

    def __repr__(self):
        return f"<ksem stub {self._name}>"


class _StubModule(type(sys)):
    def __getattr__(self, attr):
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)
        return _Stub(f"{self.__name__}.{attr}")


class _StubFinder:
    """The last entry of sys.meta_path: stands a stub in for the modules in
    `missing` (and their submodules) when a file of the kernel's project
    (under one of `roots`) imports them: host libraries the kernel file's
    host code needs but the machine lacks (unsloth_zoo, flash_attn's CUDA
    extension). A module is added to `missing` only after its absence
    failed the file, so optional imports a project guards itself
    (`try: import torch_npu`) still fail as the project expects."""

    def __init__(self):
        self.roots = set()
        self.missing = set()

    def find_spec(self, fullname, path=None, target=None):
        if not any(fullname == m or fullname.startswith(m + ".") for m in self.missing):
            return None
        f = sys._getframe(1)
        while f is not None and (f.f_code.co_filename.startswith("<frozen")
                                 or f.f_code.co_filename == __file__):
            f = f.f_back
        if f is None:
            return None
        caller = os.path.realpath(f.f_code.co_filename)
        if not any(caller.startswith(r + os.sep) for r in self.roots):
            return None
        return importlib.util.spec_from_loader(fullname, self, is_package=True)

    def create_module(self, spec):
        m = _StubModule(spec.name)
        m.__path__ = []
        return m

    def exec_module(self, module):
        STUBBED.append(module.__name__)


#: the modules, names and decorators KSEM_TRITON_STUB_IMPORTS=1 stood in for
#: or left out
STUBBED = []


def _exec_with_stubs(modname, path):
    """Runs another project's file for a survey: without the host decorators
    of its jit functions (`_exec_without_host_decorators`), and with a stub
    for each host import that fails it: a missing module (`_StubFinder`), or
    a name a present module lacks (`from triton.compiler.compiler import
    AttrsDescriptor`, gone from newer Triton; set on that module), retried
    after each."""
    finder = next((f for f in sys.meta_path if isinstance(f, _StubFinder)), None)
    if finder is None:
        finder = _StubFinder()
        sys.meta_path.append(finder)
    pkg, root = _package_of(path)
    finder.roots.add(root if pkg else os.path.dirname(path))
    for _ in range(32):
        try:
            return _exec_without_host_decorators(modname, path)
        except ModuleNotFoundError as e:
            if not e.name or e.name in finder.missing:
                raise
            finder.missing.add(e.name)
        except ImportError as e:
            owner = sys.modules.get(getattr(e, "name", None) or "")
            missing = re.match(r"cannot import name '([^']+)'", str(e))
            if (owner is None or missing is None or hasattr(owner, missing.group(1))
                    or owner.__name__.startswith("triton.language")):
                raise  # a name kernels use is never stubbed
            setattr(owner, missing.group(1), _Stub(f"{owner.__name__}.{missing.group(1)}"))
            STUBBED.append(f"{owner.__name__}.{missing.group(1)}")
    raise InputError("too many missing imports to stub")


_TRITON_DECORATORS = {"jit", "autotune", "heuristics"}


def _exec_without_host_decorators(modname, path):
    """Runs the file with the decorators of its @triton.jit functions that are
    not Triton's own (jit, autotune, heuristics) blanked out, line numbers
    kept: a project's host wrappers (Inductor's `@triton_heuristics.pointwise`,
    written for another torch; FlagGems' `@libentry()`, `@libtuner(…)`),
    which ksem does not model either (their meta-parameters come from the
    launch)."""
    import ast
    with open(path) as fh:
        lines = fh.read().split("\n")

    def name(d):
        d = d.func if isinstance(d, ast.Call) else d
        return d.attr if isinstance(d, ast.Attribute) else getattr(d, "id", None)

    for node in ast.walk(ast.parse("\n".join(lines))):
        if isinstance(node, ast.FunctionDef) and any(name(d) == "jit" for d in node.decorator_list):
            for d in node.decorator_list:
                if name(d) not in _TRITON_DECORATORS:
                    for i in range(d.lineno - 1, d.end_lineno):
                        lines[i] = ""
                    STUBBED.append(f"@{ast.unparse(d)[:60]} on {node.name}")
    return _exec(modname, path, "\n".join(lines))


class _Param:
    def __init__(self, name, has_default, is_constexpr):
        self.name, self.has_default, self.is_constexpr = name, has_default, is_constexpr


def _params(jf):
    if hasattr(jf, "params"):
        return [_Param(p.name, p.has_default, p.is_constexpr) for p in jf.params]
    import inspect  # InterpretedFunction (TRITON_INTERPRET=1)
    sig = inspect.signature(jf.fn)
    return [_Param(p.name, p.default is not inspect.Parameter.empty, "constexpr" in str(p.annotation))
            for p in sig.parameters.values()]


def _jit_functions(mod):
    from triton.runtime.jit import JITFunction
    kinds = (JITFunction,)
    try:
        from triton.runtime.interpreter import InterpretedFunction
        kinds = kinds + (InterpretedFunction,)
    except ImportError:
        pass
    found = {}
    for k, v in vars(mod).items():
        base = v
        for _ in range(16):  # Autotuner / Heuristics wrappers (a stub has every attribute)
            if isinstance(base, (kinds, _Stub)) or not hasattr(base, "fn"):
                break
            base = base.fn
        if isinstance(base, kinds):
            found[k] = (v, base)
    return found


def find_kernel(mod, name, arg_names):
    found = _jit_functions(mod)
    if name is not None:
        if name not in found:
            raise InputError(f"no @triton.jit function named {name!r} in the program "
                             f"(found: {', '.join(sorted(found)) or 'none'})")
        return name, found[name]
    names = {k: set(p.name for p in _params(jf)) for k, (_, jf) in found.items()}
    cands = [k for k in found if names[k] >= set(arg_names)]
    if len(cands) == 1:
        return cands[0], found[cands[0]]
    if not cands:
        raise InputError("no @triton.jit function takes these arguments; name it with --kernel")
    exact = [k for k in cands if names[k] == set(arg_names)]
    if len(exact) == 1:
        return exact[0], found[exact[0]]
    raise InputError(f"several kernels fit ({', '.join(sorted(cands))}); name one with --kernel")


def _wrappers(kobj, jf):
    """The decorator objects between the module's name and its JITFunction,
    outermost first (Autotuner, Heuristics, a project's own wrappers)."""
    chain, o = [], kobj
    while o is not jf:
        chain.append(o)
        o = o.fn
    return chain


def _launch_target(kobj, jf, choice, arg_names):
    """What the launch calls: the kernel object with its (innermost) autotuner
    left with the launch's "config" (an index into its configs or the
    meta-parameter values of one; the first where none is given), as ksem
    does, instead of benchmarking them (with a single config Triton does not
    benchmark). Values that match no config (configs built at run time from
    the device, which ksem takes from the launch) become a config of their
    own. Where the launch's arguments give the tuned meta-parameters
    themselves (ksem takes them as any constexpr), the layer below the
    autotuner is launched, so that Triton does not refuse them as
    re-defined auto-tuned symbols."""
    chain = _wrappers(kobj, jf)
    tuners = [i for i, o in enumerate(chain) if hasattr(o, "configs")]
    if not tuners:
        if choice is not None:
            raise InputError("the launch picks a \"config\" but the kernel is not @triton.autotune'd")
        return kobj
    i = tuners[-1]
    tuner = chain[i]
    configs = list(tuner.configs)
    tuned = set()
    for c in configs:
        tuned |= set(c.kwargs)
    if tuned & set(arg_names):
        if choice is not None:
            raise InputError("the launch gives both a \"config\" and the tuned meta-parameters "
                             f"({', '.join(sorted(tuned & set(arg_names)))}) as arguments")
        return chain[i + 1] if i + 1 < len(chain) else jf
    if not configs:
        return kobj
    if choice is None:
        pick = configs[0]
    elif isinstance(choice, int) and not isinstance(choice, bool):
        if not 0 <= choice < len(configs):
            raise InputError(f"\"config\": {choice}, but the kernel has {len(configs)} autotune configs")
        pick = configs[choice]
    elif isinstance(choice, dict):
        same = [c for c in configs if dict(c.kwargs) == choice]
        if same:
            pick = same[0]
        else:
            import triton
            pick = triton.Config(dict(choice))
    else:
        raise InputError("\"config\" is an index or an object of meta-parameter values")
    tuner.configs = [pick]
    return kobj


def _force_scalar_types(jf, scalar_types, scalar_values):
    """Make the JITFunction type each runtime scalar as its declared dtype.

    Sets each scalar parameter's annotation (as `n: tl.int64` in the source would)
    and clears Triton's cached binder so that it is rebuilt from the annotations.
    """
    if not hasattr(jf, "params"):
        return  # TRITON_INTERPRET=1: no compiled signature to force
    for kp in jf.params:
        if kp.name not in scalar_types:
            continue
        if kp.is_constexpr:
            raise InputError(f"{kp.name}: the kernel declares it tl.constexpr; give {{\"constexpr\": V}}")
        ty = TRITON_TY[scalar_types[kp.name]]
        kp._param = kp._param.replace(annotation=ty)
        for attr in ("annotation", "annotation_type", "is_constexpr", "is_const"):
            kp.__dict__.pop(attr, None)
        v = scalar_values[kp.name]
        if isinstance(v, int) and not isinstance(v, bool) and v == 1:
            kp.do_not_specialize = True
    # binder caches: rebuilt lazily from params
    for attr in ("binder",):
        if hasattr(jf, attr):
            try:
                setattr(jf, attr, None)
            except Exception:
                pass
    dc = getattr(jf, "device_caches", None)
    if dc is not None and hasattr(dc, "clear"):
        dc.clear()


def _constexpr_value(name, v):
    if isinstance(v, (bool, int, float)):
        return v
    if isinstance(v, str):
        try:
            d = canon_dtype(v)
        except InputError:
            return v
        import triton.language as tl
        return {"bool": tl.int1, "float8e4nv": tl.float8e4nv, "float8e5": tl.float8e5}.get(d, getattr(tl, d, None))
    if isinstance(v, list):  # a JSON array: a tuple constexpr, as ksem reads it
        return tuple(_constexpr_value(name, x) for x in v)
    if v is None:
        return None
    raise InputError(f"{name}: constexpr must be a number, bool, dtype name, None or an array of these")


def default_device():
    """cuda, or cpu under Triton's interpreter (TRITON_INTERPRET=1; for checking scripts only)."""
    return "cpu" if os.environ.get("TRITON_INTERPRET") == "1" else "cuda"


def _sync(torch):
    if default_device() == "cuda":
        torch.cuda.synchronize()


def gpu_name():
    try:
        import torch
        return torch.cuda.get_device_name(0)
    except Exception:
        return "unknown"


def run_launch(program, launch, kernel_name=None, do_time=False, capture_stdout=None,
               time_iters=100, time_warmup=10, keep_kernel=False, want_bits=True, options=None,
               keep_launch=False):
    """Launch `program` per `launch` (already loaded). Returns the result dict.

    capture_stdout: a file object that receives what the compile prints
    (tl.static_print); keep_kernel: put the compiled kernel under "_compiled";
    keep_launch: a function that launches again under "_launch";
    options: Triton compile options passed with the launch (e.g.
    {"enable_fp_fusion": False}).
    """
    import torch
    import triton  # noqa: F401

    device = default_device()
    args = launch["args"]
    STUBBED.clear()
    mod = import_program(program)
    kname = kernel_name or launch.get("kernel")
    kname, (kobj, jf) = find_kernel(mod, kname, list(args))
    kobj = _launch_target(kobj, jf, launch.get("config"), list(args))
    params = _params(jf)
    for a in args:
        if a not in [p.name for p in params]:
            raise InputError(f"{a}: the kernel {kname} has no such parameter")
    supplied = set()  # meta-parameters the autotuner's config or a heuristic gives
    for layer in _wrappers(kobj, jf):
        for c in getattr(layer, "configs", None) or []:
            supplied |= set(c.kwargs)
        supplied |= set(getattr(layer, "values", None) or {})
    for p in params:
        if p.name not in args and p.name not in supplied and not p.has_default:
            raise InputError(f"{p.name}: argument missing from the launch spec")

    kwargs = {}
    buffers = {}
    scalar_types = {}
    scalar_values = {}
    for name, spec in args.items():
        if not isinstance(spec, dict) or len(spec) != 1:
            raise InputError(f"{name}: argument must be one of buffer, scalar, constexpr")
        (key, body), = spec.items()
        if key == "buffer":
            dtype, bits = buffer_bits(name, body)
            t = make_tensor(torch, dtype, bits, device)
            buffers[name] = (dtype, t)
            kwargs[name] = t
        elif key == "scalar":
            dtype, v = scalar_value(name, body)
            scalar_types[name] = dtype
            scalar_values[name] = v
            kwargs[name] = v
        elif key == "constexpr":
            kwargs[name] = _constexpr_value(name, body)
        else:
            raise InputError(f"{name}: unknown argument kind {key!r}")
    _force_scalar_types(jf, scalar_types, scalar_values)

    kwargs.update(options or {})
    grid = tuple(launch["grid"])
    ctx = contextlib.redirect_stdout(capture_stdout) if capture_stdout is not None else contextlib.nullcontext()
    with ctx:
        try:
            compiled = kobj[grid](**kwargs)
        except OverflowError:
            # Triton 3.6's launcher parses i8 scalars with PyArg format "b" (C unsigned
            # char), which refuses negative ints: retry with the same bits as 0..255
            for name, dtype in scalar_types.items():
                if dtype == "int8" and scalar_values[name] < 0:
                    kwargs[name] = scalar_values[name] & 0xFF
            compiled = kobj[grid](**kwargs)
    _sync(torch)

    result = {"kernel": kname, "backend": "triton", "buffers": {}, "ub": []}
    if STUBBED:
        result["stubbed"] = sorted(set(STUBBED))
    for name, (dtype, t) in buffers.items():
        if want_bits:
            bits = read_tensor(torch, t, dtype)
            result["buffers"][name] = {"dtype": dtype, "len": len(bits),
                                       "bits": [hexbits(b, dtype) for b in bits]}
        else:  # only the first 16 elements (text output)
            head = read_tensor(torch, t[:16], dtype)
            result["buffers"][name] = {"dtype": dtype, "len": t.numel(),
                                       "head": [hexbits(b, dtype) for b in head]}
    if keep_kernel:
        result["_compiled"] = compiled
    if keep_launch:
        result["_launch"] = lambda: kobj[grid](**kwargs)
    if do_time:
        result.update(time_kernel(torch, lambda: kobj[grid](**kwargs), time_iters, time_warmup))
    return result


def wall_time(program, launch, kernel_name, runs, options=None):
    """--wall-time: the launch once untimed, then `runs` launches timed one by one
    by the wall clock (each followed by a synchronize)."""
    import time
    import torch
    result = run_launch(program, launch, kernel_name, want_bits=False, keep_launch=True, options=options)
    rerun = result.pop("_launch")
    times = []
    for _ in range(max(runs, 1)):
        t = time.perf_counter()
        rerun()
        _sync(torch)
        times.append(time.perf_counter() - t)
    return {"kernel": result["kernel"], "device": default_device(), "wall_s": times,
            "wall_s_min": min(times)}


def time_kernel(torch, launch_fn, iters=100, warmup=10, reps=5):
    """Mean kernel time in ms: `reps` batches of `iters` back-to-back launches between
    two CUDA events (so launch overhead overlaps the kernels), after `warmup` launches.
    time_ms is the mean over all batches; time_ms_min the best batch."""
    for _ in range(warmup):
        launch_fn()
    torch.cuda.synchronize()
    per_launch = []
    for _ in range(reps):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(iters):
            launch_fn()
        end.record()
        torch.cuda.synchronize()
        per_launch.append(start.elapsed_time(end) / iters)
    return {"time_ms": sum(per_launch) / len(per_launch), "time_ms_min": min(per_launch),
            "time_ms_batches": per_launch, "time_iters": iters, "time_reps": reps,
            "time_warmup": warmup, "device": gpu_name()}


def format_text(result):
    lines = [f"kernel {result['kernel']} (backend {result['backend']})"]
    for name, b in result["buffers"].items():
        shown = " ".join(b.get("bits", b.get("head", []))[:16]) + (" ..." if b["len"] > 16 else "")
        lines.append(f"  {name}: {b['dtype']}[{b['len']}] {shown}")
    if "time_ms" in result:
        lines.append(f"  time: mean {result['time_ms']:.4f} ms, best batch {result['time_ms_min']:.4f} ms "
                     f"({result['time_reps']} batches of {result['time_iters']} launches) on {result['device']}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# corpus helper (pure Python)
# ---------------------------------------------------------------------------

def fill_expected(case_path, result_path, provenance):
    """Write a measured result into CASE.json's "expected" (keeps exact/ulp marks)."""
    with open(case_path) as fh:
        case = json.load(fh)
    with open(result_path) as fh:
        res = json.load(fh)
    old = case.get("expected", {}).get("buffers", {})
    bufs = {}
    for name, b in res["buffers"].items():
        nb = {"dtype": b["dtype"], "len": b["len"], "bits": b["bits"]}
        for k in ("exact", "ulp"):
            if k in old.get(name, {}):
                nb[k] = old[name][k]
        bufs[name] = nb
    case["expected"] = {"buffers": bufs, "ub": res.get("ub", [])}
    case["provenance"] = provenance
    with open(case_path, "w") as fh:
        fh.write(dump_case(case))


def dump_case(case):
    """JSON with one bits list per line (readable diffs)."""
    def enc(o, ind):
        pad = "  " * ind
        if isinstance(o, dict):
            flat = json.dumps(o)
            if len(flat) + 2 * ind < 100 or not o:
                return flat
            items = [f'{pad}  {json.dumps(k)}: {enc(v, ind + 1)}' for k, v in o.items()]
            return "{\n" + ",\n".join(items) + "\n" + pad + "}"
        if isinstance(o, list):
            return json.dumps(o)
        return json.dumps(o)
    return enc(case, 0) + "\n"


# ---------------------------------------------------------------------------
# self test (pure Python)
# ---------------------------------------------------------------------------

def selftest():
    fails = []

    def check(what, got, want):
        if got != want:
            fails.append(f"{what}: got {got!r}, want {want!r}")

    # splitmix64 reference values (seed 1234567, from the published C reference)
    g = SplitMix64(1234567)
    check("splitmix64 seed 1234567",
          [g.next() for _ in range(5)],
          [6457827717110365317, 3203168211198807973, 9817491932198370423,
           4593380528125082431, 16408922859458223821])
    g = SplitMix64(0)
    check("splitmix64 seed 0", g.next(), 0xE220A8397B1DCDAF)

    # float encoding against struct (binary32/binary16/binary64 are IEEE RNE)
    import random
    rng = random.Random(5)
    for _ in range(20000):
        x = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
        if rng.random() < 0.5:
            x = rng.uniform(-70000, 70000) * 2.0 ** rng.randint(-30, 10)
        if math.isnan(x):
            continue
        try:
            want32 = struct.unpack("<I", struct.pack("<f", x))[0]
        except OverflowError:
            want32 = (0xFF800000 if x < 0 else 0x7F800000)
        check(f"f32 encode {x!r}", float_encode(Fraction(x), "float32"), want32)
        try:
            want16 = struct.unpack("<H", struct.pack("<e", x))[0]
        except OverflowError:
            want16 = (0xFC00 if x < 0 else 0x7C00)
        check(f"f16 encode {x!r}", float_encode(Fraction(x), "float16"), want16)
        check(f"f64 encode {x!r}", float_encode(Fraction(x), "float64"), struct.unpack("<Q", struct.pack("<d", x))[0])
        check(f"f32 fast {x!r}", float_encode(x, "float32"), want32)
        check(f"f16 fast {x!r}", float_encode(x, "float16"), want16)
        if len(fails) > 10:
            break
    # decode round trip for every 8/16-bit pattern
    for dt in ("float16", "bfloat16", "float8e4nv", "float8e5"):
        for b in range(1 << width(dt)):
            v = float_decode(b, dt)
            if math.isnan(v):
                continue
            check(f"{dt} roundtrip {b:#x}", float_encode(v, dt), b)
    # bf16: halfway cases round to even
    check("bf16 1.00390625", float_encode(1.00390625, "bfloat16"), 0x3F80)
    check("bf16 1.01171875", float_encode(1.01171875, "bfloat16"), 0x3F82)
    check("bf16 257", float_encode(257.0, "bfloat16"), 0x4380)
    check("e4m3 448", float_encode(448, "float8e4nv"), 0x7E)
    check("e4m3 464 (tie -> 448)", float_encode(464, "float8e4nv"), 0x7E)
    check("e4m3 -0.0", float_encode("-0.0", "float8e4nv"), 0x80)
    check("e4m3 2^-9", float_encode(2.0 ** -9, "float8e4nv"), 0x01)
    check("e4m3 2^-10 (tie -> 0)", float_encode(2.0 ** -10, "float8e4nv"), 0x00)
    try:
        float_encode(465, "float8e4nv")
        fails.append("e4m3 465 should be out of range")
    except InputError:
        pass
    check("e5m2 57344", float_encode(57344, "float8e5"), 0x7B)
    check("e5m2 61440 (tie -> inf)", float_encode(61440, "float8e5"), 0x7C)
    check("e5m2 nan", float_encode("nan", "float8e5"), 0x7E)
    check("f32 int 16777217", float_encode(16777217, "float32"), 0x4B800000)
    check("f32 int 16777219", float_encode(16777219, "float32"), 0x4B800002)
    check("f32 2^64-1", float_encode(2 ** 64 - 1, "float32"), 0x5F800000)
    check("f16 65520 -> inf", float_encode(65520.0, "float16"), 0x7C00)
    check("f16 65519 -> max", float_encode(65519.0, "float16"), 0x7BFF)
    # generator
    g = SplitMix64(7)
    r0 = g.next()
    check("random float32 elem 0", random_bits("float32", 1, {"seed": 7})[0],
          float_encode(Fraction(r0 >> 40, 1 << 23) - 1, "float32"))
    check("random int8 elem 0", random_bits("int8", 1, {"seed": 7})[0], r0 & 0xFF)
    check("random bool elem 0", random_bits("bool", 1, {"seed": 7})[0], r0 & 1)
    check("random int32 bounds", random_bits("int32", 1, {"seed": 7, "low": -5, "high": 5})[0],
          (-5 + r0 % 10) & 0xFFFFFFFF)
    check("random float16 bounds", random_bits("float16", 1, {"seed": 7, "low": -2, "high": 6})[0],
          float_encode(-2.0 + 8.0 * float(r0 >> 40) * 2.0 ** -24, "float16"))
    vals = [float_decode(b, "float32") for b in random_bits("float32", 1000, {"seed": 3})]
    check("random float32 range", all(-1.0 <= v < 1.0 for v in vals), True)
    # hex
    check("hex bool", hexbits(1, "bool"), "0x01")
    check("hex f32", hexbits(0x3F800000, "float32"), "0x3f800000")
    check("hex i64", hexbits(5, "int64"), "0x0000000000000005")
    check("hex f8", hexbits(0x7E, "float8e5"), "0x7e")
    # buffers
    check("data buffer", buffer_bits("x", {"dtype": "fp32", "data": [1.5, "nan", "-inf", "-0.0", 3]})[1],
          [0x3FC00000, 0x7FC00000, 0xFF800000, 0x80000000, 0x40400000])
    check("int data", buffer_bits("x", {"dtype": "int8", "data": [-1, 127, -128]})[1], [0xFF, 0x7F, 0x80])
    check("bits", buffer_bits("x", {"dtype": "int8", "bits": ["0xff", 1]})[1], [0xFF, 1])
    check("len", buffer_bits("x", {"dtype": "bool", "len": 3})[1], [0, 0, 0])
    for bad in ({"dtype": "int8", "bits": ["0x100"]}, {"dtype": "int8", "data": [128]},
                {"dtype": "int8", "data": [1], "len": 2}, {"dtype": "float33", "len": 1},
                {"dtype": "bool", "bits": ["0x02"]}):
        try:
            buffer_bits("x", bad)
            fails.append(f"should reject {bad}")
        except InputError:
            pass
    check("scalar f16", scalar_value("s", {"dtype": "float16", "value": 0.1}),
          ("float16", float_decode(0x2E66, "float16")))
    check("scalar i64", scalar_value("s", {"dtype": "int64", "value": 5}), ("int64", 5))
    _selftest_stubs(check)
    _selftest_launch_target(check)
    if fails:
        for f in fails[:20]:
            print("FAIL", f)
        print(f"selftest: {len(fails)} failures")
        return 1
    print("selftest: all checks passed")
    return 0


def _selftest_launch_target(check):
    """`_launch_target` on stand-ins for an Autotuner over a JITFunction."""
    class Config:
        def __init__(self, **kw):
            self.kwargs = kw

    class Layer:
        def __init__(self, fn, configs=None):
            self.fn = fn
            if configs is not None:
                self.configs = configs

    jf = object()
    a, b = Config(BLOCK=32), Config(BLOCK=64)
    entry = Layer(Layer(jf, [a, b]))  # a project's wrapper over an autotuner
    tuner = entry.fn
    check("launch target: no config picks the first",
          (_launch_target(entry, jf, None, ["x"]), tuner.configs), (entry, [a]))
    tuner.configs = [a, b]
    check("launch target: by index", (_launch_target(entry, jf, 1, ["x"]), tuner.configs), (entry, [b]))
    tuner.configs = [a, b]
    check("launch target: by values", (_launch_target(entry, jf, {"BLOCK": 64}, ["x"]), tuner.configs),
          (entry, [b]))
    tuner.configs = [a, b]
    check("launch target: tuned values given as arguments launch below the tuner",
          _launch_target(entry, jf, None, ["x", "BLOCK"]), jf)
    for bad in (2, "first"):
        try:
            _launch_target(entry, jf, bad, ["x"])
            check(f"launch target: {bad!r} refused", False, True)
        except InputError:
            pass
    try:
        _launch_target(jf, jf, 0, ["x"])
        check("launch target: a config for a kernel without autotune refused", False, True)
    except InputError:
        pass


def _selftest_stubs(check):
    """KSEM_TRITON_STUB_IMPORTS's survey mode on a file that needs no Triton:
    a missing module that fails the file is stubbed (and its submodule), a
    guarded optional import still fails as the file expects, a jit
    function's host decorator is blanked and a plain function's kept."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "ksem_stub_probe.py")
        with open(path, "w") as fh:
            fh.write(
                "import ksem_absent_pkg\n"
                "from ksem_absent_pkg.sub import helper\n"
                "try:\n"
                "    import ksem_absent_optional\n"
                "    HAS_OPTIONAL = True\n"
                "except ImportError:\n"
                "    HAS_OPTIONAL = False\n"
                "def jit(f):\n"
                "    f.jitted = True\n"
                "    return f\n"
                "def host_wrapper(f):\n"
                "    return 'wrapped'\n"
                "@ksem_absent_pkg.entry(\n"
                "    key=['M'],\n"
                ")\n"
                "@jit\n"
                "def kern():\n"
                "    return 7\n"
                "@host_wrapper\n"
                "def host():\n"
                "    return 1\n")
        STUBBED.clear()
        mod = _exec_with_stubs("ksem_stub_probe", path)
        check("stub: jit function kept, its host decorator blanked",
              (mod.kern(), getattr(mod.kern, "jitted", False)), (7, True))
        check("stub: a plain function's decorator runs", mod.host, "wrapped")
        check("stub: a guarded optional import still fails", mod.HAS_OPTIONAL, False)
        check("stub: what was stubbed",
              sorted(set(STUBBED)),
              ["@ksem_absent_pkg.entry(key=['M']) on kern", "ksem_absent_pkg",
               "ksem_absent_pkg.sub"])
        check("stub: a stubbed name is a stub", isinstance(mod.helper, _Stub), True)
        sys.modules.pop("ksem_stub_probe", None)
        STUBBED.clear()


# ---------------------------------------------------------------------------

def run_case(program, launch, kernel=None, options=None):
    """One case of a batch: (result, None), or (None, the error as one line)."""
    try:
        return run_launch(program, launch, kernel, want_bits=True, options=options), None
    except InputError as e:
        return None, f"bad input: {e}"
    except Exception as e:  # Triton refused the program, or the launch failed
        text = str(e)
        # a CompilationError shows the source with a caret line, then the reason
        lines = text.splitlines()
        carets = [i for i, l in enumerate(lines) if l.strip().startswith("^")]
        head = lines[0] if lines else ""
        if carets:
            text = head + " " + " ".join(lines[carets[-1] + 1:])
        msg = " ".join(text.split())[:500]
        try:
            from triton.compiler.errors import CompilationError
            if isinstance(e, CompilationError):
                return None, f"Triton refused to compile the kernel: {msg}"
        except ImportError:
            pass
        if isinstance(e, RuntimeError) and "PassManager::run failed" in str(e):
            return None, f"Triton's compiler failed on the kernel: {msg}"
        return None, f"{type(e).__name__}: {msg}"


def batch(path):
    """--batch FILE: JSON lines {"program", "launch", "kernel"?, "options"?}; one
    result line each, in order, after one import of torch and Triton (a case's
    failure is its line {"error": ...}; the batch goes on)."""
    with open(path) as fh:
        cases = [json.loads(l) for l in fh if l.strip()]
    for c in cases:
        result, err = run_case(c["program"], c["launch"], c.get("kernel"), c.get("options"))
        print(json.dumps(result if err is None else {"error": err}), flush=True)
    return 0


def serve():
    """--serve: a long-lived worker. Reads one JSON line per case from stdin
    ({"program", "launch", "kernel"?, "options"?}) and answers each with one
    line on stdout (the result JSON or {"error": ...}) until stdin closes; torch
    and Triton are imported once."""
    import faulthandler
    limit = float(os.environ.get("KSEM_TRITON_CASE_TIMEOUT") or 0)
    for line in sys.stdin:
        if not line.strip():
            continue
        if limit > 0:
            # a case that hangs (a project's host code waiting on something)
            # ends the worker with every thread's stack on stderr
            faulthandler.dump_traceback_later(limit, exit=True)
        try:
            c = json.loads(line)
            result, err = run_case(c["program"], c["launch"], c.get("kernel"), c.get("options"))
        except (ValueError, KeyError) as e:
            result, err = None, f"bad request: {e}"
        faulthandler.cancel_dump_traceback_later()
        print(json.dumps(result if err is None else {"error": err}), flush=True)
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("program", nargs="?")
    ap.add_argument("--launch")
    ap.add_argument("--kernel")
    ap.add_argument("--json", action="store_true", help="print the result JSON")
    ap.add_argument("--time", action="store_true", help="also time the kernel (CUDA events)")
    ap.add_argument("--wall-time", type=int, metavar="N",
                    help="time N launches after the first by the wall clock; print JSON, no bits")
    ap.add_argument("--selftest", action="store_true")
    ap.add_argument("--fill-expected", nargs=2, metavar=("CASE_JSON", "RESULT_JSON"))
    ap.add_argument("--provenance")
    ap.add_argument("--batch", help="a file of JSON lines {program, launch}; one result line each")
    ap.add_argument("--serve", action="store_true",
                    help="answer JSON-line cases from stdin, one result line each, until EOF")
    a = ap.parse_args(argv)
    if a.selftest:
        return selftest()
    if a.batch:
        return batch(a.batch)
    if a.serve:
        return serve()
    try:
        if a.fill_expected:
            if not a.provenance:
                raise InputError("--fill-expected needs --provenance")
            fill_expected(a.fill_expected[0], a.fill_expected[1], a.provenance)
            return 0
        if not a.program or not a.launch:
            raise InputError("usage: triton_run.py PROGRAM.py --launch LAUNCH.json [--kernel NAME] [--json] [--time]")
        launch = load_launch(a.launch)
        try:
            # $KSEM_TRITON_OPTIONS: Triton compile options as JSON, e.g.
            # {"enable_fp_fusion": false} to measure without contraction
            opts = json.loads(os.environ.get("KSEM_TRITON_OPTIONS") or "null")
            if a.wall_time is not None:
                print(json.dumps(wall_time(a.program, launch, a.kernel, a.wall_time, opts)))
                return 0
            result = run_launch(a.program, launch, a.kernel, a.time, want_bits=a.json, options=opts)
        except InputError:
            raise
        except Exception as e:  # Triton refused the program, or the launch failed
            from triton.compiler.errors import CompilationError
            if isinstance(e, CompilationError):
                print(f"{a.program}: error: Triton refused to compile the kernel:\n{e}", file=sys.stderr)
                return 2
            if isinstance(e, RuntimeError) and "PassManager::run failed" in str(e):
                # e.g. fp8 arithmetic, float64 -> fp8: the MLIR pipeline fails (details above on stderr)
                print(f"{a.program}: error: Triton's compiler failed on the kernel: {e}", file=sys.stderr)
                return 2
            raise
    except InputError as e:
        print(f"{a.program or 'triton_run'}: error: {e}", file=sys.stderr)
        return 2
    if a.json:
        print(json.dumps(result))
    else:
        print(format_text(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
