# Probe: f64_to_f32_rtz (run: python3 tools/triton_run.py tools/probes/f64_to_f32_rtz.py --launch tools/probes/f64_to_f32_rtz.json --json)
# float64 -> float32 with fp_downcast_rounding="rtz" (allowed?)
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(x_ptr, rtz_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    rtz = x.to(tl.float32, fp_downcast_rounding="rtz")
    tl.static_print("KSEM", "rtz", rtz)
    tl.store(rtz_ptr + offs, rtz)
