import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

from hidet.ir.dtypes import complex64, complex128, float32x4, float32x8
from hidet.ir.primitives.complex import real, imag, conj, make_complex

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a: ~f32, out: ~f32):
        attrs.func_kind = 'cpu_kernel'
        p = cast(a, ~complex64)
        t = tensor(dtype=complex64, shape=[3])
        acc: complex64 = p[0]
        for i in range(3):
            t[i] = acc
            acc = acc * p[1] + p[2]
            acc += t[i]
        q = p + 1
        o = cast(out, ~complex64)
        o[0] = acc
        o[1] = q[1]
        r = ~t[1]
        o[2] = r[1]
        t[0] *= p[2]
        o[3] = t[0]

module = script_module.build()
