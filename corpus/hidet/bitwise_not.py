import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a: i32[4], u: u8[4], o: i32[4], ou: u8[4], ow: i64[4]):
        attrs.func_kind = 'cpu_kernel'
        for i in range(4):
            o[i] = bitwise_not(a[i])
            ou[i] = bitwise_not(u[i])
            ow[i] = bitwise_not(u[i])

module = script_module.build()
