import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def row_sum(r: ~f32, n: i32) -> f32:
        attrs.func_kind = 'cpu_internal'
        s: f32 = 0.0
        for k in range(n):
            s = s + r[k]
        return s

    @hidet.script
    def at(t: f32[4, 4], i: i32, j: i32) -> f32:
        attrs.func_kind = 'cpu_internal'
        return t[i, j]

    @hidet.script
    def fill(p: ~i32, n: i32, v: i32):
        attrs.func_kind = 'cpu_internal'
        for k in range(n):
            p[k] = v + k

    @hidet.script
    def kernel(a: f32[4, 4], cnt: i32[4], out: f32[4]):
        attrs.func_kind = 'cpu_kernel'
        for i in range(4):
            out[i] = row_sum(~a[i, 0], 4) + at(a, i, 3 - i)
        fill(~cnt[0], 4, 7)
        cnt[2] = cnt[2] + 1

module = script_module.build()
