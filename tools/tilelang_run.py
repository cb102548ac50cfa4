#!/usr/bin/env python3
"""Run a TileLang kernel on real TileLang's C target (the CPU) and print
ksem's result JSON.

    python3 tools/tilelang_run.py PROGRAM.py --launch LAUNCH.json [--kernel NAME]

PROGRAM.py is an unmodified TileLang source file: ``@T.prim_func`` kernels at
module level, or kernel factories (``def make(N, block): ... @T.prim_func def
main(...) ... return main``, also under ``@tilelang.jit``) called with the
launch's ``"factory_args"`` as keyword arguments. The file is imported under
a module name other than ``__main__``, so its ``if __name__ == "__main__":``
block does not run.

The kernel is compiled with ``tilelang.compile(func, target="c")`` with
vectorisation off (``tirx.disable_vectorize``: the C target's vector types do
not compile) and called with one torch tensor per buffer parameter, in the
kernel's parameter order; scalars are passed as Python numbers. Every buffer
is reported afterwards as its exact bits, as tools/triton_run.py writes them
(``"backend": "tilelang"``, ``"ub": []``: real TileLang detects no UB). The
launch's ``"grid"``/``"block"`` are ignored: ``T.Kernel`` fixes them. A
function of several ``with T.Kernel`` blocks runs them in order (the C
target emits one C function whose launches are consecutive loops).

The machine the program's host code asks about is the launch's ``"target"``
(docs/formats.md; default an H100 SXM: 132 SMs, compute capability 9.0), as
in ksem: while the program is imported and its kernel built,
``tilelang.carver.arch.driver.get_num_sms()`` and
``torch.cuda.get_device_capability()`` answer from it for device 0 (on a CPU
machine both raise RuntimeError otherwise; measured on tilelang 0.1.15).

What the C target cannot run (measured on tilelang 0.1.15): bfloat16 and
uint32 arguments, ``T.gemm``, ``T.fill``/``T.copy`` into shared memory with
a fill; those are refusals (exit 2), not answers.

`--batch FILE` runs many cases in one process (TileLang's import takes
seconds): FILE has one JSON object per line, {"program": PATH, "launch":
{...}}, and each gets one line on stdout, its result JSON or {"error": …}.
TileLang's own prints go to stderr.

Exit codes: 0 success; 2 bad input, or TileLang refused the program (the
error goes to stderr); 1 anything else.
"""

import argparse
import contextlib
import importlib.util
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import triton_run as tr  # noqa: E402  (pure-Python helpers: dtypes, bits, buffers)

InputError = tr.InputError
PASS_CONFIGS = {"tirx.disable_vectorize": True}


def load_launch(path):
    try:
        with open(path) as fh:
            launch = json.load(fh)
    except (OSError, json.JSONDecodeError) as e:
        raise InputError(f"{path}: {e}")
    if not isinstance(launch, dict) or not isinstance(launch.get("args", {}), dict):
        raise InputError(f"{path}: a launch spec is an object with \"args\"")
    return launch


H100_SXM = {"num_sms": 132, "capability": [9, 0]}


@contextlib.contextmanager
def stated_target(target):
    """Answer the host's device queries from `target` (the launch's
    "target", keys defaulting to an H100 SXM's) for device 0."""
    import torch
    from tilelang.carver.arch import driver

    t = dict(H100_SXM, **(target or {}))

    def device0(d):
        if d in (None, 0, "cuda", "cuda:0"):
            return
        raise InputError(f"the launch's target is one device, device 0; the program asks about {d!r}")

    def get_num_sms(device_id=0):
        device0(device_id)
        return int(t["num_sms"])

    def get_device_capability(device=None):
        device0(device)
        return tuple(int(x) for x in t["capability"])

    saved = (driver.get_num_sms, torch.cuda.get_device_capability)
    driver.get_num_sms = get_num_sms
    torch.cuda.get_device_capability = get_device_capability
    try:
        yield
    finally:
        driver.get_num_sms, torch.cuda.get_device_capability = saved


