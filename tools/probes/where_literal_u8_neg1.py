# Probe: where_literal_u8_neg1 (run: python3 tools/triton_run.py tools/probes/where_literal_u8_neg1.py --launch tools/probes/where_literal_u8_neg1.json --json)
# tl.where(c, uint8 tensor, -1): is the negative literal refused?
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(c_ptr, u8_ptr, r_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    c = tl.load(c_ptr + offs)
    u8 = tl.load(u8_ptr + offs)
    r = tl.where(c, u8, -1)
    tl.static_print("KSEM", "r", r)
    tl.store(r_ptr + offs, r)
