"""3-d ids: z-dimension of threads and blocks."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit
def ids_3d(out):
    x, y, z = cuda.grid(3)
    out[z, y, x] = cuda.threadIdx.z * 100 + cuda.blockIdx.z * 10 + cuda.blockDim.z
