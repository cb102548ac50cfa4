import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a: f32[8], b: i32[8], out: f32[3], cnt: i32[2]):
        attrs.func_kind = 'cpu_kernel'
        acc: f32 = 0.0
        n: i32 = 0
        big: f32
        big = a[0]
        for i in range(8):
            acc = acc + a[i] * f32(b[i])
            if a[i] > big:
                big = a[i]
            if b[i] > 0:
                n = n + 1
        m: i64 = 1
        for i in range(8):
            m = m * 3 + b[i]
        out[0] = acc
        out[1] = big
        out[2] = f32(m)
        cnt[0] = n
        cnt[1] = i32(m)

module = script_module.build()
