import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

from hidet.lang.mapping import spatial, repeat

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a: i32[4, 8], b: i32[4, 8], who: i32[4, 8]):
        attrs.func_kind = 'cpu_kernel'
        # four workers share a 4 x 8 grid: spatial(2, 2) workers, each repeats 2 x 4
        for w in range(4):
            for i, j in spatial(2, 2).repeat(2, 4).on(w):
                b[i, j] = a[i, j] * 2 + 1
                who[i, j] = w

module = script_module.build()
