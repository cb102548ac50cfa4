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
        t = tensor(dtype=float32x8, shape=[2])
        p = cast(~t[0], ~f32)
        for k in range(8):
            p[k] = a[k]
        t[1] = t[0]
        q = cast(~t[1], ~f32)
        for k in range(8):
            out[k] = q[7 - k]

module = script_module.build()
