import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a: f32[4, 8], out: f32[4]):
        attrs.func_kind = 'cpu_kernel'
        sums = tensor(dtype=f32, shape=[4])
        for i in range(4):
            sums[i] = 0.0
        for i, j in hidet.lang.grid(4, 8):
            sums[i] = sums[i] + a[i, j]
        for i in range(4):
            out[i] = sums[i]

module = script_module.build()
