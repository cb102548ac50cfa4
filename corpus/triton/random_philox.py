import triton
import triton.language as tl


# Philox random numbers: one program per seed (a runtime `if` picks it).
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
