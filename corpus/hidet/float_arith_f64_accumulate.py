import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a: f64[32], o: f64[3]):
        attrs.func_kind = 'cpu_kernel'
        s: f64 = 0.0
        p: f64 = 1.0
        for i in range(32):
            s = s + a[i]
            p = p * (a[i] + 1.5)
        o[0] = s
        o[1] = p
        o[2] = s / p

module = script_module.build()
