import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

from hidet.lang.types import f16

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a: ~f32, h: ~f16, out: ~f32, hout: ~f16, n: i32):
        attrs.func_kind = 'cpu_kernel'
        p = out + 1
        pp = ~p
        pp[0][1] = a[0] * 2.0
        q = pp[0]
        q[2] = a[1]
        pp[0] = p + 3
        p[0] = a[2]
        r: ~(~f32) = ~p
        s = r[0]
        s[1] = a[3] + 1.0
        for i in range(n):
            p = p + 1
        u = pp[0]
        out[0] = u[0]
        (out + 6)[0] = a[4]
        (pp + 0)[0][2] = a[5]
        p = a
        w = r[0]
        out[9] = w[3]
        g = h + 1
        gg: ~(~f16) = ~g
        gg[0][0] = h[0] + h[2]
        gg[0] = h
        v = gg[0]
        hout[0] = v[1]

module = script_module.build()
