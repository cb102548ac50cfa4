#!/usr/bin/env python3
"""Measures how many of TileLang's own example kernels ksem runs.

    python3 tools/tilelang_coverage.py EXAMPLES OUT [--ksem target/release/ksem]
                                                    [--json RESULT] [--timeout 60]
                                                    [--only SUBSTRING]

EXAMPLES is a checkout of ``tile-ai/tilelang``'s ``examples/`` directory (it
stays outside this repository: the project holds only code written here).
Every ``*.py`` file under it whose path does not contain ``test``,
``regression``, ``benchmark``, ``triton`` or ``amd`` is scanned for kernel
definitions, classified as ksem's front end classifies them: a module-level
``@T.prim_func``, a kernel factory (a function whose body defines a
``@T.prim_func``) or an eager kernel (``@tilelang.jit`` with a ``with
T.Kernel`` in its own body).

For each kernel a launch is written to ``OUT/<case>.json`` and ``ksem run
FILE --launch OUT/<case>.json`` runs it on the interpreter under a time
limit. The launch is made here, not by hand per file:

- the factory's parameters (``factory_args``) and an eager kernel's
  ``T.const`` sizes get CPU-sized values: ``SIZES`` below by parameter name
  (``M``, ``seq_len``, ``block_M`` …), else the parameter's own default,
  else 64; ``OVERRIDES`` fixes what a kernel needs beyond that (list-valued
  or mutually constrained parameters);
- the kernel's tensor parameters get their shapes and dtypes by evaluating
  the factory's host prologue (the statements before the ``@T.prim_func``,
  or before an eager kernel's ``with T.Kernel``) in Python with a stand-in
  for ``tilelang.language`` and for every other import, and then each
  parameter's ``T.Tensor(shape, dtype)`` annotation;
- float tensors get seeded random values in [-1, 1), integer tensors values
  in [0, 2) unless ``OVERRIDES`` says otherwise, scalars (``n: T.int32``)
  the value 64.

Each kernel is reported as ``ran`` (exit 0), ``ub`` (exit 1: the first
report), ``refused`` (exit 2, with the first line of ksem's message),
``timeout``, ``crash`` (any other status, or a panic), or ``nolaunch`` (this
tool could not evaluate the kernel's parameter shapes: sizes from a
hardware query, list-valued arguments, …). It prints one line per kernel,
the counts, and the refusals grouped by message. Standard library only.
"""

import argparse
import ast
import json
import math
import os
import re
import subprocess
import sys
import time
import types

LEFT_OUT = ("test", "regression", "benchmark", "triton", "amd")

# CPU-sized values by parameter name (exact, case-sensitive first, then
# lower-case).
SIZES = {
    "M": 64, "N": 64, "K": 64, "m": 64, "n": 64, "k": 64,
    "block_M": 32, "block_N": 32, "block_K": 32, "block_m": 32, "block_n": 32,
    "block_k": 32, "BLOCK_M": 32, "BLOCK_N": 32, "BLOCK_K": 32,
    "batch": 1, "batch_size": 1, "B": 1, "bs": 1, "BATCH": 1,
    "heads": 2, "H": 2, "num_heads": 2, "nheads": 2, "head": 2, "h_q": 2,
    "head_kv": 1, "heads_kv": 1, "kv_heads": 1, "num_kv_heads": 1, "kv_head_num": 1,
    "kv_group_num": 2, "groups": 2, "group_size": 2, "G": 1, "h_kv": 1,
    "seq_len": 64, "seqlen": 64, "seqlen_q": 64, "seqlen_kv": 64, "seq_q": 64,
    "seq_kv": 64, "S": 64, "L": 64, "T": 64, "seq_len_kv": 64, "max_seqlen_q": 64,
    "max_seqlen_k": 64, "max_seqlen_kv": 64, "max_cache_seqlen": 64, "seqlen_k": 64,
    "dim": 64, "D": 64, "head_dim": 64, "dim_v": 64, "DK": 64, "DV": 64, "d": 64,
    "dim_qk": 64, "dv": 64, "dk": 64, "pe_dim": 16, "dpe": 16,
    "threads": 128, "num_threads": 128, "num_stages": 2, "num_split": 1,
    "split_k": 2, "splitK": 2, "chunk_size": 32, "block_size": 32, "BLOCK_SIZE": 32,
    "block_H": 2, "block_h": 2, "block_S": 32, "page_block_size": 32,
    "num_split_q": 1, "topk": 64, "topK": 64, "num_blocks": 2, "selected_blocks": 2,
}

