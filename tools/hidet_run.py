#!/usr/bin/env python3
"""Run a Hidet script's cpu_kernel on real Hidet (the CPU, g++) and print
ksem's result JSON.

    $HIDET_PY tools/hidet_run.py PROGRAM.py --launch LAUNCH.json [--kernel NAME]
    $HIDET_PY tools/hidet_run.py --batch FILE

with $HIDET_PY a Python that has ``pip install hidet`` (measured with Hidet
0.6.1 in /work/hidetvenv, see docs/hidet-measured.md).

PROGRAM.py is an unmodified Hidet script file: ``@hidet.script`` functions
inside ``with hidet.script_module() as m:`` (at module level or inside a
module-level builder function), often followed by ``module = m.build()``.
It is imported under a module name other than ``__main__``, so its ``if
__name__ == "__main__":`` block does not run.

Finding the kernel (robust to however the file builds its module): while the
file is imported, every ``hidet.script_module()`` context it creates is
recorded (``ScriptModuleContext.__init__`` is wrapped), and
``ScriptModuleContext.build()`` returns a lazy stand-in that compiles only if
the file itself uses the built module at import time. So nothing is compiled
twice and a file whose own ``m.build()`` would fail (two kernels in one
module: Hidet 0.6.1 raises NotImplementedError) can still be run kernel by
kernel. After the import the kernel is the function named by ``--kernel`` or
the launch's ``"kernel"``, else the only ``cpu_kernel``/``cuda_kernel`` of all
recorded script modules (a module-level ``hidet.ir.Function`` built without a
script module is a fallback). Where the import made no such kernel, the
file's module-level builder functions (``def build(): with
hidet.script_module() as m: … return m.build()``, no required parameters,
as ksem's scan accepts) are called, under the same recording. It is built from its own script module's
functions (``ScriptModuleContext.ir_module()``), leaving out the module's other
kernels; when the module has no other kernel this is exactly the IR the file's
own ``m.build()`` would compile (Hidet's cache is keyed by the IR text, so a
build already made at import time is reused).

Compilation: Hidet's g++ command has ``-ffast-math`` and no option to drop it;
it is replaced by ``-fno-fast-math -ffp-contract=off`` (as in
tools/probes/hidet/_common.py), and Hidet's cache directory is
$KSEM_HIDET_CACHE (default /tmp/ksem_hidet_cache), never shared with a
fast-math build (Hidet's cache key is the IR text, not the flags).

Only ``cpu_kernel`` functions run here (there is no GPU): a ``cuda_kernel``
is a refusal (exit 2).

Arguments: the launch spec of DESIGN.md ("Interfaces"). A buffer (``data``,
``bits``, ``len``, ``init: {"random": …}``, optional ``shape``) is decoded by
tools/triton_run.py's helpers, so its bits are exactly those ksem uses; it
is passed to the kernel as a raw pointer to a C array of those bits, for a
tensor parameter (``a: f32[4, 8]``, whose storage size must equal the
buffer's length) and a pointer parameter (``p: ~f32``) alike. The buffer's
dtype must be the parameter's element type (``~void`` takes any). A scalar
parameter takes ``{"scalar": {"dtype": D, "value": V}}`` with D its declared
type, passed through ctypes as that C type (there are no bare numbers, as in
ksem's launch parser). ``"grid"``/``"block"`` are ignored (a cpu_kernel is
one call). Every buffer is reported afterwards as its exact bits
(``"backend": "hidet"``, ``"exact": true``, ``"ub": []``: real Hidet detects
no UB).

Each case runs in a forked child process, so a kernel that dies (SIGFPE on
an integer division by zero, a segfault) is reported as an error instead
of killing the tool or the batch. Hidet's and the kernel's own prints go to
stderr.

`--batch FILE` runs many cases after one import of Hidet (it takes
seconds): FILE has one JSON object per line, {"program": PATH, "launch":
{...}} (optionally "kernel"), and each gets one line on stdout, its result
JSON or {"error": …}.

Exit codes: 0 success; 2 bad input, or Hidet refused the program (the
transpiler, type inference or g++: the error goes to stderr); 1 anything
else (e.g. the kernel died with a signal).
"""

import argparse
import ctypes
import importlib.util
import json
import os
import re
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import triton_run as tr  # noqa: E402  (pure-Python helpers: dtypes, bits, buffers)

