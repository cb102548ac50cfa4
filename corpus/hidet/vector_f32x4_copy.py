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
        src = cast(a, ~float32x4)
        dst = cast(out, ~float32x4)
        for i in range(2):
            v = src[i]
            dst[1 - i] = v
        w: float32x4 = src[0]
        dst[2] = w
        lanes = cast(cast(out, ~float32x4) + 2, ~f32)
        lanes[1] = a[7]

module = script_module.build()
