# Probe: float_mod_hard (run: python3 tools/triton_run.py tools/probes/float_mod_hard.py --launch tools/probes/float_mod_hard.json --json)
# float % where x/y is large or rounds to an integer: is it exact fmod?  (float32 and
# float64; Triton 3.6 lowers frem as x - trunc(div.rn(x, y)) * y with an fma.)
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(fa_ptr, fb_ptr, da_ptr, db_ptr, f32_mod_ptr, f64_mod_ptr, f64_div_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    fa = tl.load(fa_ptr + offs)
    fb = tl.load(fb_ptr + offs)
    da = tl.load(da_ptr + offs)
    db = tl.load(db_ptr + offs)
    f32_mod = fa % fb
    tl.static_print("KSEM", "f32_mod", f32_mod)
    tl.store(f32_mod_ptr + offs, f32_mod)
    f64_mod = da % db
    tl.static_print("KSEM", "f64_mod", f64_mod)
    tl.store(f64_mod_ptr + offs, f64_mod)
    f64_div = da / db
    tl.static_print("KSEM", "f64_div", f64_div)
    tl.store(f64_div_ptr + offs, f64_div)