InputError = tr.InputError
CACHE = os.environ.get("KSEM_HIDET_CACHE", "/tmp/ksem_hidet_cache")
KERNEL_KINDS = ("cpu_kernel", "cuda_kernel", "hip_kernel")


class Refused(Exception):
    """Hidet refused the program (exit code 2)."""


class RunFailure(Exception):
    """The compiled kernel failed when called (exit code 1)."""


# ---------------------------------------------------------------------------
# Hidet set-up (imported once per process)
# ---------------------------------------------------------------------------

_SETUP = {}


def setup_hidet():
    """Imports hidet, turns fast-math off in its g++ command and points its
    cache at CACHE. Returns the hidet module."""
    if "hidet" in _SETUP:
        return _SETUP["hidet"]
    with _stdout_to_stderr():
        import hidet
        from hidet.backend import build as hb
    orig = hb.SourceCompiler.run_compile_command

    def no_fast_math(self, command, src_path, out_lib_path):
        command = command.replace("-ffast-math", "-fno-fast-math -ffp-contract=off")
        if "fast-math" in command.replace("-fno-fast-math", ""):
            raise RuntimeError("could not remove -ffast-math from Hidet's compile command")
        return orig(self, command, src_path, out_lib_path)

    hb.SourceCompiler.run_compile_command = no_fast_math
    os.makedirs(CACHE, exist_ok=True)
    hidet.option.cache_dir(CACHE)
    hidet.option.parallel_build(False)
    _SETUP["hidet"] = hidet
    return hidet


class _stdout_to_stderr:
    """Sends fd 1 (Python's and C's stdout) to stderr while active."""

    def __enter__(self):
        sys.stdout.flush()
        self.saved = os.dup(1)
        os.dup2(2, 1)
        return self

    def __exit__(self, *exc):
        sys.stdout.flush()
        _c_fflush()
        os.dup2(self.saved, 1)
        os.close(self.saved)
        return False


def _c_fflush():
    try:
        ctypes.CDLL(None).fflush(None)
    except Exception:  # noqa: BLE001
        pass


# ---------------------------------------------------------------------------
# importing the program and finding the kernel
# ---------------------------------------------------------------------------

class _LazyBuilt:
    """What the file's own ``script_module.build()`` returns while it is
    imported: builds the real CompiledModule only when the file uses it."""

    def __init__(self, ctx):
        self._ctx = ctx
        self._built = None

    def _get(self):
        if self._built is None:
            self._built = self._ctx.ir_module().build()
        return self._built

    def __call__(self, *a, **k):
        return self._get()(*a, **k)

    def __getattr__(self, name):
        return getattr(self._get(), name)

    def __getitem__(self, item):
        return self._get()[item]


class _Recording:
    """While active: every ScriptModuleContext created is appended to
    `contexts`, and ScriptModuleContext.build() returns a _LazyBuilt."""

    def __init__(self, contexts):
        self.contexts = contexts

    def __enter__(self):
        from hidet.lang.script import ScriptModuleContext
        self.cls = ScriptModuleContext
        self.orig = (ScriptModuleContext.__init__, ScriptModuleContext.build)
        orig_init, contexts = self.orig[0], self.contexts

        def init(ctx, *a, **k):
            orig_init(ctx, *a, **k)
            contexts.append(ctx)

        ScriptModuleContext.__init__ = init
        ScriptModuleContext.build = lambda ctx: _LazyBuilt(ctx)
        return self

    def __exit__(self, *exc):
        self.cls.__init__, self.cls.build = self.orig
        return False


def import_program(path):
    """Imports the file; returns (python module, [ScriptModuleContext …] it created)."""
    setup_hidet()
    path = os.path.abspath(path)
    if not os.path.isfile(path):
        raise InputError(f"{path}: no such file")
    modname = "ksem_hidet_prog_" + "".join(
        c if c.isalnum() else "_" for c in os.path.splitext(os.path.basename(path))[0])
    spec = importlib.util.spec_from_file_location(modname, path)
    if spec is None or spec.loader is None:
        raise InputError(f"{path}: cannot import")
    mod = importlib.util.module_from_spec(spec)
    contexts = []
    sys.modules[modname] = mod
    try:
        with _Recording(contexts):
            spec.loader.exec_module(mod)
    finally:
        sys.modules.pop(modname, None)
    return mod, contexts


