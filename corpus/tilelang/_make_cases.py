"""Writes the corpus/tilelang cases: each NAME.py (a TileLang file) and
NAME.json (its launch). The expected bits are added by
tools/tilelang_expect.py, which runs every case on real TileLang's C target.

    python3 corpus/tilelang/_make_cases.py
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
HEAD = "import tilelang\nimport tilelang.language as T\n\n\n"


def buf(dtype, data):
    return {"buffer": {"dtype": dtype, "data": data}}


def rnd(dtype, n, seed, low=None, high=None):
    r = {"seed": seed}
    if low is not None:
        r["low"], r["high"] = low, high
    return {"buffer": {"dtype": dtype, "len": n, "init": {"random": r}}}


def zeros(dtype, n):
    return {"buffer": {"dtype": dtype, "len": n}}


def prim(params, body, grid="1", threads=1):
    ind = "\n".join("        " + l if l else "" for l in body.strip("\n").splitlines())
    return f"{HEAD}@T.prim_func\ndef main({params}):\n    with T.Kernel({grid}, threads={threads}) as bx:\n{ind}\n"


CASES = {}


def case(name, src, args, kernel=None, factory_args=None):
    launch = {"args": args}
    if kernel:
        launch = {"kernel": kernel, **launch}
    if factory_args:
        launch["factory_args"] = factory_args
    CASES[name] = (src, launch)


# ---- integer division: every form, every signed width -----------------------
for d in ["int8", "int16", "int32", "int64"]:
    case(f"div_forms_{d}", prim(
        f'A: T.Tensor((8,), "{d}"), B: T.Tensor((8,), "{d}"), C: T.Tensor((48,), "{d}")',
        """
for i in T.serial(8):
    C[i] = A[i] // B[i]
    C[8 + i] = A[i] % B[i]
    C[16 + i] = T.truncdiv(A[i], B[i])
    C[24 + i] = T.truncmod(A[i], B[i])
    C[32 + i] = T.floordiv(A[i], B[i])
    C[40 + i] = T.floormod(A[i], B[i])
