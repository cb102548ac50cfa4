#!/usr/bin/env python3
"""Follow-up probes to probe_all.py (second GPU run; see docs/numba-measured.md).

    python3 tools/probes/numba/probe_extra.py OUT.json [--compile-only]

k1: unary minus / ~ / abs of small ints stored to int64 (int16 -MIN anomaly) + PTX;
k2: shift amounts >= 2**32 given as int64 (are they truncated to 32 bits?);
k3: 4096 random float32 and float64 pairs through //, % (to check the model of
    numba-cuda's float divmod in docs/numba-measured.md bit for bit).
"""
import json
import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import probe_all as P  # noqa: E402

np, cuda = P.np, P.cuda


def k1():
    S = "k1_unary_small_ints"
    src = """
def k(x, n, c, m, nf):
    i = cuda.grid(1)
    if i < x.size:
        n[i] = -x[i]
        c[i] = ~x[i]
        m[i] = abs(x[i])
        nf[i] = -x[i]
"""
    for dt in ("int8", "int16", "int32", "uint8", "uint16", "uint32"):
        lo, hi = P.INT_RANGE[dt]
        xs = [lo, lo + 1, -1, 1, hi] if lo < 0 else [0, 1, hi, (hi + 1) // 2]
        P.elementwise(S, f"-x, ~x, abs(x) of {dt} stored to int64; nf = -x stored to float64", src,
                      [("x", P.make(dt, xs))], [("n", "int64"), ("c", "int64"), ("m", "int64"), ("nf", "float64")],
                      {"dtype": dt})
    ptx = {}
    for dt in ("int8", "int16", "int32"):
        try:
            fn = P.make_fn("def k(x, n):\n    n[0] = -x[0]\n")
            code, _ = cuda.compile_ptx(fn, f"void({dt}[:], int64[:])", cc=P.CC)
            body = code[code.index(")\n{"):]
            ptx[f"-x {dt} -> int64"] = [ln for ln in body.splitlines()
                                        if ln.strip() and not ln.strip().startswith(("//", ".loc", ".reg"))]
        except Exception as e:
            ptx[f"-x {dt} -> int64"] = P.short_err(e)
    P.RESULTS["k1_ptx"] = ptx
    if not P.COMPILE_ONLY:
        sass = {}
        for dt in ("int16", "int8"):
            try:
                fn = P.make_fn("def k(x, n):\n    n[0] = -x[0]\n")
                kk = cuda.jit(f"void({dt}[:], int64[:])")(fn)
                sass[dt] = kk.inspect_sass()
                if isinstance(sass[dt], dict):
                    sass[dt] = {str(k): v for k, v in sass[dt].items()}
            except Exception as e:
                sass[dt] = P.short_err(e)
        P.RESULTS["k1_sass"] = sass


def k2():
    S = "k2_shift_amount_high_bits"
    src = """
def k(x, s, l, r):
    i = cuda.grid(1)
    if i < x.size:
        l[i] = x[i] << s[i]
        r[i] = x[i] >> s[i]
"""
    am = [2 ** 32, 2 ** 32 + 1, 2 ** 32 + 31, 2 ** 32 + 63, 2 ** 63, -2 ** 32, -2 ** 32 + 1, 2 ** 40 + 4]
    for dt, v in (("int32", -8), ("int64", -8), ("uint32", 0xFFFFFFF8), ("int32", 1)):
        P.elementwise(S, f"{dt} x={v} << s, >> s with int64 s >= 2**32 (stored to int64)", src,
                      [("x", P.make(dt, [v] * len(am))), ("s", P.make("int64", am))],
                      [("l", "int64"), ("r", "int64")], {"dtype": dt})


def rnd_f(rng, lo_e, hi_e, kind):
    m = rng.random() + 0.5
    e = rng.randint(lo_e, hi_e)
    v = m * 2.0 ** e
    r = rng.random()
    if r < 0.15:
        v = float(rng.randint(-50, 50))
    elif r < 0.2:
        v = rng.randint(-40, 40) / 4.0
    if rng.random() < 0.5:
        v = -v
    if kind == "float32":
        v = struct.unpack("<f", struct.pack("<f", v))[0] if abs(v) < 3e38 else 1.0
    return v


def k3():
    S = "k3_float_divmod_random"
    src = """
def k(x, y, q, r):
    i = cuda.grid(1)
    if i < x.size:
        q[i] = x[i] // y[i]
        r[i] = x[i] % y[i]
"""
    rng = random.Random(12345)
    for dt, (lo, hi) in (("float32", (-40, 40)), ("float64", (-300, 300))):
        xs, ys = [], []
        for i in range(4096):
            if i % 4 == 0:  # large ratios
                xs.append(rnd_f(rng, hi // 2, hi, dt))
                ys.append(rnd_f(rng, lo, lo // 2, dt))
            elif i % 4 == 1:  # similar magnitudes
                e = rng.randint(lo // 2, hi // 2)
                xs.append(rnd_f(rng, e - 3, e + 3, dt))
                ys.append(rnd_f(rng, e - 3, e + 3, dt))
            else:
                xs.append(rnd_f(rng, lo, hi, dt))
                ys.append(rnd_f(rng, lo, hi, dt))
        x, y = P.make(dt, xs), P.make(dt, ys)
        q, r = np.zeros(len(xs), dt), np.zeros(len(xs), dt)
        rec = {"label": f"{dt} x // y, x % y on 4096 random pairs (bits as parallel lists)", "dtype": dt}
        try:
            fn_src = src
            n = len(xs)
            fn = P.make_fn(fn_src)
            if P.COMPILE_ONLY:
                res = [x, y, q, r]
            else:
                kk = cuda.jit(fn)
                d = [cuda.to_device(a) for a in (x, y, q, r)]
                kk[(n + 255) // 256, 256](*d)
                cuda.synchronize()
                res = [a.copy_to_host() for a in d]
            rec.update({"ok": True, "x": P.hexs(res[0]), "y": P.hexs(res[1]), "q": P.hexs(res[2]), "r": P.hexs(res[3])})
        except Exception as e:
            rec.update({"ok": False, **P.short_err(e)})
        P.RESULTS.setdefault(S, []).append(rec)
        P.log(S, rec["label"], rec["ok"])


def main():
    out = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("--") else "measured_extra.json"
    P.RESULTS["meta"] = {"numba": P.numba.__version__}
    for f in (k1, k2, k3):
        try:
            f()
        except Exception as e:
            P.RESULTS.setdefault("section_errors", {})[f.__name__] = P.traceback.format_exc()
            P.log("SECTION", f.__name__, "crashed:", P.first_line(e))
    with open(out, "w") as fh:
        json.dump(P.RESULTS, fh, indent=1)
    P.log("wrote", out)


if __name__ == "__main__":
    main()
