import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a8: i8[4], b32: i32[4], u32a: u32[4], o8: i8[8], o32: i32[4], ow: i64[12]):
        attrs.func_kind = 'cpu_kernel'
        for i in range(4):
            o8[i] = a8[i] & b32[i]
            o8[4 + i] = a8[i] ^ b32[i]
            o32[i] = b32[i] ^ a8[i]
            ow[i] = a8[i] & b32[i]
            ow[4 + i] = b32[i] | u32a[i]
            ow[8 + i] = a8[i] ^ u32a[i]

module = script_module.build()