# Per-kernel values ("FILE:KERNEL" relative to EXAMPLES) that SIZES gets
# wrong: "factory"/"consts" entries replace SIZES' values, "ints" gives the
# value range [low, high) of an integer tensor by parameter name.
CONV = {"factory": {"S": 1, "D": 1, "P": 1},
        "consts": {"N": 1, "C": 16, "H": 8, "W": 8, "F": 16, "K": 3}}
MAMBA = {"consts": {"batch": 1, "seqlen": 64, "chunk_size": 64, "ngroups": 1,
                    "nheads": 2, "headdim": 64, "dstate": 64}}
AWS_FA = {"factory": {"dim": 128, "block_M": 128, "block_N": 128, "store_block_N": 64},
          "consts": {"seq_len": 128}}
AWS_GEMM = {"factory": {"store_block_N": 32}, "consts": {"N": 512}}
OVERRIDES = {
    "analyze/example_conv_analyze.py:kernel": CONV,
    "convolution/example_convolution.py:convolution": CONV,
    "convolution/example_convolution_autotune.py:convolution": CONV,
    "deepseek_deepgemm/example_deepgemm_fp8_2xAcc.py:tl_gemm": {
        "factory": {"in_dtype": "float8_e4m3fn", "out_dtype": "bfloat16",
                    "accum_dtype": "float32"}},
    "dequantize_gemm/example_dequant_gemm_w4a8.py:_convert_test": {
        "factory": {"in_dtype": "int8"}},
    "dequantize_gemm/example_dequant_gemm_w4a8.py:matmul_int8xint4": {
        "factory": {"in_dtype": "int8"}},
    "deepseek_mhc/example_mhc_post.py:mhc_post_tilelang": {
        "factory": {"hc": 4, "hidden": 64}, "consts": {"num_tokens": 8}},
    "deepseek_mhc/example_mhc_pre.py:mhc_pre_big_fuse_tilelang": {
        "factory": {"hc": 4, "hidden_size": 64}, "consts": {"num_tokens": 8}},
    "linear_attention/example_mamba_chunk_state.py:chunk_state_fwd": MAMBA,
    "linear_attention/example_mamba_chunk_scan.py:chunk_scan_fwd": MAMBA,
    "deepseek_mhc/example_mhc_bwd.py:sinkhorn_bwd_implicit_cg": {
        "consts": {"seqlen": 8, "n_stream": 4}},
    # the defaults are GPU-sized: one row of 8192 per block, a 64-block
    # grid of 128 x 64 x 64 GEMMs, 64 query rows of 64 heads each
    "online_softmax/online_softmax.py:softmax_kernel": {"factory": {"BLOCK_N": 64}},
    "deepseek_v32/inference/kernel.py:fp8_index_kernel": {
        "factory": {"h": 16, "d": 32}, "consts": {"b": 1, "m": 2, "n": 512}},
    # their asserts: an even number of index blocks, no pipeline stages
    "deepseek_v32/sparse_mla_fwd_pipelined.py:sparse_mla_fwd": {"factory": {"topk": 128}},
    "deepseek_v32/sparse_mla_fwd_seesaw.py:sparse_mla_fwd": {
        "factory": {"topk": 128, "heads": 64, "tail_dim": 64}},
    "dsa_sparse_finetune/indexer_bwd.py:tl_indexer_bwd_impl": {
        "factory": {"num_stages": 0, "heads": 8}},
    "deepseek_v4/sparse_attn_fwd_sm90.py:sparse_attn_fwd": {
        "factory": {"heads": 64, "seq_len": 2, "dim": 32}},
    # its 128-token key blocks must fit the 64-token key sequence
    "dsa_hisa/block_sparse_mqa_fp8.py:fp8_native_block_sparse_mqa_attn_return_logits": {
        "factory": {"kv_block_size": 32, "topk": 4}},
    # sizes their own asserts accept (they then reach Blackwell's tensor
    # memory, which is what the survey should see)
    "aws/flash_attention.py:flash_attention": AWS_FA,
    "aws/flash_attention.py:flash_attention_ws": AWS_FA,
    "aws/gemm.py:gemm": AWS_GEMM,
    "aws/gemm.py:gemm_ws": AWS_GEMM,
    "gemm_tcgen05/gemm_tcgen5mma_ws_persistent.py:gemm_persistent": {"consts": {"N": 128}},
    # CPU sizes: the defaults are 65 blocks of 128-row GEMMs (no result in 60 s)
    "fusedmoe/example_fusedmoe_tilelang.py:moe_forward_tilelang_routed": {
        "factory": {"group_sum": 8, "group_count": 4, "block_token": 16,
                    "block_dhidden": 16, "block_dexpert": 16},
        "consts": {"dhidden": 16, "dexpert": 16, "n_routed_experts": 4}},
    # @autotune parameters left None: one of the example's own configs
    "gemv/example_gemv.py:get_autotuned_kernel": {"factory": {"BLOCK_N": 2, "reduce_threads": 8}},
    "analyze/example_gemm_analyze.py:kernel": {
        "factory": {"block_M": 64, "block_N": 64, "block_K": 32, "num_stages": 2,
                    "thread_num": 128, "enable_rasteration": False}},
    # one key head per query group: the tool's 64 key heads over 2 query
    # heads make `heads // k_heads` zero, a ZeroDivisionError in the example
    "flash_decoding/example_gqa_decode_varlen_logits.py:flashattn": {"factory": {"k_heads": 1}},
    # get_bwd_configs() picks block_M = 128 for the default 9.0 target: a
    # sequence of 128 tokens, which the examples assume a multiple of it
    "attention_sink/example_gqa_sink_bwd_bhsd.py:flashattn_bwd": {"factory": {"seq_len": 128}},
    "attention_sink/example_gqa_sink_bwd_varlen.py:flashattn_bwd": {
        "factory": {"UQ": 128, "UKV": 128, "N_CTX": 128, "max_seq_len": 128}},
    # the example's own configuration (32 x 32 threads)
    "gemv/example_gemv.py:splitk_gemv": {"factory": {"reduce_threads": 32}},
    "gemv/example_gemv.py:splitk_gemv_vectorized": {"factory": {"BLOCK_N": 2, "reduce_threads": 8}},  # BLOCK_K = 8 * 8 = K
    "gemv/example_gemv.py:splitk_gemv_vectorized_tvm": {"factory": {"BLOCK_N": 2, "reduce_threads": 32}},
}