"""), {"A": buf(d, [7, -7, 7, -7, 100, -100, 0, 5]), "B": buf(d, [2, 2, -2, -2, 7, 7, 3, -1]), "C": zeros(d, 48)})

case("ceildiv_positive", prim(
    'A: T.Tensor((6,), "int32"), B: T.Tensor((6,), "int32"), C: T.Tensor((6,), "int32")',
    "for i in T.serial(6):\n    C[i] = T.ceildiv(A[i], B[i])"),
    {"A": buf("int32", [7, -7, 8, 0, 1, 100]), "B": buf("int32", [2, 2, 2, 5, 3, 7]), "C": zeros("int32", 6)})

case("div_random_int32", prim(
    'A: T.Tensor((64,), "int32"), B: T.Tensor((64,), "int32"), C: T.Tensor((128,), "int32")',
    "for i in T.Parallel(64):\n    C[i] = A[i] // B[i]\n    C[64 + i] = A[i] % B[i]"),
    {"A": rnd("int32", 64, 1, -1000, 1000), "B": rnd("int32", 64, 2, 1, 50), "C": zeros("int32", 128)})

# ---- promotion ------------------------------------------------------------------
case("promote_int8_int32", prim(
    'A: T.Tensor((4,), "int8"), B: T.Tensor((4,), "int32"), C: T.Tensor((4,), "int32")',
    "for i in T.serial(4):\n    C[i] = A[i] * B[i] + A[i]"),
    {"A": buf("int8", [127, -128, 5, -1]), "B": buf("int32", [1000, 1000, -3, 7]), "C": zeros("int32", 4)})
case("promote_uint8_int8", prim(
    'A: T.Tensor((4,), "uint8"), B: T.Tensor((4,), "int8"), C: T.Tensor((4,), "uint8")',
    "for i in T.serial(4):\n    C[i] = A[i] + B[i]"),
    {"A": buf("uint8", [250, 1, 128, 0]), "B": buf("int8", [10, -2, -128, -1]), "C": zeros("uint8", 4)})
case("promote_int8_literal", prim(
    'A: T.Tensor((4,), "int8"), C: T.Tensor((4,), "int32")',
    "for i in T.serial(4):\n    C[i] = A[i] + 1 + 200"),
    {"A": buf("int8", [127, -128, 0, -1]), "C": zeros("int32", 4)})
case("promote_int8_wraps", prim(
    'A: T.Tensor((4,), "int8"), B: T.Tensor((4,), "int8"), C: T.Tensor((8,), "int8")',
    "for i in T.serial(4):\n    C[i] = A[i] + B[i]\n    C[4 + i] = A[i] * B[i]"),
    {"A": buf("int8", [100, -100, 127, 64]), "B": buf("int8", [100, -100, 1, 2]), "C": zeros("int8", 8)})
case("promote_int32_float16", prim(
    'A: T.Tensor((4,), "int32"), B: T.Tensor((4,), "float16"), C: T.Tensor((4,), "float16")',
    "for i in T.serial(4):\n    C[i] = A[i] + B[i]"),
    {"A": buf("int32", [2049, 70000, -3, 1]), "B": buf("float16", [0.5, 1.0, 0.25, 0.0009765625]), "C": zeros("float16", 4)})
case("promote_f16_float_literal", prim(
    'A: T.Tensor((4,), "float16"), C: T.Tensor((4,), "float32")',
    "for i in T.serial(4):\n    C[i] = A[i] * 100000.0"),
    {"A": buf("float16", [1.0, 0.1, 65504, -2.5]), "C": zeros("float32", 4)})
case("promote_f16_int_literal", prim(
    'A: T.Tensor((4,), "float16"), C: T.Tensor((4,), "float16")',
    "for i in T.serial(4):\n    C[i] = A[i] + 1"),
    {"A": buf("float16", [1.5, 2048, -1.0, 0.0001]), "C": zeros("float16", 4)})
case("promote_int64_float32", prim(
    'A: T.Tensor((4,), "int64"), B: T.Tensor((4,), "float32"), C: T.Tensor((4,), "float32")',
    "for i in T.serial(4):\n    C[i] = A[i] * B[i]"),
    {"A": buf("int64", [16777217, 3, -5, 1099511627776]), "B": buf("float32", [1.0, 0.1, 0.5, 2.0]), "C": zeros("float32", 4)})
case("promote_uint8_minus_literal", prim(
    'A: T.Tensor((4,), "uint8"), C: T.Tensor((4,), "int32")',
    "for i in T.serial(4):\n    C[i] = A[i] - 1"),
    {"A": buf("uint8", [0, 1, 255, 128]), "C": zeros("int32", 4)})
case("promote_int32_big_literal", prim(
    'A: T.Tensor((2,), "int32"), C: T.Tensor((2,), "int64")',
    "for i in T.serial(2):\n    C[i] = A[i] + 1099511627776"),
    {"A": buf("int32", [1, -2147483648]), "C": zeros("int64", 2)})

# ---- operators --------------------------------------------------------------------
case("bitwise_shifts_int32", prim(
    'A: T.Tensor((4,), "int32"), B: T.Tensor((4,), "int32"), C: T.Tensor((24,), "int32")',
    """
for i in T.serial(4):
    C[i] = A[i] & B[i]
    C[4 + i] = A[i] | B[i]
    C[8 + i] = A[i] ^ B[i]
    C[12 + i] = A[i] << (B[i] & 7)
    C[16 + i] = A[i] >> (B[i] & 7)
    C[20 + i] = ~A[i]
