# Writes corpus/triton/atomic_*.{py,json} from the bits real Triton measured
# (measure_atomics_random.json, written by measure_atomics_random.py on the
# GPU): each table pair (memory value, operand) runs in a program of its own,
# so every old value is uncontended and every final value is exact.
#   python3 tools/probes/triton_features/atomics_corpus.py
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")
M = json.load(open(os.path.join(HERE, "measure_atomics_random.json")))
PROV = (f"measured: real Triton {M['triton']} on an {M['gpu']} "
        "(tools/probes/triton_features/measure_atomics_random.py, tables {tables})")
WIDTH = {"float32": 8, "float64": 16, "float16": 4, "bfloat16": 4, "int32": 8, "uint32": 8}

HEADER = """import triton
import triton.language as tl


"""


def hexes(vals, dtype):
    return [f"0x{v:0{WIDTH[dtype]}x}" for v in vals]


def case(name, src, tables, grid, args, expected):
    with open(os.path.join(ROOT, "corpus", "triton", name + ".py"), "w") as f:
        f.write(HEADER + src)
    spec = {"kernel": name, "grid": [grid], "args": args,
            "provenance": PROV.format(tables=", ".join(tables)),
            "expected": {"buffers": expected, "ub": []}}
    with open(os.path.join(ROOT, "corpus", "triton", name + ".json"), "w") as f:
        json.dump(spec, f, indent=1)
        f.write("\n")


def table_kernel(name, ops, doc):
    """One kernel: for each (table, op) a memory buffer, an operand buffer and
    an old-value buffer; program p updates element p of every table that has
    one (a runtime `if` on the table's length)."""
    params, body = [], ["    p = tl.program_id(0)"]
    for i, (tab, op) in enumerate(ops):
        params += [f"m{i}_ptr", f"v{i}_ptr", f"o{i}_ptr", f"n{i}"]
        body += [f"    if p < n{i}:  # {tab}",
                 f"        o = tl.atomic_{op}(m{i}_ptr + p, tl.load(v{i}_ptr + p))",
                 f"        tl.store(o{i}_ptr + p, o)"]
    return f"# {doc}\n@triton.jit\ndef {name}({', '.join(params)}):\n" + "\n".join(body) + "\n"


def table_case(name, ops, doc):
    args, expected, grid = {}, {}, 0
    for i, (tab, op, dtype) in enumerate(ops):
        t = M[tab]
        n = len(t["mem"])
        grid = max(grid, n)
        args[f"m{i}_ptr"] = {"buffer": {"dtype": dtype, "bits": hexes(t["mem"], dtype)}}
        args[f"v{i}_ptr"] = {"buffer": {"dtype": dtype, "bits": hexes(t["val"], dtype)}}
        args[f"o{i}_ptr"] = {"buffer": {"dtype": dtype, "len": n}}
        args[f"n{i}"] = {"scalar": {"dtype": "int32", "value": n}}
        expected[f"m{i}_ptr"] = {"dtype": dtype, "len": n, "bits": hexes(t["final"], dtype)}
        expected[f"o{i}_ptr"] = {"dtype": dtype, "len": n, "bits": hexes(t["old"], dtype)}
        expected[f"v{i}_ptr"] = {"dtype": dtype, "len": n, "bits": hexes(t["val"], dtype)}
    src = table_kernel(name, [(tab, op) for tab, op, _ in ops], doc)
    case(name, src, [tab for tab, _, _ in ops], grid, args, expected)


table_case("atomic_float_max_min", [
    ("max_f32", "max", "float32"), ("min_f32", "min", "float32"),
    ("max_f64", "max", "float64"), ("min_f64", "min", "float64")],
    "Float atomic_max/min order bit patterns (signed for a non-negative operand, "
    "unsigned for a negative one): signed zeros, infinities, NaNs of both signs.")
table_case("atomic_float_add", [
    ("add_f32", "add", "float32"), ("add_f16", "add", "float16"),
    ("add_bf16", "add", "bfloat16"), ("add_f64", "add", "float64")],
    "Float atomic_add: float32 flushes subnormal inputs and results, NaN results "
    "are the arithmetic NaN, float64 keeps the operand's NaN.")
table_case("atomic_int_max_min", [
    ("max_i32", "max", "int32"), ("max_u32", "max", "uint32"), ("min_u32", "min", "uint32")],
    "Integer atomic_max/min compare by the element's signedness.")


def random_case():
    """tl.randint/rand/randint4x/rand(n_rounds=7) for four seeds (randn is
    approximate and is checked within a bound by tests/tests/triton_random.rs)."""
    src = '''# Philox random numbers: one program per seed (a runtime `if` picks it).
@triton.jit
def random_philox(s0, s1, s2, s3, o_ptr, N: tl.constexpr):
    p = tl.program_id(0)
    seed = s0
    if p == 1:
        seed = s1
    if p == 2:
        seed = s2
    if p == 3:
        seed = s3
    offs = tl.arange(0, N)
    o = o_ptr + p * 7 * N + offs
    tl.store(o, tl.randint(seed, offs).to(tl.int32, bitcast=True))
    tl.store(o + N, tl.rand(seed, offs).to(tl.int32, bitcast=True))
    a, b, c, d = tl.randint4x(seed, offs)
    tl.store(o + 2 * N, a.to(tl.int32, bitcast=True))
    tl.store(o + 3 * N, b.to(tl.int32, bitcast=True))
    tl.store(o + 4 * N, c.to(tl.int32, bitcast=True))
    tl.store(o + 5 * N, d.to(tl.int32, bitcast=True))
    tl.store(o + 6 * N, tl.rand(seed, offs, n_rounds=7).to(tl.int32, bitcast=True))
'''
    tabs = ["rand_seed_0", "rand_seed_42", "rand_seed_neg", "rand_seed_big"]
    args, bits = {}, []
    for i, tab in enumerate(tabs):
        t = M[tab]
        n = t["N"]
        args[f"s{i}"] = {"scalar": {"dtype": "int64", "value": t["seed"]}}
        # measured blocks: randint, rand, randn, randint4x a..d, randint(+1e9+7), rand(7 rounds)
        for blk in (0, 1, 3, 4, 5, 6, 8):
            bits += t["out"][blk * n:(blk + 1) * n]
    args["o_ptr"] = {"buffer": {"dtype": "int32", "len": len(bits)}}
    args["N"] = {"constexpr": n}
    case("random_philox", src, tabs, len(tabs), args,
         {"o_ptr": {"dtype": "int32", "len": len(bits), "bits": hexes(bits, "int32")}})


random_case()
