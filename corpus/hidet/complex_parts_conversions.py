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
        x = cast(a, ~complex64)[0]
        o = cast(out, ~complex64)
        o[0] = make_complex(imag(x), real(x))
        o[1] = conj(x)
        o[2] = -x
        z = complex128(x)
        w = z * z
        o[3] = complex64(w)
        out[8] = real(x) * imag(x)
        o[5] = make_complex(1.0, 2.0)
        o[6] = complex64(a[2])
        o[7] = x != conj(x)

module = script_module.build()
