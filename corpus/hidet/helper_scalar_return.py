import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def clamp(x: i32, lo: i32, hi: i32) -> i32:
        attrs.func_kind = 'cpu_internal'
        if x < lo:
            return lo
        if x > hi:
            return hi
        return x

    @hidet.script
    def sign(x: i32) -> i32:
        attrs.func_kind = 'cpu_internal'
        r: i32 = 0
        if x > 0:
            r = 1
        elif x < 0:
            r = -1
        return r

    @hidet.script
    def sq(x: f32) -> f32:
        attrs.func_kind = 'cpu_internal'
        return x * x

    @hidet.script
    def kernel(a: i32[8], f: f32[8], oi: i32[8], of: f32[8]):
        attrs.func_kind = 'cpu_kernel'
        for i in range(8):
            oi[i] = clamp(a[i], -5, 10) + sign(a[i])
            of[i] = sq(f[i]) - f32(sign(a[i]))

module = script_module.build()
