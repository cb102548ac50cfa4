import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(p: ~f32, q: ~i32, out: ~f32, n: i32):
        attrs.func_kind = 'cpu_kernel'
        r = p + 2
        for i in range(n):
            pi = p + i
            out[i] = r[i] + pi[1] + f32(q[i])
        s = out + n
        s[0] = p[0]
        w = r - 1
        s[1] = w[0]
        q3 = q + 3
        q3[0] = q[0] + q[1]
        q[4] = q[5] - 1

module = script_module.build()
