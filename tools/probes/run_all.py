#!/usr/bin/env python3
"""Run every probe in tools/probes on the GPU with real Triton, in one process.

    python3 tools/probes/run_all.py OUTDIR [--only NAME ...] [--skip-math] [--skip-order]

Writes OUTDIR/probes.json (everything measured), OUTDIR/probes.log (the same,
readable) and OUTDIR/asm.tar.gz (TTIR, TTGIR and PTX of every probe).

Parts:
  1. every NAME.py + NAME.json pair here, launched through tools/triton_run.py's
     run_launch; what tl.static_print prints at compile time ("KSEM label value")
     is captured, so each result's dtype is known.  If a result's dtype differs
     from the dtype of the buffer it is stored into, the probe is run again with
     the buffer's dtype changed (so the stored bits are the result's own) and the
     change is recorded under "dtype_fixed".  Compile errors are recorded.
  2. math_accuracy.py: /, div_rn, fdiv, sqrt, sqrt_rn, rsqrt, exp, exp2, log, log2,
     sin, cos, erf, sigmoid, 1/x on random float32 inputs, compared with float64
     references rounded to float32 (bit mismatches and ULP distances).
  3. sum_order.py: float32 tl.sum of random rows compared with simulated orders.

The Triton cache is pointed at a fresh directory so that every kernel is really
compiled (and tl.static_print runs).
"""

import glob
import io
import json
import math
import os
import re
import sys
import tarfile
import tempfile
import time
import traceback

os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="ksem_triton_cache_")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # tools/
import triton_run as tr  # noqa: E402

NON_PROBES = {"run_all.py", "math_accuracy.py", "sum_order.py"}

LOG = []


def log(*a):
    s = " ".join(str(x) for x in a)
    print(s, flush=True)
    LOG.append(s)


# Triton's dtype names (str(tl.dtype)) -> ksem's
TRITON_NAMES = {"int1": "bool", "fp8e4nv": "float8e4nv", "fp8e5": "float8e5", "fp16": "float16",
                "bf16": "bfloat16", "fp32": "float32", "fp64": "float64"}


def triton_dtype_to_ksem(name):
    name = TRITON_NAMES.get(name, name)
    return name if name in tr.DTYPES else None


def parse_prints(text):
    out = {}
    for line in text.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3 and parts[0] == "KSEM":
            out[parts[1]] = parts[2].strip()
    return out


def print_dtype(txt):
    """'fp32[constexpr[8]]' -> 'float32'; 'constexpr[-4]' -> None."""
    if txt.startswith("constexpr"):
        return None
    return triton_dtype_to_ksem(txt.split("[")[0])


def describe(bits, dtype):
    kind = tr.DTYPES[dtype][0]
    w = tr.width(dtype)
    if kind == "bool":
        return bool(bits)
    if kind == "int":
        if tr.DTYPES[dtype][2] and bits >> (w - 1):
            return bits - (1 << w)
        return bits
    v = tr.float_decode(bits, dtype)
    if math.isnan(v):
        return "nan(%s)" % tr.hexbits(bits, dtype)
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if v == 0 and bits >> (w - 1):
        return "-0.0"
    return repr(v)


PTX_OP = re.compile(r"\b((?:div|sqrt|rsqrt|ex2|lg2|sin|cos|fma|cvt|rcp|max|min|rem|shl|shr|tanh|mul|add|sub|neg|abs|selp|setp)"
                    r"\.[a-z0-9.]+)")


def ptx_ops(ptx):
    ops = set()
    for m in PTX_OP.finditer(ptx):
        op = m.group(1)
        if op.startswith(("add.s", "add.u", "mul.wide", "mul.lo.s64", "setp.lt.s32", "setp.ge.s32", "add.s64")):
            continue
        ops.add(op)
    return sorted(ops)


