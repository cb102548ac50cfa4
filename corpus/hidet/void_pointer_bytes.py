import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

from hidet.lang.types import void_p, void

with hidet.script_module() as script_module:
    @hidet.script
    def load_at(p: void_p, i: i32) -> f64:
        attrs.func_kind = 'cpu_internal'
        return cast(p + i * 8, ~f64)[0]

    @hidet.script
    def kernel(v: void_p, a: ~f32, d: ~f64, out: ~f32, dout: ~f64, n: i32):
        attrs.func_kind = 'cpu_kernel'
        w = v + 8
        out[0] = cast(w, ~f32)[0]
        u = w - 4
        out[1] = cast(u, ~f32)[0]
        k = n * 4
        out[2] = cast(v + k, ~f32)[0]
        t: void_p = a
        t += 12
        out[3] = cast(t, ~f32)[0]
        b = cast(a, void_p)
        c = cast(b + 4 * n - 4, ~f32)
        out[4] = c[1]
        e = cast(d, void_p) + 16
        dout[0] = cast(e, ~f64)[0]
        dout[1] = load_at(cast(d, void_p), n)

module = script_module.build()
