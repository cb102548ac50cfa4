import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a: f32[8, 8], b: f32[8, 8], c: f32[8, 8]):
        attrs.func_kind = 'cpu_kernel'
        # 4 x 4 output tiles accumulated in a local tensor, k in tiles of 4
        for bi, bj in grid(2, 2):
            acc = tensor(dtype=f32, shape=[4, 4])
            for i, j in grid(4, 4):
                acc[i, j] = 0.0
            for bk in range(2):
                for i, j in grid(4, 4):
                    for k in range(4):
                        acc[i, j] = acc[i, j] + a[bi * 4 + i, bk * 4 + k] * b[bk * 4 + k, bj * 4 + j]
            for i, j in grid(4, 4):
                c[bi * 4 + i, bj * 4 + j] = acc[i, j]

module = script_module.build()
