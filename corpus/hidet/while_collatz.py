import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a: i32[6], steps: i32[6]):
        attrs.func_kind = 'cpu_kernel'
        for i in range(6):
            x = a[i]
            n = 0
            while x != 1:
                if x % 2 == 0:
                    x = x / 2
                else:
                    x = 3 * x + 1
                n += 1
            steps[i] = n

module = script_module.build()
