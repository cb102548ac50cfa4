# Rule: a `while` loop on a runtime scalar condition; k (0-d int32) and acc (block)
# are loop-carried.
#
#   k starts at 2 (loaded), limit = 100
#   iterations: k=2: acc += 2, k = 6; k=6: acc += 6, k = 18; k=18: acc += 18, k = 54;
#               k=54: acc += 54, k = 162; 162 < 100 is false -> stop
#   acc = 2 + 6 + 18 + 54 = 80 in every lane
#   out = acc + [0, 1, 2, 3] = [80, 81, 82, 83];  kout = [162]
import triton
import triton.language as tl


@triton.jit
def loop_while_kernel(k_ptr, out_ptr, kout_ptr, limit, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    k = tl.load(k_ptr)
    acc = tl.zeros([BLOCK], dtype=tl.int32)
    while k < limit:
        acc = acc + k
        k = k * 3
    tl.store(out_ptr + offs, acc + offs)
    tl.store(kout_ptr, k)
