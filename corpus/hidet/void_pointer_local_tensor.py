import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

from hidet.lang.types import void_p, void

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a: ~f32, out: ~f32):
        attrs.func_kind = 'cpu_kernel'
        t = tensor(dtype=f32, shape=[4])
        v = cast(~t[0], void_p)
        for i in range(4):
            cast(v + 4 * i, ~f32)[0] = a[i] * 2.0
        q = cast(v + 8, ~f32)
        out[0] = q[0] + q[1]
        out[1] = t[0] - t[1]

module = script_module.build()
