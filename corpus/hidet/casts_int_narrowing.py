import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a: i32[4], b: i64[4], u: u32[4], o8: i8[4], ou8: u8[4], o16: i16[4], ou32: u32[4], o32: i32[4], ob: i32[4]):
        attrs.func_kind = 'cpu_kernel'
        for i in range(4):
            o8[i] = i8(a[i])
            ou8[i] = cast(a[i], u8)
            o16[i] = i16(b[i])
            ou32[i] = u32(b[i])
            o32[i] = i32(u[i])
            ob[i] = i32(boolean(a[i]))

module = script_module.build()
