import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(out: i32[12]):
        attrs.func_kind = 'cpu_kernel'
        t = tensor(dtype=i32, layout=strided_layout(shape=[3, 4], ranks=[0, 1]))
        for c0, c1 in hidet.lang.grid(3, 4):
            t[c0, c1] = (c0) * 4 + c1
        p = ~t[0, 0]
        for k in range(12):
            out[k] = p[k]

module = script_module.build()