"""), {"A": buf("int32", [-7, 1000, 2147483647, -2147483648]), "B": buf("int32", [3, 5, 1, 31]), "C": zeros("int32", 24)})
case("shift_right_uint8", prim(
    'A: T.Tensor((4,), "uint8"), C: T.Tensor((4,), "uint8")',
    "for i in T.serial(4):\n    C[i] = A[i] >> 1"),
    {"A": buf("uint8", [255, 128, 1, 0]), "C": zeros("uint8", 4)})
case("float32_arith", prim(
    'A: T.Tensor((8,), "float32"), B: T.Tensor((8,), "float32"), C: T.Tensor((32,), "float32")',
    "for i in T.serial(8):\n    C[i] = A[i] + B[i]\n    C[8 + i] = A[i] - B[i]\n    C[16 + i] = A[i] * B[i]\n    C[24 + i] = A[i] / B[i]"),
    {"A": rnd("float32", 8, 5), "B": rnd("float32", 8, 6), "C": zeros("float32", 32)})
case("float16_arith", prim(
    'A: T.Tensor((8,), "float16"), B: T.Tensor((8,), "float16"), C: T.Tensor((24,), "float16")',
    "for i in T.serial(8):\n    C[i] = A[i] + B[i]\n    C[8 + i] = A[i] * B[i]\n    C[16 + i] = A[i] / B[i]"),
    {"A": rnd("float16", 8, 7), "B": rnd("float16", 8, 8), "C": zeros("float16", 24)})
case("float64_arith", prim(
    'A: T.Tensor((4,), "float64"), B: T.Tensor((4,), "float64"), C: T.Tensor((8,), "float64")',
    "for i in T.serial(4):\n    C[i] = A[i] * B[i] - A[i]\n    C[4 + i] = A[i] / B[i]"),
    {"A": buf("float64", [0.1, 1e300, -3.5, 7.0]), "B": buf("float64", [0.2, 1e10, 2.0, 3.0]), "C": zeros("float64", 8)})
case("min_max_nan", prim(
    'A: T.Tensor((4,), "float32"), B: T.Tensor((4,), "float32"), C: T.Tensor((8,), "float32")',
    "for i in T.serial(4):\n    C[i] = T.min(A[i], B[i])\n    C[4 + i] = T.max(A[i], B[i])"),
    {"A": buf("float32", ["nan", 1.0, -0.0, 2.0]), "B": buf("float32", [1.0, "nan", 0.0, -3.0]), "C": zeros("float32", 8)})
case("abs_clamp", prim(
    'A: T.Tensor((6,), "int32"), C: T.Tensor((12,), "int32")',
    "for i in T.serial(6):\n    C[i] = T.abs(A[i])\n    C[6 + i] = T.clamp(A[i], -5, 5)"),
    {"A": buf("int32", [-7, 7, 0, -3, 100, -2147483647]), "C": zeros("int32", 12)})
case("ternary_and_if_then_else", prim(
    'A: T.Tensor((8,), "int32"), C: T.Tensor((16,), "int32")',
    "for i in T.serial(8):\n    C[i] = A[i] if A[i] > 0 else -A[i] * 2\n    C[8 + i] = T.if_then_else(i < 4, A[i], 99)"),
    {"A": buf("int32", [3, -3, 0, 5, -8, 1, 2, -1]), "C": zeros("int32", 16)})
case("logical_and_or", prim(
    'A: T.Tensor((4,), "int32"), C: T.Tensor((8,), "int32")',
    "for i in T.serial(8):\n    if i < 4 and A[i] > 1:\n        C[i] = 1\n    if i >= 4 or A[i] == 0:\n        C[i] = C[i] + 10"),
    {"A": buf("int32", [0, 2, 1, 3]), "C": zeros("int32", 8)})

# ---- conversions ------------------------------------------------------------------
case("astype_float_to_int", prim(
    'A: T.Tensor((6,), "float32"), C: T.Tensor((12,), "int32")',
    "for i in T.serial(6):\n    C[i] = A[i].astype(\"int32\")\n    C[6 + i] = A[i] * 2"),
    {"A": buf("float32", [2.7, -2.7, 0.5, -0.5, 1e9, -123.999]), "C": zeros("int32", 12)})
case("astype_int_to_float16", prim(
    'A: T.Tensor((6,), "int32"), C: T.Tensor((6,), "float16")',
    "for i in T.serial(6):\n    C[i] = T.Cast(\"float16\", A[i])"),
    {"A": buf("int32", [2049, 2051, 65504, 65520, -1, 4097]), "C": zeros("float16", 6)})
case("astype_narrow_ints", prim(
    'A: T.Tensor((4,), "int32"), C: T.Tensor((4,), "int8"), D: T.Tensor((4,), "uint8")',
    "for i in T.serial(4):\n    C[i] = A[i].astype(\"int8\")\n    D[i] = A[i]"),
    {"A": buf("int32", [300, -129, 255, -1]), "C": zeros("int8", 4), "D": zeros("uint8", 4)})

# ---- loops and control flow ---------------------------------------------------------
case("loop_forms", prim(
    'A: T.Tensor((8,), "int32"), C: T.Tensor((40,), "int32")',
    """
for i in range(8):
    C[i] = A[i] + 1
for i in T.serial(0, 8, 2):
    C[8 + i] = A[i] * 2
