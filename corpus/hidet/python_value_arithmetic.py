import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

N = 7

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(o: i32[10], of: f32[4], x: i32[2]):
        attrs.func_kind = 'cpu_kernel'
        o[0] = -7 // 2
        o[1] = 7 // -2
        o[2] = 7 % -2
        o[3] = -7 % 2
        o[4] = N // -2 + x[0]
        o[5] = (N * 1000000) // 1000 - 7000 + x[1]
        o[6] = 1 << 4
        o[7] = 0x1ff & 0xf0
        o[8] = -(-5) * 3 - 2
        o[9] = -7 / 2
        of[0] = -7 / 2
        of[1] = -7.0 // 2.0
        of[2] = 7.5 % 2.0
        of[3] = 0.1 + 0.2

module = script_module.build()
