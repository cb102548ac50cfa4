import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

from hidet.ir.dtypes import complex64, complex128, float32x4, float32x8
from hidet.ir.primitives.complex import real, imag, conj, make_complex

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a: ~f64, out: ~f64):
        attrs.func_kind = 'cpu_kernel'
        x = cast(a, ~complex128)
        o = cast(out, ~complex128)
        o[0] = x[0] / x[1]
        o[1] = x[2] * x[3]
        o[2] = x[2] / x[3]
        o[3] = x[3] / x[2]
        o[4] = x[0] / x[2]
        o[5] = x[4] / x[5]

module = script_module.build()
