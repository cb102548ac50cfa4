import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(out: i32[6], n: i32, m: i32):
        attrs.func_kind = 'cpu_kernel'
        c0: i32 = 0
        for i in range(n):
            c0 = c0 + i
        c1: i32 = 0
        for i in range(7):
            c1 = c1 * 2 + i + 2
        c2: i32 = 0
        for i in hidet.lang.grid(n - m):
            c2 = c2 * 10 + (m + i)
        c3: i32 = 0
        for i, j in hidet.lang.grid(m, n):
            c3 = c3 + i * j + 1
        c4: i32 = 0
        for i in range(m - n):
            c4 = c4 + 1
        c5: i32 = 0
        for i in range(n):
            for j in range(i):
                c5 = c5 + j
        out[0] = c0
        out[1] = c1
        out[2] = c2
        out[3] = c3
        out[4] = c4
        out[5] = c5

module = script_module.build()
