import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a: f32[3, 4], b: f32[4, 3]):
        attrs.func_kind = 'cpu_kernel'
        for i in range(3):
            for j in range(4):
                b[j, i] = a[i, j] * 2.0 - a[2 - i, 3 - j]

module = script_module.build()
