#!/usr/bin/env python3
"""Measures how many Hidet script kernels of a directory of files ksem runs.

    python3 tools/hidet_coverage.py DIR [--ksem target/release/ksem] [--json OUT]

For every ``@hidet.script`` function of every ``*.py`` file under DIR whose
body sets ``attrs.func_kind`` to ``cuda_kernel``, ``cpu_kernel`` or
``public`` (or sets ``attrs.cuda.grid_dim``), a launch spec is made from the
parameter annotations (tensors ``f32[M, N]`` get that many seeded random
elements when the sizes are integer literals or module constants, pointers
``~f32`` 4096, scalars the value 16) and ``ksem run --launch L --kernel NAME``
runs it on the interpreter. Each kernel is reported as ``ran`` (exit 0),
``ub`` (exit 1: ksem found undefined behaviour), ``refused`` (exit 2, with
the first line of the message), or ``timeout``.

The files stay where they are (they are other projects' code; this tool only
reads them). The launch is a guess: a kernel refused because of it (a size
that depends on a runtime argument, say) is reported as refused all the same.
"""

import argparse
import ast
import json
import os
import subprocess
import sys
import tempfile

KINDS = ("cuda_kernel", "cpu_kernel", "public")
DTYPES = {
    "f16": "float16", "float16": "float16", "bf16": "bfloat16", "bfloat16": "bfloat16",
    "f32": "float32", "float32": "float32", "f64": "float64", "float64": "float64",
    "i8": "int8", "int8": "int8", "i16": "int16", "int16": "int16", "i32": "int32",
    "int32": "int32", "i64": "int64", "int64": "int64", "u8": "uint8", "uint8": "uint8",
    "u16": "uint16", "uint16": "uint16", "u32": "uint32", "uint32": "uint32",
    "u64": "uint64", "uint64": "uint64", "boolean": "bool", "bool": "bool",
    "int": "int32", "float": "float32",
}


def module_consts(tree):
    """Integer constants assigned at module level (N = 16, a, b = 2, 3)."""
    consts = {}

    def value(e):
        try:
            return int(eval(compile(ast.Expression(e), "<c>", "eval"), {}, dict(consts)))
        except Exception:  # noqa: BLE001
            return None

    for s in tree.body:
        if isinstance(s, ast.Assign) and len(s.targets) == 1:
            t = s.targets[0]
            if isinstance(t, ast.Name):
                v = value(s.value)
                if v is not None:
                    consts[t.id] = v
            elif isinstance(t, ast.Tuple) and isinstance(s.value, ast.Tuple):
                for n, e in zip(t.elts, s.value.elts):
                    if isinstance(n, ast.Name):
                        v = value(e)
                        if v is not None:
                            consts[n.id] = v
    return consts


def is_script(f):
    for d in f.decorator_list:
        txt = ast.unparse(d)
        if txt in ("hidet.script", "script") or txt.endswith(".script"):
            return True
    return False


def kind_of(f):
    for s in f.body:
        if isinstance(s, ast.Assign) and len(s.targets) == 1:
            t = ast.unparse(s.targets[0])
            if t.endswith("func_kind") and isinstance(s.value, ast.Constant):
                return s.value.value
            if t.endswith("cuda.grid_dim"):
                return "cuda_kernel"
    return None


def launch_for(f, consts):
    args = {}
    for a in f.args.args:
        ann = a.annotation
        if ann is None:
            return None
        if isinstance(ann, ast.UnaryOp) and isinstance(ann.op, ast.Invert):
            d = DTYPES.get(ast.unparse(ann.operand).split(".")[-1])
            if d is None:
                return None
            args[a.arg] = {"buffer": {"dtype": d, "len": 4096, "init": {"random": {"seed": 1}}}}
        elif isinstance(ann, ast.Subscript):
            d = DTYPES.get(ast.unparse(ann.value).split(".")[-1])
            dims = ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]
            n = 1
            for e in dims:
                try:
                    n *= int(eval(compile(ast.Expression(e), "<d>", "eval"), {}, dict(consts)))
                except Exception:  # noqa: BLE001
                    return None
            if d is None or n > 1 << 22:
                return None
            args[a.arg] = {"buffer": {"dtype": d, "len": n, "init": {"random": {"seed": 1}}}}
        else:
            d = DTYPES.get(ast.unparse(ann).split(".")[-1])
            if d is None:
                return None
            args[a.arg] = {"scalar": {"dtype": d, "value": 16}}
    return args


def kernels(path):
    with open(path) as fh:
        src = fh.read()
    try:
        tree = ast.parse(src)
    except SyntaxError:
        return []
    consts = module_consts(tree)
    seen = {}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and is_script(node):
            name = node.name if node.name not in seen else f"{node.name}@{node.lineno}"
            seen[node.name] = True
            if kind_of(node) in KINDS:
                out.append((name, node, consts))
    # ast.walk is breadth-first; ksem numbers duplicates in source order
    out.sort(key=lambda k: k[1].lineno)
    renamed, seen = [], set()
    for name, node, consts in out:
        base = node.name
        renamed.append((base if base not in seen else f"{base}@{node.lineno}", node, consts))
        seen.add(base)
    return renamed


def run_one(o, path, launch):
    """(outcome, first error line) of `ksem run` on one launch."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as lf:
        json.dump(launch, lf)
    try:
        p = subprocess.run([o.ksem, "run", path, "--launch", lf.name], capture_output=True,
                           text=True, timeout=o.timeout)
        outcome = {0: "ran", 1: "ub", 2: "refused"}.get(p.returncode, f"exit {p.returncode}")
        why = next((ln for ln in p.stderr.splitlines() if "error" in ln), "")
    except subprocess.TimeoutExpired:
        outcome, why = "timeout", ""
    os.unlink(lf.name)
    return outcome, why


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--ksem", default="target/release/ksem")
    ap.add_argument("--json")
    ap.add_argument("--timeout", type=float, default=60)
    o = ap.parse_args()
    rows = []
    for root, _, files in os.walk(o.dir):
        for fn in sorted(files):
            if not fn.endswith(".py"):
                continue
            path = os.path.join(root, fn)
            for name, node, consts in kernels(path):
                args = launch_for(node, consts)
                if args is None:
                    rows.append({"file": fn, "kernel": name, "outcome": "refused",
                                 "why": "(no launch: a parameter without a static size)"})
                    continue
                outcome, why = run_one(o, path, {"kernel": name, "args": args})
                if "expects both attrs.cuda.grid_dim" in why:
                    # a kernel whose launch its builder gives: one block of 32 threads
                    outcome, why = run_one(o, path, {"kernel": name, "grid": [1], "block": [32], "args": args})
                rows.append({"file": fn, "kernel": name, "outcome": outcome, "why": why[:200]})
    counts = {}
    for r in rows:
        counts[r["outcome"]] = counts.get(r["outcome"], 0) + 1
        print(f'{r["outcome"]:8} {r["file"]}:{r["kernel"]}  {r["why"]}')
    print(json.dumps(counts))
    if o.json:
        with open(o.json, "w") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    sys.exit(main())
