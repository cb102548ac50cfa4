import triton
import triton.language as tl


@triton.jit
def grid2d(o_ptr, BLOCK: tl.constexpr):
    px = tl.program_id(0)
    py = tl.program_id(1)
    ny = tl.num_programs(1)
    t = tl.full((1,), 7, tl.int32) + px
    s = tl.sum(t, axis=0)
    tl.store(o_ptr + px * ny + py, s * 100 + py)
    offs = tl.arange(0, BLOCK)
    w = tl.where(offs < 3, offs, -offs)
    tl.store(o_ptr + 64 + (px * ny + py) * BLOCK + offs, w * (py + 1))
