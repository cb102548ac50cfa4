# tl.argmax / tl.argmin (and tl.max / tl.min) over rows with NaN, infinities,
# ties and signed zeros: which index wins.
import triton
import triton.language as tl


@triton.jit
def argminmax_nan(x_ptr, amax_ptr, amin_ptr, vmax_ptr, vmin_ptr, N: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + pid * N + offs)
    tl.store(amax_ptr + pid, tl.argmax(x, axis=0))
    tl.store(amin_ptr + pid, tl.argmin(x, axis=0))
    tl.store(vmax_ptr + pid, tl.max(x, axis=0))
    tl.store(vmin_ptr + pid, tl.min(x, axis=0))