def import_program(path):
    spec = importlib.util.spec_from_file_location("ksem_tilelang_program", path)
    if spec is None or spec.loader is None:
        raise InputError(f"{path}: cannot import")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def find_kernel(mod, name, factory_args):
    """The PrimFunc to compile: the one named (a prim_func, or a factory called
    with factory_args), else the module's only PrimFunc."""
    from tilelang import tvm
    PrimFunc = getattr(tvm, "tirx", None) and tvm.tirx.PrimFunc or tvm.tir.PrimFunc

    def unwrap(obj):
        # @tilelang.jit wraps the factory; its original function is kept
        for attr in ("func", "__wrapped__", "_func"):
            inner = getattr(obj, attr, None)
            if callable(inner):
                return inner
        return obj

    if name is not None:
        obj = getattr(mod, name, None)
        if obj is None:
            raise InputError(f"no kernel named {name}")
        if isinstance(obj, PrimFunc):
            return obj
        f = unwrap(obj)
        out = f(**factory_args)
        if not isinstance(out, PrimFunc):
            raise InputError(f"{name}(**factory_args) returned {type(out).__name__}, not a prim_func")
        return out
    funcs = [v for v in vars(mod).values() if isinstance(v, PrimFunc)]
    if len(funcs) != 1:
        raise InputError(f"the file has {len(funcs)} prim_funcs: give --kernel NAME")
    return funcs[0]


def run_launch(program, launch, kernel_name=None):
    import torch
    import tilelang

    name = kernel_name or launch.get("kernel")
    with stated_target(launch.get("target")):
        mod = import_program(program)
        func = find_kernel(mod, name, launch.get("factory_args") or {})
    # a buffer parameter is a handle (A_handle) bound to the buffer A
    handles = list(func.params)
    params = [func.buffer_map[h].name if h in func.buffer_map else h.name for h in handles]
    args_spec = launch.get("args", {})
    for k in args_spec:
        if k not in params:
            raise InputError(f"kernel has no parameter {k} (parameters: {', '.join(params)})")
    values, buffers = [], []
    for p in params:
        if p not in args_spec:
            raise InputError(f"the launch gives no argument {p}")
        body = args_spec[p]
        if not isinstance(body, dict) or len(body) != 1:
            raise InputError(f"{p}: an argument is {{\"buffer\": …}} or {{\"scalar\": …}}")
        ((kind, spec),) = body.items()
        if kind == "buffer":
            spec = dict(spec)
            spec.pop("shape", None)
            dtype, bits = tr.buffer_bits(p, spec)
            t = tr.make_tensor(torch, dtype, bits, "cpu")
            buf = func.buffer_map[handles[params.index(p)]]
            shape = [int(s) for s in buf.shape]
            n = 1
            for s in shape:
                n *= s
            if n != len(bits):
                raise InputError(f"{p}: shape {shape} holds {n} elements, the launch gives {len(bits)}")
            t = t.reshape(shape)
            values.append(t)
            buffers.append((p, dtype, t))
        elif kind == "scalar":
            dtype, v = tr.scalar_value(p, spec)
            values.append(v)
        else:
            raise InputError(f"{p}: unknown argument kind {kind}")
    kernel = tilelang.compile(func, target="c", pass_configs=PASS_CONFIGS)
    kernel(*values)
    out = {"kernel": name or "main", "backend": "tilelang", "buffers": {}, "ub": []}
    for p, dtype, t in buffers:
        bits = tr.read_tensor(torch, t.reshape(-1), dtype)
        out["buffers"][p] = {"dtype": dtype, "len": len(bits),
                             "bits": [tr.hexbits(b, dtype) for b in bits], "exact": True}
    return out


def quiet_run(program, launch, kernel=None):
    """run_launch with TileLang's own prints sent to stderr; (result, error)."""
    try:
        with contextlib.redirect_stdout(sys.stderr):
            return run_launch(program, launch, kernel), None
    except InputError as e:
        return None, str(e)
    except Exception as e:  # noqa: BLE001 - TileLang/TVM refusals have many types
        lines = [l for l in str(e).strip().splitlines() if l.strip()]
        return None, f"tilelang refused the program: {lines[-1] if lines else type(e).__name__}"


def batch(path):
    """Runs every line of `path` ({"program": FILE, "launch": {...}}) in this
    process and prints one line per case: a result JSON or {"error": …}."""
    with open(path) as fh:
        cases = [json.loads(l) for l in fh if l.strip()]
    for c in cases:
        result, err = quiet_run(c["program"], c["launch"])
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
    result, err = quiet_run(a.program, launch, a.kernel)
    if err is not None:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
