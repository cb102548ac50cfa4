import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

from hidet.ir.dtypes import complex64, complex128, float32x4, float32x8
from hidet.ir.primitives.complex import real, imag, conj, make_complex

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a: ~f32, k: i32, out: ~i64, o2: ~f32):
        attrs.func_kind = 'cpu_kernel'
        p = a + (k + 5)
        q = a + 2
        out[0] = p - a
        out[1] = a - p
        out[2] = (p - q) * 3 + 1
        t = tensor(dtype=f32, shape=[4, 4])
        out[3] = ~t[k, 2] - ~t[0, 1]
        d = p - q
        o2[0] = d * 1.5
        o2[1] = a[p - q]
        r = a + (p - q)
        o2[2] = r[0]

module = script_module.build()
