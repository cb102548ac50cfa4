import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a: i32[4], b: i32[4], u: u16[4], v: u16[4], o: i32[12], ou: u16[12]):
        attrs.func_kind = 'cpu_kernel'
        for i in range(4):
            o[i] = a[i] & b[i]
            o[4 + i] = a[i] | b[i]
            o[8 + i] = a[i] ^ b[i]
            ou[i] = u[i] & v[i]
            ou[4 + i] = u[i] | v[i]
            ou[8 + i] = u[i] ^ v[i]

module = script_module.build()
