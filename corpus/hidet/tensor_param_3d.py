import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a: i64[2, 3, 4], s: i64[2, 3], out: i64[2, 3, 4]):
        attrs.func_kind = 'cpu_kernel'
        for i, j in hidet.lang.grid(2, 3):
            acc: i64 = 0
            for k in range(4):
                acc = acc + a[i, j, k] * (k + 1)
                out[i, j, k] = acc
            s[i, j] = acc

module = script_module.build()