def run_builders(mod, contexts):
    """Calls the file's module-level builder functions (``def build(): with
    hidet.script_module() as m: … return m.build()``, no required
    parameters) that the import did not run, recording their script modules."""
    import inspect
    for name, f in list(vars(mod).items()):
        if not inspect.isfunction(f) or f.__module__ != mod.__name__:
            continue
        try:
            src = inspect.getsource(f)
            sig = inspect.signature(f)
        except (OSError, TypeError, ValueError):
            continue
        if "script_module" not in src:
            continue
        if any(p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
               for p in sig.parameters.values()):
            continue
        with _Recording(contexts):
            f()


def find_kernel(mod, contexts, name):
    """(kernel Function, the functions it is built with)."""
    from hidet.ir.func import Function
    found = []  # (function, its script module context or None)
    for ctx in contexts:
        for f in ctx.functions:
            found.append((f, ctx))
    for v in vars(mod).values():
        if isinstance(v, Function) and not any(v is f for f, _ in found):
            found.append((v, None))
    if name is not None:
        hits = [(f, fs) for f, fs in found if f.name == name]
        if not hits:
            names = ", ".join(f.name for f, _ in found) or "none"
            raise InputError(f"no @hidet.script function named {name} (the file defines: {names})")
        f, fs = hits[-1]
        if f.kind not in KERNEL_KINDS:
            raise InputError(f"{name} is a {f.kind} function, not a kernel "
                             "(launch a function with attrs.func_kind = 'cpu_kernel')")
    else:
        kernels = [(f, fs) for f, fs in found if f.kind in KERNEL_KINDS]
        if not kernels:
            raise InputError("no Hidet kernel found (a @hidet.script function with "
                             "attrs.func_kind = 'cpu_kernel')")
        if len(kernels) > 1:
            raise InputError(f"the file has {len(kernels)} kernels "
                             f"({', '.join(f.name for f, _ in kernels)}): give --kernel NAME "
                             "or \"kernel\" in the launch")
        f, fs = kernels[0]
    if f.kind != "cpu_kernel":
        raise Refused(f"{f.name} is a {f.kind}: only cpu_kernel functions run here "
                      "(real Hidet's CUDA kernels need a GPU)")
    return f, fs


def build_kernel(kernel, ctx):
    """Compiles the kernel's script module (without its other kernels: Hidet
    builds one kernel per module)."""
    from hidet.ir.module import IRModule
    if ctx is None:
        return IRModule(functions={kernel.name: kernel}).build()
    ir = ctx.ir_module()
    others = [n for n, g in ir.functions.items() if g is not kernel and g.kind in KERNEL_KINDS]
    if others:
        ir = IRModule(
            functions={n: g for n, g in ir.functions.items() if n not in others},
            global_vars={n: v for n, v in ctx.name2var.items() if n not in others},
            extern_functions=ctx.extern_functions,
        )
    return ir.build()


# ---------------------------------------------------------------------------
# arguments
# ---------------------------------------------------------------------------

_CTYPES = {
    "int8": ctypes.c_int8, "int16": ctypes.c_int16, "int32": ctypes.c_int32,
    "int64": ctypes.c_int64, "uint8": ctypes.c_uint8, "uint16": ctypes.c_uint16,
    "uint32": ctypes.c_uint32, "uint64": ctypes.c_uint64, "float32": ctypes.c_float,
    "float64": ctypes.c_double, "bool": ctypes.c_bool,
}


def _hidet_dtype_name(dt):
    n = dt.name
    return {"boolean": "bool", "tfloat32": "float32"}.get(n, n)


# A complex or vector element is held in a launch buffer as consecutive
# numbers of its component dtype (docs/formats.md): (component, numbers).
_COMPOUND = {
    "complex64": ("float32", 2), "complex128": ("float64", 2),
    "float32x4": ("float32", 4), "float32x8": ("float32", 8), "float32x2": ("float32", 2),
    "float16x2": ("float16", 2), "bfloat16x2": ("bfloat16", 2), "int8x4": ("int8", 4),
    "uint8x4": ("uint8", 4),
}


def _buffer_dtype(dt):
    """(component dtype name, numbers per element) of a tensor or pointer's element."""
    n = _hidet_dtype_name(dt)
    return _COMPOUND.get(n, (n, 1))


