# Probe: f32_to_fp8_rtz (run: python3 tools/triton_run.py tools/probes/f32_to_fp8_rtz.py --launch tools/probes/f32_to_fp8_rtz.json --json)
# float32 -> float8e5 with fp_downcast_rounding="rtz" (allowed?)
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(x_ptr, to_e5m2_rtz_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    to_e5m2_rtz = x.to(tl.float8e5, fp_downcast_rounding="rtz")
    tl.static_print("KSEM", "to_e5m2_rtz", to_e5m2_rtz)
    tl.store(to_e5m2_rtz_ptr + offs, to_e5m2_rtz)
