import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a: i32[4], b: i64[4], c: u64[4], of: f32[12], od: f64[8]):
        attrs.func_kind = 'cpu_kernel'
        for i in range(4):
            of[i] = f32(a[i])
            of[4 + i] = f32(b[i])
            of[8 + i] = f32(c[i])
            od[i] = f64(b[i])
            od[4 + i] = f64(c[i])

module = script_module.build()
