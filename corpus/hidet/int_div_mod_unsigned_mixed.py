import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(u: u32[4], s: i32[4], w: u64[4], v: i64[4], o: i64[16]):
        attrs.func_kind = 'cpu_kernel'
        for i in range(4):
            o[i] = u[i] / s[i]
            o[4 + i] = s[i] % u[i]
            o[8 + i] = w[i] // v[i]
            o[12 + i] = u[i] % w[i]

module = script_module.build()
