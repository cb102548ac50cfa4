# Arithmetic with a NaN constant: the GPU's add/mul give the canonical NaN
# 0x7fffffff; a compiler that folds `x + NaN` to the constant keeps 0x7fc00000.
import triton
import triton.language as tl


@triton.jit
def nan_constant_fold(x_ptr, a_ptr, m_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(a_ptr + offs, x + float("nan"))
    tl.store(m_ptr + offs, x * float("nan"))
