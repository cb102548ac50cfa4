# Standalone probe (run on a GPU machine with torch and Triton 3.6):
#   python3 measure_atomics_random.py OUT_DIR
# Measures what ksem's Triton atomics, random numbers, dtype constructors,
# split/join and block pointers must reproduce, and writes OUT_DIR/measured.json
# (bits as unsigned integers) plus the source of triton.language.random and of
# the semantic functions of the atomics (for reading only; not committed).
import inspect
import json
import os
import struct
import sys
import traceback

import torch
import triton
import triton.language as tl

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
os.makedirs(OUT, exist_ok=True)
dev = "cuda"
res = {"gpu": torch.cuda.get_device_name(0), "triton": triton.__version__}


def f32bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def bits(t):
    t = t.detach().cpu().contiguous()
    w = t.element_size()
    iv = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[w]
    m = (1 << (8 * w)) - 1
    return [int(v) & m for v in t.view(iv).flatten().tolist()]


def from_bits(vals, dtype):
    w = torch.empty(0, dtype=dtype).element_size()
    iv = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[w]
    signed = [v - (1 << (8 * w)) if v >= (1 << (8 * w - 1)) and iv != torch.uint8 else v for v in vals]
    return torch.tensor(signed, dtype=iv).view(dtype).to(dev)


def probe(name):
    def wrap(f):
        try:
            res[name] = f()
        except Exception as e:  # noqa: BLE001
            res[name] = {"error": f"{type(e).__name__}: {e}"[:2000]}
            traceback.print_exc()
        return f

    return wrap


# ---- sources, for reading ----
try:
    with open(os.path.join(OUT, "random_src.py"), "w") as f:
        f.write(inspect.getsource(tl.random))
except Exception as e:  # noqa: BLE001
    res["random_src"] = str(e)
try:
    from triton.language import semantic as sem

    with open(os.path.join(OUT, "semantic_src.py"), "w") as f:
        f.write(inspect.getsource(sem))
    with open(os.path.join(OUT, "core_src.py"), "w") as f:
        f.write(inspect.getsource(tl.core))
except Exception as e:  # noqa: BLE001
    res["semantic_src"] = str(e)

# ---- atomics: one element per program, memory value M and operand V ----
F32 = [0.0, -0.0, 1.0, -1.0, 2.5, -2.5, float("inf"), float("-inf")]
F32_BITS = [f32bits(x) for x in F32] + [0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF812345, 0x00000001, 0x80000001, 0x00800000]


@triton.jit
def k_max(m_ptr, v_ptr, old_ptr):
    p = tl.program_id(0)
    v = tl.load(v_ptr + p)
    o = tl.atomic_max(m_ptr + p, v)
    tl.store(old_ptr + p, o)


@triton.jit
def k_min(m_ptr, v_ptr, old_ptr):
    p = tl.program_id(0)
    v = tl.load(v_ptr + p)
    o = tl.atomic_min(m_ptr + p, v)
    tl.store(old_ptr + p, o)


@triton.jit
def k_add(m_ptr, v_ptr, old_ptr):
    p = tl.program_id(0)
    v = tl.load(v_ptr + p)
    o = tl.atomic_add(m_ptr + p, v)
    tl.store(old_ptr + p, o)


def pair_table(kernel, dtype, mbits):
    pairs = [(a, b) for a in mbits for b in mbits]
    m = from_bits([a for a, _ in pairs], dtype)
    v = from_bits([b for _, b in pairs], dtype)
    old = torch.zeros_like(m)
    kernel[(len(pairs),)](m, v, old)
    torch.cuda.synchronize()
    return {"mem": [a for a, _ in pairs], "val": [b for _, b in pairs], "final": bits(m), "old": bits(old)}


probe("max_f32")(lambda: pair_table(k_max, torch.float32, F32_BITS))
probe("min_f32")(lambda: pair_table(k_min, torch.float32, F32_BITS))
F64_BITS = [0, 1 << 63, 0x3FF0000000000000, 0xBFF0000000000000, 0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000000, 0xFFF0000000000000, 1]
probe("max_f64")(lambda: pair_table(k_max, torch.float64, F64_BITS))
probe("min_f64")(lambda: pair_table(k_min, torch.float64, F64_BITS))
I32 = [0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 5]
probe("max_i32")(lambda: pair_table(k_max, torch.int32, I32))
probe("max_u32")(lambda: pair_table(k_max, torch.uint32, I32))
probe("min_u32")(lambda: pair_table(k_min, torch.uint32, I32))
ADD32 = [0x00000001, 0x80000001, 0x007FFFFF, 0x00800000, 0x3F800000, 0x33800000, 0x7F7FFFFF, 0x7FC00000, 0xFFC00001, 0x80000000, 0x00000000]
probe("add_f32")(lambda: pair_table(k_add, torch.float32, ADD32))
ADD16 = [0x0001, 0x8001, 0x3C00, 0x1400, 0x7BFF, 0x7E00, 0xFE01, 0x8000, 0x0000, 0x3C01]
probe("add_f16")(lambda: pair_table(k_add, torch.float16, ADD16))
ADDBF = [0x0001, 0x8001, 0x3F80, 0x3B80, 0x7F7F, 0x7FC0, 0xFFC1, 0x8000, 0x0000, 0x3F81, 0x3380]
probe("add_bf16")(lambda: pair_table(k_add, torch.bfloat16, ADDBF))
probe("add_f64")(lambda: pair_table(k_add, torch.float64, [1, 1 << 63, 0x3FF0000000000000, 0x3CA0000000000000, 0x7FF8000000000000, 0xFFF8000000000000]))


