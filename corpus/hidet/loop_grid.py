import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a: i32[2, 3, 4], out: i32[24], tot: i64[1]):
        attrs.func_kind = 'cpu_kernel'
        t: i64 = 0
        for i, j, k in hidet.lang.grid(2, 3, 4):
            out[(k * 3 + j) * 2 + i] = a[i, j, k] * 10 + i - j + k
            t = t + a[i, j, k]
        tot[0] = t

module = script_module.build()
