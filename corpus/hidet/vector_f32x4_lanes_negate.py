import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

from hidet.ir.dtypes import complex64, complex128, float32x4, float32x8
from hidet.ir.primitives.complex import real, imag, conj, make_complex

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a: ~f32, k: i32, out: ~f32):
        attrs.func_kind = 'cpu_kernel'
        t = tensor(dtype=float32x4, shape=[3])
        for j in range(12):
            cast(~t[0], ~f32)[j] = a[j % 8]
        v = t[k]
        w = -v
        t[(k + 1) % 3] = w
        u = t[0]
        t[2] = -u
        for j in range(12):
            out[j] = cast(~t[0], ~f32)[j]
        out[12] = cast(~t[k], ~f32)[3]

module = script_module.build()
