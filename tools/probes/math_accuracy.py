# Accuracy kernels for tools/probes/run_all.py: one elementwise float32 function per
# compile (FN is a constexpr string).  run_all.py feeds random inputs and compares
# each result with a float64 reference rounded to float32.
import triton
import triton.language as tl


@triton.jit
def math_kernel(x_ptr, y_ptr, out_ptr, n, FN: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=1.0)
    y = tl.load(y_ptr + offs, mask=m, other=1.0)
    if FN == "div":
        r = x / y
    elif FN == "div_rn":
        r = tl.math.div_rn(x, y)
    elif FN == "fdiv":
        r = tl.math.fdiv(x, y)
    elif FN == "sqrt":
        r = tl.sqrt(x)
    elif FN == "sqrt_rn":
        r = tl.math.sqrt_rn(x)
    elif FN == "rsqrt":
        r = tl.rsqrt(x)
    elif FN == "exp":
        r = tl.exp(x)
    elif FN == "exp2":
        r = tl.exp2(x)
    elif FN == "log":
        r = tl.log(x)
    elif FN == "log2":
        r = tl.log2(x)
    elif FN == "sin":
        r = tl.sin(x)
    elif FN == "cos":
        r = tl.cos(x)
    elif FN == "erf":
        r = tl.erf(x)
    elif FN == "sigmoid":
        r = tl.sigmoid(x)
    elif FN == "recip":
        r = 1 / x
    else:
        r = x + y
    tl.store(out_ptr + offs, r, mask=m)
