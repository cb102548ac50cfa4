import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

from hidet.lang.types import void_p, void

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a: ~f32, q: ~i32, out: ~f32, iout: ~i32):
        attrs.func_kind = 'cpu_kernel'
        x = a[0]
        p = ~x
        p[0] = p[0] * 2.0 + a[1]
        out[0] = x
        x = x + 1.0
        out[1] = p[0]
        y: i32 = q[0]
        r = ~y
        for i in range(4):
            r[0] = r[0] + q[i]
            y = y * 2
        iout[0] = y
        z: i32
        s = ~z
        s[0] = q[3]
        iout[1] = z - q[2]
        w: f32 = a[2]
        v = cast(~w, void_p)
        cast(v, ~f32)[0] = a[3]
        out[2] = w

module = script_module.build()
