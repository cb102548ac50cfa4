import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(d: f64[6], f: f32[6], of: f32[6], od: f64[6]):
        attrs.func_kind = 'cpu_kernel'
        for i in range(6):
            of[i] = f32(d[i])
            od[i] = f64(f[i]) * f64(f[i])

module = script_module.build()