for i in T.unroll(4):
    C[16 + i] = A[i] + A[i + 4]
for i, j in T.grid(2, 4):
    C[24 + i * 4 + j] = i * 10 + j
for k in T.Pipelined(4, num_stages=2):
    C[32 + k] = A[k] - k
i = T.alloc_var("int32", init=0)
while i < 4:
    C[36 + i] = 7
    i += 2
"""), {"A": buf("int32", [1, 2, 3, 4, 5, 6, 7, 8]), "C": zeros("int32", 40)})
case("break_continue", prim(
    'A: T.Tensor((8,), "int32"), C: T.Tensor((8,), "int32")',
    "for i in range(8):\n    if A[i] > 4:\n        break\n    if i % 2 == 1:\n        continue\n    C[i] = 1"),
    {"A": buf("int32", [0, 1, 2, 3, 4, 5, 6, 7]), "C": zeros("int32", 8)})
case("alloc_var_accumulate", prim(
    'A: T.Tensor((8,), "int32"), C: T.Tensor((2,), "int32")',
    "total = T.alloc_var(\"int32\", init=0)\nfor i in range(8):\n    if A[i] > 0:\n        total += A[i]\nC[0] = total\nx = T.alloc_var(\"int32\", init=5)\nfor i in T.serial(8):\n    x += A[i]\nC[1] = x"),
    {"A": buf("int32", [3, -1, 4, -1, 5, -9, 2, 6]), "C": zeros("int32", 2)})
case("max_finding", prim(
    'data: T.Tensor((8,), "float32"), out: T.Tensor((1,), "float32")',
    "max_val = T.alloc_var(\"float32\", init=T.min_value(\"float32\"))\nfor i in range(8):\n    max_val = T.max(max_val, data[i])\nout[0] = max_val"),
    {"data": rnd("float32", 8, 11), "out": zeros("float32", 1)})

# ---- buffers and copies -------------------------------------------------------------
case("negative_index_shape", prim(
    'A: T.Tensor((2, 3), "int32"), V: T.Tensor((4,), "int32"), C: T.Tensor((4,), "int32")',
    "C[0] = A[1, 2]\nC[1] = A[-1, -1] + A[0, -3]\nC[2] = V[-1]\nC[-1] = A.shape[0] * 10 + A.shape[1]"),
    {"A": buf("int32", [0, 1, 2, 3, 4, 5]), "V": buf("int32", [10, 20, 30, 40]), "C": zeros("int32", 4)})
case("copy_tiles_shared", prim(
    'A: T.Tensor((16,), "int32"), C: T.Tensor((16,), "int32")',
    "S = T.alloc_shared((4,), \"int32\")\nT.copy(A[bx * 4:(bx + 1) * 4], S)\nfor i in T.serial(4):\n    S[i] = S[i] * 3 - bx\nT.copy(S, C[bx * 4])", grid="4"),
    {"A": rnd("int32", 16, 3, -100, 100), "C": zeros("int32", 16)})
case("copy_ragged_in", prim(
    'A: T.Tensor((6,), "int32"), C: T.Tensor((8,), "int32")',
    "S = T.alloc_local((4,), \"int32\")\nT.fill(S, 7)\nT.copy(A[bx * 4], S)\nfor i in T.serial(4):\n    C[bx * 4 + i] = S[i]", grid="2"),
    {"A": buf("int32", [1, 2, 3, 4, 5, 6]), "C": zeros("int32", 8)})
case("copy_ragged_out", prim(
    'A: T.Tensor((8,), "int32"), C: T.Tensor((6,), "int32")',
    "S = T.alloc_shared((4,), \"int32\")\nfor i in T.serial(4):\n    S[i] = A[bx * 4 + i] + 100\nT.copy(S, C[bx * 4])", grid="2"),
    {"A": buf("int32", [1, 2, 3, 4, 5, 6, 7, 8]), "C": buf("int32", [0, 0, 0, 0, 0, 0])})
case("copy_2d_transpose_tiles", f"""{HEAD}@T.prim_func
def main(A: T.Tensor((4, 6), "int32"), C: T.Tensor((6, 4), "int32")):
    with T.Kernel(3, 2, threads=4) as (bx, by):
        S = T.alloc_shared((2, 2), "int32")
        T.copy(A[by * 2, bx * 2], S)
        for i, j in T.Parallel(2, 2):
            C[bx * 2 + j, by * 2 + i] = S[i, j]
