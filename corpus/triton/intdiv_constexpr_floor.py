# Rule (seed, last paragraph): integer // and % follow Python (floor) semantics when
# every input is a scalar (literal or tl.constexpr), and C (truncation) semantics as
# soon as a tensor is involved.
#
#   A = -7, B = 2 (tl.constexpr launch arguments); x (int32) = [-7, 7, -9, 9]
#   py[0] = A // B   = floor(-3.5) = -4
#   py[1] = A % B    = -7 - 2*(-4) = 1
#   py[2] = -9 // 4  (literals only; unary minus binds first) = floor(-2.25) = -3
#   py[3] = -9 % 4   = -9 - 4*(-3) = 3
#     -> py = [-4, 1, -3, 3]   (C would give [-3, -1, -2, -1])
#   cq = x // B  (tensor // constexpr -> C): [-3, 3, -4, 4]
#   cr = x % B   (C):                        [-1, 1, -1, 1]
#   mix = x + A // B: A // B is folded first in Python (-4), then added:
#                                            [-11, 3, -13, 5]
import triton
import triton.language as tl


@triton.jit
def intdiv_constexpr_floor_kernel(x_ptr, py_ptr, cq_ptr, cr_ptr, mix_ptr, A: tl.constexpr, B: tl.constexpr,
                                  BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(py_ptr + 0, A // B)
    tl.store(py_ptr + 1, A % B)
    tl.store(py_ptr + 2, -9 // 4)
    tl.store(py_ptr + 3, -9 % 4)
    tl.store(cq_ptr + offs, x // B)
    tl.store(cr_ptr + offs, x % B)
    tl.store(mix_ptr + offs, x + A // B)