def _param_kind(param):
    """('tensor', dtype, storage size or None) | ('pointer', dtype or None) |
    ('scalar', dtype)."""
    from hidet.ir.type import TensorType, PointerType, DataType, TensorPointerType, VoidType
    t = param.type
    if isinstance(t, TensorPointerType):
        t = t.tensor_type
    if isinstance(t, TensorType):
        size = None
        try:
            size = int(t.layout.size)
        except Exception:  # noqa: BLE001 - a symbolic size
            pass
        comp, width = _buffer_dtype(t.dtype)
        return "tensor", comp, None if size is None else size * width
    if isinstance(t, PointerType):
        base = t.base_type
        if isinstance(base, DataType):
            return "pointer", _buffer_dtype(base)[0], None
        if isinstance(base, VoidType):
            return "pointer", None, None
        return "pointer", "?", None
    if isinstance(t, DataType):
        return "scalar", _hidet_dtype_name(t), None
    raise InputError(f"{param.hint}: parameter type {t} cannot be passed from the host")


def _to_bytes(dtype, bits):
    n = tr.width(dtype) // 8
    return b"".join(int(b).to_bytes(n, "little") for b in bits)


def _from_bytes(dtype, raw):
    n = tr.width(dtype) // 8
    return [int.from_bytes(raw[i:i + n], "little") for i in range(0, len(raw), n)]


def make_args(kernel, launch):
    params = [(p.hint or p.name, p) for p in kernel.params]
    names = [n for n, _ in params]
    args_spec = launch.get("args", {})
    if not isinstance(args_spec, dict):
        raise InputError("args must be an object")
    for k in args_spec:
        if k not in names:
            raise InputError(f"the launch passes {k}, which kernel {kernel.name} has no parameter for "
                             f"(parameters: {', '.join(names)})")
    values, buffers = [], []
    for pname, param in params:
        if pname not in args_spec:
            raise InputError(f"the launch gives no argument {pname}")
        body = args_spec[pname]
        if not isinstance(body, dict) or len(body) != 1:
            raise InputError(f"{pname}: an argument is {{\"buffer\": …}} or {{\"scalar\": …}}")
        ((kind, spec),) = body.items()
        pk = _param_kind(param)
        if kind == "buffer":
            if pk[0] == "scalar":
                raise InputError(f"{pname} is a scalar ({pk[1]}) but the launch passes a buffer")
            spec = dict(spec) if isinstance(spec, dict) else spec
            shape = spec.pop("shape", None) if isinstance(spec, dict) else None
            dtype, bits = tr.buffer_bits(pname, spec)
            if shape is not None:
                n = 1
                for s in shape:
                    n *= int(s)
                if n != len(bits):
                    raise InputError(f"{pname}: shape {shape} holds {n} elements, the launch gives {len(bits)}")
            if pk[1] is not None and pk[1] != dtype:
                raise InputError(f"{pname} holds {pk[1]} but the launch passes a {dtype} buffer")
            if pk[0] == "tensor" and pk[2] is not None and pk[2] != len(bits):
                raise InputError(f"{pname} is a tensor of {pk[2]} elements of storage but the launch "
                                 f"passes {len(bits)} elements")
            raw = _to_bytes(dtype, bits)
            arr = ctypes.create_string_buffer(raw, max(len(raw), 1))
            values.append(ctypes.c_void_p(ctypes.addressof(arr)))
            buffers.append((pname, dtype, arr, len(raw)))
        elif kind == "scalar":
            if pk[0] != "scalar":
                raise InputError(f"{pname} is a {pk[0]} parameter but the launch passes a scalar")
            dtype, v = tr.scalar_value(pname, spec)
            if dtype != pk[1]:
                raise InputError(f"{pname} is declared {pk[1]} but the launch passes {dtype}")
            values.append(v)
        else:
            raise InputError(f"{pname}: unknown argument kind {kind} (buffer or scalar)")
    return values, buffers


# ---------------------------------------------------------------------------
# running
# ---------------------------------------------------------------------------