""", {"A": rnd("int32", 24, 4, -50, 50), "C": zeros("int32", 24)})

# ---- helpers, factories, math ---------------------------------------------------------
case("helper_dequantize", f"""{HEAD}def dequantize(packed, scale, zero):
    return (packed - zero) * scale


@T.prim_func
def main(A: T.Tensor((8,), "int8"), C: T.Tensor((8,), "float32")):
    with T.Kernel(1, threads=1) as bx:
        for i in T.serial(8):
            C[i] = dequantize(A[i], 0.5, 3)
""", {"A": rnd("int8", 8, 9), "C": zeros("float32", 8)})
case("factory_elementwise", f"""{HEAD}def elementwise_add(N, block, dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype), C: T.Tensor((N,), dtype)):
        with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
            for i in T.Parallel(block):
                if bx * block + i < N:
                    C[bx * block + i] = A[bx * block + i] + B[bx * block + i]

    return main


if __name__ == "__main__":
    kernel = elementwise_add(100, 32)
""", {"A": rnd("float32", 100, 12), "B": rnd("float32", 100, 13), "C": zeros("float32", 100)},
    kernel="elementwise_add", factory_args={"N": 100, "block": 32})
case("math_exp_log_sqrt", prim(
    'A: T.Tensor((8,), "float32"), C: T.Tensor((24,), "float32")',
    "for i in T.serial(8):\n    C[i] = T.exp(A[i])\n    C[8 + i] = T.log(A[i] + 2.0)\n    C[16 + i] = T.sqrt(A[i] + 1.0)"),
    {"A": rnd("float32", 8, 14), "C": zeros("float32", 24)})

# ---- kernels of the kinds in TileLang's examples (loops instead of T.gemm and
# T.reduce_*, which the C target cannot compile) ----------------------------------------
case("example_gemm_loops", f"""{HEAD}def matmul(M, N, K, block_M, block_N, dtype="float16", accum_dtype="float"):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), accum_dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_s = T.alloc_local((block_M, K), dtype)
            B_s = T.alloc_local((K, block_N), dtype)
            T.copy(A[by * block_M, 0], A_s)
            T.copy(B[0, bx * block_N], B_s)
            for i, j in T.grid(block_M, block_N):
                acc = T.alloc_var(accum_dtype, init=0)
                for k in T.serial(K):
                    acc += A_s[i, k].astype(accum_dtype) * B_s[k, j].astype(accum_dtype)
                C[by * block_M + i, bx * block_N + j] = acc

    return main
""", {"A": rnd("float16", 64, 15), "B": rnd("float16", 64, 16), "C": zeros("float32", 64)},
    kernel="matmul", factory_args={"M": 8, "N": 8, "K": 8, "block_M": 4, "block_N": 4})
case("example_softmax_loops", f"""{HEAD}def softmax(M, N):
    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), Y: T.Tensor((M, N), "float32")):
        with T.Kernel(M, threads=32) as bx:
            m = T.alloc_var("float32", init=T.min_value("float32"))
            for j in T.serial(N):
                m = T.max(m, X[bx, j])
            s = T.alloc_var("float32", init=0)
            for j in T.serial(N):
                s += T.exp(X[bx, j] - m)
            for j in T.serial(N):
                Y[bx, j] = T.exp(X[bx, j] - m) / s

    return main
""", {"X": rnd("float32", 32, 17), "Y": zeros("float32", 32)}, kernel="softmax", factory_args={"M": 4, "N": 8})
case("example_layernorm_loops", f"""{HEAD}def layernorm(M, N, eps=1e-5):
    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), W: T.Tensor((N,), "float32"), Y: T.Tensor((M, N), "float32")):
        with T.Kernel(M, threads=32) as bx:
            mean = T.alloc_var("float32", init=0)
            for j in T.serial(N):
                mean += X[bx, j]
            mean = mean / N
            var = T.alloc_var("float32", init=0)
            for j in T.serial(N):
                var += (X[bx, j] - mean) * (X[bx, j] - mean)
            var = var / N
            for j in T.serial(N):
                Y[bx, j] = (X[bx, j] - mean) / T.sqrt(var + eps) * W[j]

    return main