def run_probe(py, launch, asm_store):
    name = os.path.splitext(os.path.basename(py))[0]
    rec = {"file": os.path.relpath(py, os.path.dirname(os.path.dirname(HERE)))}
    buf = io.StringIO()
    try:
        res = tr.run_launch(py, launch, capture_stdout=buf, keep_kernel=True)
    except Exception as e:
        rec["ok"] = False
        rec["error_type"] = type(e).__name__
        msg = str(e)
        rec["error"] = msg[-4000:]
        rec["prints"] = parse_prints(buf.getvalue())
        return rec
    prints = parse_prints(buf.getvalue())
    mism = {}
    for label, txt in prints.items():
        dt = print_dtype(txt)
        arg = label + "_ptr"
        if dt is not None and arg in launch["args"]:
            have = tr.canon_dtype(launch["args"][arg]["buffer"]["dtype"])
            if have != dt:
                mism[arg] = {"was": have, "result_dtype": dt}
    if mism:
        fixed = json.loads(json.dumps(launch))
        for arg, m in mism.items():
            fixed["args"][arg]["buffer"]["dtype"] = m["result_dtype"]
        buf2 = io.StringIO()
        try:
            res = tr.run_launch(py, fixed, capture_stdout=buf2, keep_kernel=True)
            rec["dtype_fixed"] = mism
            launch = fixed
        except Exception as e:
            rec["dtype_fix_failed"] = {"mismatch": mism, "error": str(e)[-2000:]}
    compiled = res.pop("_compiled", None)
    rec["ok"] = True
    rec["prints"] = prints
    if compiled is not None and hasattr(compiled, "asm"):
        for key in ("ttir", "ttgir", "ptx"):
            if key in compiled.asm:
                asm_store[f"{name}.{key}"] = str(compiled.asm[key])
        if "ptx" in compiled.asm:
            rec["ptx_ops"] = ptx_ops(str(compiled.asm["ptx"]))
    rec["buffers"] = {}
    for arg, b in res["buffers"].items():
        bits = [int(x, 16) for x in b["bits"]]
        rec["buffers"][arg] = {"dtype": b["dtype"], "bits": b["bits"],
                               "values": [describe(x, b["dtype"]) for x in bits],
                               "output": arg[:-4] in prints}
    return rec


def log_probe(name, rec, launch):
    log("=" * 78)
    log(f"probe {name}: " + ("ok" if rec["ok"] else f"FAILED ({rec['error_type']})"))
    if not rec["ok"]:
        for line in rec["error"].strip().splitlines()[-12:]:
            log("    | " + line)
        return
    if rec.get("dtype_fixed"):
        log(f"  (out buffer dtypes changed to the printed result dtypes: {rec['dtype_fixed']})")
    if rec.get("dtype_fix_failed"):
        log(f"  (dtype fix FAILED: {rec['dtype_fix_failed']})")
    for arg, b in rec["buffers"].items():
        if not b["output"]:
            log(f"  in  {arg[:-4]:<22} {b['dtype']:<10} {b['values']}")
    for arg, b in rec["buffers"].items():
        if b["output"]:
            label = arg[:-4]
            log(f"  out {label:<22} {rec['prints'].get(label, '?'):<22} {b['values']}")
            log(f"      {'':<22} {'':<22} {b['bits']}")
    if rec.get("ptx_ops"):
        log("  ptx ops: " + " ".join(rec["ptx_ops"]))


# ---------------------------------------------------------------------------
# math accuracy
# ---------------------------------------------------------------------------

def ordered(bits_u32):
    import numpy as np
    b = bits_u32.astype(np.int64)
    return np.where(b & 0x80000000, -(b & 0x7FFFFFFF), b)


