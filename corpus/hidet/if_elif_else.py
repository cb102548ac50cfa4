import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a: i32[8], f: f32[8], out: i32[8]):
        attrs.func_kind = 'cpu_kernel'
        for i in range(8):
            if a[i] < -10:
                out[i] = 1
            elif a[i] < 0:
                out[i] = 2
            elif a[i] == 0:
                out[i] = 3
            else:
                if f[i] > 0.5 and a[i] > 5:
                    out[i] = 4
                elif not (f[i] < 0.0) or a[i] == 1:
                    out[i] = 5
                else:
                    out[i] = 6

module = script_module.build()