""", {"X": rnd("float32", 32, 18), "W": rnd("float32", 8, 19), "Y": zeros("float32", 32)}, kernel="layernorm", factory_args={"M": 4, "N": 8})
case("example_row_reduce_loops", f"""{HEAD}def row_sum(M, N):
    @T.prim_func
    def main(X: T.Tensor((M, N), "int32"), S: T.Tensor((M,), "int32"), Mx: T.Tensor((M,), "int32")):
        with T.Kernel(M, threads=32) as bx:
            acc = T.alloc_var("int32", init=0)
            best = T.alloc_var("int32", init=T.min_value("int32"))
            for j in T.serial(N):
                acc += X[bx, j]
                best = T.max(best, X[bx, j])
            S[bx] = acc
            Mx[bx] = best

    return main
""", {"X": rnd("int32", 48, 20, -1000, 1000), "S": zeros("int32", 6), "Mx": zeros("int32", 6)}, kernel="row_sum", factory_args={"M": 6, "N": 8})
case("example_dequant_gemm_loops", f"""{HEAD}def dequant_matmul(M, N, K):
    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), Bq: T.Tensor((K, N), "int8"), scale: T.Tensor((N,), "float16"), C: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=128) as bx:
            for i, j in T.Parallel(M, N):
                acc = T.alloc_var("float32", init=0)
                for k in T.serial(K):
                    w = Bq[k, j].astype("float16") * scale[j]
                    acc += A[i, k].astype("float32") * w.astype("float32")
                C[i, j] = acc

    return main
""", {"A": rnd("float16", 64, 21), "Bq": rnd("int8", 32, 22, -8, 8), "scale": rnd("float16", 4, 23), "C": zeros("float32", 32)},
    kernel="dequant_matmul", factory_args={"M": 8, "N": 4, "K": 8})
case("example_attention_loops", f"""{HEAD}def attention(S, D):
    @T.prim_func
    def main(Q: T.Tensor((S, D), "float32"), K: T.Tensor((S, D), "float32"), V: T.Tensor((S, D), "float32"), O: T.Tensor((S, D), "float32")):
        with T.Kernel(S, threads=32) as bx:
            scores = T.alloc_local((S,), "float32")
            m = T.alloc_var("float32", init=T.min_value("float32"))
            for j in T.serial(S):
                dot = T.alloc_var("float32", init=0)
                for d in T.serial(D):
                    dot += Q[bx, d] * K[j, d]
                scores[j] = dot * 0.5
                m = T.max(m, scores[j])
            total = T.alloc_var("float32", init=0)
            for j in T.serial(S):
                scores[j] = T.exp(scores[j] - m)
                total += scores[j]
            for d in T.serial(D):
                acc = T.alloc_var("float32", init=0)
                for j in T.serial(S):
                    acc += scores[j] * V[j, d]
                O[bx, d] = acc / total

    return main
""", {"Q": rnd("float32", 16, 24), "K": rnd("float32", 16, 25), "V": rnd("float32", 16, 26), "O": zeros("float32", 16)},
    kernel="attention", factory_args={"S": 4, "D": 4})
case("example_vector_scale_2d_grid", f"""{HEAD}@T.prim_func
def main(A: T.Tensor((6, 8), "float32"), C: T.Tensor((6, 8), "float32")):
    with T.Kernel(2, 3, threads=64) as (bx, by):
        for i, j in T.Parallel(2, 4):
            C[by * 2 + i, bx * 4 + j] = A[by * 2 + i, bx * 4 + j] * 2.0 + T.Cast("float32", bx * 10 + by)
""", {"A": rnd("float32", 48, 27), "C": zeros("float32", 48)})


# real TileLang's C target cannot compile T.ieee_*: this case's expected bits
# are derived by hand (kept by this script; see its provenance)
case("ieee_rounding_modes", prim(
    'A: T.Tensor((4,), "float32"), B: T.Tensor((4,), "float32"), C: T.Tensor((24,), "float32")',
    """
for i in T.serial(4):
    C[i] = T.ieee_add(A[i], B[i], "rn")
    C[4 + i] = T.ieee_add(A[i], B[i], "rz")
    C[8 + i] = T.ieee_add(A[i], B[i], "ru")
    C[12 + i] = T.ieee_sub(A[i], B[i], "rd")
    C[16 + i] = T.ieee_fdiv(A[i], B[i], "rz")
    C[20 + i] = T.ieee_fsqrt(A[i], "ru")