DTYPE_NAMES = {
    "float16": "float16", "half": "float16", "fp16": "float16",
    "bfloat16": "bfloat16", "bf16": "bfloat16",
    "float32": "float32", "float": "float32", "fp32": "float32",
    "float64": "float64", "double": "float64",
    "float8_e4m3": "float8e4nv", "float8_e4m3fn": "float8e4nv", "float8e4nv": "float8e4nv",
    "float8_e5m2": "float8e5", "float8e5": "float8e5",
    "int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64",
    "uint8": "uint8", "uint16": "uint16", "uint32": "uint32", "uint64": "uint64",
    "bool": "bool", "int4": "int4", "uint4": "uint4",
}
FLOATS = {"float16", "bfloat16", "float32", "float64", "float8e4nv", "float8e5"}


class Stub:
    """Stands in for any module or value the prologue touches: attributes and
    calls give stubs, a call on one function (a decorator) gives it back."""

    def __init__(self, name="stub"):
        self._name = name

    def __getattr__(self, a):
        if a.startswith("__"):
            raise AttributeError(a)
        return Stub(f"{self._name}.{a}")

    def __call__(self, *a, **kw):
        if len(a) == 1 and not kw and callable(a[0]) and not isinstance(a[0], Stub):
            return a[0]
        return Stub(self._name + "()")

    def __getitem__(self, k):
        return Stub(self._name + "[]")

    def __iter__(self):
        raise TypeError("a stub is not iterable")


class TensorSpec:
    def __init__(self, shape, dtype="float32"):
        if isinstance(shape, (int, Sym)):
            shape = (shape,)
        self.shape = tuple(shape)
        self.dtype = dtype


class Sym(int):
    """A `T.dynamic`/`T.symbolic` size: its value comes from SIZES (an int,
    so host arithmetic on it, `seq_len * heads`, works)."""

    def __new__(cls, name, value):
        s = super().__new__(cls, value)
        s.name = name
        return s


