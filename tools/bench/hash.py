import triton
import triton.language as tl

@triton.jit
def hash_kernel(out_ptr, seed, n, BLOCK: tl.constexpr, ROUNDS: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = offs.to(tl.uint32) ^ seed
    for r in range(ROUNDS):
        x = x ^ (x >> 16)
        x = x * 0x7FEB352D
        x = x ^ (x >> 15)
        x = x * 0x2C1B3C6D
        x = x ^ (x >> 16)
    h = x.to(tl.int64) * 0x100000001B3 + offs.to(tl.int64)
    h = h ^ (h >> 29)
    tl.store(out_ptr + offs, h, mask=mask)
