import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a: i32[4], s: i32[4], a8: i8[4], u8a: u8[4], a64: i64[4], o32: i32[8], o8: i8[4], ow: i64[8], ou: u32[4]):
        attrs.func_kind = 'cpu_kernel'
        for i in range(4):
            o32[i] = a[i] << s[i]
            o32[4 + i] = (a[i] - 1000) >> s[i]
            o8[i] = a8[i] << 1
            ow[i] = a8[i] << 1
            ow[4 + i] = a64[i] << s[i] + 20
            ou[i] = u8a[i] << 1
            ou[i] = ou[i] + (u8a[i] >> 3)

module = script_module.build()
