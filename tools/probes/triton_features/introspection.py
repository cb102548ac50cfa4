# dtype introspection as compile-time values, string constexprs, the
# f = triton.jit(f) call form and a tensor passed to a helper's constexpr
# parameter (issue 12).
import triton
import triton.language as tl


def scale(x, K: tl.constexpr):
    return x * K


scale = triton.jit(scale)


@triton.jit
def introspection(x_ptr, out_ptr, info_ptr, N: tl.constexpr, ACT: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    if ACT == "twice":
        y = x + x
    else:
        y = x
    if x_ptr.dtype.element_ty.is_fp16():
        y = y.to(tl.float32)
    z = tl.zeros((N,), dtype=x.dtype) + y.to(x.dtype)
    w = scale(z.to(tl.float32), offs.to(tl.float32))
    tl.store(out_ptr + offs, w)
    bits: tl.constexpr = x.dtype.primitive_bitwidth
    tl.store(info_ptr + offs, tl.full((N,), bits, tl.int32) + x.dtype.is_floating())
