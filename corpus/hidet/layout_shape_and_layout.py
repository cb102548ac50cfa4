import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a: f32[3, 4], out: f32[24]):
        attrs.func_kind = 'cpu_kernel'
        t = tensor(dtype=f32, shape=[3, 4], layout=column_major(3, 4))
        u = tensor(dtype=f32, shape=[3, 4])
        for i, j in hidet.lang.grid(3, 4):
            t[i, j] = a[i, j]
            u[i, j] = a[i, j] * a[i, j]
        pt = ~t[0, 0]
        pu = ~u[0, 0]
        for k in range(12):
            out[k] = pt[k]
            out[12 + k] = pu[k]

module = script_module.build()
