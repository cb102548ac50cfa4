# Probe: where_literal_i8_300 (run: python3 tools/triton_run.py tools/probes/where_literal_i8_300.py --launch tools/probes/where_literal_i8_300.json --json)
# tl.where(c, int8 tensor, 300): is the out-of-range literal refused?
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(c_ptr, i8_ptr, r_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    c = tl.load(c_ptr + offs)
    i8 = tl.load(i8_ptr + offs)
    r = tl.where(c, i8, 300)
    tl.static_print("KSEM", "r", r)
    tl.store(r_ptr + offs, r)
