"""The seed's loop rule: acc stays int32 inside the loop, so each += truncates (0, 0, 0, 0); outside a loop y becomes float64."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit
def loop_type_rule(x, out):
    acc = int32(0)
    for k in range(x.shape[0]):
        acc += x[k]
    out[0] = acc
    y = 0
    y = 0.5 + y
    out[1] = y * 4
