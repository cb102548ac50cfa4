#!/usr/bin/env python3
"""Run a CUDA Python (numba-cuda) kernel on the GPU and print ksem's result JSON.

    python3 tools/numba_run.py PROGRAM.py --launch LAUNCH.json [--kernel NAME] [--text]
    python3 tools/numba_run.py --batch CASES.jsonl
    python3 tools/numba_run.py --selftest

PROGRAM.py is an unmodified CUDA Python source file (``from numba import cuda``
and ``@cuda.jit`` kernels, with or without signature strings such as
``"void(int32[:], float32)"``).  NumbaPro-era files that import ``numbapro`` get
``numba`` under that name (``sys.modules["numbapro"] = numba``, and
``cuda.autojit`` = ``cuda.jit`` where numba lacks it).  The file is imported with
importlib under a module name other than ``__main__``, so its
``if __name__ == "__main__":`` block does not run.

The launch spec is that of DESIGN.md ("Interfaces") and docs/formats.md:

- ``"grid"``: 1 to 3 positive ints (blocks), required;
- ``"block"``: 1 to 3 positive ints (threads per block), default ``[1, 1, 1]``;
- ``{"buffer": {"dtype", "data" | "bits" | "len" | "init", "shape"?}}``: a numpy
  array of that dtype, copied to the device with ``cuda.to_device``; the optional
  ``"shape"`` makes it multi-dimensional (data flat, row-major; the product of
  the shape must equal the element count);
- ``{"scalar": {"dtype", "value"}}``: a numpy scalar of that dtype
  (``np.int32(5)``, ``np.float32(0.1)`` rounded to nearest even, ``np.bool_``),
  so numba types the parameter as the declared dtype;
- ``{"constexpr": V}``: the plain Python value V (numba types an ``int`` as
  int64 and a ``float`` as float64).

Arguments are passed in the kernel's parameter order: ``kernel[grid, block](*args)``.
After ``cuda.synchronize()`` every buffer is copied back and reported, in the order
of the launch spec, as its exact bits (lowercase hex, ``0x``, the dtype's full
width), flat in row-major order, exactly as tools/triton_run.py and ksem write
them.  ``"backend": "numba"``, ``"ub": []`` (real numba detects no UB).  Keys of the
launch spec other than "kernel", "grid", "block" and "args" are ignored.

``--batch CASES.jsonl`` runs many cases after one import of numba: one JSON line
``{"program", "launch", "kernel"?, "options"?}`` a case (the launch spec inline;
``"options": {"contract": false}`` compiles without NVVM's FMA contraction, as
ksem's campaigns ask), one result line each, in order; a case numba refuses, or whose launch spec is bad, answers
``{"error": ...}`` and the batch goes on.  A launch that fails (the CUDA context
is then unusable) answers its error line and ends the batch with exit code 75,
and ksem starts the runner again with the cases after it.

Dtypes: those numpy has (bool, int8..int64, uint8..uint64, float16, float32,
float64); bfloat16 and the fp8 types are an input error here.

Only the standard library is needed for ``--selftest`` and for reading the
launch spec (the bit encoding is tools/triton_run.py's, imported from beside this
file); the launch itself needs numpy and numba-cuda.  numpy >= 2.4 dropped
``np.row_stack``, which some numba releases still use at import: it is set to
``np.vstack`` before numba is imported when missing.

Exit codes: 0 success; 2 bad input, or numba refused the program (any
``NumbaError``: TypingError, UnsupportedError, LoweringError …, at import time
for kernels with a signature, at the first launch otherwise; or "No matching
definition" for arguments that fit none of the kernel's signatures); the error
goes to stderr.  Anything else (a launch failure) is a Python traceback and exit
code 1.
"""

import argparse
import importlib.util
import inspect
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import triton_run as tr  # noqa: E402  (pure-Python helpers: dtypes, bits, buffers)

InputError = tr.InputError

NUMPY_DTYPE = {
    "bool": "bool", "int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64",
    "uint8": "uint8", "uint16": "uint16", "uint32": "uint32", "uint64": "uint64",
    "float16": "float16", "float32": "float32", "float64": "float64",
}


# ---------------------------------------------------------------------------
# launch spec (pure Python)
# ---------------------------------------------------------------------------

def _dims(path, key, v, default=None):
    if v is None:
        if default is None:
            raise InputError(f"{path}: {key} is required (1 to 3 positive ints)")
        return list(default)
    if isinstance(v, int) and not isinstance(v, bool):
        v = [v]
    if (not isinstance(v, list) or not 1 <= len(v) <= 3
            or not all(isinstance(g, int) and not isinstance(g, bool) and g >= 1 for g in v)):
        raise InputError(f"{path}: {key} must be a list of 1 to 3 positive ints")
    return v