"""), {"A": buf("float32", [1.0, 1.0, -1.0, 2.0]),
       "B": {"buffer": {"dtype": "float32", "bits": ["0x30800000", "0x40400000", "0x40400000", "0x3f800000"]}},
       "C": zeros("float32", 24)})


# real TileLang's C target cannot compile T.im2col nor a view of a parameter:
# this case's expected bits are derived by hand (kept by this script; see its
# provenance)
case("im2col_into_a_view", prim(
    'A: T.Tensor((1, 3, 3, 1), "float32"), C: T.Tensor((81,), "float32")',
    """
S = T.alloc_shared((9, 9), "float32")
T.im2col(A, S, 0, 0, 3, 1, 1, 1)
V = T.reshape(C, (9, 9))
T.copy(S, V)
"""), {"A": buf("float32", [float(v) for v in range(1, 10)]), "C": zeros("float32", 81)})


# Kernels of several launches (`with T.Kernel` after `with T.Kernel`, as in
# TileLang's split-K attention examples): each launch runs to its end before
# the next begins and sees every global write of the ones before. The
# buffers a later launch reads start with other values (Partial = 7s, R =
# 9s), so a launch run early or against stale memory changes the result.
case("two_launches_partial_sums", HEAD + """@T.prim_func
def main(A: T.Tensor((64,), "int32"), Partial: T.Tensor((4,), "int32"), Out: T.Tensor((2,), "int32")):
    with T.Kernel(4, threads=32) as bx:
        s = T.alloc_var("int32", init=0)
        for i in range(16):
            s += A[bx * 16 + i]
        Partial[bx] = s
    with T.Kernel(1, threads=1) as bx:
        t = T.alloc_var("int32", init=0)
        for j in range(4):
            t += Partial[j] * (j + 1)
        Out[0] = t
        Out[1] = Partial[3] - Partial[0]
""", {
    "A": rnd("int32", 64, 5),
    "Partial": buf("int32", [7, 7, 7, 7]),
    "Out": zeros("int32", 2)})
# three launches of different grids (2x2, 8, 1) and threads (64, 32, (4, 2))
case("three_launches_grids_and_threads", HEAD + """@T.prim_func
def main(A: T.Tensor((8, 8), "float32"), Tb: T.Tensor((8, 8), "float32"), R: T.Tensor((8,), "float32"), Out: T.Tensor((3,), "float32")):
    with T.Kernel(2, 2, threads=64) as (bx, by):
        S = T.alloc_shared((4, 4), "float32")
        T.copy(A[by * 4, bx * 4], S)
        for i, j in T.Parallel(4, 4):
            Tb[bx * 4 + j, by * 4 + i] = S[i, j] * 0.5 + 1.0
    with T.Kernel(8, threads=32) as row:
        acc = T.alloc_var("float32", init=0.0)
        for j in T.serial(8):
            acc += Tb[row, j] * (j + 1)
        R[row] = acc
    with T.Kernel(1, threads=(4, 2)) as _:
        m = T.alloc_var("float32", init=R[0])
        for i in range(1, 8):
            m = T.max(m, R[i])
        Out[0] = m
        Out[1] = R[0] - R[7]
        Out[2] = Tb[7, 0] + Tb[0, 7]
""", {
    "A": {"buffer": {"dtype": "float32", "shape": [8, 8], "len": 64, "init": {"random": {"seed": 11}}}},
    "Tb": {"buffer": {"dtype": "float32", "shape": [8, 8], "len": 64}},
    "R": buf("float32", [9.0] * 8),
    "Out": zeros("float32", 3)})


def main():
    for name, (src, launch) in CASES.items():
        with open(os.path.join(HERE, name + ".py"), "w") as f:
            f.write(src)
        path = os.path.join(HERE, name + ".json")
        old = {}
        if os.path.exists(path):
            with open(path) as f:
                old = json.load(f)
        for k in ("provenance", "expected"):
            if k in old:
                launch[k] = old[k]
        with open(path, "w") as f:
            json.dump(launch, f, indent=1)
            f.write("\n")
    print(f"{len(CASES)} cases")


if __name__ == "__main__":
    main()
