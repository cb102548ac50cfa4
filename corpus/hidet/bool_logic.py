import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a: i32[6], f: boolean[6], o: i32[18], ob: boolean[6]):
        attrs.func_kind = 'cpu_kernel'
        for i in range(6):
            o[i] = a[i] > 0 and a[i] < 10
            o[6 + i] = a[i] < 0 or f[i]
            o[12 + i] = not f[i]
            ob[i] = f[i] + f[i]

module = script_module.build()
