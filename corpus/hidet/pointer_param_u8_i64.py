import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(b: ~u8, w: ~i64, n: i32):
        attrs.func_kind = 'cpu_kernel'
        i = 0
        while i < n:
            w[i] = w[i] * 3 + b[i]
            b[i] = b[i] + b[n - 1 - i]
            i += 1

module = script_module.build()
