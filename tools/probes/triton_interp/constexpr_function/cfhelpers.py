import triton
import triton.language as tl


@triton.constexpr_function
def inner(x):
    return x + 1


@triton.constexpr_function
def cube_plus(x):
    return inner(x * x * x)


@triton.jit
def jit_uses(x):
    return cube_plus(x)
