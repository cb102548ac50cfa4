import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a: i8[4], f: f32[4], d: f64[4], o8: i8[4], o32: i32[4], of: f32[4], od: f64[4]):
        attrs.func_kind = 'cpu_kernel'
        for i in range(4):
            x = a[i]
            x = x + x
            o8[i] = x
            s = 0
            s = s + f[i]
            s = s + f[i]
            o32[i] = s
            h = 1.5
            h = h * d[i]
            of[i] = h
            e = d[i]
            e = e + f[i]
            od[i] = e

module = script_module.build()
