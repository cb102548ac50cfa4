import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

from hidet.lang.mapping import auto_map

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a: f32[6, 4], t: f32[4, 6]):
        attrs.func_kind = 'cpu_kernel'
        # auto_map(4, 6, workers=3) = repeat(4, 2).spatial(1, 3); the transpose goes
        # through a column-major local tensor
        tile = tensor(dtype=f32, layout=column_major(4, 6))
        for w in range(3):
            for i, j in auto_map(4, 6, workers=3).on(w):
                tile[i, j] = a[j, i]
        for i, j in grid(4, 6):
            t[i, j] = tile[i, j]

module = script_module.build()