def math_accuracy(asm_store, n=1 << 20):
    import numpy as np
    import torch
    mod = tr.import_program(os.path.join(HERE, "math_accuracy.py"))
    k = mod.math_kernel
    g = torch.Generator().manual_seed(20260101)

    def logu(lo, hi):
        e = torch.randint(lo, hi, (n,), generator=g).double()
        m = 1 + torch.rand(n, generator=g, dtype=torch.float64)
        return (m * torch.exp2(e)).float()

    def sgn():
        return torch.where(torch.rand(n, generator=g) < 0.5, -1.0, 1.0).float()

    def uni(lo, hi):
        return (lo + (hi - lo) * torch.rand(n, generator=g, dtype=torch.float64)).float()

    ones = torch.ones(n)
    dx, dy = sgn() * logu(-60, 60), sgn() * logu(-60, 60)
    pos = logu(-140, 127)
    cases = [
        ("div", "div", dx, dy), ("div_rn", "div_rn", dx, dy), ("fdiv", "fdiv", dx, dy),
        ("recip", "recip", sgn() * logu(-120, 120), ones),
        ("sqrt", "sqrt", pos, ones), ("sqrt_rn", "sqrt_rn", pos, ones), ("rsqrt", "rsqrt", pos, ones),
        ("exp", "exp", uni(-87, 88), ones), ("exp_small", "exp", uni(-1, 1), ones),
        ("exp2", "exp2", uni(-126, 127), ones),
        ("log", "log", logu(-126, 127), ones), ("log_near1", "log", uni(0.5, 2), ones),
        ("log2", "log2", logu(-126, 127), ones),
        ("sin", "sin", uni(-100, 100), ones), ("sin_small", "sin", uni(-3.14159, 3.14159), ones),
        ("cos", "cos", uni(-100, 100), ones), ("cos_small", "cos", uni(-3.14159, 3.14159), ones),
        ("erf", "erf", uni(-5, 5), ones), ("sigmoid", "sigmoid", uni(-30, 30), ones),
    ]
    refs = {
        "div": lambda x, y: x / y, "div_rn": lambda x, y: x / y, "fdiv": lambda x, y: x / y,
        "recip": lambda x, y: 1.0 / x, "sqrt": lambda x, y: np.sqrt(x), "sqrt_rn": lambda x, y: np.sqrt(x),
        "rsqrt": lambda x, y: 1.0 / np.sqrt(x), "exp": lambda x, y: np.exp(x), "exp2": lambda x, y: np.exp2(x),
        "log": lambda x, y: np.log(x), "log2": lambda x, y: np.log2(x), "sin": lambda x, y: np.sin(x),
        "cos": lambda x, y: np.cos(x), "erf": lambda x, y: np.vectorize(math.erf)(x),
        "sigmoid": lambda x, y: 1.0 / (1.0 + np.exp(-x)),
    }
    out = {}
    BLOCK = 1024
    for label, fn, x, y in cases:
        xg, yg = x.cuda(), y.cuda()
        o = torch.empty_like(xg)
        try:
            compiled = k[(triton_cdiv(n, BLOCK),)](xg, yg, o, n, FN=fn, BLOCK=BLOCK)
        except Exception as e:
            out[label] = {"error": str(e)[-2000:]}
            log(f"  math {label}: FAILED {str(e)[-300:]}")
            continue
        torch.cuda.synchronize()
        if hasattr(compiled, "asm") and "ptx" in compiled.asm:
            asm_store[f"math_{fn}.ptx"] = str(compiled.asm["ptx"])
            ops = ptx_ops(str(compiled.asm["ptx"]))
        else:
            ops = []
        xs, ys = x.numpy(), y.numpy()
        with np.errstate(all="ignore"):
            ref = refs[fn](xs.astype(np.float64), ys.astype(np.float64)).astype(np.float32)
        got = o.cpu().numpy()
        gb, rb = got.view(np.uint32), ref.view(np.uint32)
        both_nan = np.isnan(got) & np.isnan(ref)
        same = (gb == rb) | both_nan
        ulp = np.abs(ordered(gb) - ordered(rb))
        ulp = np.where(both_nan, 0, ulp)
        finite = np.isfinite(ref)
        worst = int(np.argmax(np.where(finite, ulp, -1)))
        hist = {str(k_): int(np.sum(ulp == k_)) for k_ in range(0, 4)}
        hist[">3"] = int(np.sum(ulp > 3))
        out[label] = {"fn": fn, "n": n, "mismatches": int(np.sum(~same)),
                      "max_ulp": int(np.max(np.where(finite, ulp, 0))), "mean_ulp": float(np.mean(ulp[finite])),
                      "ulp_hist": hist,
                      "worst": {"x": float(xs[worst]), "y": float(ys[worst]), "got": tr.hexbits(int(gb[worst]), "float32"),
                                "ref": tr.hexbits(int(rb[worst]), "float32")},
                      "ptx_ops": ops, "input": describe_range(xs)}
        r = out[label]
        log(f"  math {label:<10} mismatches {r['mismatches']:>7}/{n}  max_ulp {r['max_ulp']:>6}  "
            f"mean_ulp {r['mean_ulp']:.4f}  hist {hist}  ops {' '.join(o_ for o_ in ops if not o_.startswith(('cvt', 'setp', 'selp', 'mul.lo')))}")
    # float64 / and tl.sqrt: exact references (Fraction division, math.sqrt is correctly rounded)
    from fractions import Fraction
    m = 20000
    e1 = torch.randint(-300, 300, (m,), generator=g).double()
    e2 = torch.randint(-300, 300, (m,), generator=g).double()
    xd = torch.where(torch.rand(m, generator=g) < 0.5, -1.0, 1.0).double() * (1 + torch.rand(m, generator=g, dtype=torch.float64)) * torch.exp2(e1)
    yd = (1 + torch.rand(m, generator=g, dtype=torch.float64)) * torch.exp2(e2)
    for label, fn, xx, yy in (("div_f64", "div", xd, yd), ("sqrt_f64", "sqrt", yd, yd)):
        o = torch.empty(m, dtype=torch.float64, device="cuda")
        try:
            compiled = k[(triton_cdiv(m, BLOCK),)](xx.cuda(), yy.cuda(), o, m, FN=fn, BLOCK=BLOCK)
        except Exception as e:
            out[label] = {"error": str(e)[-2000:]}
            log(f"  math {label}: FAILED {str(e)[-300:]}")
            continue
        torch.cuda.synchronize()
        got = o.cpu().tolist()
        xs_, ys_ = xx.tolist(), yy.tolist()
        bad = 0
        for a_, b_, r_ in zip(xs_, ys_, got):
            want = (Fraction(a_) / Fraction(b_)) if fn == "div" else None
            wb = tr.float_encode(want, "float64") if fn == "div" else tr.float_encode(math.sqrt(a_), "float64")
            if wb != tr.float_encode(r_, "float64"):
                bad += 1
        ops = ptx_ops(str(compiled.asm["ptx"])) if hasattr(compiled, "asm") else []
        out[label] = {"fn": fn, "n": m, "mismatches": bad, "ptx_ops": ops}
        log(f"  math {label:<10} mismatches {bad:>7}/{m}  ops {' '.join(o_ for o_ in ops if not o_.startswith(('cvt', 'setp', 'selp', 'mul.lo')))}")
    return out


