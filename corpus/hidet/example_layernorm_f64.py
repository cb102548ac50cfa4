import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

from hidet.ir.primitives.math import sqrt

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(x: f64[3, 16], g: f64[16], y: f64[3, 16]):
        attrs.func_kind = 'cpu_kernel'
        for r in range(3):
            mean: f64 = 0.0
            for k in range(16):
                mean = mean + x[r, k]
            mean = mean / 16
            var: f64 = 0.0
            for k in range(16):
                d = x[r, k] - mean
                var = var + d * d
            var = var / 16
            inv = 1.0 / sqrt(var + 1e-5)
            for k in range(16):
                y[r, k] = (x[r, k] - mean) * inv * g[k]

module = script_module.build()