def load_launch(path):
    try:
        with open(path) as fh:
            launch = json.load(fh)
    except (OSError, json.JSONDecodeError) as e:
        raise InputError(f"{path}: {e}")
    return check_launch(launch, path)


def check_launch(launch, path="launch"):
    if not isinstance(launch, dict):
        raise InputError(f"{path}: launch spec must be an object")
    launch = dict(launch)
    launch["grid"] = _dims(path, "grid", launch.get("grid"))
    launch["block"] = _dims(path, "block", launch.get("block"), default=[1, 1, 1])
    if not isinstance(launch.get("args"), dict):
        raise InputError(f"{path}: args must be an object")
    k = launch.get("kernel")
    if k is not None and not isinstance(k, str):
        raise InputError(f"{path}: kernel must be a string")
    return launch


def buffer_spec(name, body):
    """(dtype, bits, shape) of a buffer argument; shape is None for a flat buffer."""
    if not isinstance(body, dict):
        raise InputError(f"{name}: buffer must be an object")
    body = dict(body)
    shape = body.pop("shape", None)
    dtype, bits = tr.buffer_bits(name, body)
    if dtype not in NUMPY_DTYPE:
        raise InputError(f"{name}: dtype {dtype} is not supported for CUDA Python "
                         f"(supported: {', '.join(NUMPY_DTYPE)})")
    if shape is not None:
        if (not isinstance(shape, list) or not shape
                or not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape)):
            raise InputError(f"{name}: shape must be a non-empty list of non-negative ints")
        n = 1
        for d in shape:
            n *= d
        if n != len(bits):
            raise InputError(f"{name}: shape {shape} holds {n} elements, the buffer has {len(bits)}")
    return dtype, bits, shape


def scalar_spec(name, body):
    """(dtype, python value) of a scalar argument (floats already rounded into dtype)."""
    dtype, v = tr.scalar_value(name, body)
    if dtype not in NUMPY_DTYPE:
        raise InputError(f"{name}: dtype {dtype} is not supported for CUDA Python scalars")
    return dtype, v


def result_json(kernel, buffers):
    """buffers: list of (name, dtype, flat bits list). Same shape as triton_run's output."""
    out = {"kernel": kernel, "backend": "numba", "buffers": {}, "ub": []}
    for name, dtype, bits in buffers:
        out["buffers"][name] = {"dtype": dtype, "len": len(bits),
                                "bits": [tr.hexbits(b, dtype) for b in bits]}
    return out