def describe_range(xs):
    import numpy as np
    f = xs[np.isfinite(xs)]
    return {"min": float(f.min()), "max": float(f.max()), "min_abs": float(np.abs(f).min())}


def triton_cdiv(a, b):
    return (a + b - 1) // b


# ---------------------------------------------------------------------------
# reduction order
# ---------------------------------------------------------------------------

def simulate_orders(x):
    """x: (rows, N) float32 numpy.  Returns {name: (rows,) float32 result}."""
    import numpy as np
    rows, N = x.shape
    res = {}
    a = x.copy()
    s = N // 2
    while s >= 1:
        a[:, :s] = a[:, :s] + a[:, s:2 * s]
        s //= 2
    res["canonical_tree(i,i+s)"] = a[:, 0].copy()
    acc = x[:, 0].copy()
    for i in range(1, N):
        acc = acc + x[:, i]
    res["sequential"] = acc
    a = x.copy()
    while a.shape[1] > 1:
        a = a[:, 0::2] + a[:, 1::2]
    res["adjacent_pairs_tree"] = a[:, 0].copy()
    for spt in (1, 2, 4, 8, 16):
        for inthread in ("seq", "tree"):
            for lanes0, warps0 in ((32, 4), (32, 8), (32, 1)):
                sp = min(spt, N)
                lanes = max(1, min(lanes0, N // sp))
                warps = max(1, min(warps0, N // (sp * lanes)))
                tile = sp * lanes * warps
                reps = N // tile
                # per thread register lists
                thr = np.empty((rows, lanes * warps), dtype=np.float32)
                for t in range(lanes * warps):
                    idx = [k * tile + t * sp + j for k in range(reps) for j in range(sp)]
                    v = x[:, idx]
                    if inthread == "seq":
                        acc = v[:, 0].copy()
                        for i in range(1, v.shape[1]):
                            acc = acc + v[:, i]
                    else:
                        vv = v.copy()
                        while vv.shape[1] > 1:
                            if vv.shape[1] % 2:
                                break
                            vv = vv[:, 0::2] + vv[:, 1::2]
                        acc = vv[:, 0]
                    thr[:, t] = acc
                # lanes: butterfly within each warp
                wv = np.empty((rows, warps), dtype=np.float32)
                for w in range(warps):
                    v = thr[:, w * lanes:(w + 1) * lanes].copy()
                    off = lanes // 2
                    while off >= 1:
                        v = v + v[:, np.arange(lanes) ^ off]
                        off //= 2
                    wv[:, w] = v[:, 0]
                v = wv.copy()
                off = warps // 2
                while off >= 1:
                    v = v + v[:, np.arange(warps) ^ off]
                    off //= 2
                res[f"triton(spt={sp},lanes={lanes},warps={warps},inthread={inthread})"] = v[:, 0].copy()
    return res


def sum_order(asm_store):
    import numpy as np
    import torch
    mod = tr.import_program(os.path.join(HERE, "sum_order.py"))
    g = torch.Generator().manual_seed(7)
    out = {}
    rows = 64
    for N in (8, 32, 128, 256, 512, 1024, 4096):
        x = (torch.where(torch.rand(rows * N, generator=g) < 0.5, -1.0, 1.0).double()
             * (1 + torch.rand(rows * N, generator=g, dtype=torch.float64))
             * torch.exp2(torch.randint(-24, 24, (rows * N,), generator=g).double())).float()
        xg = x.cuda()
        o = torch.empty(rows, device="cuda")
        compiled = mod.row_sum[(rows,)](xg, o, N=N)
        torch.cuda.synchronize()
        got = o.cpu().numpy()
        layouts = []
        if hasattr(compiled, "asm"):
            ttgir = str(compiled.asm.get("ttgir", ""))
            asm_store[f"sum_order_N{N}.ttgir"] = ttgir
            layouts = sorted(set(re.findall(r"#ttg\.blocked<\{[^}]*\}>", ttgir)))
        sims = simulate_orders(x.numpy().reshape(rows, N))
        matches = {k_: int(np.sum(v.view(np.uint32) == got.view(np.uint32))) for k_, v in sims.items()}
        full = sorted(k_ for k_, m in matches.items() if m == rows)
        out[f"N={N}"] = {"rows": rows, "full_match": full, "canonical_matches": matches["canonical_tree(i,i+s)"],
                         "sequential_matches": matches["sequential"], "layouts": layouts,
                         "best": sorted(matches.items(), key=lambda kv: -kv[1])[:5]}
        log(f"  sum N={N:<5} rows={rows} canonical {matches['canonical_tree(i,i+s)']}/{rows}  "
            f"sequential {matches['sequential']}/{rows}  full matches: {full[:6]}")
        log(f"         layouts: {layouts}")
    # 2-D, axis=1
    M, N = 4, 64
    x = (torch.where(torch.rand(M * N, generator=g) < 0.5, -1.0, 1.0).double()
         * (1 + torch.rand(M * N, generator=g, dtype=torch.float64))
         * torch.exp2(torch.randint(-24, 24, (M * N,), generator=g).double())).float()
    o = torch.empty(M, device="cuda")
    compiled = mod.row_sum_2d[(1,)](x.cuda(), o, M=M, N=N)
    torch.cuda.synchronize()
    got = o.cpu().numpy()
    sims = simulate_orders(x.numpy().reshape(M, N))
    matches = {k_: int(np.sum(v.view(np.uint32) == got.view(np.uint32))) for k_, v in sims.items()}
    full = sorted(k_ for k_, m in matches.items() if m == M)
    layouts = []
    if hasattr(compiled, "asm"):
        ttgir = str(compiled.asm.get("ttgir", ""))
        asm_store["sum_order_2d.ttgir"] = ttgir
        layouts = sorted(set(re.findall(r"#ttg\.blocked<\{[^}]*\}>", ttgir)))
    out["2d_M4_N64_axis1"] = {"rows": M, "full_match": full, "canonical_matches": matches["canonical_tree(i,i+s)"],
                              "layouts": layouts}
    log(f"  sum 2-D 4x64 axis=1: canonical {matches['canonical_tree(i,i+s)']}/{M}  full matches: {full[:6]}")
    return out


# ---------------------------------------------------------------------------

def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    outdir = args[0]
    only = []
    if "--only" in args:
        only = args[args.index("--only") + 1:]
        only = [o for o in only if not o.startswith("--")]
    os.makedirs(outdir, exist_ok=True)
    import torch
    import triton
    info = {"torch": torch.__version__, "triton": triton.__version__, "date": time.strftime("%Y-%m-%d %H:%M:%S")}
    if torch.cuda.is_available():
        info["gpu"] = torch.cuda.get_device_name(0)
        info["capability"] = list(torch.cuda.get_device_capability(0))
    log(f"ksem probes: {info}")
    asm_store = {}
    probes = {}
    t0 = time.time()
    for py in sorted(glob.glob(os.path.join(HERE, "*.py"))):
        if os.path.basename(py) in NON_PROBES:
            continue
        name = os.path.splitext(os.path.basename(py))[0]
        if only and name not in only:
            continue
        js = py[:-3] + ".json"
        if not os.path.exists(js):
            continue
        launch = tr.load_launch(js)
        try:
            rec = run_probe(py, launch, asm_store)
        except Exception:
            rec = {"ok": False, "error_type": "harness", "error": traceback.format_exc()[-3000:]}
        probes[name] = rec
        log_probe(name, rec, launch)
    log(f"probes took {time.time() - t0:.1f} s")
    result = {"info": info, "probes": probes}
    if "--skip-math" not in args and not only:
        log("=" * 78)
        log("math accuracy (float32; reference: float64 rounded to float32)")
        try:
            result["math"] = math_accuracy(asm_store)
        except Exception:
            log(traceback.format_exc())
    if "--skip-order" not in args and not only:
        log("=" * 78)
        log("float32 tl.sum order")
        try:
            result["sum_order"] = sum_order(asm_store)
        except Exception:
            log(traceback.format_exc())
    with open(os.path.join(outdir, "probes.json"), "w") as fh:
        json.dump(result, fh, indent=1)
    with open(os.path.join(outdir, "probes.log"), "w") as fh:
        fh.write("\n".join(LOG) + "\n")
    with tarfile.open(os.path.join(outdir, "asm.tar.gz"), "w:gz") as tf:
        for k_, text in sorted(asm_store.items()):
            data = text.encode()
            ti = tarfile.TarInfo(k_)
            ti.size = len(data)
            tf.addfile(ti, io.BytesIO(data))
    log(f"total {time.time() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
