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
        f = a[2]
        o = cast(out, ~complex64)
        o[0] = x * f
        o[1] = f - x
        o[2] = x + 2.5
        o[3] = 0.1 * x
        o[4] = x / f
        o[5] = x * 1
        o[6] = complex64(f)
        o[7] = x == f

module = script_module.build()
