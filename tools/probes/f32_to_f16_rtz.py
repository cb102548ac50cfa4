# Probe: f32_to_f16_rtz (run: python3 tools/triton_run.py tools/probes/f32_to_f16_rtz.py --launch tools/probes/f32_to_f16_rtz.json --json)
# float32 -> float16 with fp_downcast_rounding="rtz" and "rtne" (and plain .to()).
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(x_ptr, rtz_ptr, rtne_ptr, plain_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    rtz = x.to(tl.float16, fp_downcast_rounding="rtz")
    tl.static_print("KSEM", "rtz", rtz)
    tl.store(rtz_ptr + offs, rtz)
    rtne = x.to(tl.float16, fp_downcast_rounding="rtne")
    tl.static_print("KSEM", "rtne", rtne)
    tl.store(rtne_ptr + offs, rtne)
    plain = x.to(tl.float16)
    tl.static_print("KSEM", "plain", plain)
    tl.store(plain_ptr + offs, plain)
