# Probe: f32_to_fp8 (run: python3 tools/triton_run.py tools/probes/f32_to_fp8.py --launch tools/probes/f32_to_fp8.json --json)
# float32 -> float8e4nv / float8e5 with .to(): values beyond the max (448 / 57344),
# inf, nan, halfway cases (RNE?), subnormal halfway cases.
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(x_ptr, to_e4m3_ptr, to_e5m2_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    to_e4m3 = x.to(tl.float8e4nv)
    tl.static_print("KSEM", "to_e4m3", to_e4m3)
    tl.store(to_e4m3_ptr + offs, to_e4m3)
    to_e5m2 = x.to(tl.float8e5)
    tl.static_print("KSEM", "to_e5m2", to_e5m2)
    tl.store(to_e5m2_ptr + offs, to_e5m2)