class Lang(Stub):
    """The stand-in for `tilelang.language`."""

    def __init__(self, consts):
        super().__init__("T")
        self._consts = consts

    def __getattr__(self, a):
        if a in DTYPE_NAMES:
            return a
        if a in ("Tensor", "Buffer", "StridedTensor", "FragmentBuffer", "SharedBuffer"):
            return TensorMaker()
        if a in ("ceildiv", "cdiv"):
            return lambda x, y: -(-int(x) // int(y))
        if a in ("dynamic", "symbolic", "Var"):
            # `T.dynamic("batch, seq_len")` names several sizes at once
            def dynamic(names, *r, **kw):
                syms = [Sym(n, self._consts.setdefault(n, size_of(n, None)))
                        for n in names.replace(",", " ").split()]
                return syms[0] if len(syms) == 1 else tuple(syms)
            return dynamic
        if a == "const":
            def const(names, *r, **kw):
                vals = [self._consts.setdefault(n.strip(), size_of(n.strip(), None))
                        for n in names.replace(",", " ").split()]
                return vals[0] if len(vals) == 1 else tuple(vals)
            return const
        if a in ("min", "max"):
            return min if a == "min" else max
        if a in ("int32", "int64") or a.startswith("float"):
            return a
        return super().__getattr__(a)


class TensorMaker:
    def __call__(self, shape, dtype="float32", *a, **kw):
        return TensorSpec(shape, dtype)

    def __getitem__(self, k):
        shape, dtype = (k[0], k[1]) if isinstance(k, tuple) and len(k) == 2 else (k, "float32")
        return TensorSpec(shape, dtype)


def size_of(name, default):
    if name in SIZES:
        return SIZES[name]
    if name.lower() in SIZES:
        return SIZES[name.lower()]
    if isinstance(default, bool):
        return default
    if isinstance(default, int):
        return default if default <= 256 else 64
    return 64 if default is None else default


def dtype_name(d):
    if isinstance(d, str):
        return DTYPE_NAMES.get(d.replace("torch.", ""), None)
    return None


def lang_aliases(tree):
    """The names `tilelang.language` and `tilelang` are imported as."""
    lang, pkg = {"T"}, {"tilelang"}
    for s in tree.body:
        if isinstance(s, ast.Import):
            for a in s.names:
                if a.name == "tilelang.language":
                    lang.add(a.asname or "tilelang.language")
                elif a.name == "tilelang":
                    pkg.add(a.asname or "tilelang")
        elif isinstance(s, ast.ImportFrom) and s.module == "tilelang":
            for a in s.names:
                if a.name == "language":
                    lang.add(a.asname or "language")
    return lang, pkg


def dotted(e):
    if isinstance(e, ast.Name):
        return e.id
    if isinstance(e, ast.Attribute):
        base = dotted(e.value)
        return base and f"{base}.{e.attr}"
    return None


def is_prim(d, lang, pkg):
    t = dotted(d.func if isinstance(d, ast.Call) else d) or ""
    return any(t == f"{x}.prim_func" for x in lang | pkg)


def kernel_with(body, lang):
    for s in body:
        if isinstance(s, ast.With):
            for i in s.items:
                c = i.context_expr
                if isinstance(c, ast.Call) and (dotted(c.func) or "") in {f"{x}.Kernel" for x in lang}:
                    return s
    return None


def kernels(tree):
    """(name, kind, FunctionDef) of each kernel definition, as ksem sees them."""
    lang, pkg = lang_aliases(tree)
    out = []
    for s in tree.body:
        if not isinstance(s, ast.FunctionDef):
            continue
        if any(is_prim(d, lang, pkg) for d in s.decorator_list):
            out.append((s.name, "prim_func", s))
        elif any(isinstance(b, ast.FunctionDef) and any(is_prim(d, lang, pkg) for d in b.decorator_list)
                 for b in s.body):
            out.append((s.name, "factory", s))
        elif kernel_with(s.body, lang) and any(
                (dotted(d.func if isinstance(d, ast.Call) else d) or "").split(".")[-1] == "jit"
                for d in s.decorator_list):
            out.append((s.name, "eager", s))
    return out


def namespace(tree, consts):
    """Module-level names for the prologue: stubs for imports, the module's
    constants and functions where Python can evaluate them."""
    lang, pkg = lang_aliases(tree)
    t = Lang(consts)
    ns = {"__builtins__": __builtins__, "math": math}
    for s in tree.body:
        if isinstance(s, (ast.Import, ast.ImportFrom)):
            for a in s.names:
                name = a.asname or a.name.split(".")[0]
                if a.name == "math" and not a.asname:
                    continue
                ns[name] = Stub(name)
    for x in lang:
        if "." in x:
            continue
        ns[x] = t
    for x in pkg:
        pk = Stub(x)
        ns[x] = pk
    pk = ns.get("tilelang")
    if isinstance(pk, Stub):
        object.__setattr__(pk, "language", t)
        object.__setattr__(pk, "cdiv", lambda a, b: -(-int(a) // int(b)))
        npow2 = lambda n: 1 << max(int(n) - 1, 0).bit_length()  # noqa: E731
        object.__setattr__(pk, "next_power_of_2", npow2)
        object.__setattr__(pk, "math", types.SimpleNamespace(next_power_of_2=npow2))
    for s in tree.body:
        if isinstance(s, (ast.Assign, ast.FunctionDef, ast.AnnAssign, ast.ClassDef)):
            try:
                exec(compile(ast.Module([s], []), "<module>", "exec"), ns)
            except Exception:  # noqa: BLE001
                pass
    return ns, t


FLAG_PREFIXES = ("use_", "is_", "store_", "save_", "has_", "enable_", "with_")


def param_values(f, over, ns):
    """The factory arguments to pass, and the environment of every parameter
    (kept defaults evaluated) for the prologue."""
    vals, env = {}, {}
    a = f.args
    params = a.posonlyargs + a.args + a.kwonlyargs
    defaults = [None] * (len(a.posonlyargs + a.args) - len(a.defaults)) + list(a.defaults) + list(a.kw_defaults)
    for p, d in zip(params, defaults):
        if p.arg in over:
            vals[p.arg] = env[p.arg] = over[p.arg]
            continue
        if d is None and "dtype" in p.arg.lower():
            low = p.arg.lower()
            dt = "float32" if any(w in low for w in ("accum", "state", "gate", "acc")) else "float16"
            vals[p.arg] = env[p.arg] = dt
            continue
        if d is None and p.arg.lower().startswith(FLAG_PREFIXES):
            vals[p.arg] = env[p.arg] = False
            continue
        dv = None
        if d is not None:
            try:
                dv = ast.literal_eval(d)
            except Exception:  # noqa: BLE001
                dv = "<expr>"
        if isinstance(dv, (str, float)) or dv == "<expr>" or isinstance(dv, bool) or (d is not None and dv is None):
            # keep the kernel's own default (dtype names, flags, None)
            try:
                env[p.arg] = eval(compile(ast.Expression(d), "<default>", "eval"), ns)
            except Exception:  # noqa: BLE001
                pass
            continue
        vals[p.arg] = env[p.arg] = size_of(p.arg, dv)
    return vals, env


def run_prologue(stmts, env):
    for s in stmts:
        if isinstance(s, ast.AnnAssign) and s.value is None:
            continue
        try:
            exec(compile(ast.Module([s], []), "<prologue>", "exec"), env)
        except Exception:  # noqa: BLE001
            pass


def arg_spec(name, ann, env, ints, seed):
    v = eval(compile(ast.Expression(ann), "<ann>", "eval"), env)
    if isinstance(v, TensorSpec):
        dt = dtype_name(v.dtype)
        if dt is None:
            raise ValueError(f"dtype {v.dtype!r} of `{name}`")
        shape = [int(x) for x in v.shape]
        n = 1
        for x in shape:
            n *= x
        init = {"seed": seed}
        if dt not in FLOATS:
            lo, hi = ints.get(name, (0, 2))
            init.update(low=lo, high=hi)
        buf = {"dtype": dt, "len": n, "init": {"random": init}}
        if len(shape) > 1:
            buf["shape"] = shape
        return {"buffer": buf}
    dt = dtype_name(v) if isinstance(v, str) else None
    if dt is not None:
        val = ints.get(name, 64)
        return {"scalar": {"dtype": dt, "value": val if dt not in FLOATS else float(val)}}
    raise ValueError(f"annotation of `{name}` is not a tensor or scalar")


def launch_for(tree, name, kind, f, over):
    consts = dict(over.get("consts", {}))
    ns, _ = namespace(tree, consts)
    ints = over.get("ints", {})
    fargs, penv = param_values(f, over.get("factory", {}), ns) if kind != "prim_func" else ({}, {})
    env = dict(ns)
    env.update(penv)
    args = {}
    if kind == "prim_func":
        target = f
    elif kind == "factory":
        idx = next(i for i, b in enumerate(f.body)
                   if isinstance(b, ast.FunctionDef) and any(is_prim(d, *lang_aliases(tree)) for d in b.decorator_list))
        run_prologue(f.body[:idx], env)
        target = f.body[idx]
    else:
        lang, _ = lang_aliases(tree)
        w = kernel_with(f.body, lang)
        pro = f.body[:f.body.index(w)]
        run_prologue(pro, env)
        tensor_params = set()
        for s in pro:
            if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name) and s.target.id in fargs:
                tensor_params.add(s.target.id)
                args[s.target.id] = arg_spec(s.target.id, s.annotation, env, ints, 1 + len(args))
        for p in tensor_params:
            fargs.pop(p, None)
        # parameters that are tensors without an annotation keep a size: drop them
        fargs = {k: v for k, v in fargs.items() if k not in args}
        launch = {"kernel": name, "args": args, "factory_args": fargs}
        return launch
    a = target.args
    for p in a.posonlyargs + a.args + a.kwonlyargs:
        if p.annotation is None:
            raise ValueError(f"parameter `{p.arg}` has no annotation")
        args[p.arg] = arg_spec(p.arg, p.annotation, env, ints, 1 + len(args))
    launch = {"kernel": name, "args": args}
    if kind == "factory":
        launch["factory_args"] = fargs
    return launch


POS = re.compile(r"^\S+?:\d+:\d+:\s*")


def first_error(text):
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for ln in lines:
        if "error" in ln:
            return ln
    return lines[0] if lines else ""


def run_one(o, py, launch_path):
    cmd = [o.ksem, "run", py, "--launch", launch_path]
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=o.timeout, errors="replace")
    except subprocess.TimeoutExpired:
        return {"outcome": "timeout", "why": f"no result within {o.timeout:g} s"}
    secs = round(time.monotonic() - t0, 2)
    panic = next((ln.strip() for ln in p.stderr.splitlines() if "panicked" in ln), None)
    if panic is not None:
        return {"outcome": "crash", "why": panic, "seconds": secs}
    if p.returncode == 0:
        return {"outcome": "ran", "why": "", "seconds": secs}
    if p.returncode == 1:
        return {"outcome": "ub", "why": first_error(p.stderr + "\n" + p.stdout), "seconds": secs}
    if p.returncode == 2:
        return {"outcome": "refused", "why": first_error(p.stderr or p.stdout), "seconds": secs}
    return {"outcome": "crash", "why": first_error(p.stderr) or f"exit {p.returncode}", "seconds": secs}


def files(root):
    for d, _, fs in os.walk(root):
        for fn in sorted(fs):
            path = os.path.join(d, fn)
            rel = os.path.relpath(path, root)
            if fn.endswith(".py") and not any(w in rel.lower() for w in LEFT_OUT):
                yield rel


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("examples")
    ap.add_argument("out")
    ap.add_argument("--ksem", default="target/release/ksem")
    ap.add_argument("--json")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--only", default="")
    o = ap.parse_args()
    os.makedirs(o.out, exist_ok=True)
    rows = []
    for rel in sorted(files(o.examples)):
        path = os.path.join(o.examples, rel)
        try:
            tree = ast.parse(open(path, encoding="utf-8").read())
        except SyntaxError:
            continue
        for name, kind, f in kernels(tree):
            case = f"{rel}:{name}"
            if o.only not in case:
                continue
            r = {"case": case, "kind": kind}
            try:
                launch = launch_for(tree, name, kind, f, OVERRIDES.get(case, {}))
            except Exception as e:  # noqa: BLE001
                r.update(outcome="nolaunch", why=str(e)[:200])
            else:
                lp = os.path.join(o.out, re.sub(r"[^A-Za-z0-9_.-]", "_", case) + ".json")
                with open(lp, "w") as fh:
                    json.dump(launch, fh, indent=1)
                r.update(run_one(o, path, lp))
            rows.append(r)
            print(f'{r["outcome"]:8} {case:70} {r["why"][:150]}', flush=True)
    counts = {}
    for r in rows:
        counts[r["outcome"]] = counts.get(r["outcome"], 0) + 1
    reasons = {}
    for r in rows:
        if r["outcome"] == "refused":
            reasons.setdefault(POS.sub("", r["why"]), []).append(r["case"])
    print(f"\n{len(rows)} kernels: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    if reasons:
        print("\nrefusals by reason:")
        for why, cases in sorted(reasons.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            print(f"  {len(cases):3}  {why[:150]}")
            print(f"       {', '.join(cases)}")
    if o.json:
        with open(o.json, "w") as fh:
            json.dump({"counts": counts, "rows": rows, "refusals": reasons}, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
