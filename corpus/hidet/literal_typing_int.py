import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(u8a: u8[4], u32a: u32[4], a8: i8[4], a16: i16[4], ow: i64[28]):
        attrs.func_kind = 'cpu_kernel'
        for i in range(4):
            ow[i] = u8a[i] - 1
            ow[4 + i] = u32a[i] - 1
            ow[8 + i] = a8[i] * 2
            ow[12 + i] = (a8[i] * 1) * a8[i]
            ow[16 + i] = (1 * a8[i]) * a8[i]
            ow[20 + i] = (a16[i] - 0) * a16[i]
            ow[24 + i] = 2 - u8a[i]

module = script_module.build()
