import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(d: f64[4], f: f32[4], a: i32[4], u: u8[4], od: f64[20]):
        attrs.func_kind = 'cpu_kernel'
        for i in range(4):
            od[i] = d[i] * 0.5
            od[4 + i] = f[i] * 0.1
            od[8 + i] = a[i] + 1.5
            od[12 + i] = u[i] + 0.3
            od[16 + i] = 1.1 * f[i]

module = script_module.build()
