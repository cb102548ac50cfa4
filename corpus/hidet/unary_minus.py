import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a8: i8[4], u8a: u8[4], u16a: u16[4], u32a: u32[4], u64a: u64[4], a64: i64[4], f: f32[4], o8: i8[4], ou8: u8[4], ou16: u16[4], ou32: u32[4], ou64: u64[4], o64: i64[4], of: f32[4], ow: i64[8]):
        attrs.func_kind = 'cpu_kernel'
        for i in range(4):
            o8[i] = -a8[i]
            ou8[i] = -u8a[i]
            ou16[i] = -u16a[i]
            ou32[i] = -u32a[i]
            ou64[i] = -u64a[i]
            o64[i] = -a64[i]
            of[i] = -f[i]
            ow[i] = -u8a[i]
            ow[4 + i] = -u32a[i]

module = script_module.build()
