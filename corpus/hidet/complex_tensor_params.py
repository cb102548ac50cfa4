import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

from hidet.ir.dtypes import complex64, complex128, float32x4, float32x8
from hidet.ir.primitives.complex import real, imag, conj, make_complex

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(x: complex64[2, 2], y: complex128[3], o: complex128[3]):
        attrs.func_kind = 'cpu_kernel'
        for i in range(2):
            for j in range(2):
                x[i, j] = x[i, j] * x[j, i]
        for k in range(3):
            o[k] = y[k] / y[(k + 1) % 3]

module = script_module.build()
