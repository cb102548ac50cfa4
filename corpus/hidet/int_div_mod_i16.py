import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a: i16[8], b: i16[8], out: i16[24]):
        attrs.func_kind = 'cpu_kernel'
        for i in range(8):
            out[i] = a[i] / b[i]
            out[8 + i] = a[i] // b[i]
            out[16 + i] = a[i] % b[i]

module = script_module.build()