def format_text(result):
    lines = [f"kernel {result['kernel']} (backend {result['backend']})"]
    for name, b in result["buffers"].items():
        shown = " ".join(b["bits"][:16]) + (" ..." if b["len"] > 16 else "")
        lines.append(f"  {name}: {b['dtype']}[{b['len']}] {shown}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# numpy / numba side
# ---------------------------------------------------------------------------

def import_numpy():
    import numpy as np
    if not hasattr(np, "row_stack"):
        np.row_stack = np.vstack  # numpy >= 2.4 removed it; some numba releases still use it
    return np


def import_numba():
    import_numpy()
    os.environ.setdefault("NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING", "1")
    os.environ.setdefault("NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS", "0")
    import numba
    from numba import cuda
    if "numbapro" not in sys.modules:
        sys.modules["numbapro"] = numba
        sys.modules["numbapro.cuda"] = cuda
    if not hasattr(cuda, "autojit"):
        cuda.autojit = cuda.jit
    return numba, cuda


def numba_error_types():
    """The base classes of numba's compile errors (numba's own and numba-cuda's vendored ones)."""
    kinds = []
    for modname in ("numba.core.errors", "numba.cuda.core.errors"):
        try:
            m = importlib.import_module(modname)
        except Exception:
            continue
        for attr in ("NumbaError", "UnsupportedError", "TypingError", "LoweringError"):
            c = getattr(m, attr, None)
            if isinstance(c, type):
                kinds.append(c)
    return tuple(kinds)


def is_refusal(e):
    """True if `e` says numba refused the program or the arguments (exit code 2)."""
    kinds = numba_error_types()
    if kinds and isinstance(e, kinds):
        return True
    if isinstance(e, TypeError) and "No matching definition" in str(e):
        return True
    return False


def _typeof(numba, v):
    try:
        from numba.cuda.typing.typeof import typeof
    except ImportError:  # older numba-cuda
        typeof = numba.typeof
    return typeof(v)


def check_signatures(numba, kobj, kname, names, values):
    """Refuse arguments that fit none of the kernel's explicit signatures.

    With signature strings (``@cuda.jit("void(float32[:])")``) numba compiles at
    import and disables further compilation; with one signature it launches that
    overload without checking the arguments, so a float64 buffer passed for a
    ``float32[:]`` parameter is silently reinterpreted.  Here each buffer must
    have the signature's dtype and number of dimensions (scalars are converted
    by numba to the parameter's type, as for any caller)."""
    if getattr(kobj, "_can_compile", True):
        return  # lazily compiled: numba types the arguments itself
    sigs = [tuple(s) for s in getattr(kobj, "overloads", {}).keys()]
    if not sigs:
        return
    from numba.core import types as nt
    got = [_typeof(numba, v) for v in values]

    def fits(sig):
        if len(sig) != len(got):
            return False
        for want, have in zip(sig, got):
            if isinstance(want, nt.Array) != isinstance(have, nt.Array):
                return False
            if isinstance(want, nt.Array):
                if want.dtype != have.dtype or want.ndim != have.ndim:
                    return False
                if want.layout == "F" and want.ndim > 1:
                    return False
        return True

    if any(fits(s) for s in sigs):
        return
    given = ", ".join(f"{n}: {t}" for n, t in zip(names, got))
    declared = "; ".join("(" + ", ".join(str(t) for t in s) + ")" for s in sigs)
    raise InputError(f"the arguments ({given}) fit none of the signatures of {kname}: {declared}")


def make_array(np, dtype, bits, shape):
    w = tr.width(dtype)
    store = np.dtype("uint%d" % w)
    a = np.array(bits, dtype=store).view(np.dtype(NUMPY_DTYPE[dtype]))
    if shape is not None:
        a = a.reshape(shape)
    return np.ascontiguousarray(a)


def array_bits(np, a, dtype):
    w = tr.width(dtype)
    return [int(b) for b in np.ascontiguousarray(a).reshape(-1).view(np.dtype("uint%d" % w)).tolist()]


def make_scalar(np, dtype, v):
    return np.dtype(NUMPY_DTYPE[dtype]).type(v)


def import_program(path):
    path = os.path.abspath(path)
    if not os.path.isfile(path):
        raise InputError(f"{path}: no such file")
    modname = "ksem_numba_" + "".join(c if c.isalnum() else "_" for c in os.path.splitext(os.path.basename(path))[0])
    modname += "_%x" % (abs(hash(path)) & 0xFFFFFF)
    spec = importlib.util.spec_from_file_location(modname, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[modname] = mod
    sys.path.insert(0, os.path.dirname(path))
    try:
        spec.loader.exec_module(mod)
    except SyntaxError as e:
        raise InputError(f"{e.filename}:{e.lineno}:{e.offset}: syntax error: {e.msg}")
    finally:
        sys.path.remove(os.path.dirname(path))
    return mod


def _is_kernel(v):
    """A @cuda.jit kernel (not a device function), real or simulated."""
    if not hasattr(v, "py_func") or not hasattr(v, "__getitem__"):
        return False
    m = type(v).__module__ or ""
    if not m.startswith("numba"):
        return False
    opts = getattr(v, "targetoptions", None)
    if isinstance(opts, dict) and opts.get("device"):
        return False
    if getattr(v, "_device", False):  # the CUDA simulator's FakeCUDAKernel
        return False
    return True


def kernel_params(k):
    return list(inspect.signature(k.py_func).parameters.values())


def find_kernel(mod, name, arg_names):
    found = {k: v for k, v in vars(mod).items() if _is_kernel(v)}
    if name is not None:
        if name not in found:
            raise InputError(f"no @cuda.jit kernel named {name!r} in the program "
                             f"(found: {', '.join(sorted(found)) or 'none'})")
        return name, found[name]
    names = {k: set(p.name for p in kernel_params(v)) for k, v in found.items()}
    cands = [k for k in found if names[k] >= set(arg_names)]
    if len(cands) == 1:
        return cands[0], found[cands[0]]
    if not cands:
        raise InputError("no @cuda.jit kernel takes these arguments; name it with --kernel")
    exact = [k for k in cands if names[k] == set(arg_names)]
    if len(exact) == 1:
        return exact[0], found[exact[0]]
    raise InputError(f"several kernels fit ({', '.join(sorted(cands))}); name one with --kernel")


def run_launch(program, launch, kernel_name=None):
    """Launch `program` per `launch` (checked by check_launch). Returns the result dict."""
    np = import_numpy()
    args = launch["args"]
    # validate every argument before touching the GPU
    prepared = {}
    for name, spec in args.items():
        if not isinstance(spec, dict) or len(spec) != 1:
            raise InputError(f"{name}: argument must be one of buffer, scalar, constexpr")
        (key, body), = spec.items()
        if key == "buffer":
            prepared[name] = ("buffer",) + buffer_spec(name, body)
        elif key == "scalar":
            prepared[name] = ("scalar",) + scalar_spec(name, body)
        elif key == "constexpr":
            if not isinstance(body, (bool, int, float)):
                raise InputError(f"{name}: constexpr must be a number or bool")
            prepared[name] = ("constexpr", body)
        else:
            raise InputError(f"{name}: unknown argument kind {key!r}")

    numba, cuda = import_numba()
    mod = import_program(program)
    kname = kernel_name or launch.get("kernel")
    kname, kobj = find_kernel(mod, kname, list(args))
    params = kernel_params(kobj)
    pnames = [p.name for p in params]
    for a in args:
        if a not in pnames:
            raise InputError(f"{a}: the kernel {kname} has no such parameter")
    call = []
    for i, p in enumerate(params):
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            raise InputError(f"{kname}: *args/**kwargs parameters are not supported")
        if p.name not in args:
            if p.default is p.empty or any(q.name in args for q in params[i:]):
                raise InputError(f"{p.name}: argument missing from the launch spec")
            break
        call.append(p.name)

    host = {}
    passed = []
    for name in call:
        item = prepared[name]
        if item[0] == "buffer":
            _, dtype, bits, shape = item
            h = make_array(np, dtype, bits, shape)
            d = cuda.to_device(h)
            host[name] = (dtype, d, h)
            passed.append(d)
        elif item[0] == "scalar":
            passed.append(make_scalar(np, item[1], item[2]))
        else:
            passed.append(item[1])

    check_signatures(numba, kobj, kname, call,
                     [host[n][2] if n in host else v for n, v in zip(call, passed)])
    grid, block = tuple(launch["grid"]), tuple(launch["block"])
    kobj[grid, block](*passed)
    cuda.synchronize()

    bufs = []
    for name in args:  # launch-spec order
        if name in host:
            dtype, d, _ = host[name]
            bufs.append((name, dtype, array_bits(np, d.copy_to_host(), dtype)))
    return result_json(kname, bufs)


def gpu_name():
    try:
        _, cuda = import_numba()
        n = cuda.get_current_device().name
        return n.decode() if isinstance(n, bytes) else str(n)
    except Exception:
        return "unknown"


# ---------------------------------------------------------------------------
# self test (pure Python; numpy parts only where numpy is installed)
# ---------------------------------------------------------------------------

def selftest():
    fails = []

    def check(what, got, want):
        if got != want:
            fails.append(f"{what}: got {got!r}, want {want!r}")

    def refused(what, fn):
        try:
            fn()
            fails.append(f"should reject: {what}")
        except InputError:
            pass

    # launch spec
    L = check_launch({"grid": [2], "args": {}})
    check("default block", L["block"], [1, 1, 1])
    check("grid int", check_launch({"grid": 4, "block": 32, "args": {}})["grid"], [4])
    check("block int", check_launch({"grid": 4, "block": 32, "args": {}})["block"], [32])
    check("grid 3", check_launch({"grid": [1, 2, 3], "block": [4, 5, 6], "args": {}})["grid"], [1, 2, 3])
    refused("no grid", lambda: check_launch({"args": {}}))
    refused("grid 0", lambda: check_launch({"grid": [0], "args": {}}))
    refused("grid 4 dims", lambda: check_launch({"grid": [1, 1, 1, 1], "args": {}}))
    refused("block bool", lambda: check_launch({"grid": [1], "block": [True], "args": {}}))
    refused("no args", lambda: check_launch({"grid": [1]}))
    refused("not an object", lambda: check_launch([1]))
    # buffers (bits through triton_run's encoder)
    check("f32 data", buffer_spec("x", {"dtype": "float32", "data": [1.5, "nan", "-inf", "-0.0", 3]}),
          ("float32", [0x3FC00000, 0x7FC00000, 0xFF800000, 0x80000000, 0x40400000], None))
    check("i32 data", buffer_spec("x", {"dtype": "i32", "data": [-7, 2147483647, -2147483648]})[1],
          [0xFFFFFFF9, 0x7FFFFFFF, 0x80000000])
    check("u8 bits", buffer_spec("x", {"dtype": "uint8", "bits": ["0xff", 1]})[1], [0xFF, 1])
    check("shape", buffer_spec("x", {"dtype": "int16", "len": 6, "shape": [2, 3]}),
          ("int16", [0] * 6, [2, 3]))
    check("shape 3d", buffer_spec("x", {"dtype": "float64", "data": [1, 2, 3, 4], "shape": [1, 2, 2]})[2],
          [1, 2, 2])
    check("random", buffer_spec("x", {"dtype": "float32", "len": 3, "init": {"random": {"seed": 7}}})[1],
          tr.random_bits("float32", 3, {"seed": 7}))
    refused("shape mismatch", lambda: buffer_spec("x", {"dtype": "int8", "len": 5, "shape": [2, 3]}))
    refused("shape bad", lambda: buffer_spec("x", {"dtype": "int8", "len": 6, "shape": [2, -3]}))
    refused("shape empty", lambda: buffer_spec("x", {"dtype": "int8", "len": 6, "shape": []}))
    refused("bf16", lambda: buffer_spec("x", {"dtype": "bfloat16", "len": 1}))
    refused("fp8", lambda: buffer_spec("x", {"dtype": "float8e4nv", "len": 1}))
    refused("bits too wide", lambda: buffer_spec("x", {"dtype": "int8", "bits": ["0x100"]}))
    refused("unknown key", lambda: buffer_spec("x", {"dtype": "int8", "len": 1, "strides": [1]}))
    # scalars
    check("scalar i32", scalar_spec("n", {"dtype": "int32", "value": -5}), ("int32", -5))
    check("scalar f32 rounded", scalar_spec("s", {"dtype": "float32", "value": 0.1}),
          ("float32", tr.float_decode(0x3DCCCCCD, "float32")))
    check("scalar f64", scalar_spec("s", {"dtype": "float64", "value": 0.1}), ("float64", 0.1))
    check("scalar bool", scalar_spec("s", {"dtype": "bool", "value": True}), ("bool", True))
    refused("scalar range", lambda: scalar_spec("n", {"dtype": "int8", "value": 128}))
    refused("scalar bf16", lambda: scalar_spec("n", {"dtype": "bf16", "value": 1.0}))
    # output encoding
    r = result_json("k", [("out", "float32", [0x3F800000, 0x7FC00000]), ("i", "int64", [5]),
                          ("b", "bool", [1]), ("h", "float16", [0x3C00]), ("u", "uint8", [0xFF])])
    check("result", r, {"kernel": "k", "backend": "numba", "ub": [], "buffers": {
        "out": {"dtype": "float32", "len": 2, "bits": ["0x3f800000", "0x7fc00000"]},
        "i": {"dtype": "int64", "len": 1, "bits": ["0x0000000000000005"]},
        "b": {"dtype": "bool", "len": 1, "bits": ["0x01"]},
        "h": {"dtype": "float16", "len": 1, "bits": ["0x3c00"]},
        "u": {"dtype": "uint8", "len": 1, "bits": ["0xff"]}}})
    check("result is json", json.loads(json.dumps(r)), r)
    # numpy round trip (only where numpy is installed)
    try:
        np = import_numpy()
    except ImportError:
        np = None
    if np is not None:
        cases = [("int32", [0xFFFFFFF9, 0x80000000, 7]), ("uint64", [2 ** 64 - 1, 0]),
                 ("float32", [0x7FC00001, 0xFF800000, 0x80000000]), ("float16", [0x7E00, 0x3C00]),
                 ("float64", [0x7FF0000000000001, 0x8000000000000000]), ("bool", [0, 1]),
                 ("int8", [0x80, 0x7F])]
        for dt, bits in cases:
            a = make_array(np, dt, bits, None)
            check(f"numpy dtype {dt}", str(a.dtype), NUMPY_DTYPE[dt])
            check(f"numpy roundtrip {dt}", array_bits(np, a, dt), bits)
        a = make_array(np, "int16", list(range(6)), [2, 3])
        check("numpy shape", a.shape, (2, 3))
        check("numpy row-major", int(a[1, 0]), 3)
        check("numpy shape bits", array_bits(np, a, "int16"), list(range(6)))
        s = make_scalar(np, "int32", -5)
        check("numpy scalar type", type(s).__name__, "int32")
        check("numpy scalar f32", float(make_scalar(np, "float32", tr.float_decode(0x3DCCCCCD, "float32"))),
              tr.float_decode(0x3DCCCCCD, "float32"))
        check("numpy scalar bool", type(make_scalar(np, "bool", True)).__name__, "bool")
        check("row_stack", hasattr(np, "row_stack"), True)
    if fails:
        for f in fails[:20]:
            print("FAIL", f)
        print(f"selftest: {len(fails)} failures")
        return 1
    print("selftest: all checks passed" + ("" if np is not None else " (numpy not installed: numpy checks skipped)"))
    return 0


# ---------------------------------------------------------------------------

# The exit code of a batch that stopped after a launch failure: the CUDA
# context is unusable, so ksem starts the runner again with the cases after
# the one that failed (diff/src/peer.rs, `RESTART_EXIT`).
RESTART_EXIT = 75


def refusal_text(e):
    """numba's refusal `e` as one message (colour codes stripped)."""
    msg = re.sub(r"\x1b\[[0-9;]*m", "", str(e)).strip()
    return f"numba refused to compile the kernel ({type(e).__name__}):\n{msg}"


# numba's own compile_ir and LTO test, kept the first time contraction is
# turned off so that it can be turned on again
_PLAIN = {}


def set_contraction(on):
    """Whether `a*b + c` may be contracted into an FMA (on by default, as
    numba-cuda compiles). Campaigns turn it off, since ksem never contracts
    (docs/divergences.md N21): NVVM then compiles with -fma=0 (its PTX has
    `mul.rn`/`add.rn`, which ptxas does not fuse), and kernels link without
    LTO, whose nvJitLink step would generate code with contraction again."""
    from numba.cuda.cudadrv import nvvm
    try:
        from numba.cuda import decorators
    except ImportError:  # the simulator compiles nothing
        decorators = None
    if not _PLAIN:
        _PLAIN["compile_ir"] = nvvm.compile_ir
        _PLAIN["lto"] = getattr(decorators, "_have_nvjitlink", None)
    plain = _PLAIN["compile_ir"]

    def compile_ir(llvmir, **options):
        options["fma"] = False
        return plain(llvmir, **options)

    nvvm.compile_ir = plain if on else compile_ir
    if _PLAIN["lto"] is not None:
        decorators._have_nvjitlink = _PLAIN["lto"] if on else (lambda: False)


def batch(path):
    """--batch FILE: JSON lines {"program", "launch", "kernel"?, "options"?}; one
    result line each, in order, after one import of numba (a refused program
    or a bad launch is its line {"error": ...} and the batch goes on; a launch
    failure is its error line and ends the batch with RESTART_EXIT). Options:
    {"contract": false} compiles without FMA contraction."""
    with open(path) as fh:
        cases = [json.loads(l) for l in fh if l.strip()]
    for c in cases:
        try:
            set_contraction((c.get("options") or {}).get("contract", True))
            result = run_launch(c["program"], check_launch(c["launch"]), c.get("kernel"))
        except InputError as e:
            print(json.dumps({"error": f"error: {e}"}), flush=True)
            continue
        except Exception as e:
            if is_refusal(e):
                print(json.dumps({"error": refusal_text(e)}), flush=True)
                continue
            print(json.dumps({"error": f"{type(e).__name__}: {e}"}), flush=True)
            return RESTART_EXIT
        print(json.dumps(result), flush=True)
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("program", nargs="?")
    ap.add_argument("--launch")
    ap.add_argument("--kernel")
    ap.add_argument("--json", action="store_true", help="print the result JSON (the default)")
    ap.add_argument("--text", action="store_true", help="print a short text summary instead of JSON")
    ap.add_argument("--selftest", action="store_true")
    ap.add_argument("--batch", help="a file of JSON lines {program, launch}; one result line each")
    a = ap.parse_args(argv)
    if a.selftest:
        return selftest()
    if a.batch:
        return batch(a.batch)
    prog = a.program or "numba_run"
    try:
        if not a.program or not a.launch:
            raise InputError("usage: numba_run.py PROGRAM.py --launch LAUNCH.json [--kernel NAME]")
        launch = load_launch(a.launch)
        try:
            result = run_launch(a.program, launch, a.kernel)
        except InputError:
            raise
        except Exception as e:
            if is_refusal(e):
                print(f"{prog}: error: {refusal_text(e)}", file=sys.stderr)
                return 2
            raise
    except InputError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
    if a.text:
        print(format_text(result))
    else:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
