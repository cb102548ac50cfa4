import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a8: i8[4], b8: i8[4], u8a: u8[4], a16: i16[4], u16a: u16[4], u32a: u32[4], o8: i8[12], ou8: u8[8], o16: i16[4], ou16: u16[4], ou32: u32[4]):
        attrs.func_kind = 'cpu_kernel'
        for i in range(4):
            o8[i] = a8[i] + b8[i]
            o8[4 + i] = a8[i] * b8[i]
            o8[8 + i] = a8[i] - b8[i]
            ou8[i] = u8a[i] - u8a[3 - i]
            ou8[4 + i] = u8a[i] * u8a[i]
            o16[i] = a16[i] * a16[i]
            ou16[i] = u16a[i] * u16a[3 - i]
            ou32[i] = u32a[i] - u32a[3 - i]
        acc: i8 = 0
        for i in range(4):
            acc = acc + a8[i]
            acc += b8[i]
        o8[11] = acc

module = script_module.build()
