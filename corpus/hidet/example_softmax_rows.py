import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

from hidet.ir.primitives.math import exp

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(x: f32[4, 8], y: f32[4, 8]):
        attrs.func_kind = 'cpu_kernel'
        for r in range(4):
            mx: f32 = x[r, 0]
            for k in range(8):
                if x[r, k] > mx:
                    mx = x[r, k]
            total: f32 = 0.0
            for k in range(8):
                y[r, k] = exp(x[r, k] - mx)
                total = total + y[r, k]
            for k in range(8):
                y[r, k] = y[r, k] / total

module = script_module.build()
