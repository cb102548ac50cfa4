import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a: f32[4, 4], out: f32[12]):
        attrs.func_kind = 'cpu_kernel'
        r = ~a[1, 2]
        for k in range(6):
            out[k] = r[k]
        for i in range(4):
            row = ~a[i, 0]
            out[6 + i] = row[3] - row[0]
        t = ~a[3, 3]
        t[0] = out[0] + out[1]
        out[10] = a[3, 3]
        u = ~out[11]
        v = ~a[0, 1]
        u[0] = v[2]

module = script_module.build()