# ---- tile atomics: duplicates in one tile, masked lanes' results, scalar atomics ----
@triton.jit
def k_tile(c_ptr, old_ptr, old2_ptr, cnt_ptr, oldc_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    o = tl.atomic_add(c_ptr + offs % 4, offs + 1)
    tl.store(old_ptr + offs, o)
    o2 = tl.atomic_add(c_ptr + 4 + offs, 7, mask=offs % 2 == 0)
    tl.store(old2_ptr + offs, o2)
    oc = tl.atomic_add(cnt_ptr, 1)
    tl.store(oldc_ptr + tl.program_id(0), oc)


@probe("tile_add_i32")
def _():
    N = 16
    c = torch.full((4 + N,), 100, dtype=torch.int32, device=dev)
    old = torch.full((2 * N,), -1, dtype=torch.int32, device=dev)
    old2 = torch.full((N,), -1, dtype=torch.int32, device=dev)
    cnt = torch.zeros(1, dtype=torch.int32, device=dev)
    oldc = torch.full((3,), -1, dtype=torch.int32, device=dev)
    k_tile[(1,)](c, old, old2, cnt, oldc, N=N)
    torch.cuda.synchronize()
    return {"c": c.tolist(), "old": old.tolist(), "old2": old2.tolist(), "cnt": cnt.tolist(), "oldc": oldc.tolist()}


@probe("tile_add_i32_3programs_scalar")
def _():
    N = 16
    c = torch.zeros((4 + N,), dtype=torch.int32, device=dev)
    old = torch.zeros((2 * N,), dtype=torch.int32, device=dev)
    old2 = torch.zeros((N,), dtype=torch.int32, device=dev)
    cnt = torch.zeros(1, dtype=torch.int32, device=dev)
    oldc = torch.full((3,), -1, dtype=torch.int32, device=dev)
    k_tile[(3,)](c, old, old2, cnt, oldc, N=N)
    torch.cuda.synchronize()
    return {"c": c.tolist(), "cnt": cnt.tolist(), "oldc": sorted(oldc.tolist())}


@triton.jit
def k_masked_old(c_ptr, old_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    o = tl.atomic_xchg(c_ptr + offs, offs + 50, mask=offs < 3)
    tl.store(old_ptr + offs, o)
    o = tl.atomic_max(c_ptr + N + offs, offs.to(tl.float32) - 2.0, mask=offs < 5)
    tl.store(old_ptr + N + offs, o.to(tl.int32, bitcast=True))


@probe("masked_old")
def _():
    N = 8
    c = torch.arange(2 * N, dtype=torch.int32, device=dev) + 10
    c[N:] = torch.tensor([1.5] * N, dtype=torch.float32, device=dev).view(torch.int32)
    old = torch.full((2 * N,), 12345, dtype=torch.int32, device=dev)
    k_masked_old[(1,)](c, old, N=N)
    torch.cuda.synchronize()
    return {"c": bits(c), "old": bits(old)}


@triton.jit
def k_ops(p_ptr, q_ptr, old_ptr):
    offs = tl.arange(0, 4)
    a = tl.atomic_cas(p_ptr + offs, offs, offs + 100)
    tl.store(old_ptr + offs, a)
    b = tl.atomic_and(p_ptr + 4 + offs, 0x0F0F)
    tl.store(old_ptr + 4 + offs, b)
    c = tl.atomic_or(p_ptr + 8 + offs, 0x0F0F)
    tl.store(old_ptr + 8 + offs, c)
    d = tl.atomic_xor(p_ptr + 12 + offs, 0x0F0F)
    tl.store(old_ptr + 12 + offs, d)
    e = tl.atomic_add(q_ptr + offs, 2.7)
    tl.store(old_ptr + 16 + offs, e.to(tl.int32))
    f = tl.atomic_xchg(p_ptr + 16 + offs, 3.9)
    tl.store(old_ptr + 20 + offs, f)


@probe("ops_i32")
def _():
    p = torch.tensor([0, 5, 2, 7] + [0x1234, -1, 0, 0x00FF] * 3 + [1, 2, 3, 4], dtype=torch.int32, device=dev)
    q = torch.tensor([1.0, -1.0, 0.5, 1e9], dtype=torch.float32, device=dev)
    old = torch.zeros(24, dtype=torch.int32, device=dev)
    k_ops[(1,)](p, q, old)
    torch.cuda.synchronize()
    return {"p": bits(p), "q": bits(q), "old": bits(old)}


@triton.jit
def k_cas_f32(p_ptr, old_ptr):
    offs = tl.arange(0, 4)
    cmpv = tl.load(p_ptr + 4 + offs)
    a = tl.atomic_cas(p_ptr + offs, cmpv, cmpv + 1.0)
    tl.store(old_ptr + offs, a)


@probe("cas_f32")
def _():
    # memory 0.0, -0.0, NaN, 1.0 ; compared with -0.0, 0.0, NaN(same bits), 1.0
    p = from_bits([0, 0x80000000, 0x7FC00000, 0x3F800000, 0x80000000, 0, 0x7FC00000, 0x3F800000], torch.float32)
    old = torch.zeros(4, dtype=torch.float32, device=dev)
    k_cas_f32[(1,)](p, old)
    torch.cuda.synchronize()
    return {"p": bits(p), "old": bits(old)}


@triton.jit
def k_sem(p_ptr):
    offs = tl.arange(0, 4)
    tl.atomic_add(p_ptr + offs, 1, sem="relaxed", scope="cta")
    tl.atomic_add(p_ptr + offs, 1, sem="acquire", scope="gpu")
    tl.atomic_add(p_ptr + offs, 1, sem="release", scope="sys")
    tl.atomic_add(p_ptr + offs, 1, sem="acq_rel")


@probe("sem_scope")
def _():
    p = torch.zeros(4, dtype=torch.int32, device=dev)
    k_sem[(1,)](p)
    torch.cuda.synchronize()
    return {"p": p.tolist()}


def refused(name, body):
    @probe(name)
    def _():
        try:
            body()
            torch.cuda.synchronize()
            return {"accepted": True}
        except Exception as e:  # noqa: BLE001
            return {"refused": f"{type(e).__name__}: {e}"[:1500]}


@triton.jit
def k_max_f16(p_ptr):
    tl.atomic_max(p_ptr + tl.arange(0, 4), 1.0)


refused("max_f16", lambda: k_max_f16[(1,)](torch.zeros(4, dtype=torch.float16, device=dev)))


@triton.jit
def k_add_i8(p_ptr):
    tl.atomic_add(p_ptr + tl.arange(0, 4), 1)


refused("add_i8", lambda: k_add_i8[(1,)](torch.zeros(4, dtype=torch.int8, device=dev)))
refused("add_i16", lambda: k_add_i8[(1,)](torch.zeros(4, dtype=torch.int16, device=dev)))
refused("add_u64", lambda: k_add_i8[(1,)](torch.zeros(4, dtype=torch.uint64, device=dev)))


@triton.jit
def k_cas_i16(p_ptr):
    tl.atomic_cas(p_ptr + tl.arange(0, 4), 0, 1)


refused("cas_i16", lambda: k_cas_i16[(1,)](torch.zeros(4, dtype=torch.int16, device=dev)))


@triton.jit
def k_add_bool(p_ptr):
    tl.atomic_add(p_ptr + tl.arange(0, 4), 1)


refused("add_bool", lambda: k_add_bool[(1,)](torch.zeros(4, dtype=torch.bool, device=dev)))


# ---- random ----
@triton.jit
def k_rand(seed, o_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(o_ptr + offs, tl.randint(seed, offs).to(tl.int32, bitcast=True))
    tl.store(o_ptr + N + offs, tl.rand(seed, offs).to(tl.int32, bitcast=True))
    tl.store(o_ptr + 2 * N + offs, tl.randn(seed, offs).to(tl.int32, bitcast=True))
    a, b, c, d = tl.randint4x(seed, offs)
    tl.store(o_ptr + 3 * N + offs, a.to(tl.int32, bitcast=True))
    tl.store(o_ptr + 4 * N + offs, b.to(tl.int32, bitcast=True))
    tl.store(o_ptr + 5 * N + offs, c.to(tl.int32, bitcast=True))
    tl.store(o_ptr + 6 * N + offs, d.to(tl.int32, bitcast=True))
    tl.store(o_ptr + 7 * N + offs, tl.randint(seed, offs + 1000000007).to(tl.int32, bitcast=True))
    tl.store(o_ptr + 8 * N + offs, tl.rand(seed, offs, n_rounds=7).to(tl.int32, bitcast=True))


def rand_case(seed, N=16):
    o = torch.zeros(9 * N, dtype=torch.int32, device=dev)
    k_rand[(1,)](seed, o, N=N)
    torch.cuda.synchronize()
    return {"seed": seed, "N": N, "out": bits(o)}


probe("rand_seed_0")(lambda: rand_case(0))
probe("rand_seed_42")(lambda: rand_case(42))
probe("rand_seed_neg")(lambda: rand_case(-7))
probe("rand_seed_big")(lambda: rand_case(123456789012))


@triton.jit
def k_rand64(seed, o_ptr, N: tl.constexpr):
    offs = tl.arange(0, N).to(tl.int64) + 4294967290
    tl.store(o_ptr + tl.arange(0, N), tl.randint(seed, offs).to(tl.int32, bitcast=True).to(tl.int64))
    tl.store(o_ptr + N + tl.arange(0, N), tl.rand(seed, offs).to(tl.float64).to(tl.int64, bitcast=True))
    tl.store(o_ptr + 2 * N + tl.arange(0, N), tl.randn(seed, offs).to(tl.float64).to(tl.int64, bitcast=True))


@probe("rand_offs_i64")
def _():
    N = 8
    o = torch.zeros(3 * N, dtype=torch.int64, device=dev)
    k_rand64[(1,)](5, o, N=N)
    torch.cuda.synchronize()
    return {"seed": 5, "N": N, "out": bits(o)}


# ---- dtype constructors, split/join/interleave ----
@triton.jit
def k_ctor(x_ptr, o_ptr):
    offs = tl.arange(0, 4)
    x = tl.load(x_ptr + offs)
    tl.store(o_ptr + offs, tl.float32(x).to(tl.int32, bitcast=True))
    tl.store(o_ptr + 4 + offs, tl.int32(x * 2.5))


@probe("dtype_ctor")
def _():
    x = torch.tensor([1, -3, 7, 100], dtype=torch.int32, device=dev)
    o = torch.zeros(8, dtype=torch.int32, device=dev)
    k_ctor[(1,)](x, o)
    torch.cuda.synchronize()
    return {"o": bits(o)}


@triton.jit
def k_split(x_ptr, o_ptr):
    r = tl.arange(0, 4)
    x = tl.load(x_ptr + r[:, None] * 2 + tl.arange(0, 2)[None, :])
    a, b = tl.split(x)
    tl.store(o_ptr + r, a)
    tl.store(o_ptr + 4 + r, b)
    j = tl.join(a, b * 10)
    tl.store(o_ptr + 8 + r[:, None] * 2 + tl.arange(0, 2)[None, :], j)
    i = tl.interleave(a, b * 100)
    tl.store(o_ptr + 16 + tl.arange(0, 8), i)


@probe("split_join")
def _():
    x = torch.arange(8, dtype=torch.int32, device=dev) + 1
    o = torch.zeros(24, dtype=torch.int32, device=dev)
    k_split[(1,)](x, o)
    torch.cuda.synchronize()
    return {"o": o.tolist()}


# ---- block pointers ----
@triton.jit
def k_bptr(x_ptr, o_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    p = tl.make_block_ptr(base=x_ptr, shape=(M, N), strides=(N, 1), offsets=(1, 2), block_shape=(BM, BN), order=(1, 0))
    a = tl.load(p, boundary_check=(0, 1), padding_option="zero")
    q = tl.make_block_ptr(base=o_ptr, shape=(BM, BN), strides=(BN, 1), offsets=(0, 0), block_shape=(BM, BN), order=(1, 0))
    tl.store(q, a)
    p2 = tl.advance(p, (2, -1))
    b = tl.load(p2, boundary_check=(0, 1), padding_option="nan")
    q2 = tl.advance(q, (BM, 0))
    tl.store(q2, b)
    c = tl.load(p2, boundary_check=(1,))
    q3 = tl.advance(q2, (BM, 0))
    tl.store(q3, c)
    # a store with boundary_check into a small output
    r = tl.make_block_ptr(base=o_ptr + 3 * BM * BN, shape=(2, 3), strides=(3, 1), offsets=(0, 1), block_shape=(BM, BN), order=(1, 0))
    tl.store(r, a + 1000.0, boundary_check=(0, 1))


@probe("block_ptr")
def _():
    M, N, BM, BN = 5, 6, 4, 4
    x = torch.arange(M * N, dtype=torch.float32, device=dev)
    o = torch.full((3 * BM * BN + 6 + 8,), -1.0, dtype=torch.float32, device=dev)
    k_bptr[(1,)](x, o, M, N, BM=BM, BN=BN)
    torch.cuda.synchronize()
    return {"o": bits(o)}


with open(os.path.join(OUT, "measured.json"), "w") as f:
    json.dump(res, f, indent=1)
print(json.dumps({k: ("error" in v if isinstance(v, dict) else v) for k, v in res.items()}))