def run_launch(program, launch, kernel_name=None):
    """Runs one case in this process; returns the result JSON (dict)."""
    mod, contexts = import_program(program)
    name = kernel_name or launch.get("kernel")
    try:
        kernel, ctx = find_kernel(mod, contexts, name)
    except InputError:
        # the script functions may be made by a builder function only
        n = len(contexts)
        run_builders(mod, contexts)
        if len(contexts) == n:
            raise
        kernel, ctx = find_kernel(mod, contexts, name)
    values, buffers = make_args(kernel, launch)
    compiled = build_kernel(kernel, ctx)
    try:
        compiled(*values)
    except Exception as e:  # noqa: BLE001
        raise RunFailure(f"the kernel call failed: {_err_text(e)}") from None
    _c_fflush()
    out = {"kernel": kernel.name, "backend": "hidet", "buffers": {}, "ub": []}
    for pname, dtype, arr, n in buffers:
        bits = _from_bytes(dtype, ctypes.string_at(ctypes.addressof(arr), n))
        out["buffers"][pname] = {"dtype": dtype, "len": len(bits),
                                 "bits": [tr.hexbits(b, dtype) for b in bits], "exact": True}
    return out


def _err_text(e):
    """The exception and its cause chain, ANSI codes removed, short."""
    parts = []
    while e is not None and len(parts) < 4:
        msg = re.sub(r"\x1b\[[0-9;]*m", "", str(e).strip())
        lines = [l.strip() for l in msg.splitlines() if l.strip()]
        # g++ errors: keep the 'error:' lines
        errs = [l for l in lines if "error:" in l]
        msg = " | ".join(errs[:3]) if errs else " | ".join(lines[-3:])
        parts.append(f"{type(e).__name__}: {msg}")
        e = e.__cause__ or e.__context__
    return " <- ".join(parts)[:1200]


def _classify(e):
    """(exit code, message) for an exception raised while running a case."""
    if isinstance(e, InputError):
        return 2, str(e)
    if isinstance(e, RunFailure):
        return 1, str(e)
    if isinstance(e, Refused):
        return 2, f"hidet refused the program: {e}"
    # transpiler errors (HidetProgramError), type inference, g++ (CompilationFailed)
    return 2, f"hidet refused the program: {_err_text(e)}"


def run_isolated(program, launch, kernel=None):
    """run_launch in a forked child; returns (exit code, result or None, error or None)."""
    setup_hidet()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(r)
        code, payload = 0, None
        try:
            os.dup2(2, 1)  # Hidet's and the kernel's prints go to stderr
            res = run_launch(program, launch, kernel)
            payload = {"result": res}
        except BaseException as e:  # noqa: BLE001
            code, msg = _classify(e)
            payload = {"error": msg, "code": code}
        try:
            _c_fflush()
            data = json.dumps(payload).encode()
            with os.fdopen(w, "wb") as fh:
                fh.write(data)
        finally:
            os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as fh:
        data = fh.read()
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            sname = signal.Signals(sig).name
        except ValueError:
            sname = str(sig)
        return 1, None, f"the kernel died with signal {sname} (e.g. an integer division by zero)"
    try:
        payload = json.loads(data.decode() or "null")
    except json.JSONDecodeError:
        payload = None
    if not isinstance(payload, dict):
        return 1, None, f"the run ended without a result (exit status {status})"
    if "result" in payload:
        return 0, payload["result"], None
    return payload.get("code", 1), None, payload["error"]


def load_launch(path):
    try:
        with open(path) as fh:
            launch = json.load(fh)
    except (OSError, json.JSONDecodeError) as e:
        raise InputError(f"{path}: {e}")
    if not isinstance(launch, dict) or not isinstance(launch.get("args", {}), dict):
        raise InputError(f"{path}: a launch spec is an object with \"args\"")
    return launch


def batch(path):
    with open(path) as fh:
        cases = [json.loads(l) for l in fh if l.strip()]
    for c in cases:
        code, result, err = run_isolated(c["program"], c["launch"], c.get("kernel"))
        print(json.dumps(result if err is None else {"error": err}), flush=True)
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("program", nargs="?")
    ap.add_argument("--launch")
    ap.add_argument("--kernel")
    ap.add_argument("--batch", help="a file of JSON lines {program, launch}; one result line each")
    a = ap.parse_args(argv)
    if a.batch:
        return batch(a.batch)
    if not a.program or not a.launch:
        ap.error("give PROGRAM and --launch, or --batch FILE")
    try:
        launch = load_launch(a.launch)
    except InputError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    code, result, err = run_isolated(a.program, launch, a.kernel)
    if err is not None:
        print(f"error: {err}", file=sys.stderr)
        return code
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
