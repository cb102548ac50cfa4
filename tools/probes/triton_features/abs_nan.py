# tl.abs and arithmetic on NaN operands with the sign bit set, float64 and
# float32 (fuzz seed 1701 program 4951: `tl.abs(v3 * v1)` of a float64 NaN
# 0xfff8000000000000 came back with its sign on Triton 3.6, H200).
# Run: python3 tools/triton_run.py tools/probes/triton_features/abs_nan.py \
#        --launch tools/probes/triton_features/abs_nan_launch.json --json
import triton
import triton.language as tl


@triton.jit
def abs_nan(x_ptr, y_ptr, abs_ptr, mul_ptr, absmul_ptr, add_ptr, neg_ptr,
            f_ptr, fabs_ptr, fabsmul_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(abs_ptr + offs, tl.abs(x))
    tl.store(mul_ptr + offs, x * y)
    tl.store(absmul_ptr + offs, tl.abs(x * y))
    tl.store(add_ptr + offs, tl.abs(x * y) + 1.0)
    tl.store(neg_ptr + offs, -x)
    f = tl.load(f_ptr + offs)
    tl.store(fabs_ptr + offs, tl.abs(f))
    tl.store(fabsmul_ptr + offs, tl.abs(f * 1.5))
