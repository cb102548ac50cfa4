import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a16: u16[4], b8: i8[4], a64: u64[4], b32: i32[4], u32v: u32[4], out: i32[16]):
        attrs.func_kind = 'cpu_kernel'
        for i in range(4):
            if a16[i] < b8[i]:
                out[i] = 1
            else:
                out[i] = 0
            if a64[i] < b8[i]:
                out[4 + i] = 1
            else:
                out[4 + i] = 0
            out[8 + i] = b32[i] < a64[i]
            out[12 + i] = u32v[i] > b8[i]

module = script_module.build()
