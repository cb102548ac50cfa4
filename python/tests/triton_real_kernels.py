"""A kernel defined with real Triton's @triton.jit (imported only where
Triton is installed), wrapped by ksem.triton.jit in test_triton.py."""

import triton
import triton.language as tl


@triton.jit
def sub_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) - tl.load(y_ptr + offs, mask=mask), mask=mask)
