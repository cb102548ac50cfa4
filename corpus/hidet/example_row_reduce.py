import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(x: f32[6, 10], s: f32[6], m: f32[6], idx: i32[6]):
        attrs.func_kind = 'cpu_kernel'
        for r in range(6):
            acc: f32 = 0.0
            best: f32 = x[r, 0]
            at: i32 = 0
            for k in range(10):
                acc = acc + x[r, k]
                if x[r, k] > best:
                    best = x[r, k]
                    at = k
            s[r] = acc
            m[r] = best
            idx[r] = at

module = script_module.build()
