import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a: f32[6], b: f32[6], x: f32[6], y: f32[6], o: f32[18], c: i32[18]):
        attrs.func_kind = 'cpu_kernel'
        for i in range(6):
            o[i] = a[i] * b[i]
            o[6 + i] = a[i] / b[i]
            o[12 + i] = a[i] + b[i]
            c[i] = x[i] < y[i]
            c[6 + i] = x[i] == y[i]
            c[12 + i] = x[i] != y[i]

module = script_module.build()
