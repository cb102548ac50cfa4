# Probe: f32_to_bf16_rtz (run: python3 tools/triton_run.py tools/probes/f32_to_bf16_rtz.py --launch tools/probes/f32_to_bf16_rtz.json --json)
# float32 -> bfloat16 with fp_downcast_rounding="rtz" and plain .to().
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(x_ptr, rtz_ptr, plain_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    rtz = x.to(tl.bfloat16, fp_downcast_rounding="rtz")
    tl.static_print("KSEM", "rtz", rtz)
    tl.store(rtz_ptr + offs, rtz)
    plain = x.to(tl.bfloat16)
    tl.static_print("KSEM", "plain", plain)
    tl.store(plain_ptr + offs, plain)
